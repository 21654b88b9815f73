// thread_selection.h — the thread the lesson looks at: the one picked in the Threads panel,
// or, until one is picked, the thread that ran last (the first live lane of the warp that
// issued last). Shared tiles, Matrices and the source view follow it.
#pragma once
#include <optional>
#include <string>

#include "sim/model/snapshot.h"

namespace gui {

struct ThreadRef {
  int block = 0;
  int thread = 0;  // index_in_block
};

struct ThreadSelection {
  std::optional<ThreadRef> picked;  // nullopt: follow the scheduler

  ThreadRef Resolve(const sim::Snapshot& snapshot) const {
    if (picked && picked->block < static_cast<int>(snapshot.blocks().size()) &&
        picked->thread < snapshot.geometry().block_threads) {
      return *picked;
    }
    const sim::Unit unit = snapshot.last_unit();
    const int index = unit.is_warp ? snapshot.warps()[static_cast<std::size_t>(unit.index)].first_thread : unit.index;
    const sim::Thread& thread = snapshot.threads()[static_cast<std::size_t>(index)];
    return {thread.block, thread.index_in_block};
  }

  // "BLOCK THREAD" (linear indices) picks a thread; "" goes back to following the scheduler.
  std::optional<std::string> Pick(const std::string& argument, const sim::Snapshot& snapshot);
};

}  // namespace gui
