#include "sim/lesson/kernel_check.h"

#include <cstring>

#include "sim/model/machine.h"
#include "sim/model/reference.h"

namespace sim {

Difference Differ(const std::vector<float>& c, const std::vector<float>& reference, int n) {
  Difference d;
  for (std::size_t i = 0; i < c.size() && i < reference.size(); ++i) {
    if (std::memcmp(&c[i], &reference[i], sizeof(float)) == 0) continue;
    if (!d.first) d.first = CheckRun::Wrong{static_cast<int>(i) / n, static_cast<int>(i) % n, c[i], reference[i]};
    ++d.count;
  }
  return d;
}

bool KernelCheckReport::Passed() const {
  for (const CheckRun& r : runs) {
    if (r.wrong_elements > 0) return false;
  }
  for (const CheckFinding& f : findings) {
    if (f.error) return false;
  }
  return true;
}

KernelCheckResult CheckKernel(const cuda::KernelFile& file, const KernelCheckOptions& options, const std::atomic<bool>* cancel) {
  KernelCheckResult result;
  const CheckPlan plan = PlanCheck(file, options);
  if (!plan.error.empty()) {
    result.error = plan.error;
    return result;
  }
  KernelCheckReport report;
  report.kernel = file.kernel.name;
  report.block = plan.block;
  report.seed = options.seed;
  CheckFindings findings(file.kernel);
  for (const CheckPlan::Run& run : plan.runs) {
    Machine machine(run.launch, run.a, run.b);
    while (machine.Step()) {
      if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
        result.error = "stopped";
        return result;
      }
    }
    CheckRun done = run.planned;
    done.c = machine.state().c;
    done.elements = done.c.size();
    const Counters& counted = machine.state().counters;
    done.global_reads = counted.global_reads_a + counted.global_reads_b;
    done.shared_writes = counted.shared_writes;
    const CheckSize& size = run.planned.size;
    const Difference wrong = Differ(done.c, ReferenceProduct(size.m, size.n, size.k, run.a, run.b), size.n);
    done.wrong_elements = wrong.count;
    done.first_wrong = wrong.first;
    report.runs.push_back(std::move(done));
    findings.AddRun(machine, size);
  }
  report.findings = findings.Sorted();
  result.report = std::move(report);
  return result;
}

}  // namespace sim
