// kernel_check_json.h — the grader's report as `tilescope check --json` writes it.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sim/lesson/kernel_check.h"

namespace sim {

// A finding as the report's findings[] hold it.
nlohmann::json FindingJson(const CheckFinding& finding);

// The report as `tilescope check --json` writes it: runs[] and findings[].
nlohmann::json CheckJson(const KernelCheckReport& report, const std::string& file);

}  // namespace sim
