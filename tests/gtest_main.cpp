// The tests' main: GoogleTest's (which answers --help), except that an argument GoogleTest
// does not take is refused by name. Every program the build makes refuses what it lacks
// (tests/app/programs_test.py); GoogleTest's own main ignored it and ran every test, so a
// mistyped flag such as --gtest-filter passed silently.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);  // removes the --gtest_ flags it takes, leaves the rest
  for (int i = 1; i < argc; ++i) {
    // GoogleTest answers these itself (its help, then no test runs) but leaves them in argv.
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h" || arg == "-?" || arg == "/?") continue;
    std::fprintf(stderr, "%s: unknown argument %s (--help lists the flags)\n", argv[0], argv[i]);
    return 2;
  }
  return RUN_ALL_TESTS();
}
