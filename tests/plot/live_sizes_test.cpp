// The live panel's sizes field: a bad list or range, and a size whose buffers (A, B, C and
// the reference C, padded as the runner pads them) exceed the device's memory, each get a
// message beside the field; without a device only the syntax is checked.
#include <gtest/gtest.h>

#include "app/panels/live_gpu_panel.h"
#include "kernels/kernel_table.h"

namespace panels {
namespace {

kernels::GpuStatus DeviceWithMemory(double gib) {
  kernels::GpuStatus gpu;
  gpu.available = true;
  gpu.device.total_memory_bytes = static_cast<std::uint64_t>(gib * 1024.0 * 1024.0 * 1024.0);
  return gpu;
}

TEST(LiveSizes, RangeAndListAreParsed) {
  LiveGpuPanel panel;
  panel.sizes_text = "256:4096";
  EXPECT_EQ(panel.ValidateSizes(DeviceWithMemory(80)).size(), 5u);
  EXPECT_EQ(panel.sizes_message, "");
  panel.sizes_text = "100,37x29x53";
  EXPECT_EQ(panel.ValidateSizes(DeviceWithMemory(80)).size(), 2u);
}

TEST(LiveSizes, ZeroNegativeAndGarbageAreNamed) {
  LiveGpuPanel panel;
  for (const char* text : {"0", "-512", "256:abc", "", "300:4096"}) {
    panel.sizes_text = text;
    EXPECT_TRUE(panel.ValidateSizes(DeviceWithMemory(80)).empty()) << text;
    EXPECT_FALSE(panel.sizes_message.empty()) << text;
  }
}

TEST(LiveSizes, TooLargeForTheDeviceNamesTheSizeAndTheMemory) {
  LiveGpuPanel panel;
  // 65536²: A, B and two C of 16 GiB each, 64 GiB in all, plus padding: more than 48 GiB.
  panel.sizes_text = "1024,65536";
  EXPECT_TRUE(panel.ValidateSizes(DeviceWithMemory(48)).empty());
  EXPECT_NE(panel.sizes_message.find("65536"), std::string::npos) << panel.sizes_message;
  EXPECT_NE(panel.sizes_message.find("48.0 GiB"), std::string::npos) << panel.sizes_message;
  // The padding counts: a device with exactly the unpadded bytes is still too small.
  const double unpadded = 4.0 * 4.0 * 8192.0 * 8192.0;
  ASSERT_GT(kernels::BuffersFor(8192, 8192, 8192).Bytes(), unpadded);
  panel.sizes_text = "8192";
  EXPECT_TRUE(panel.ValidateSizes(DeviceWithMemory(unpadded / (1024.0 * 1024.0 * 1024.0))).empty());
  EXPECT_FALSE(panel.ValidateSizes(DeviceWithMemory(2.0)).empty());
}

// The BF16 rungs' copies of A and B count: a device with room for the FP32 buffers alone takes
// the size without them and refuses it with them.
TEST(LiveSizes, TheBf16CopiesCountWhenABf16RungIsChosen) {
  LiveGpuPanel panel;
  panel.sizes_text = "8192";
  panel.kernels = {"all_async", "cublas_fp32"};
  const double gib = kernels::BuffersFor(8192, 8192, 8192).Bytes() / (1024.0 * 1024.0 * 1024.0);
  EXPECT_FALSE(panel.ValidateSizes(DeviceWithMemory(gib)).empty()) << panel.sizes_message;
  panel.kernels.push_back("wgmma_bf16");
  EXPECT_TRUE(panel.ValidateSizes(DeviceWithMemory(gib)).empty());
  EXPECT_NE(panel.sizes_message.find("K-major copies"), std::string::npos) << panel.sizes_message;
}

TEST(LiveSizes, WithoutADeviceOnlyTheSyntaxIsChecked) {
  LiveGpuPanel panel;
  panel.sizes_text = "65536";
  EXPECT_EQ(panel.ValidateSizes(kernels::GpuStatus{}).size(), 1u);
  EXPECT_EQ(panel.sizes_message, "");
}

}  // namespace
}  // namespace panels
