// front_end.h — a student's .cu file turned into a kernel the model can run.
//
// Lex, preprocess, parse, compile: one call, which either gives the compiled kernel or
// the first thing it could not read, as `file:line:col: what`. Nothing here throws.
#pragma once
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/cuda/ir.h"
#include "sim/cuda/preprocessor.h"

namespace sim::cuda {

struct FrontEndOptions {
  std::string kernel;  // which __global__ function, where the file has several
  Defines defines;     // --define NAME=VALUE: a template or int parameter's value, or a macro
  // None named where the file has several: the first (the window, whose picker offers the
  // others), not a refusal (check, which cannot ask).
  bool first_of_several = false;
};

struct SourceProblem {
  std::string file;
  SourcePos pos;
  std::string message;
  std::string Text() const;  // "file:line:col: message"
};

struct KernelFile {
  CompiledKernel kernel;
  std::vector<long long> template_arguments;  // the kernel's `template <int ...>` values, in order
  // The file as a CUDA compiler (NVRTC) should read it: host code, `#include`s and the
  // `#define`s a --define replaces blanked, every line where it was, so the compiler's
  // messages name the student's lines. The --define macros go to it as -D options.
  std::string device_source;
  Defines macros;
  std::vector<std::string> kernel_names;  // every __global__ function of the file
  // From the file's first launch of the kernel, where its values follow from constants.
  std::optional<std::array<long long, 3>> launch_grid;
  std::optional<std::array<long long, 3>> launch_block;
};

struct FrontEndResult {
  std::optional<KernelFile> file;
  std::optional<SourceProblem> problem;
};

FrontEndResult CompileKernelFile(const std::string& text, const std::string& file_name, const FrontEndOptions& options);

// The name a CUDA compiler knows the kernel by: `tiled` or `tiled<16>`.
std::string NameExpression(const KernelFile& file);

// An integer expression written on a command line (`(N+15)/16`) over the names `values`
// gives and blockDim.x/y/z (`block`), with C's rules; the value, or the problem in `error`.
std::optional<long long> EvaluateIntegerExpression(const std::string& text, const std::map<std::string, long long>& values,
                                                   const std::array<int, 3>& block, std::string& error);

}  // namespace sim::cuda
