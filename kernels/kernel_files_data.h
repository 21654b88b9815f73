// kernel_files_data.h — the numbered kernel files' text, generated into the build tree from
// kernels/ (see kernels/CMakeLists.txt). Read them through kernel_files.h.
#pragma once
#include <cstddef>

namespace kernels::embedded {

struct EmbeddedFile {
  const char* name;  // "12_all_async.cu"
  const char* text;  // the file as it is in kernels/
};

extern const EmbeddedFile kKernelFiles[];  // sorted by name, so in the ladder's order
extern const std::size_t kKernelFileCount;

}  // namespace kernels::embedded
