// preprocessor.h — the few directives student kernels use, applied to a file's tokens.
//
// `#define` constants and macros with parameters (no `#` or `##` in them), `#undef`,
// `#ifdef`/`#ifndef`/`#else`/`#endif` and `#if` on an integer; `#include` and every `#pragma`
// (`#pragma unroll` changes no result) are ignored. Anything else is refused at its line.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/cuda/lexer.h"

namespace sim::cuda {

// Macros given from outside the file (`--define NAME=VALUE`): each replaces the file's own
// `#define` of that name, so a grader can try another tile size without editing the file.
using Defines = std::map<std::string, std::string>;

// The file's tokens with directives applied and macros expanded; ends with kEnd. A token from
// a macro keeps the place of the name it replaced. Throws Refusal.
std::vector<Token> Preprocess(const std::vector<Token>& tokens, const Defines& defines);

}  // namespace sim::cuda
