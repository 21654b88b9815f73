#include "sim/cuda/front_end.h"

#include <algorithm>
#include <new>

#include "sim/cuda/compiler.h"
#include "sim/cuda/parser.h"

namespace sim::cuda {
namespace {

const KernelFunction& ChooseKernel(const TranslationUnit& unit, const std::string& wanted) {
  if (unit.kernels.empty()) Refuse({1, 1}, "the file has no __global__ kernel");
  std::string names;
  for (const KernelFunction& k : unit.kernels) {
    if (k.name == wanted) return k;
    names += (names.empty() ? "" : ", ") + k.name;
  }
  if (!wanted.empty()) Refuse({1, 1}, "the file has no kernel " + wanted + " (it has " + names + ")");
  if (unit.kernels.size() > 1) Refuse({1, 1}, "the file has several kernels (" + names + "): pass --kernel NAME");
  return unit.kernels.front();
}

const Launch* FirstLaunch(const TranslationUnit& unit, const std::string& kernel) {
  for (const Launch& launch : unit.launches) {
    if (launch.kernel == kernel) return &launch;
  }
  return nullptr;
}

// A template parameter's value: --define first, else the file's launch.
std::map<std::string, long long> TemplateValues(const KernelFunction& kernel, const Launch* launch, const Defines& defines) {
  std::map<std::string, long long> values;
  for (std::size_t i = 0; i < kernel.template_parameters.size(); ++i) {
    const std::string& name = kernel.template_parameters[i];
    const auto defined = defines.find(name);
    if (defined != defines.end()) {
      std::size_t used = 0;
      long long value = 0;
      try {
        value = std::stoll(defined->second, &used, 0);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != defined->second.size()) {
        Refuse(kernel.pos, "--define " + name + "=" + defined->second + ": the template parameter " + name + " needs an integer");
      }
      values[name] = value;
    } else if (launch != nullptr && i < launch->template_arguments.size() && launch->template_arguments[i]) {
      values[name] = *launch->template_arguments[i];
    }
  }
  return values;
}

}  // namespace

std::string SourceProblem::Text() const {
  return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) + ": " + message;
}

FrontEndResult CompileKernelFile(const std::string& text, const std::string& file_name, const FrontEndOptions& options) {
  FrontEndResult result;
  try {
    const std::vector<Token> raw = Lex(text);
    // A --define of a template parameter binds it; any other is a macro.
    const std::vector<std::string> template_names = TemplateParameterNames(raw);
    Defines macros;
    for (const auto& [name, value] : options.defines) {
      if (std::find(template_names.begin(), template_names.end(), name) == template_names.end()) macros[name] = value;
    }
    const TranslationUnit unit = Parse(Preprocess(raw, macros));
    const KernelFunction& chosen = ChooseKernel(unit, options.kernel);
    const Launch* launch = FirstLaunch(unit, chosen.name);
    KernelFile file;
    file.kernel = CompileKernel(chosen, unit, TemplateValues(chosen, launch, options.defines));
    for (const KernelFunction& k : unit.kernels) file.kernel_names.push_back(k.name);
    if (launch != nullptr) {
      file.launch_grid = launch->grid;
      file.launch_block = launch->block;
    }
    result.file = std::move(file);
  } catch (const Refusal& refusal) {
    result.problem = SourceProblem{file_name, refusal.pos(), refusal.what()};
  } catch (const std::bad_alloc&) {
    result.problem = SourceProblem{file_name, {1, 1}, "the file is too large for the model"};
  }
  return result;
}

int CompiledKernel::SharedWords() const {
  int words = 0;
  for (const SharedArray& a : shared) words += a.Words();
  return words;
}

const char* OpcodeName(Opcode op) {
  static constexpr const char* kNames[] = {
      "move", "add.i", "sub.i", "mul.i", "div.i", "rem.i", "div.u", "rem.u", "shl", "shr.i", "shr.u", "and", "or",
      "xor", "not", "neg.i", "eq.i", "ne.i", "lt.i", "le.i", "lt.u", "le.u", "lnot", "min.i", "max.i", "min.u",
      "max.u", "add.f", "sub.f", "mul.f", "div.f", "neg.f", "fma", "min.f", "max.f", "sqrt.f", "abs.f", "eq.f",
      "ne.f", "lt.f", "le.f", "not.f", "i2f", "u2f", "f2i", "f2u", "jump", "jump.z", "jump.nz", "ld.local",
      "st.local", "chk.local", "ld.global", "st.global", "ld.shared", "st.shared", "syncthreads", "syncwarp", "exit"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<std::size_t>(Opcode::kExit) + 1, "a name per opcode");
  return kNames[static_cast<int>(op)];
}

}  // namespace sim::cuda
