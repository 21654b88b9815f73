#include "sim/lesson/plain_source.h"

#include <string_view>

#include "sim/model/kernel_source.h"

namespace sim {
namespace {

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string Indent(const std::string& line) { return line.substr(0, line.find_first_not_of(' ')); }

std::string Trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return "";
  return std::string(text.substr(first, text.find_last_not_of(' ') - first + 1));
}

// The end (exclusive) of the operand that starts at `from`: the first `stop` met outside
// brackets, or a bracket closing one opened before `from`.
std::size_t OperandEnd(const std::string& line, std::size_t from, std::string_view stops) {
  int depth = 0;
  for (std::size_t i = from; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') {
      if (depth == 0) return i;
      --depth;
    }
    if (depth == 0 && stops.find(c) != std::string_view::npos) return i;
  }
  return line.size();
}

// `COND ? X : Y` with COND spanning [cond, cond_end): the branch `take_first` picks.
std::string PickBranch(const std::string& line, std::size_t cond, std::size_t cond_end, bool take_first) {
  const std::size_t first = line.find(" ? ", cond_end) + 3;
  const std::size_t first_end = OperandEnd(line, first, ":");
  const std::size_t second = first_end + 1;
  const std::size_t second_end = OperandEnd(line, second, ";,");
  const std::string chosen =
      Trim(std::string_view(line).substr(take_first ? first : second,
                                         (take_first ? first_end : second_end) - (take_first ? first : second)));
  return line.substr(0, cond) + chosen + line.substr(second_end);
}

// `FLAG ? X : Y` wherever FLAG opens a conditional expression.
std::string ResolveFlagTernary(std::string line, std::string_view flag, bool value) {
  for (std::size_t at = line.find(std::string(flag) + " ? "); at != std::string::npos;
       at = line.find(std::string(flag) + " ? ")) {
    line = PickBranch(line, at, at + flag.size(), value);
  }
  return line;
}

// `if constexpr (FLAG) S1; else S2;`
std::string ResolveFlagIf(const std::string& line, std::string_view flag, bool value) {
  const std::string head = "if constexpr (" + std::string(flag) + ") ";
  const std::size_t at = line.find(head);
  if (at == std::string::npos) return line;
  const std::size_t first = at + head.size();
  const std::size_t first_end = line.find(';', first) + 1;
  const std::size_t second = line.find("else ", first_end) + 5;
  const std::size_t second_end = line.find(';', second) + 1;
  const std::string chosen = value ? line.substr(first, first_end - first) : line.substr(second, second_end - second);
  return line.substr(0, at) + chosen + line.substr(second_end);
}

// The bounds guard: `(!kGuarded || (X))` as `(X)` or, off, the test dropped (an `if`'s
// statement runs unconditionally, a conditional expression takes its first branch);
// `if (kGuarded && (X)) S` as `if (X) S` or, off, commented out.
std::string ResolveGuard(const std::string& line, bool guarded) {
  const std::string indent = Indent(line);
  if (const std::size_t at = line.find("kGuarded && ("); at != std::string::npos) {
    const std::size_t inner = at + 13;
    const std::size_t inner_end = OperandEnd(line, inner, "");
    const std::string resolved = line.substr(0, at) + line.substr(inner, inner_end - inner) + line.substr(inner_end + 1);
    return guarded ? resolved : indent + "// " + Trim(resolved);
  }
  const std::size_t at = line.find("!kGuarded || (");
  if (at == std::string::npos) return line;
  const std::size_t inner = at + 14;
  const std::size_t inner_end = OperandEnd(line, inner, "");
  const std::size_t open = at - 1;          // the `(` around the whole test
  const std::size_t close = inner_end + 1;  // its `)`
  if (guarded) return line.substr(0, open + 1) + line.substr(inner, inner_end - inner) + line.substr(close);
  if (open >= 3 && line.compare(open - 3, 3, "if ") == 0) {
    return line.substr(0, open - 3) + Trim(line.substr(close + 1));
  }
  return PickBranch(line, open, close + 1, true);
}

std::string SyncStatement(SyncKind kind) {
  switch (kind) {
    case SyncKind::kSyncthreads:
      return "__syncthreads();";
    case SyncKind::kSyncwarp:
      return "__syncwarp();";
    case SyncKind::kNone:
      return "// __syncthreads();";
  }
  return "";
}

std::string ResolveSync(const std::string& line, std::string_view call, SyncKind kind) {
  const std::size_t at = line.find(call);
  if (at == std::string::npos) return line;
  return line.substr(0, at) + SyncStatement(kind) + line.substr(at + call.size());
}

// The template's int parameters as constants on its first line: `constexpr int TILE = 16;`.
std::string TileConstants(const std::string& header, const KernelConfig& config) {
  const TileShape tiles = config.Tiles();
  std::string out;
  for (const auto& [name, value] : {std::pair<std::string, int>{"TILE", config.tile}, {"TM", tiles.tm},
                                    {"TN", tiles.tn}, {"TK", tiles.tk}}) {
    if (header.find("int " + name + ",") == std::string::npos) continue;
    out += (out.empty() ? "constexpr int " : ", ") + name + " = " + std::to_string(value);
  }
  return out.empty() ? out : out + ";";
}

std::string Resolve(const std::string& line, const KernelConfig& config) {
  const bool transposed = config.bs_layout == SharedLayout::kTransposed;
  std::string out = ResolveSync(line, "Sync<kFirstSync>();", config.barrier1);
  out = ResolveSync(out, "Sync<kSecondSync>();", config.barrier2);
  out = ResolveFlagTernary(out, "kCeilTiles", config.tile_count == TileCount::kCeil);
  out = ResolveFlagTernary(out, "kBsTransposed", transposed);
  out = ResolveFlagIf(out, "kBsTransposed", transposed);
  return ResolveGuard(out, config.guard);
}

}  // namespace

const std::string& PlainSource::Line(int file_line) const {
  static const std::string kNone;
  if (file_line < first_line || file_line > last_line()) return kNone;
  return lines[static_cast<std::size_t>(file_line - first_line)];
}

PlainSource PlainSourceFor(const KernelConfig& config) {
  const std::vector<std::string> file = SplitLines(StripModelMarkers(SourceFor(config.kernel).text));
  PlainSource plain;
  std::size_t index = 0;
  while (index < file.size() && file[index].rfind("template <", 0) != 0) ++index;
  if (index == file.size()) {  // a kernel with no template: the file as it is
    plain.lines = file;
    return plain;
  }
  plain.first_line = static_cast<int>(index) + 1;
  // The template's header, to the line that closes it.
  std::string header;
  const std::size_t header_first = index;
  for (; index < file.size(); ++index) {
    header += file[index] + " ";
    if (file[index].back() == '>') break;
  }
  plain.lines.push_back(TileConstants(header, config));
  for (std::size_t i = header_first + 1; i <= index; ++i) plain.lines.emplace_back();
  for (++index; index < file.size(); ++index) plain.lines.push_back(Resolve(file[index], config));
  return plain;
}

}  // namespace sim
