// kernel_resources — turns ptxas's resource report (`nvcc -Xptxas -v`, names demangled by
// c++filt, on stdin) into the table of registers and static shared memory per teaching
// kernel and architecture that the occupancy view reads (sim/model/kernel_resources.json).
//
// The build runs it on every CUDA build (kernels/CMakeLists.txt) and a test compares its
// output with the committed table, so the figures the app shows are measured by ptxas,
// never typed. Usage: ... | c++filt | kernel_resources "CUDA VERSION" > table.json
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "kernels/kernel_table.h"

namespace {

using kernels::KernelFamily;
using kernels::KernelSpec;

int SyncNumber(sim::SyncKind barrier) { return static_cast<int>(barrier); }

const char* Bool(bool value) { return value ? "true" : "false"; }

// The demangled template name of a teaching row's __global__ function (launchers.cu's
// KernelFunction); empty for rows this table leaves out (the ladder, cuBLAS).
std::string DemangledName(const KernelSpec& s) {
  char text[256] = {};
  if (s.family == KernelFamily::kNaive) {
    std::snprintf(text, sizeof text, "naive_matmul<%s>", Bool(s.guarded));
  } else if (s.family == KernelFamily::kTiled) {
    std::snprintf(text, sizeof text, "tiled_matmul<%d, (sim::SyncKind)%d, (sim::SyncKind)%d, %s, %s, %s>", s.tile_m,
                  SyncNumber(s.first_barrier), SyncNumber(s.second_barrier), Bool(s.guarded), Bool(s.ceil_tiles),
                  Bool(s.bs_transposed));
  } else if (s.family == KernelFamily::kTiledRect) {
    std::snprintf(text, sizeof text, "tiled_rect_matmul<%d, %d, %d, (sim::SyncKind)%d, (sim::SyncKind)%d, %s, %s>", s.tile_m,
                  s.tile_n, s.tile_k, SyncNumber(s.first_barrier), SyncNumber(s.second_barrier), Bool(s.guarded),
                  Bool(s.ceil_tiles));
  }
  return text;
}

struct Resources {
  std::map<std::string, int> registers;  // per "sm_90"
  int shared_bytes = -1;
};

}  // namespace

constexpr const char* kUsage =
    "usage: nvcc ... -Xptxas -v 2>&1 | c++filt | kernel_resources \"CUDA VERSION\"\n"
    "(the registers and shared memory ptxas reports per teaching kernel, as JSON on stdout)\n";

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::printf("%s", kUsage);
    return 0;
  }
  // A CUDA version never starts with '-': such an argument is a flag this program lacks (and
  // taking it for the version would leave the program waiting on stdin).
  if (argc != 2 || argv[1][0] == '-') {
    if (argc == 2) std::fprintf(stderr, "kernel_resources: unknown option %s\n", argv[1]);
    std::fprintf(stderr, "%s", kUsage);
    return 2;
  }
  // The parameter list is the last parenthesis: template arguments hold some, "(sim::SyncKind)0".
  const std::regex entry(R"(Compiling entry function 'void (.*)\([^()]*\)' for '(sm_[0-9]+a?)')");
  const std::regex used(R"(Used ([0-9]+) registers.*?([0-9]+) bytes smem)");
  const std::regex used_no_smem(R"(Used ([0-9]+) registers)");
  std::map<std::string, Resources> found;  // by demangled template name
  std::string function, arch;
  for (std::string line; std::getline(std::cin, line);) {
    std::smatch match;
    if (std::regex_search(line, match, entry)) {
      function = match[1];
      arch = match[2];
    } else if (!function.empty() && std::regex_search(line, match, used)) {
      found[function].registers[arch] = std::stoi(match[1]);
      found[function].shared_bytes = std::stoi(match[2]);
      function.clear();
    } else if (!function.empty() && std::regex_search(line, match, used_no_smem)) {
      found[function].registers[arch] = std::stoi(match[1]);
      found[function].shared_bytes = 0;
      function.clear();
    }
  }
  nlohmann::ordered_json table;
  std::string archs;
  nlohmann::ordered_json rows = nlohmann::ordered_json::object();
  for (const KernelSpec& spec : kernels::kKernelTable) {
    const std::string name = DemangledName(spec);
    if (name.empty()) continue;
    const auto it = found.find(name);
    if (it == found.end()) {
      std::fprintf(stderr, "kernel_resources: ptxas reported nothing for %s (%s)\n", spec.name, name.c_str());
      return 1;
    }
    rows[spec.name] = {{"shared_bytes", it->second.shared_bytes}, {"registers", it->second.registers}};
    if (archs.empty()) {
      for (const auto& [one, count] : it->second.registers) archs += (archs.empty() ? "" : " ") + one;
    }
  }
  table["source"] = std::string("ptxas -v of CUDA ") + argv[1] + " (" + archs + ")";
  table["kernels"] = rows;
  std::cout << table.dump(1) << "\n";
  return 0;
}
