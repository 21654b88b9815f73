// The "no CUDA" path: what the app says when the GPU module cannot be used.
#include <gtest/gtest.h>

#include <fstream>

#include "kernels/device.h"
#include "kernels/gpu_module.h"
#include "kernels/registry.h"
#include "kernels/runner.h"

namespace kernels {
namespace {

// The reason is what a student reads in the window: no path. Where it looked is the detail,
// which the command line and About add.
TEST(GpuLoader, MissingModuleSaysWhereItLooked) {
  const std::string path = ::testing::TempDir() + "nowhere/libtilescope_gpu.so";
  const GpuStatus status = ProbeGpuModuleAt(path);
  EXPECT_FALSE(status.available);
  EXPECT_EQ(status.reason, "this build of TileScope has no CUDA support");
  EXPECT_EQ(status.detail, "no GPU runner module at " + path);
  EXPECT_EQ(status.Explained(), status.reason + " (no GPU runner module at " + path + ")");
}

TEST(GpuLoader, BrokenModuleReportsTheLoadersError) {
  const std::string path = ::testing::TempDir() + "libtilescope_gpu_broken.so";
  std::ofstream(path) << "not an ELF file\n";
  const GpuStatus status = ProbeGpuModuleAt(path);
  EXPECT_FALSE(status.available);
  EXPECT_NE(status.reason.find("the CUDA runtime is not installed"), std::string::npos) << status.reason;
  EXPECT_EQ(status.reason.find('/'), std::string::npos) << "no path in the words for the window: " << status.reason;
  EXPECT_NE(status.detail.find("cannot load the GPU runner module"), std::string::npos) << status.detail;
  // dlerror's own text names the file.
  EXPECT_NE(status.detail.find("libtilescope_gpu_broken.so"), std::string::npos) << status.detail;
  std::string error;
  EXPECT_EQ(LoadGpuModule(path, error), nullptr);
  EXPECT_FALSE(error.empty());
}

TEST(GpuLoader, DefaultModuleSitsNextToTheExecutable) {
  const std::string path = DefaultGpuModulePath();
  EXPECT_NE(path.find("/libtilescope_gpu.so"), std::string::npos);
  const GpuStatus& status = ProbeGpu();
  EXPECT_EQ(&status, &ProbeGpu()) << "probed once, then cached";
  EXPECT_EQ(status.module_path, path);
  if (!status.available) {
    EXPECT_FALSE(status.reason.empty());
    std::printf("no GPU here: %s\n", status.reason.c_str());
  }
}

TEST(GpuLoader, RunnerRefusesToStartWithoutADeviceAndSaysWhy) {
  if (ProbeGpu().available) GTEST_SKIP() << "a GPU is present; the no-device path is not reachable here";
  Runner runner;
  const auto error = runner.Start(BenchRequest{});
  ASSERT_TRUE(error);
  EXPECT_EQ(*error, ProbeGpu().reason);
  EXPECT_FALSE(runner.Running());
  std::vector<float> c;
  EXPECT_TRUE(ComputeOnGpu(*FindKernel("tiled16"), Shape::Square(2), {1, 2, 3, 4}, {1, 0, 0, 1}, c));
}

TEST(GpuLoader, InvalidRequestIsRefusedBeforeLookingForAGpu) {
  Runner runner;
  BenchRequest request;
  request.shapes = {Shape::Square(0)};
  const auto error = runner.Start(request);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("at least 1"), std::string::npos);
}

TEST(DeviceFacts, LanesAndVersions) {
  EXPECT_EQ(Fp32LanesPerSm(9, 0), 128);
  EXPECT_EQ(Fp32LanesPerSm(8, 0), 64);
  EXPECT_EQ(Fp32LanesPerSm(8, 6), 128);
  EXPECT_EQ(Fp32LanesPerSm(7, 5), 64);
  EXPECT_EQ(Fp32LanesPerSm(3, 0), 0);
  // Dense tensor rates: TF32 at half BF16's; none for FP32 or a capability the table lacks.
  EXPECT_EQ(TensorFlopsPerSmPerClock(9, 0, Precision::kBf16), 4096);
  EXPECT_EQ(TensorFlopsPerSmPerClock(9, 0, Precision::kTf32), 2048);
  EXPECT_EQ(TensorFlopsPerSmPerClock(8, 0, Precision::kBf16), 2048);
  EXPECT_EQ(TensorFlopsPerSmPerClock(8, 6, Precision::kBf16), 0);
  EXPECT_EQ(TensorFlopsPerSmPerClock(9, 0, Precision::kFp32), 0);
  EXPECT_EQ(CudaVersionString(13000), "13.0");
  EXPECT_EQ(CudaVersionString(12040), "12.4");
  EXPECT_EQ(CudaVersionString(0), "");
}

}  // namespace
}  // namespace kernels
