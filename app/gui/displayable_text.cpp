#include "app/gui/displayable_text.h"

#include <algorithm>
#include <string>

namespace gui {
namespace {

// One UTF-8 character at `at`: its code point, and `at` moved to the next one. A malformed
// sequence reads as one byte of U+FFFD.
unsigned int Decode(const char*& at, const char* end) {
  const auto byte = [](char c) { return static_cast<unsigned int>(static_cast<unsigned char>(c)); };
  const unsigned int lead = byte(*at);
  const int length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || end - at < length) {
    ++at;
    return 0xFFFD;
  }
  unsigned int c = length == 1 ? lead : lead & (0x7Fu >> length);
  for (int i = 1; i < length; ++i) {
    if ((byte(at[i]) & 0xC0) != 0x80) {
      ++at;
      return 0xFFFD;
    }
    c = (c << 6) | (byte(at[i]) & 0x3F);
  }
  at += length;
  return c;
}

bool DrawsNothing(unsigned int c) {
  return (c >= 0xFE00 && c <= 0xFE0F) || c == 0x200D || c == 0x20E3;  // variation selectors, joiner, keycap
}

void Append(std::string& out, unsigned int c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

}  // namespace

std::string Displayable(const char* text, const char* text_end, const ImFont* font) {
  const char* end = text_end ? text_end : text + std::char_traits<char>::length(text);
  if (std::all_of(text, end, [](char c) { return static_cast<unsigned char>(c) < 0x80; })) return std::string(text, end);
  std::string out;
  for (const char* at = text; at < end;) {
    const unsigned int c = Decode(at, end);
    const bool has = c < 0x80 || (c <= 0xFFFF && font->FindGlyphNoFallback(static_cast<ImWchar>(c)));
    if (has) {
      // A digit before a keycap's selector and combining mark: "(2)".
      const char* next = at;
      if (c >= '0' && c <= '9' && next < end) {
        unsigned int mark = Decode(next, end);
        if (mark == 0xFE0F && next < end) mark = Decode(next, end);
        if (mark == 0x20E3) {
          out += '(';
          out += static_cast<char>(c);
          out += ')';
          at = next;
          continue;
        }
      }
      Append(out, c);
    } else if (!DrawsNothing(c)) {
      Append(out, 0x25A1);  // □
    }
  }
  return out;
}

std::string WrapAtSpaces(const std::string& text, float width) {
  std::string out = text;
  std::size_t line_start = 0;
  std::size_t last_space = std::string::npos;
  for (std::size_t at = 0; at <= out.size(); ++at) {
    if (at < out.size() && out[at] == '\n') {
      line_start = at + 1;
      last_space = std::string::npos;
      continue;
    }
    if (at < out.size() && out[at] != ' ') continue;
    // A word ends at `at`: does the line up to here still fit?
    const float line = ImGui::CalcTextSize(out.c_str() + line_start, out.c_str() + at).x;
    if (line > width && last_space != std::string::npos) {
      out[last_space] = '\n';
      line_start = last_space + 1;
    }
    last_space = at < out.size() ? at : std::string::npos;
    // The word just ended may itself start a line too long: it stands alone.
    if (line_start < at && ImGui::CalcTextSize(out.c_str() + line_start, out.c_str() + at).x > width &&
        at < out.size()) {
      out[at] = '\n';
      line_start = at + 1;
      last_space = std::string::npos;
    }
  }
  return out;
}

std::string ElideToWidth(const std::string& text, float width) {
  if (ImGui::CalcTextSize(text.c_str()).x <= width) return text;
  static constexpr const char* kEllipsis = "\u2026";
  std::size_t keep = text.size();
  while (keep > 0) {
    do {
      --keep;
    } while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80);  // a UTF-8 continuation byte
    const std::string cut = text.substr(0, keep) + kEllipsis;
    if (ImGui::CalcTextSize(cut.c_str()).x <= width) return cut;
  }
  return kEllipsis;
}

}  // namespace gui
