#include "sim/lesson/tour_query_context.h"

#include <algorithm>
#include <cmath>

namespace sim::queries {

QueryValue Number(double value) {
  QueryValue out;
  out.kind = QueryKind::kNumber;
  out.number = value;
  out.text = FormatNumber(value);
  return out;
}

QueryValue Count(std::uint64_t value) { return Number(static_cast<double>(value)); }

QueryValue Text(std::string text) {
  QueryValue out;
  out.kind = QueryKind::kText;
  out.text = std::move(text);
  return out;
}

QueryValue Cells(std::vector<CellRef> cells) {
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  QueryValue out;
  out.kind = QueryKind::kCells;
  std::vector<std::string> names;
  for (const CellRef& cell : cells) names.push_back(CellText(cell));
  out.text = Join(names, " ");
  out.cells = std::move(cells);
  return out;
}

double Ratio(double over, double under) { return under == 0 ? 0.0 : over / under; }

std::string TileText(const std::vector<float>& values, int rows, int cols) {
  std::string out = "[";
  for (int r = 0; r < rows; ++r) {
    out += r == 0 ? "[" : ",[";
    for (int c = 0; c < cols; ++c) {
      const float value = values[static_cast<std::size_t>(r) * cols + c];
      out += (c == 0 ? "" : ",") + (std::isnan(value) ? std::string("?") : FormatNumber(value));
    }
    out += "]";
  }
  return out + "]";
}

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

}  // namespace sim::queries
