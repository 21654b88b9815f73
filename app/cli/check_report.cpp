#include "app/cli/check_report.h"

#include <cstdio>
#include <map>

namespace cli {
namespace {

using ull = unsigned long long;

int SizesRight(const sim::KernelCheckReport& report) {
  int right = 0;
  for (const sim::CheckRun& r : report.runs) right += r.wrong_elements == 0;
  return right;
}

int Count(const sim::KernelCheckReport& report, bool errors) {
  int count = 0;
  for (const sim::CheckFinding& f : report.findings) count += f.error == errors;
  return count;
}

// The first thing to fix: the front end's problem, the first finding, or the first wrong size.
std::string FirstFinding(const CheckedFile& c) {
  if (!c.report) return c.problem;
  if (!c.report->findings.empty()) {
    const sim::CheckFinding& f = c.report->findings.front();
    return "line " + std::to_string(f.line) + ": " + sim::Name(f.kind) + ": " + f.sentence;
  }
  for (const sim::CheckRun& r : c.report->runs) {
    if (r.wrong_elements > 0) return "C wrong at " + sim::SizeText(r.size);
  }
  return "";
}

std::string Verdict(const CheckedFile& c) {
  if (!c.report) return "NOT CHECKED";
  return c.report->Passed() ? "PASS" : "FAIL";
}

void PrintGpu(const CheckedFile& checked) {
  if (!checked.gpu) {
    std::printf("  GPU: not run: %s\n", checked.gpu_absent.c_str());
    return;
  }
  const kernels::StudentGpuReport& gpu = *checked.gpu;
  std::printf("  GPU (%s), compiled with NVRTC:\n", gpu.device.c_str());
  for (std::size_t i = 0; i < gpu.runs.size() && i < checked.report->runs.size(); ++i) {
    const kernels::StudentGpuRun& g = gpu.runs[i];
    const sim::CheckRun& model = checked.report->runs[i];
    std::printf("    %s: ", sim::SizeText(model.size).c_str());
    if (!g.ok()) {
      std::printf("not run: %s\n", g.error.c_str());
      continue;
    }
    if (g.wrong_elements == 0) {
      std::printf("C right (%llu elements)", static_cast<ull>(model.elements));
    } else {
      std::printf("C wrong at %llu of %llu elements", static_cast<ull>(g.wrong_elements), static_cast<ull>(model.elements));
    }
    if (g.differing_from_model == 0) {
      std::printf(", bit for bit the model's C\n");
    } else {
      std::printf(", %llu elements differ from the model's C%s\n", static_cast<ull>(g.differing_from_model),
                  gpu.well_defined ? "" : " (its errors leave C to the GPU)");
    }
  }
  if (gpu.well_defined) {
    std::printf("  GPU and model %s\n", gpu.MatchesModel() ? "agree bit for bit at every size" : "DISAGREE: the model's C is not the GPU's");
  } else {
    std::printf("  GPU and model not compared bit for bit: the errors above leave C to the GPU (a race to its interleaving, an "
                "out-of-bounds or uninitialized read to what memory holds)\n");
  }
  if (gpu.timed) {
    if (!gpu.timed->ok()) {
      std::printf("  timing: not run: %s\n", gpu.timed->error.c_str());
    } else {
      std::printf("  timed at %s: %.1f GFLOPS (median of %d launches, %.4f ms)", sim::SizeText({static_cast<int>(gpu.timed->shape.m),
                  static_cast<int>(gpu.timed->shape.n), static_cast<int>(gpu.timed->shape.k)}).c_str(),
                  gpu.timed->gflops, gpu.timed->reps, gpu.timed->median_ms);
      if (gpu.cublas && gpu.cublas->ok()) {
        std::printf("; cuBLAS SGEMM %.1f GFLOPS (%.4f ms): %.1f%% of cuBLAS\n", gpu.cublas->gflops, gpu.cublas->median_ms,
                    100.0 * gpu.timed->gflops / gpu.cublas->gflops);
      } else {
        std::printf("; cuBLAS not timed: %s\n", gpu.cublas ? gpu.cublas->error.c_str() : "no result");
      }
    }
  }
}

nlohmann::json TimingJson(const kernels::BenchResult& r) {
  if (!r.ok()) return {{"error", r.error}};
  return {{"m", r.shape.m}, {"n", r.shape.n}, {"k", r.shape.k}, {"gflops", r.gflops}, {"median_ms", r.median_ms}, {"reps", r.reps}};
}

}  // namespace

void PrintReport(const CheckedFile& checked) {
  const sim::KernelCheckReport& report = *checked.report;
  const std::string& file = checked.file;
  std::printf("%s: kernel %s, block %dx%dx%d\n", file.c_str(), report.kernel.c_str(), report.block[0], report.block[1], report.block[2]);
  for (const sim::CheckRun& r : report.runs) {
    std::printf("  %s, grid %dx%dx%d: ", sim::SizeText(r.size).c_str(), r.grid[0], r.grid[1], r.grid[2]);
    if (r.wrong_elements == 0) {
      std::printf("C right (%llu elements)\n", static_cast<ull>(r.elements));
    } else {
      std::printf("C wrong at %llu of %llu elements; first C[%d][%d] = %g, expected %g\n", static_cast<ull>(r.wrong_elements),
                  static_cast<ull>(r.elements), r.first_wrong->row, r.first_wrong->col, r.first_wrong->got, r.first_wrong->expected);
    }
  }
  for (const sim::CheckFinding& f : report.findings) {
    std::printf("%s:%d: %s: %s%s%s (%llu time%s)\n", file.c_str(), f.line, f.error ? "error" : "warning", sim::Name(f.kind),
                f.hazard.empty() ? "" : (" " + f.hazard).c_str(), (": " + f.sentence).c_str(), static_cast<ull>(f.count),
                f.count == 1 ? "" : "s");
  }
  PrintGpu(checked);
  std::printf("%s: %s\n", file.c_str(), report.Passed() ? "PASS" : "FAIL");
}

void PrintLine(const CheckedFile& c) {
  if (!c.report) {
    std::printf("%s: NOT CHECKED: %s\n", c.file.c_str(), c.problem.c_str());
    return;
  }
  const int errors = Count(*c.report, true), warnings = Count(*c.report, false);
  std::string gpu;
  if (c.gpu) {
    ull wrong = 0;
    std::string failed;
    for (const kernels::StudentGpuRun& g : c.gpu->runs) {
      wrong += g.wrong_elements;
      if (!g.ok() && failed.empty()) failed = g.error.substr(0, g.error.find('\n'));
    }
    gpu = !failed.empty() ? "; GPU: " + failed : wrong == 0 ? "; GPU: C right" : "; GPU: C wrong at " + std::to_string(wrong) + " elements";
    if (c.gpu->well_defined && failed.empty()) gpu += c.gpu->MatchesModel() ? ", bit for bit the model's" : ", NOT the model's";
  }
  const std::string first = FirstFinding(c);
  std::printf("%s: %s: C right at %d/%zu sizes, %d error%s, %d warning%s%s%s%s\n", c.file.c_str(), Verdict(c).c_str(), SizesRight(*c.report),
              c.report->runs.size(), errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s", gpu.c_str(),
              first.empty() ? "" : ": ", first.c_str());
}

void PrintSummary(const std::vector<CheckedFile>& files) {
  std::map<std::string, int> verdicts;
  std::map<std::string, int> files_with;  // error kind → files that have it
  for (const CheckedFile& c : files) {
    ++verdicts[Verdict(c)];
    if (!c.report) continue;
    std::map<std::string, bool> kinds;
    for (const sim::CheckFinding& f : c.report->findings) {
      if (f.error) kinds[sim::Name(f.kind)] = true;
    }
    if (SizesRight(*c.report) < static_cast<int>(c.report->runs.size())) kinds["C wrong"] = true;
    for (const auto& [kind, present] : kinds) files_with[kind] += present;
  }
  std::printf("class: %zu files: %d pass, %d fail, %d not checked\n", files.size(), verdicts["PASS"], verdicts["FAIL"], verdicts["NOT CHECKED"]);
  for (const auto& [kind, count] : files_with) std::printf("  %s: %d file%s\n", kind.c_str(), count, count == 1 ? "" : "s");
}

std::string CheckCsv(const std::vector<CheckedFile>& files) {
  const auto quoted = [](const std::string& field) {
    std::string out = "\"";
    for (const char c : field) out += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
    return out + "\"";
  };
  std::string csv = "file,compiled,sizes_right,errors,warnings,first_finding\n";
  for (const CheckedFile& c : files) {
    const std::string sizes = c.report ? std::to_string(SizesRight(*c.report)) + "/" + std::to_string(c.report->runs.size()) : "";
    const std::string errors = c.report ? std::to_string(Count(*c.report, true)) : "";
    const std::string warnings = c.report ? std::to_string(Count(*c.report, false)) : "";
    csv += quoted(c.file) + "," + (c.report ? "yes" : "no") + "," + sizes + "," + errors + "," + warnings + "," + quoted(FirstFinding(c)) + "\n";
  }
  return csv;
}

nlohmann::json CheckedJson(const CheckedFile& checked) {
  nlohmann::json out = sim::CheckJson(*checked.report, checked.file);
  if (!checked.gpu) {
    out["gpu"] = nullptr;
    out["gpu_absent"] = checked.gpu_absent;
    out["gpu_matches_model"] = nullptr;
    return out;
  }
  const kernels::StudentGpuReport& gpu = *checked.gpu;
  for (std::size_t i = 0; i < gpu.runs.size() && i < out["runs"].size(); ++i) {
    const kernels::StudentGpuRun& g = gpu.runs[i];
    out["runs"][i]["gpu_wrong_elements"] = g.ok() ? nlohmann::json(g.wrong_elements) : nlohmann::json(nullptr);
    out["runs"][i]["gpu_differing_from_model"] = g.ok() ? nlohmann::json(g.differing_from_model) : nlohmann::json(nullptr);
    out["runs"][i]["gpu_error"] = g.ok() ? nlohmann::json(nullptr) : nlohmann::json(g.error);
  }
  out["gpu_matches_model"] = gpu.well_defined ? nlohmann::json(gpu.MatchesModel()) : nlohmann::json(nullptr);
  nlohmann::json g{{"device", gpu.device}, {"well_defined", gpu.well_defined}};
  g["timing"] = gpu.timed ? TimingJson(*gpu.timed) : nlohmann::json(nullptr);
  g["cublas"] = gpu.cublas ? TimingJson(*gpu.cublas) : nlohmann::json(nullptr);
  out["gpu"] = g;
  return out;
}

}  // namespace cli
