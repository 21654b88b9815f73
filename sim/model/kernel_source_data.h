// kernel_source_data.h — the kernel files' text (and the kernels' measured resources), generated into the build tree from
// kernels/ (see sim/CMakeLists.txt). Read them through kernel_source.h.
#pragma once

namespace sim::embedded {

extern const char kNaiveSource[];
extern const char kTiledSource[];
extern const char kTiledRectSource[];
extern const char kSyncSource[];
extern const char kTiledNumbaSource[];  // kernels/python/02_tiled_numba.py
extern const char kKernelResources[];  // sim/model/kernel_resources.json

}  // namespace sim::embedded
