// kernel_source_data.h — the kernel files' text, generated into the build tree from
// kernels/ (see sim/CMakeLists.txt). Read them through kernel_source.h.
#pragma once

namespace sim::embedded {

extern const char kNaiveSource[];
extern const char kTiledSource[];
extern const char kTiledRectSource[];
extern const char kSyncSource[];

}  // namespace sim::embedded
