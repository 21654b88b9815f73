#include "sim/lesson/kernel_check_json.h"

namespace sim {

nlohmann::json FindingJson(const CheckFinding& f) {
  nlohmann::json one{{"kind", Name(f.kind)}, {"line", f.line}, {"severity", f.error ? "error" : "warning"},
                     {"count", f.count}, {"sentence", f.sentence}};
  one["memory"] = f.memory.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.memory);
  one["hazard"] = f.hazard.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.hazard);
  one["other_line"] = f.other_line == 0 ? nlohmann::json(nullptr) : nlohmann::json(f.other_line);
  return one;
}

nlohmann::json CheckJson(const KernelCheckReport& report, const std::string& file) {
  nlohmann::json out;
  out["file"] = file;
  out["kernel"] = report.kernel;
  out["block"] = report.block;
  out["passed"] = report.Passed();
  out["runs"] = nlohmann::json::array();
  for (const CheckRun& r : report.runs) {
    nlohmann::json run{{"m", r.size.m}, {"n", r.size.n}, {"k", r.size.k}, {"elements", r.elements}, {"wrong_elements", r.wrong_elements}};
    run["first_wrong"] = r.first_wrong ? nlohmann::json{{"row", r.first_wrong->row}, {"col", r.first_wrong->col},
                                                        {"value", r.first_wrong->got}, {"expected", r.first_wrong->expected}}
                                       : nlohmann::json(nullptr);
    out["runs"].push_back(run);
  }
  out["findings"] = nlohmann::json::array();
  for (const CheckFinding& f : report.findings) out["findings"].push_back(FindingJson(f));
  return out;
}

}  // namespace sim
