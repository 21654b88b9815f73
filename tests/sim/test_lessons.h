// Lessons the sim tests build on: small helpers, no logic the tests check.
#pragma once
#include "sim/lesson/lesson_config.h"

namespace sim_test {

inline sim::LessonConfig Tiled(int m, int n, int k, int tile) {
  sim::LessonConfig config;
  config.m = m;
  config.n = n;
  config.k = k;
  config.tile = tile;
  return config;
}

inline sim::LessonConfig Rect(int m, int n, int k, int tm, int tn, int tk) {
  sim::LessonConfig config = Tiled(m, n, k, 1);
  config.kernel = sim::KernelKind::kTiledRect;
  config.rect = {tm, tn, tk};
  return config;
}

inline sim::LessonConfig Naive(int m, int n, int k, int tile) {
  sim::LessonConfig config = Tiled(m, n, k, tile);
  config.kernel = sim::KernelKind::kNaive;
  return config;
}

inline sim::LessonConfig WithRandomFill(sim::LessonConfig config, std::uint64_t seed) {
  config.fill_a = sim::MatrixFill::Random(seed);
  config.fill_b = sim::MatrixFill::Random(seed + 1000);
  return config;
}

}  // namespace sim_test
