#include "sim/cuda/front_end.h"

#include <algorithm>
#include <cctype>
#include <new>

#include "sim/cuda/compiler.h"
#include "sim/cuda/constant.h"
#include "sim/cuda/parser.h"

namespace sim::cuda {
namespace {

const KernelFunction& ChooseKernel(const TranslationUnit& unit, const std::string& wanted, bool first_of_several) {
  if (unit.kernels.empty()) Refuse({1, 1}, "the file has no __global__ kernel");
  std::string names;
  for (const KernelFunction& k : unit.kernels) {
    if (k.name == wanted) return k;
    names += (names.empty() ? "" : ", ") + k.name;
  }
  if (!wanted.empty()) Refuse({1, 1}, "the file has no kernel " + wanted + " (it has " + names + ")");
  if (unit.kernels.size() > 1 && !first_of_several) {
    Refuse({1, 1}, "the file has several kernels (" + names + "): pass --kernel NAME");
  }
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

// `text` with the lines from `first` to `last` (1-based) blanked but for their ends.
void BlankLines(std::vector<std::string>& lines, int first_line, int first_col, int last_line) {
  for (int l = first_line; l <= last_line && l <= static_cast<int>(lines.size()); ++l) {
    std::string& line = lines[static_cast<std::size_t>(l - 1)];
    const std::size_t from = l == first_line ? std::min(line.size(), static_cast<std::size_t>(first_col - 1)) : 0;
    for (std::size_t i = from; i < line.size(); ++i) line[i] = ' ';
  }
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

// A directive's name and first word: "#  define TILE 16" gives {"define", "TILE"}.
std::pair<std::string, std::string> Directive(const std::string& line) {
  std::size_t at = line.find_first_not_of(" \t");
  if (at == std::string::npos || line[at] != '#') return {};
  std::vector<std::string> words;
  std::string word;
  for (std::size_t i = at + 1; i <= line.size() && words.size() < 2; ++i) {
    const char c = i < line.size() ? line[i] : ' ';
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += c;
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  words.resize(2);
  return {words[0], words[1]};
}

std::string DeviceSource(const std::string& text, const TranslationUnit& unit, const Defines& macros) {
  std::vector<std::string> lines = SplitLines(text);
  for (const HostRange& r : unit.host_code) BlankLines(lines, r.begin.line, r.begin.col, r.end_line);
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const auto [directive, name] = Directive(lines[l]);
    const bool blank = directive == "include" || (directive == "define" && macros.count(name) > 0);
    // A directive continues past a line that ends in a backslash.
    for (std::size_t last = l; blank && last < lines.size(); ++last) {
      const bool continued = !lines[last].empty() && lines[last].back() == '\\';
      BlankLines(lines, static_cast<int>(last + 1), 1, static_cast<int>(last + 1));
      if (!continued) break;
    }
  }
  std::string out;
  for (std::size_t l = 0; l < lines.size(); ++l) out += lines[l] + (l + 1 < lines.size() ? "\n" : "");
  return out;
}

// blockDim.x/y/z replaced by the block's extents, so a constant expression holds them.
void BindBlock(Expr& e, const std::array<int, 3>& block) {
  if (e.kind == ExprKind::kBuiltin && e.builtin >= Builtin::kBlockDimX && e.builtin <= Builtin::kBlockDimZ) {
    const int axis = static_cast<int>(e.builtin) - static_cast<int>(Builtin::kBlockDimX);
    e.kind = ExprKind::kNumber;
    e.integer = static_cast<std::uint64_t>(block[static_cast<std::size_t>(axis)]);
    return;
  }
  for (ExprPtr& kid : e.kids) BindBlock(*kid, block);
}

}  // namespace

std::string NameExpression(const KernelFile& file) {
  std::string name = file.kernel.name;
  if (file.template_arguments.empty()) return name;
  for (std::size_t i = 0; i < file.template_arguments.size(); ++i) {
    name += (i == 0 ? "<" : ",") + std::to_string(file.template_arguments[i]);
  }
  return name + ">";
}

std::optional<long long> EvaluateIntegerExpression(const std::string& text, const std::map<std::string, long long>& values,
                                                   const std::array<int, 3>& block, std::string& error) {
  try {
    ExprPtr e = ParseExpression(Lex(text));
    BindBlock(*e, block);
    std::string unknown;
    const std::optional<Constant> value = EvaluateConstant(*e, [&](const std::string& name) -> std::optional<Constant> {
      const auto found = values.find(name);
      if (found == values.end()) {
        if (unknown.empty()) unknown = name;
        return std::nullopt;
      }
      return Constant{Type::kInt, found->second, 0.0};
    });
    if (value && value->IsInteger()) return value->integer;
    error = !unknown.empty() ? "unknown name " + unknown : "not an integer expression";
  } catch (const Refusal& refusal) {
    // The parser's words are a file's; here the text is one expression.
    std::string what = refusal.what();
    const std::string file_end = "the end of the file";
    if (const std::size_t at = what.find(file_end); at != std::string::npos) what.replace(at, file_end.size(), "the end of the expression");
    error = what + " (at column " + std::to_string(refusal.pos().col) + ")";
  }
  return std::nullopt;
}

std::string SourceProblem::Text() const {
  return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) + ": " + message;
}

FrontEndResult CompileKernelFile(const std::string& text, const std::string& file_name, const FrontEndOptions& options) {
  FrontEndResult result;
  try {
    const std::vector<Token> raw = Lex(text);
    // A --define of a template parameter or of a kernel's int parameter binds it; any other is a macro.
    std::vector<std::string> bound = TemplateParameterNames(raw);
    for (std::string& name : KernelIntParameterNames(raw)) bound.push_back(std::move(name));
    Defines macros;
    for (const auto& [name, value] : options.defines) {
      if (std::find(bound.begin(), bound.end(), name) == bound.end()) macros[name] = value;
    }
    const TranslationUnit unit = Parse(Preprocess(raw, macros));
    const KernelFunction& chosen = ChooseKernel(unit, options.kernel, options.first_of_several);
    const Launch* launch = FirstLaunch(unit, chosen.name);
    KernelFile file;
    const std::map<std::string, long long> template_values = TemplateValues(chosen, launch, options.defines);
    file.kernel = CompileKernel(chosen, unit, template_values);
    for (const std::string& name : chosen.template_parameters) {
      const auto value = template_values.find(name);
      if (value != template_values.end()) file.template_arguments.push_back(value->second);
    }
    file.device_source = DeviceSource(text, unit, macros);
    file.macros = macros;
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
