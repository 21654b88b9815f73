#include "app/cli/verify_command.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "kernels/device.h"
#include "kernels/model_replay.h"
#include "kernels/registry.h"
#include "kernels/runner.h"
#include "kernels/test_vector_file.h"

namespace cli {
namespace {

constexpr int kExitUsage = 2;
constexpr const char* kDefaultKernel = "tiled16";

struct VerifyOptions {
  std::string file;
  std::string kernel = kDefaultKernel;
};

double MaxAbs(const std::vector<float>& values) {
  double largest = 0;
  for (float v : values) largest = std::max(largest, static_cast<double>(std::fabs(v)));
  return largest;
}

// The largest |got − want|; NaN if any element is NaN.
double MaxAbsError(const std::vector<float>& got, const std::vector<float>& want) {
  double largest = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const double error = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (std::isnan(error)) return error;
    largest = std::max(largest, error);
  }
  return largest;
}

// One check of one case: "model 0 ok" or "GPU 3.1e-05 FAIL" or why it could not run.
struct Check {
  bool ran = false;
  bool passed = false;
  std::string text;
};

Check Compare(const char* who, const std::vector<float>& got, const std::vector<float>& want, double tolerance) {
  const double error = MaxAbsError(got, want);
  const bool passed = error <= tolerance;  // false for NaN
  char text[96];
  std::snprintf(text, sizeof text, "%s max error %.3g %s", who, error, passed ? "pass" : "FAIL");
  return {true, passed, text};
}

Check RunModel(const kernels::KernelSpec& kernel, const kernels::TestVectorCase& entry, double tolerance) {
  const kernels::ModelRun model = kernels::RunOnModel(kernel, entry.shape, entry.a, entry.b);
  if (!model.ok()) return {false, false, "model: " + model.error};
  return Compare("model", model.c, entry.c, tolerance);
}

Check RunGpu(const kernels::KernelSpec& kernel, const kernels::TestVectorCase& entry, double tolerance) {
  std::vector<float> c;
  if (auto error = kernels::ComputeOnGpu(kernel, entry.shape, entry.a, entry.b, c)) {
    return {true, false, "GPU error: " + *error};
  }
  return Compare("GPU", c, entry.c, tolerance);
}

int Run(const VerifyOptions& options) {
  const kernels::KernelSpec* kernel = kernels::FindKernel(options.kernel);
  if (kernel == nullptr || kernels::IsCublas(*kernel)) {
    std::fprintf(stderr, "tilescope verify: --kernel '%s' is not a kernel the model runs (see tilescope bench --list)\n",
                 options.kernel.c_str());
    return kExitUsage;
  }
  const kernels::TestVectorRead read = kernels::ReadTestVectors(options.file);
  const kernels::GpuStatus& gpu = kernels::ProbeGpu();
  std::printf("verifying %s with %s on the model%s\n", options.file.c_str(), kernel->name,
              gpu.available ? (" and on the GPU (" + gpu.device.name + ")").c_str()
                            : (": no GPU check (" + gpu.reason + ")").c_str());
  std::printf("tolerance per case: 2*K*2^-23*max|A|*max|B|, K the inner dimension (the file's N)\n");
  int passed = 0;
  int failed = 0;
  for (std::size_t i = 0; i < read.cases.size(); ++i) {
    const kernels::TestVectorCase& entry = read.cases[i];
    const double tolerance =
        kernels::Tolerance(kernels::Precision::kFp32, entry.shape.k, MaxAbs(entry.a), MaxAbs(entry.b));
    std::vector<Check> checks{RunModel(*kernel, entry, tolerance)};
    if (gpu.available) checks.push_back(RunGpu(*kernel, entry, tolerance));
    bool ok = false;
    std::string details;
    for (const Check& check : checks) {
      ok = ok || check.ran;
      if (check.ran && !check.passed) ok = false;
      details += ", " + check.text;
    }
    ok ? ++passed : ++failed;
    // The seed's names: M×N times N×K.
    std::printf("case %zu: M=%lld N=%lld K=%lld, tolerance %.3g%s: %s\n", i + 1, static_cast<long long>(entry.shape.m),
                static_cast<long long>(entry.shape.k), static_cast<long long>(entry.shape.n), tolerance,
                details.c_str(), ok ? "pass" : "FAIL");
  }
  if (!read.ok()) std::printf("%s: %s\n", options.file.c_str(), read.error.c_str());
  std::printf("%d passed, %d failed\n", passed, failed);
  if (!read.ok()) return kExitBadVectorFile;
  return failed == 0 ? 0 : 1;
}

}  // namespace

void AddVerifyCommand(CLI::App& app, std::function<int()>& action) {
  auto options = std::make_shared<VerifyOptions>();
  CLI::App* verify = app.add_subcommand(
      "verify", "Check test vectors (seed 003's binary format) on the model and, with a GPU, on the real kernel");
  verify->add_option("FILE", options->file, "Test-vector file: int32 M, N, K; A M×N; B N×K; C M×K; float32 LE; repeated")
      ->required();
  verify->add_option("--kernel", options->kernel, "Kernel to check (default tiled16; see tilescope bench --list)");
  verify->callback([options, &action] { action = [options] { return Run(*options); }; });
}

}  // namespace cli
