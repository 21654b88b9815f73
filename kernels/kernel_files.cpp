#include "kernels/kernel_files.h"

#include <algorithm>
#include <string>

#include "kernels/kernel_files_data.h"
#include "kernels/line_diff.h"
#include "kernels/registry.h"

namespace kernels {
namespace {

// The embedded file named "<number>_<stem>.cu": "12_all_async.cu", or "12b_stream_k.cu" for
// a rung added between two numbered ones. The number holds no '_'.
std::optional<KernelFile> FileWithStem(std::string_view stem) {
  const std::string suffix = "_" + std::string(stem) + ".cu";
  for (std::size_t i = 0; i < embedded::kKernelFileCount; ++i) {
    const std::string_view name = embedded::kKernelFiles[i].name;
    const std::size_t number_length = name.find('_');
    if (number_length != std::string_view::npos && name.substr(number_length) == suffix) {
      return KernelFile{name, embedded::kKernelFiles[i].text};
    }
  }
  return std::nullopt;
}

// "12_all_async.cu" as "12 all_async", "12b_stream_k.cu" as "12b stream_k".
std::string Title(std::string_view file_name) {
  std::string title(file_name.substr(0, file_name.rfind('.')));
  title[title.find('_')] = ' ';
  return title;
}

}  // namespace

std::optional<KernelFile> FileOf(const KernelSpec& spec) {
  switch (spec.family) {
    case KernelFamily::kNaive: return FileWithStem("naive");
    case KernelFamily::kTiled: return FileWithStem("tiled");
    case KernelFamily::kTiledRect: return FileWithStem("tiled_rect");
    case KernelFamily::kLadder: return FileWithStem(spec.name);
    case KernelFamily::kCublasFp32:
    case KernelFamily::kCublasTf32:
    case KernelFamily::kCublasBf16: return std::nullopt;
  }
  return std::nullopt;
}

const KernelSpec* RungBefore(const KernelSpec& spec) {
  if (spec.family != KernelFamily::kLadder) return nullptr;
  const KernelSpec* before = FindKernel("tiled32");
  for (const KernelSpec* row : AllKernels()) {
    if (row == &spec) return before;
    if (row->family == KernelFamily::kLadder) before = row;
  }
  return nullptr;
}

std::optional<RungSource> RungSourceOf(const KernelSpec& spec) {
  const KernelSpec* before = RungBefore(spec);
  if (before == nullptr) return std::nullopt;
  const std::optional<KernelFile> file = FileOf(spec);
  const std::optional<KernelFile> before_file = FileOf(*before);
  if (!file || !before_file) return std::nullopt;
  RungSource source{&spec, before, *file, *before_file, ChangedLines(before_file->text, file->text), 0};
  source.changed_count = static_cast<int>(std::count(source.changed.begin(), source.changed.end(), true));
  return source;
}

std::string RungSourceHeader(const RungSource& source) {
  return Title(source.file.name) + " \u2014 " + std::to_string(source.changed_count) +
         (source.changed_count == 1 ? " line" : " lines") + " changed from " + Title(source.before_file.name);
}

}  // namespace kernels
