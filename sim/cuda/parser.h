// parser.h — a preprocessed CUDA file read into its kernels and its launches.
//
// `__global__` functions are parsed in full and anything a kernel may not use is refused at
// its place; host code (main, cudaMalloc, structs, helpers) is skipped, except that each
// `kernel<<<grid, block>>>` launch in it is read, with the grid and block where they follow
// from constants (`dim3 block(16, 16)`, `#define TILE 16`, `const int n = 1024`).
#pragma once
#include <vector>

#include "sim/cuda/ast.h"
#include "sim/cuda/lexer.h"

namespace sim::cuda {

// Throws Refusal.
TranslationUnit Parse(const std::vector<Token>& tokens);

// One C expression filling all of `tokens` (a command line's `(N+15)/16`). Throws Refusal.
ExprPtr ParseExpression(const std::vector<Token>& tokens);

// The names of the `template <int NAME>` parameters of the file's kernels, read from its
// tokens before preprocessing (so a --define of one binds it instead of replacing it).
std::vector<std::string> TemplateParameterNames(const std::vector<Token>& tokens);
// The names of the int parameters of the file's `__global__` functions, read the same way: a
// --define of one binds the argument the check passes, and replacing the name would leave
// `int 16` in the parameter list.
std::vector<std::string> KernelIntParameterNames(const std::vector<Token>& tokens);

}  // namespace sim::cuda
