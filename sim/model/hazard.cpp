#include "sim/model/hazard.h"

#include "sim/model/bits.h"

namespace sim {

const char* Name(HazardKind kind) {
  switch (kind) {
    case HazardKind::kRaw:
      return "RAW";
    case HazardKind::kWar:
      return "WAR";
    case HazardKind::kWaw:
      return "WAW";
  }
  return "?";
}

const char* Name(Severity severity) { return severity == Severity::kWarning ? "warning" : "error"; }

bool Hazard::Corrupted() const { return !observed_in_program_order && !SameBits(value_seen, value_expected); }

bool Hazard::operator==(const Hazard& o) const {
  auto side_equal = [](const HazardSide& x, const HazardSide& y) {
    return x.thread == y.thread && x.warp == y.warp && x.op == y.op && x.phase == y.phase && x.write == y.write &&
           SameBits(x.value, y.value) && x.stage == y.stage;
  };
  return step == o.step && kind == o.kind && severity == o.severity && block == o.block && tile == o.tile &&
         row == o.row && col == o.col && side_equal(first, o.first) && side_equal(second, o.second) &&
         observed_in_program_order == o.observed_in_program_order && SameBits(current_value, o.current_value) &&
         SameBits(incoming_value, o.incoming_value) && SameBits(value_seen, o.value_seen) &&
         SameBits(value_expected, o.value_expected) && phase == o.phase;
}

}  // namespace sim
