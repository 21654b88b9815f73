// compiler.h — one parsed kernel turned into the model's instructions (ir.h).
//
// Types follow C: threadIdx and its kin are unsigned, int and unsigned mix as unsigned,
// integers wrap. A floating constant without `f` is a double; the compiler computes with it
// in float only where that gives the double's result rounded to float, and refuses the rest.
//
// Float contraction, as nvcc compiles by default (-fmad=true), is the rule FmaRule in
// compiler_parts.h states.
#pragma once
#include <map>
#include <string>

#include "sim/cuda/ast.h"
#include "sim/cuda/ir.h"

namespace sim::cuda {

// The kernel's template parameters' values by name. Throws Refusal.
CompiledKernel CompileKernel(const KernelFunction& kernel, const TranslationUnit& unit,
                             const std::map<std::string, long long>& template_values);

}  // namespace sim::cuda
