// The atomic writer: the target holds the old file or the new one, never a mix, whatever
// stops the writer; a failed writer leaves no temporary file; modes and links are kept.
#include "sim/io/atomic_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file_test_util.h"

namespace {

using file_test::ReadText;
using file_test::ScratchFolder;
using file_test::WriteText;

// A good file the user already has: 6,660 bytes, as in the cut-short export.
const std::string kOld(6660, 'o');
const std::string kNew(1 << 20, 'n');

// Runs `body` in a forked child and returns its wait status.
int InChild(const std::function<void()>& body) {
  const pid_t child = fork();
  if (child == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return status;
}

TEST(AtomicFile, WritesANewFileAndLeavesNothingElse) {
  const ScratchFolder folder("atomic_new");
  const std::string path = folder.Path("lesson.json");
  EXPECT_FALSE(sim::WriteFileAtomically(path, "{}\n"));
  EXPECT_EQ(ReadText(path), "{}\n");
  EXPECT_EQ(folder.Entries(), std::vector<std::string>{"lesson.json"});
  // The mode a plain open(0666) would give under this process's umask, not mkstemp's 0600.
  const mode_t mask = umask(0);
  umask(mask);
  struct stat info {};
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0666 & ~mask);
}

// `trace --json /dev/null` run as root once renamed its temporary file over /dev/null, which
// became a plain file for the whole machine. A pipe stands in for the device here, so a
// regression breaks only this test's folder.
TEST(AtomicFile, ADeviceOrPipeIsWrittenInPlaceNotReplaced) {
  const ScratchFolder folder("atomic_pipe");
  const std::string path = folder.Path("pipe");
  ASSERT_EQ(mkfifo(path.c_str(), 0600), 0);
  // Held open for reading and writing, so the writer's open does not wait for a reader.
  const int reader = open(path.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  EXPECT_FALSE(sim::WriteFileAtomically(path, "through the pipe"));
  struct stat info {};
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode)) << "the pipe was replaced by a plain file";
  char buffer[64] = {};
  EXPECT_EQ(read(reader, buffer, sizeof buffer), 16);
  EXPECT_EQ(std::string(buffer), "through the pipe");
  close(reader);
  EXPECT_EQ(folder.Entries(), std::vector<std::string>{"pipe"});
}

TEST(AtomicFile, ReplacingKeepsTheOldFilesMode) {
  const ScratchFolder folder("atomic_mode");
  const std::string path = folder.Path("results.csv");
  WriteText(path, kOld);
  chmod(path.c_str(), 0640);
  EXPECT_FALSE(sim::WriteFileAtomically(path, "new"));
  EXPECT_EQ(ReadText(path), "new");
  struct stat info {};
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0640u);
}

TEST(AtomicFile, WritesThroughASymlinkAndKeepsTheLink) {
  const ScratchFolder folder("atomic_link");
  WriteText(folder.Path("real.json"), kOld);
  std::filesystem::create_symlink(folder.Path("real.json"), folder.Path("link.json"));
  EXPECT_FALSE(sim::WriteFileAtomically(folder.Path("link.json"), "new"));
  EXPECT_TRUE(std::filesystem::is_symlink(folder.Path("link.json")));
  EXPECT_EQ(ReadText(folder.Path("real.json")), "new");
}

TEST(AtomicFile, MissingFolderIsNamed) {
  const ScratchFolder folder("atomic_missing");
  const std::string path = folder.Path("no/such/folder/out.json");
  const auto error = sim::WriteFileAtomically(path, "x");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->rfind("cannot write " + path + ": ", 0), 0u) << *error;
  EXPECT_NE(error->find("No such file or directory"), std::string::npos) << *error;
}

TEST(AtomicFile, AFolderAsTargetIsRefusedAndKept) {
  const ScratchFolder folder("atomic_folder");
  std::filesystem::create_directory(folder.Path("sub"));
  WriteText(folder.Path("sub/inside"), kOld);
  const auto error = sim::WriteFileAtomically(folder.Path("sub"), "x");
  ASSERT_TRUE(error);
  EXPECT_EQ(*error, "cannot write " + folder.Path("sub") + ": it is a folder, not a file");
  EXPECT_EQ(ReadText(folder.Path("sub/inside")), kOld);
  EXPECT_EQ(folder.Entries(), std::vector<std::string>{"sub"}) << "the temporary file stayed";
}

// `trace --json DIR` once said it could not create a temporary file in DIR's parent (one the
// user may not write to) instead of naming DIR as a folder.
TEST(AtomicFile, AFolderAsTargetIsNamedAsOneInAFolderTheUserMayNotWrite) {
  const ScratchFolder folder("atomic_folder_readonly");
  std::filesystem::create_directory(folder.Path("sub"));
  chmod(folder.path().c_str(), 0555);
  const int status = file_test::RunAsUnprivilegedChild([&] {
    const auto error = sim::WriteFileAtomically(folder.Path("sub"), kNew);
    return error && *error == "cannot write " + folder.Path("sub") + ": it is a folder, not a file";
  });
  chmod(folder.path().c_str(), 0755);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  EXPECT_EQ(folder.Entries(), std::vector<std::string>{"sub"});
}

TEST(AtomicFile, ReadOnlyFolderIsNamedAndTheOldFileKept) {
  const ScratchFolder folder("atomic_readonly");
  const std::string path = folder.Path("out.json");
  WriteText(path, kOld);
  chmod(folder.path().c_str(), 0555);
  const int status = file_test::RunAsUnprivilegedChild([&] {
    const auto error = sim::WriteFileAtomically(path, kNew);
    return error && error->find("Permission denied") != std::string::npos;
  });
  chmod(folder.path().c_str(), 0755);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  EXPECT_EQ(ReadText(path), kOld);
  EXPECT_EQ(folder.Entries(), std::vector<std::string>{"out.json"});
}

TEST(AtomicFile, KilledBetweenWriteAndRenameLeavesTheOldFile) {
  const ScratchFolder folder("atomic_kill");
  const std::string path = folder.Path("export.json");
  WriteText(path, kOld);
  const int status = InChild([&] {
    sim::AtomicFile file(path);
    file.Write(kNew);
    kill(getpid(), SIGKILL);  // after every byte is written, before Commit() renames
  });
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;
  EXPECT_EQ(ReadText(path), kOld);
  // The killed writer could not clean up: its hidden temporary file holds the new bytes,
  // and the next write of the same file removes it.
  const std::vector<std::string> entries = folder.Entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].rfind(".export.json.", 0), 0u) << entries[0];
  EXPECT_EQ(ReadText(folder.Path(entries[0])), kNew);
  WriteText(folder.Path(".other.json.1.abcdef.tmp"), "another file's leftover");
  EXPECT_FALSE(sim::WriteFileAtomically(path, "next"));
  EXPECT_EQ(folder.Entries(), (std::vector<std::string>{".other.json.1.abcdef.tmp", "export.json"}));
}

TEST(AtomicFile, ALiveWritersTemporaryFileIsLeftAlone) {
  const ScratchFolder folder("atomic_live");
  const std::string path = folder.Path("settings.json");
  sim::AtomicFile first(path);
  ASSERT_TRUE(first.error().empty()) << first.error();
  EXPECT_FALSE(sim::WriteFileAtomically(path, "second"));
  EXPECT_TRUE(std::filesystem::exists(first.temporary_path())) << "this process is alive: not a leftover";
  EXPECT_TRUE(first.Write("first") && first.Commit()) << first.error();
  EXPECT_EQ(ReadText(path), "first");
}

TEST(AtomicFile, WriteCutShortByAFileSizeLimitLeavesTheOldFileAndNoTemporary) {
  const ScratchFolder folder("atomic_fsize");
  const std::string path = folder.Path("sweep.json");
  WriteText(path, kOld);
  // SIGXFSZ ignored: write() fails with EFBIG and the writer reports it and cleans up.
  const int reported = InChild([&] {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{2048, 2048};
    setrlimit(RLIMIT_FSIZE, &limit);
    const auto error = sim::WriteFileAtomically(path, kNew);
    _exit(error && error->find("File too large") != std::string::npos ? 0 : 1);
  });
  EXPECT_TRUE(WIFEXITED(reported) && WEXITSTATUS(reported) == 0) << "status " << reported;
  EXPECT_EQ(ReadText(path), kOld);
  EXPECT_EQ(folder.Entries(), std::vector<std::string>{"sweep.json"});
  // SIGXFSZ as it comes: the kernel ends the writer mid-write; the target is untouched.
  const int killed = InChild([&] {
    const rlimit no_core{0, 0};  // the signal's default action dumps core: not here
    setrlimit(RLIMIT_CORE, &no_core);
    const rlimit limit{2048, 2048};
    setrlimit(RLIMIT_FSIZE, &limit);
    sim::WriteFileAtomically(path, kNew);
  });
  EXPECT_TRUE(WIFSIGNALED(killed) && WTERMSIG(killed) == SIGXFSZ) << "status " << killed;
  EXPECT_EQ(ReadText(path), kOld);
}

TEST(AtomicFile, AFailedWriterWritesNoMore) {
  const ScratchFolder folder("atomic_failed");
  sim::AtomicFile file(folder.Path("missing/x"));
  EXPECT_FALSE(file.error().empty());
  EXPECT_FALSE(file.Write("abc"));
  EXPECT_FALSE(file.Commit());
  EXPECT_TRUE(file.temporary_path().empty());
}

TEST(AtomicFile, UncommittedWriterRemovesItsTemporaryFile) {
  const ScratchFolder folder("atomic_abandon");
  const std::string path = folder.Path("trace.json");
  WriteText(path, kOld);
  {
    sim::AtomicFile file(path);
    ASSERT_TRUE(file.error().empty()) << file.error();
    EXPECT_TRUE(std::filesystem::exists(file.temporary_path()));
    file.Write("half a trace");
  }
  EXPECT_EQ(ReadText(path), kOld);
  EXPECT_EQ(folder.Entries(), std::vector<std::string>{"trace.json"});
}

}  // namespace
