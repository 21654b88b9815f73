// hazard_tally.h — hazards the detector found for a step's accesses, added up by what the
// counters tell apart, so the counters are written once per access rather than per hazard.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

#include "sim/model/counters.h"
#include "sim/model/hazard_detector.h"

namespace sim {

struct HazardTally {
  std::uint64_t hazards = 0;
  std::uint64_t warnings = 0;
  std::array<std::uint64_t, kHazardKindCount> by_kind{};  // by HazardKind
  std::uint64_t witnessed = 0;
  std::uint64_t corrupting = 0;

  // Adds `count` hazards alike.
  void Add(const Conflict& conflict, std::uint64_t count) {
    hazards += count;
    if (conflict.severity == Severity::kWarning) warnings += count;
    by_kind[static_cast<std::size_t>(conflict.kind)] += count;
    if (!conflict.observed_in_program_order) witnessed += count;
    if (conflict.corrupted) corrupting += count;
  }
  // Counts them in the totals and in `phase` (their second accesses').
  void AddTo(Counters& counters, PhaseCounters& phase) const {
    counters.hazards += hazards;
    phase.hazards += hazards;
    counters.hazard_warnings += warnings;
    counters.hazard_errors += hazards - warnings;
    counters.hazards_raw += by_kind[static_cast<std::size_t>(HazardKind::kRaw)];
    counters.hazards_war += by_kind[static_cast<std::size_t>(HazardKind::kWar)];
    counters.hazards_waw += by_kind[static_cast<std::size_t>(HazardKind::kWaw)];
    counters.hazards_witnessed += witnessed;
    counters.hazards_corrupting += corrupting;
  }
};

}  // namespace sim
