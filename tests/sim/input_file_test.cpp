// ReadInputFile: every way a path can be wrong is refused by name with the reason, and no
// input is read past its limit (a device that never ends included).
#include "sim/io/input_file.h"

#include <sys/stat.h>

#include <chrono>

#include "file_test_util.h"

namespace {

using file_test::ScratchFolder;

constexpr std::uint64_t kLimit = 1024;

void ExpectRefused(const sim::InputFile& read, const std::string& path, const std::string& reason) {
  EXPECT_FALSE(read.ok());
  EXPECT_TRUE(read.bytes.empty()) << "a refused file hands back no bytes";
  EXPECT_EQ(read.error.rfind(path + ": ", 0), 0u) << read.error << " does not start with the path";
  EXPECT_NE(read.error.find(reason), std::string::npos) << read.error << " lacks " << reason;
}

TEST(InputFile, ReadsEveryByte) {
  const ScratchFolder folder("input_bytes");
  const std::string bytes("a\0b\r\n\xff", 6);
  file_test::WriteText(folder.Path("f"), bytes);
  const sim::InputFile read = sim::ReadInputFile(folder.Path("f"), kLimit);
  ASSERT_TRUE(read.ok()) << read.error;
  EXPECT_EQ(read.bytes, bytes);
}

TEST(InputFile, EmptyFileIsReadAsEmpty) {
  const ScratchFolder folder("input_empty");
  file_test::WriteText(folder.Path("f"), "");
  const sim::InputFile read = sim::ReadInputFile(folder.Path("f"), kLimit);
  EXPECT_TRUE(read.ok()) << read.error;
  EXPECT_TRUE(read.bytes.empty());
}

TEST(InputFile, ExactlyTheLimitIsRead) {
  const ScratchFolder folder("input_limit");
  file_test::WriteText(folder.Path("f"), std::string(kLimit, 'x'));
  EXPECT_TRUE(sim::ReadInputFile(folder.Path("f"), kLimit).ok());
}

TEST(InputFile, MissingFileIsNamed) {
  const ScratchFolder folder("input_missing");
  ExpectRefused(sim::ReadInputFile(folder.Path("nothing.json"), kLimit), folder.Path("nothing.json"),
                "cannot open: no such file");
  ExpectRefused(sim::ReadInputFile(folder.Path("nothing/below"), kLimit), folder.Path("nothing/below"), "no such file");
}

TEST(InputFile, FolderIsRefusedByName) {
  const ScratchFolder folder("input_folder");
  ExpectRefused(sim::ReadInputFile(folder.path().string(), kLimit), folder.path().string(), "it is a folder");
}

TEST(InputFile, LargerThanTheLimitStatesTheLimitAndTheSize) {
  const ScratchFolder folder("input_large");
  file_test::WriteText(folder.Path("big"), std::string(kLimit + 1, 'x'));
  ExpectRefused(sim::ReadInputFile(folder.Path("big"), kLimit), folder.Path("big"), "1025 bytes");
  ExpectRefused(sim::ReadInputFile(folder.Path("big"), kLimit), folder.Path("big"), "limit of 1 KiB");
}

TEST(InputFile, EndlessDeviceStopsAtTheLimit) {
  const auto start = std::chrono::steady_clock::now();
  ExpectRefused(sim::ReadInputFile("/dev/zero", 1 << 20), "/dev/zero", "larger than the limit of 1 MiB");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(InputFile, UnreadableFileIsNamed) {
  const ScratchFolder folder("input_unreadable");
  const std::string path = folder.Path("secret");
  file_test::WriteText(path, "hidden");
  chmod(path.c_str(), 0);
  const int status = file_test::RunAsUnprivilegedChild([&] {
    const sim::InputFile read = sim::ReadInputFile(path, kLimit);
    return !read.ok() && read.error == path + ": cannot open: permission denied";
  });
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
}

TEST(InputFile, LimitsAreStatedInTheLargestWholeUnit) {
  EXPECT_EQ(sim::DescribeBytes(64ull << 20), "64 MiB");
  EXPECT_EQ(sim::DescribeBytes(1ull << 30), "1 GiB");
  EXPECT_EQ(sim::DescribeBytes(1536), "1536 bytes") << "not a whole KiB: exact bytes";
  EXPECT_EQ(sim::DescribeBytes(100), "100 bytes");
  EXPECT_EQ(sim::DescribeBytes(1), "1 byte");
}

// Issue 32: a FIFO as a lesson or settings file blocked the GUI's window thread in open().
TEST(InputFile, AFifoIsRefusedWithoutWaitingForAWriter) {
  const ScratchFolder folder("input_fifo");
  ASSERT_EQ(mkfifo(folder.Path("fifo").c_str(), 0600), 0);
  ExpectRefused(sim::ReadInputFile(folder.Path("fifo"), kLimit), folder.Path("fifo"), "it is a pipe or socket, not a file");
}

// `--lesson NAME|FILE` asks whether NAME is a file: std::filesystem::exists threw on these,
// and the CLI aborted. Each is a file to read (whose reader says why), never an exception.
TEST(InputFile, NamesAFileNeverThrowsAndLeavesTheReasonToTheReader) {
  const ScratchFolder folder("input_names");
  EXPECT_FALSE(sim::NamesAFile(folder.Path("missing")));
  EXPECT_FALSE(sim::NamesAFile("default"));
  const std::string long_name(5000, 'a');
  EXPECT_TRUE(sim::NamesAFile(long_name));
  ExpectRefused(sim::ReadInputFile(long_name, kLimit), long_name, "File name too long");
  ASSERT_EQ(symlink("loop", folder.Path("loop").c_str()), 0);
  EXPECT_TRUE(sim::NamesAFile(folder.Path("loop")));
  ExpectRefused(sim::ReadInputFile(folder.Path("loop"), kLimit), folder.Path("loop"), "symbolic links");
}

}  // namespace
