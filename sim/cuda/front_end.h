// front_end.h — a student's .cu file turned into a kernel the model can run.
//
// Lex, preprocess, parse, compile: one call, which either gives the compiled kernel or
// the first thing it could not read, as `file:line:col: what`. Nothing here throws.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "sim/cuda/ir.h"
#include "sim/cuda/preprocessor.h"

namespace sim::cuda {

struct FrontEndOptions {
  std::string kernel;  // which __global__ function, where the file has several
  Defines defines;     // --define NAME=VALUE: a template parameter's value, or a macro
};

struct SourceProblem {
  std::string file;
  SourcePos pos;
  std::string message;
  std::string Text() const;  // "file:line:col: message"
};

struct KernelFile {
  CompiledKernel kernel;
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

}  // namespace sim::cuda
