#include "sim/cuda/parser.h"

#include "sim/cuda/parser_parts.h"

namespace sim::cuda {
namespace parsing {
namespace {

const std::set<std::string> kUnsupportedTypes{"double", "long", "short", "char", "size_t", "auto", "int64_t",
                                              "uint64_t", "__half", "float2", "float4", "int2", "int4",
                                              "signed", "struct", "class", "union", "enum", "typedef", "using"};

}  // namespace

bool IsUnsupportedType(const std::string& name) { return kUnsupportedTypes.count(name) > 0; }

void RefuseType(const Token& t) { Refuse(t.pos, "the type '" + t.text + "' is not supported (int, unsigned, float, bool)"); }

}  // namespace parsing

namespace {

using parsing::Cursor;

// The file's top level: kernels (their bodies are StatementParser's), templates, file
// constants; the rest is host code (HostCodeReader).
class Parser {
 public:
  explicit Parser(const std::vector<Token>& tokens) : tokens_(tokens), in_(tokens) {}

  TranslationUnit Run() {
    while (!in_.AtEnd()) TopLevel();
    return std::move(unit_);
  }

 private:
  void TopLevel() {
    const Token& t = in_.Peek();
    if (t.kind == TokenKind::kIdentifier && t.text == "extern" && in_.Peek(1).kind == TokenKind::kString) {
      in_.Take();
      in_.Take();
      if (in_.Is("{")) in_.Take();  // extern "C" { ... }: its contents are read as the file's
      return;
    }
    if (in_.Is("template")) {
      Template();
      return;
    }
    if (in_.Is("__global__") || (in_.Is("static") && in_.Is("__global__", 1))) {
      in_.Accept("static");
      Kernel({});
      return;
    }
    if (in_.Is("__device__") || in_.Is("__constant__") || (in_.Is("__host__") && in_.Is("__device__", 1))) {
      Refuse(t.pos, in_.Is("__constant__") ? "__constant__ memory is not supported"
                                            : "__device__ functions and variables are not supported: write the code inside the kernel");
    }
    if (in_.Is("__shared__") || (in_.Is("extern") && in_.Is("__shared__", 1))) {
      Refuse(t.pos, "a __shared__ array outside a kernel is not supported: declare it inside");
    }
    if (FileConstant()) return;
    SkipHostCode(in_.at());
  }

  // Skips host code from the token at `begin`, and notes where it was: a CUDA compiler is
  // given the file without it (KernelFile::device_source).
  void SkipHostCode(std::size_t begin) {
    host_.Skip();
    if (in_.at() == begin) return;
    const Token& last = tokens_[in_.at() - 1];
    unit_.host_code.push_back({tokens_[begin].pos, last.pos.line});
  }

  void Template() {
    const std::size_t begin = in_.at();
    const SourcePos pos = in_.Take().pos;
    in_.Expect("<", "after template");
    std::vector<std::string> names;
    bool ints_only = true;
    int depth = 1;
    while (depth > 0 && !in_.AtEnd()) {
      if (in_.Is("<")) ++depth;
      if (in_.Is(">")) --depth;
      if (in_.Is(">>")) depth -= 2;
      if (depth <= 0) {
        in_.Take();
        break;
      }
      if (depth == 1 && (in_.Is("int") || in_.Is("unsigned")) && in_.Peek(1).kind == TokenKind::kIdentifier &&
          (in_.Is(",", 2) || in_.Is(">", 2) || in_.Is("=", 2))) {
        in_.Take();
        names.push_back(in_.Take().text);
        continue;
      }
      if (depth == 1 && (in_.Is("typename") || in_.Is("class") || in_.Is("bool") || in_.Is("size_t"))) ints_only = false;
      in_.Take();
    }
    while (in_.Is("static") || in_.Is("inline")) in_.Take();
    if (in_.Is("__global__")) {
      if (!ints_only) Refuse(pos, "a kernel template may take int parameters only (template <int TILE>)");
      Kernel(names);
      return;
    }
    if (in_.Is("__device__")) Refuse(in_.Peek().pos, "__device__ functions are not supported: write the code inside the kernel");
    SkipHostCode(begin);
  }

  // `const int NAME = value;` (or constexpr, static) at file scope: a constant the kernels may use.
  bool FileConstant() {
    const std::size_t start = in_.at();
    bool is_const = false;
    while (in_.Is("static") || in_.Is("const") || in_.Is("constexpr")) is_const = in_.Take().text != "static" || is_const;
    if (!is_const || !(in_.Is("int") || in_.Is("unsigned") || in_.Is("float")) || in_.Peek(1).kind != TokenKind::kIdentifier ||
        !in_.Is("=", 2)) {
      in_.Seek(start);
      return false;
    }
    Declaration d;
    d.is_const = true;
    d.type = in_.Is("float") ? Type::kFloat : (in_.Is("int") ? Type::kInt : Type::kUnsigned);
    in_.Take();
    d.pos = in_.Peek().pos;
    d.name = in_.Take().text;
    in_.Take();
    d.init = expressions_.Assignment();
    in_.Expect(";", "after a constant");
    host_.AddConstant(d.name, d.init.get());
    unit_.constants.push_back(std::move(d));
    return true;
  }

  void Kernel(std::vector<std::string> template_parameters) {
    KernelFunction k;
    k.pos = in_.Take().pos;  // __global__
    while (in_.Is("__launch_bounds__")) {
      in_.Take();
      SkipBalanced("(", ")");
    }
    if (!in_.Accept("void")) Refuse(in_.Peek().pos, "a __global__ function returns void");
    k.name = in_.ExpectName("the kernel's name");
    k.template_parameters = std::move(template_parameters);
    in_.Expect("(", "after the kernel's name");
    if (!in_.Is(")")) {
      do {
        k.parameters.push_back(KernelParameter());
      } while (in_.Accept(","));
    }
    in_.Expect(")", "after the kernel's parameters");
    if (in_.Accept(";")) return;  // a declaration: the definition follows
    if (!in_.Is("{")) Refuse(in_.Peek().pos, "expected the kernel's body, found " + Cursor::Describe(in_.Peek()));
    k.body = statements_.Statement();
    for (const KernelFunction& other : unit_.kernels) {
      if (other.name == k.name) Refuse(k.pos, "the kernel " + k.name + " is defined twice (overloads are not supported)");
    }
    unit_.kernels.push_back(std::move(k));
  }

  Parameter KernelParameter() {
    Parameter p;
    p.pos = in_.Peek().pos;
    bool is_const = false;
    while (in_.Is("const")) is_const = !in_.Take().text.empty();
    if (in_.Accept("float")) {
      while (in_.Is("const")) is_const = !in_.Take().text.empty();
      if (!in_.Accept("*")) Refuse(in_.Peek().pos, "a float parameter must be a pointer (float* A): a float by value is not supported");
      p.pointer = true;
      p.const_data = is_const;
      while (in_.Is("__restrict__") || in_.Is("const") || in_.Is("__restrict")) in_.Take();
      if (in_.Is("*")) Refuse(in_.Peek().pos, "a pointer to a pointer is not supported");
    } else if (in_.Accept("int") || in_.Accept("unsigned")) {
      in_.Accept("int");
      while (in_.Is("const")) in_.Take();
      if (in_.Is("*") || in_.Is("&")) Refuse(in_.Peek().pos, "an int pointer or reference parameter is not supported: the arrays are float*");
    } else {
      Refuse(p.pos, "the parameter type " + Cursor::Describe(in_.Peek()) + " is not supported (float*, const float*, int)");
    }
    p.name = in_.ExpectName("a parameter name");
    return p;
  }

  void SkipBalanced(const char* open, const char* close) {
    in_.Expect(open, "");
    int depth = 1;
    while (depth > 0 && !in_.AtEnd()) {
      if (in_.Is(open)) ++depth;
      if (in_.Is(close)) --depth;
      in_.Take();
    }
  }

  const std::vector<Token>& tokens_;
  Cursor in_;
  parsing::ExpressionParser expressions_{in_};
  parsing::StatementParser statements_{in_, expressions_};
  TranslationUnit unit_;
  parsing::HostCodeReader host_{in_, expressions_, unit_.launches};
};

}  // namespace

TranslationUnit Parse(const std::vector<Token>& tokens) { return Parser(tokens).Run(); }

ExprPtr ParseExpression(const std::vector<Token>& tokens) {
  Cursor in(tokens);
  parsing::ExpressionParser expressions(in);
  ExprPtr e = expressions.Expression();
  if (!in.AtEnd()) Refuse(in.Peek().pos, "unexpected " + Cursor::Describe(in.Peek()) + " after the expression");
  return e;
}

std::vector<std::string> TemplateParameterNames(const std::vector<Token>& tokens) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i + 3 < tokens.size(); ++i) {
    if (tokens[i].text != "template" || tokens[i + 1].text != "<") continue;
    for (std::size_t j = i + 2; j + 1 < tokens.size() && tokens[j].text != ">"; ++j) {
      if ((tokens[j].text == "int" || tokens[j].text == "unsigned") && tokens[j + 1].kind == TokenKind::kIdentifier) {
        names.push_back(tokens[j + 1].text);
      }
    }
  }
  return names;
}

std::vector<std::string> KernelIntParameterNames(const std::vector<Token>& tokens) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].text != "__global__") continue;
    std::size_t open = i + 1;
    while (open < tokens.size() && tokens[open].text != "(" && tokens[open].text != ";" && tokens[open].text != "{") ++open;
    if (open >= tokens.size() || tokens[open].text != "(") continue;
    for (std::size_t j = open + 1; j + 1 < tokens.size() && tokens[j].text != ")"; ++j) {
      const bool int_type = tokens[j].text == "int" || tokens[j].text == "unsigned";
      const Token& name = tokens[j + 1];
      const std::string& after = j + 2 < tokens.size() ? tokens[j + 2].text : "";
      if (int_type && name.kind == TokenKind::kIdentifier && (after == "," || after == ")")) names.push_back(name.text);
    }
  }
  return names;
}

}  // namespace sim::cuda
