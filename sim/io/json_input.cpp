#include "sim/io/json_input.h"

#include <algorithm>

namespace sim {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxQuotedChars = 40;

// The library's own DOM builder, with a depth count in front: a start bracket past the
// limit stops the parse before the value grows deeper, and a parse error keeps where it
// happened instead of throwing.
class BoundedDomBuilder {
 public:
  BoundedDomBuilder(json& root, int max_depth) : dom_(root, false), max_depth_(max_depth) {}

  bool null() { return dom_.null(); }
  bool boolean(bool value) { return dom_.boolean(value); }
  bool number_integer(json::number_integer_t value) { return dom_.number_integer(value); }
  bool number_unsigned(json::number_unsigned_t value) { return dom_.number_unsigned(value); }
  bool number_float(json::number_float_t value, const json::string_t& text) { return dom_.number_float(value, text); }
  bool string(json::string_t& value) { return dom_.string(value); }
  bool binary(json::binary_t& value) { return dom_.binary(value); }
  bool key(json::string_t& value) { return dom_.key(value); }
  bool start_object(std::size_t size) { return Deeper() && dom_.start_object(size); }
  bool start_array(std::size_t size) { return Deeper() && dom_.start_array(size); }
  bool end_object() {
    --depth_;
    return dom_.end_object();
  }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& /*token*/, const Exception& error) {
    error_ = error.what();
    error_id_ = error.id;
    position_ = position;
    return false;
  }

  const std::string& error() const { return error_; }
  int error_id() const { return error_id_; }
  std::size_t position() const { return position_; }
  bool too_deep() const { return too_deep_; }

 private:
  bool Deeper() {
    too_deep_ = ++depth_ > max_depth_;
    return !too_deep_;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  int max_depth_;
  int depth_ = 0;
  bool too_deep_ = false;
  std::string error_;
  int error_id_ = 0;
  std::size_t position_ = 0;
};

// "[json.exception.parse_error.101] parse error at ...": the bracketed tag means nothing
// to a reader of the message.
std::string WithoutTag(const std::string& what) {
  const auto end = what.find("] ");
  return what.rfind("[json.exception.", 0) == 0 && end != std::string::npos ? what.substr(end + 2) : what;
}

// Line and column of byte `position`, counted as the library's own syntax errors count them.
std::string Place(const std::string& text, std::size_t position) {
  std::size_t line = 1;
  std::size_t column = 0;
  for (std::size_t i = 0; i < std::min(position, text.size()); ++i) {
    column = text[i] == '\n' ? 0 : column + 1;
    line += text[i] == '\n';
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// A scalar as JSON spells it; bytes cut mid-character become U+FFFD instead of an exception.
std::string Dump(const json& value) { return value.dump(-1, ' ', false, json::error_handler_t::replace); }

// nlohmann's syntax errors (parse_error, ids 1xx) already say "at line L, column C"; the
// others (out_of_range 406, a number beyond double) are given the place here.
constexpr int kFirstNonSyntaxErrorId = 200;

}  // namespace

JsonDocument ParseJsonText(const std::string& text, int max_depth) {
  JsonDocument document;
  // The JSON library ends its input at a NUL byte, so "{} NUL garbage" would read as "{}".
  // JSON text never holds a raw NUL (a string spells it \u0000).
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
    document.error = "not valid JSON: a NUL byte at " + Place(text, nul + 1) + " (JSON text holds none)";
    document.value = nullptr;
    return document;
  }
  BoundedDomBuilder builder(document.value, max_depth);
  if (json::sax_parse(text, &builder)) return document;
  if (builder.too_deep()) {
    document.error = "not a TileScope file: arrays and objects nested deeper than " + std::to_string(max_depth) +
                     " levels (none nests that deep)";
  } else {
    document.error = "not valid JSON: " + WithoutTag(builder.error());
    if (builder.error_id() >= kFirstNonSyntaxErrorId) document.error += " at " + Place(text, builder.position());
  }
  document.value = nullptr;
  return document;
}

std::string DescribeJsonValue(const json& value) {
  if (value.is_array() || value.is_object()) {
    const std::string count = std::to_string(value.size());
    if (value.is_array()) return "an array of " + count + (value.size() == 1 ? " value" : " values");
    return "an object of " + count + (value.size() == 1 ? " key" : " keys");
  }
  if (value.is_string() && value.get_ref<const std::string&>().size() > kMaxQuotedChars) {
    return Dump(value.get_ref<const std::string&>().substr(0, kMaxQuotedChars)) + "...";
  }
  return Dump(value);
}

}  // namespace sim
