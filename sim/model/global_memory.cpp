#include "sim/model/global_memory.h"

#include <utility>

namespace sim {

GlobalMemory::GlobalMemory(int m, int n, int k, std::vector<float> a, std::vector<float> b)
    : m_(m), n_(n), k_(k), a_(std::move(a)), b_(std::move(b)) {}

long long GlobalMemory::ElementAt(MatrixId id, long long row, long long col) const {
  const long long linear = row * cols(id) + col;
  const long long size = static_cast<long long>(rows(id)) * cols(id);
  return linear >= 0 && linear < size ? linear : -1;
}

float GlobalMemory::Load(MatrixId id, long long row, long long col) const {
  const long long element = ElementAt(id, row, col);
  if (element < 0 || id == MatrixId::kC) return GlobalPoison();
  return (id == MatrixId::kA ? a_ : b_)[static_cast<std::size_t>(element)];
}

GlobalReadCounter::GlobalReadCounter(int a_elements, int b_elements, int blocks)
    : reads_a_(static_cast<std::size_t>(a_elements), 0),
      reads_b_(static_cast<std::size_t>(b_elements), 0),
      block_reads_a_(static_cast<std::size_t>(blocks), 0),
      block_reads_b_(static_cast<std::size_t>(blocks), 0) {}

}  // namespace sim
