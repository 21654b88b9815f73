#include "sim/model/kernel_source.h"

#include "sim/model/kernel_source_data.h"

namespace sim {
namespace {

constexpr std::string_view kMarker = "// model: ";

bool IsCode(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && line.substr(first, 2) != "//";
}

// Every `// model: NAME` marker's line, and every line that tests kGuarded.
KernelSource Parse(std::string_view file_name, std::string_view text) {
  KernelSource source{file_name, text, {}, {}};
  int line = 1;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view current = text.substr(start, end - start);
    if (const std::size_t at = current.find(kMarker); at != std::string_view::npos) {
      std::string_view name = current.substr(at + kMarker.size());
      name = name.substr(0, name.find_first_of(" \t\r"));
      for (int op = 0; op < kOpCount; ++op) {
        if (name == kMarkerNames[op]) source.op_lines[op] = line;
      }
    }
    if (IsCode(current) && current.find("kGuarded") != std::string_view::npos &&
        current.find("template") == std::string_view::npos) {
      source.guard_lines.push_back(line);
    }
    start = end + 1;
    ++line;
  }
  return source;
}

}  // namespace

const KernelSource& SourceFor(KernelKind kernel) {
  static const KernelSource kNaive = Parse("01_naive.cu", embedded::kNaiveSource);
  static const KernelSource kTiled = Parse("02_tiled.cu", embedded::kTiledSource);
  static const KernelSource kRect = Parse("03_tiled_rect.cu", embedded::kTiledRectSource);
  switch (kernel) {
    case KernelKind::kNaive:
      return kNaive;
    case KernelKind::kTiledRect:
      return kRect;
    case KernelKind::kTiled:
      break;
  }
  return kTiled;
}

int LineOf(KernelKind kernel, Op op) {
  if (op == Op::kDone) return 0;
  return SourceFor(kernel).op_lines[static_cast<int>(op)];
}

std::string_view SyncHeaderSource() { return embedded::kSyncSource; }

std::string StripModelMarkers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    const bool has_newline = end != std::string_view::npos;
    if (!has_newline) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (const std::size_t at = line.find(kMarker); at != std::string_view::npos) {
      line = line.substr(0, at);
      while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    }
    out.append(line);
    if (has_newline) out.push_back('\n');
    start = end + 1;
  }
  return out;
}

}  // namespace sim
