#include "app/gui/imgui_layout_check.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include "sim/io/json_input.h"

namespace gui {
namespace {

// ImGui 1.86's ini format, as imgui.cpp and imgui_tables.cpp read it.
constexpr int kImGuiMaxTableColumns = 64;  // IMGUI_TABLE_MAX_COLUMNS
constexpr std::size_t kQuotedLineChars = 60;

// Lines as ImGui splits them: at '\n' and '\r', empty ones skipped.
std::vector<std::string_view> IniLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find_first_of("\r\n", start), text.size());
    if (end > start) lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// A whole number of 1 to `max_digits` decimal digits, no sign, no blanks (ImGui's own form),
// below `limit`.
bool SmallNumberBelow(std::string_view text, std::size_t max_digits, int limit) {
  if (text.empty() || text.size() > max_digits || text.find_first_not_of("0123456789") != std::string_view::npos) {
    return false;
  }
  return std::stoi(std::string(text)) < limit;
}

// "0x%08X,%d" as ImGui writes a table's header name; the column count, or -1.
int TableColumns(std::string_view name) {
  const std::size_t comma = name.find(',');
  if (name.substr(0, 2) != "0x" || comma == std::string_view::npos) return -1;
  const std::string_view id = name.substr(2, comma - 2);
  if (id.empty() || id.size() > 8 || id.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) return -1;
  const std::string_view count = name.substr(comma + 1);
  return SmallNumberBelow(count, 2, kImGuiMaxTableColumns + 1) ? std::stoi(std::string(count)) : -1;
}

// A table's "Column N Key=Value ..." line: N, Order and Sort index the table's columns, and
// ImGui uses Order and Sort as bit positions in a 64-bit mask without checking them.
bool ColumnLineFits(std::string_view line, int columns) {
  std::vector<std::string_view> tokens;
  std::size_t start = 0;
  while (start < line.size()) {
    const std::size_t end = std::min(line.find_first_of(" \t", start), line.size());
    if (end > start) tokens.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  if (tokens.size() < 2 || tokens[0] != "Column" || !SmallNumberBelow(tokens[1], 2, columns)) return false;
  for (std::size_t i = 2; i < tokens.size(); ++i) {
    const std::string_view token = tokens[i];
    const std::size_t equals = token.find('=');
    if (equals == std::string_view::npos) return false;
    const std::string_view key = token.substr(0, equals);
    std::string_view value = token.substr(equals + 1);
    if (key == "Sort") {
      if (value.empty() || (value.back() != 'v' && value.back() != '^')) return false;
      value.remove_suffix(1);
    }
    if ((key == "Order" || key == "Sort") && !SmallNumberBelow(value, 2, columns)) return false;
    if (key != "Order" && key != "Sort" && key != "UserID" && key != "Width" && key != "Weight" && key != "Visible") {
      return false;
    }
  }
  return true;
}

std::string LayoutProblem(std::size_t line_number, std::string_view line, const std::string& why) {
  return "'imgui_layout' line " + std::to_string(line_number) + " " +
         sim::DescribeJsonValue(std::string(line.substr(0, kQuotedLineChars))) + (line.size() > kQuotedLineChars ? "..." : "") +
         " " + why;
}

}  // namespace

std::optional<std::string> CheckImGuiLayout(const std::string& layout) {
  if (layout.size() > kMaxImGuiLayoutBytes) {
    return "'imgui_layout' is " + std::to_string(layout.size()) + " bytes, over the limit of " +
           std::to_string(kMaxImGuiLayoutBytes) + " (ImGui saves a few thousand)";
  }
  const std::vector<std::string_view> lines = IniLines(layout);
  int table_columns = -1;  // -1: not inside a [Table] section
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    if (line.front() == '[' && line.back() == ']' && line.size() >= 2) {
      // "[Type][Name]" split as ImGui splits it: the type ends at the first ']', the name
      // starts after the next '[' and ends before the last ']'.
      const std::string_view inner = line.substr(1, line.size() - 2);
      const std::size_t type_end = inner.find(']');
      const std::size_t name_start = type_end == std::string_view::npos ? type_end : inner.find('[', type_end + 1);
      if (name_start == std::string_view::npos) return LayoutProblem(i + 1, line, "is not a [Type][Name] header");
      const std::string_view type = inner.substr(0, type_end);
      // ImGui finds a section's reader by a CRC32 of its type: only the exact names it saves.
      if (type == "Window") {
        table_columns = -1;
      } else if (type == "Table") {
        table_columns = TableColumns(inner.substr(name_start + 1));
        if (table_columns < 0) {
          return LayoutProblem(i + 1, line,
                               "is not a table of 0 to " + std::to_string(kImGuiMaxTableColumns) + " columns");
        }
      } else {
        return LayoutProblem(i + 1, line, "is not a [Window] or [Table] section");
      }
    } else if (table_columns >= 0 && line.substr(0, 6) == "Column" && !ColumnLineFits(line, table_columns)) {
      return LayoutProblem(i + 1, line, "does not fit its table of " + std::to_string(table_columns) + " columns");
    }
  }
  return std::nullopt;
}

}  // namespace gui
