// fuzz_check.h — what a fuzz target does when a property fails: say which, then abort, so
// libFuzzer (and the replay driver in CTest) records it as a crash with this message.
#pragma once
#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition, what)                                              \
  do {                                                                           \
    if (!(condition)) {                                                          \
      std::fprintf(stderr, "fuzz property failed: %s (%s)\n", what, #condition); \
      std::abort();                                                              \
    }                                                                            \
  } while (false)
