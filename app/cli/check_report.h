// check_report.h — what `tilescope check` prints and writes: one file's full report (the
// model's runs and findings, then the GPU's), or for several files one line each, a class
// summary and the rows of --csv.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/student_gpu.h"
#include "sim/lesson/kernel_check.h"
#include "sim/lesson/kernel_check_json.h"

namespace cli {

// One student file's outcome: checked (a report), or not (the front end's or the check's
// problem), with the GPU's run where there was one.
struct CheckedFile {
  std::string file;
  std::optional<sim::KernelCheckReport> report;
  std::string problem;  // why there is no report
  bool located = false;  // the problem is the front end's, as file:line:col: what
  std::optional<kernels::StudentGpuReport> gpu;
  std::string gpu_absent;  // why there is no GPU run, where none was asked or possible
};

void PrintReport(const CheckedFile& checked);
// "FILE: PASS|FAIL|NOT CHECKED — C right at 2/2 sizes, 1 error, 0 warnings: first finding".
void PrintLine(const CheckedFile& checked);
// The class: how many pass, fail, were not checked; errors by kind.
void PrintSummary(const std::vector<CheckedFile>& files);

// --csv: a header, then one row per file: file, compiled, sizes_right (right/total), errors,
// warnings, first_finding.
std::string CheckCsv(const std::vector<CheckedFile>& files);

// --json: the report's runs[] and findings[] (sim::CheckJson), and the GPU's fields.
nlohmann::json CheckedJson(const CheckedFile& checked);

}  // namespace cli
