#include "sim/cuda/parser.h"

#include <map>
#include <set>

#include "sim/cuda/constant.h"

namespace sim::cuda {
namespace {

// Deeper nesting than this is refused, not followed: the parser recurses once a level.
constexpr int kMaxNesting = 200;

const std::set<std::string> kUnsupportedTypes{"double", "long", "short", "char", "size_t", "auto", "int64_t",
                                              "uint64_t", "__half", "float2", "float4", "int2", "int4",
                                              "signed", "struct", "class", "union", "enum", "typedef", "using"};

// Tokens read front to back, with the checks every rule needs.
class Cursor {
 public:
  explicit Cursor(const std::vector<Token>& tokens) : tokens_(tokens) {}
  const Token& Peek(std::size_t ahead = 0) const {
    const std::size_t i = at_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  bool AtEnd() const { return Peek().kind == TokenKind::kEnd; }
  bool Is(const char* text, std::size_t ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind != TokenKind::kEnd && t.kind != TokenKind::kString && t.kind != TokenKind::kChar && t.text == text;
  }
  const Token& Take() {
    const Token& t = Peek();
    if (at_ + 1 < tokens_.size()) ++at_;
    return t;
  }
  bool Accept(const char* text) {
    if (!Is(text)) return false;
    Take();
    return true;
  }
  const Token& Expect(const char* text, const char* where) {
    if (!Is(text)) Refuse(Peek().pos, std::string("expected '") + text + "' " + where + ", found " + Describe(Peek()));
    return Take();
  }
  std::string ExpectName(const char* what) {
    if (Peek().kind != TokenKind::kIdentifier) Refuse(Peek().pos, std::string("expected ") + what + ", found " + Describe(Peek()));
    return Take().text;
  }
  static std::string Describe(const Token& t) { return t.kind == TokenKind::kEnd ? "the end of the file" : "'" + t.text + "'"; }
  std::size_t at() const { return at_; }
  void Seek(std::size_t at) { at_ = at; }

 private:
  const std::vector<Token>& tokens_;
  std::size_t at_ = 0;
};

// Guards the recursion of one rule.
class Nesting {
 public:
  Nesting(int& depth, SourcePos pos) : depth_(depth) {
    if (++depth_ > kMaxNesting) Refuse(pos, "nested more than " + std::to_string(kMaxNesting) + " levels deep");
  }
  ~Nesting() { --depth_; }
  Nesting(const Nesting&) = delete;
  Nesting& operator=(const Nesting&) = delete;

 private:
  int& depth_;
};

ExprPtr MakeExpr(ExprKind kind, SourcePos pos, std::string op = {}) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->pos = pos;
  e->op = std::move(op);
  return e;
}

int BinaryPrecedence(const std::string& op) {
  static const std::map<std::string, int> kTable{{"*", 13}, {"/", 13}, {"%", 13}, {"+", 12}, {"-", 12}, {"<<", 11},
                                                 {">>", 11}, {"<", 10}, {"<=", 10}, {">", 10}, {">=", 10}, {"==", 9},
                                                 {"!=", 9}, {"&", 8}, {"^", 7}, {"|", 6}, {"&&", 5}, {"||", 4}};
  const auto found = kTable.find(op);
  return found == kTable.end() ? -1 : found->second;
}

bool IsAssignment(const std::string& op) {
  return op == "=" || op == "+=" || op == "-=" || op == "*=" || op == "/=" || op == "%=" || op == "<<=" ||
         op == ">>=" || op == "&=" || op == "|=" || op == "^=";
}

class Parser {
 public:
  explicit Parser(const std::vector<Token>& tokens) : in_(tokens) {}

  TranslationUnit Run() {
    while (!in_.AtEnd()) TopLevel();
    return std::move(unit_);
  }

  // Expressions (public: host code's launches are read with them too).
  ExprPtr Expression() {
    ExprPtr left = Assignment();
    while (in_.Is(",")) {
      const SourcePos pos = in_.Take().pos;
      ExprPtr e = MakeExpr(ExprKind::kComma, pos, ",");
      e->kids.push_back(std::move(left));
      e->kids.push_back(Assignment());
      left = std::move(e);
    }
    return left;
  }

 private:
  // ---- the file ----
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
    SkipHost();
  }

  void Template() {
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
    SkipHost();
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
    d.init = Assignment();
    in_.Expect(";", "after a constant");
    host_constants_[d.name] = d.init.get();
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
    k.body = Statement();
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

  // ---- host code ----
  // Skips one host construct: up to a `;` at depth 0, or a `{...}` body closing at depth 0.
  // Launches and the constants they use are read on the way.
  void SkipHost() {
    int depth = 0;
    bool statement_start = true;
    while (!in_.AtEnd()) {
      const Token& t = in_.Peek();
      if (statement_start) HostDeclaration();
      statement_start = false;
      if (in_.AtEnd()) return;
      if (t.kind == TokenKind::kIdentifier && IsLaunch()) {
        HostLaunch();
        continue;
      }
      const std::string text = in_.Take().text;
      if (t.kind == TokenKind::kString || t.kind == TokenKind::kChar) continue;
      if (text == "{" || text == "(" || text == "[") ++depth;
      if (text == "}" || text == ")" || text == "]") --depth;
      if (text == ";" || text == "{" || text == "}") statement_start = true;
      if (depth <= 0 && (text == ";" || text == "}")) return;
      if (depth < 0) return;
    }
  }

  bool IsLaunch() const {
    std::size_t ahead = 1;
    if (in_.Is("<", ahead)) {
      int depth = 0;
      for (;; ++ahead) {
        const Token& t = in_.Peek(ahead);
        if (t.kind == TokenKind::kEnd || t.text == ";" || t.text == "{") return false;
        if (t.text == "<") ++depth;
        if (t.text == ">" && --depth == 0) break;
      }
      ++ahead;
    }
    return in_.Is("<<<", ahead);
  }

  void HostLaunch() {
    Launch launch;
    launch.pos = in_.Peek().pos;
    launch.kernel = in_.Take().text;
    if (in_.Accept("<")) {
      do {
        launch.template_arguments.push_back(HostInteger(Shift()));
      } while (in_.Accept(","));
      in_.Expect(">", "after the template arguments");
    }
    in_.Expect("<<<", "in a launch");
    launch.grid = HostDim3(HostArgument());
    in_.Expect(",", "between a launch's grid and block");
    launch.block = HostDim3(HostArgument());
    while (in_.Accept(",")) HostArgument();  // shared bytes, stream
    in_.Expect(">>>", "after a launch's configuration");
    unit_.launches.push_back(std::move(launch));
  }

  // One argument of a launch; host code may hold what a kernel may not, so a refusal there
  // makes the value unknown, and the argument is skipped to its `,` or `>>>`.
  ExprPtr HostArgument() {
    const std::size_t start = in_.at();
    try {
      ExprPtr e = Shift();
      if (in_.Is(",") || in_.Is(">>>")) return e;
    } catch (const Refusal&) {
    }
    in_.Seek(start);
    int depth = 0;
    while (!in_.AtEnd() && !(depth == 0 && (in_.Is(",") || in_.Is(">>>")))) {
      if (in_.Is("(")) ++depth;
      if (in_.Is(")")) --depth;
      in_.Take();
    }
    return nullptr;
  }

  // `int n = 1024;`, `dim3 block(16, 16);` and the like inside host code, remembered where
  // their values are constants (the last one of a name counts).
  void HostDeclaration() {
    const std::size_t start = in_.at();
    try {
      while (in_.Is("const") || in_.Is("constexpr") || in_.Is("static")) in_.Take();
      if (in_.Is("dim3") && in_.Peek(1).kind == TokenKind::kIdentifier) {
        in_.Take();
        const std::string name = in_.Take().text;
        const bool braces = in_.Is("{");
        if (in_.Accept("=")) {
          if (in_.Is("dim3")) in_.Take();
        }
        const bool open_brace = in_.Is("{");
        if (!in_.Accept("(") && !in_.Accept("{")) throw Refusal({}, "");
        std::vector<ExprPtr> args;
        const char* close = open_brace || braces ? "}" : ")";
        if (!in_.Is(close)) {
          do {
            args.push_back(Assignment());
          } while (in_.Accept(","));
        }
        in_.Expect(close, "");
        host_dims_[name] = Dim3Of(args);
      } else if ((in_.Is("int") || in_.Is("unsigned") || in_.Is("size_t") || in_.Is("long")) &&
                 in_.Peek(1).kind == TokenKind::kIdentifier && in_.Is("=", 2)) {
        in_.Take();
        const std::string name = in_.Take().text;
        in_.Take();
        host_owned_.push_back(Assignment());
        host_constants_[name] = host_owned_.back().get();
      }
    } catch (const Refusal&) {
    }
    in_.Seek(start);
  }

  std::optional<long long> HostInteger(const ExprPtr& e) const {
    if (!e) return std::nullopt;
    try {
      const std::optional<Constant> c = EvaluateConstant(*e, [this](const std::string& name) { return HostLookup(name); });
      if (c && c->IsInteger()) return c->integer;
    } catch (const Refusal&) {
    }
    return std::nullopt;
  }

  std::optional<Constant> HostLookup(const std::string& name) const {
    const auto found = host_constants_.find(name);
    if (found == host_constants_.end() || looking_up_.count(name) > 0) return std::nullopt;
    looking_up_.insert(name);
    std::optional<Constant> value;
    try {
      value = EvaluateConstant(*found->second, [this](const std::string& n) { return HostLookup(n); });
    } catch (const Refusal&) {
    }
    looking_up_.erase(name);
    return value;
  }

  std::optional<std::array<long long, 3>> Dim3Of(const std::vector<ExprPtr>& args) const {
    if (args.empty() || args.size() > 3) return std::nullopt;
    std::array<long long, 3> dims{1, 1, 1};
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::optional<long long> v = HostInteger(args[i]);
      if (!v) return std::nullopt;
      dims[i] = *v;
    }
    return dims;
  }

  std::optional<std::array<long long, 3>> HostDim3(const ExprPtr& e) const {
    if (!e) return std::nullopt;
    if (e->kind == ExprKind::kCall && e->op == "dim3") return Dim3Of(e->kids);
    if (e->kind == ExprKind::kName) {
      const auto found = host_dims_.find(e->op);
      if (found != host_dims_.end()) return found->second;
    }
    const std::optional<long long> v = HostInteger(e);
    if (!v) return std::nullopt;
    return std::array<long long, 3>{*v, 1, 1};
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

  // ---- statements ----
  StmtPtr Statement() {
    const Token& t = in_.Peek();
    Nesting nesting(depth_, t.pos);
    auto s = std::make_unique<Stmt>();
    s->pos = t.pos;
    if (in_.Accept("{")) {
      s->kind = StmtKind::kBlock;
      while (!in_.Is("}")) {
        if (in_.AtEnd()) Refuse(t.pos, "this '{' is never closed");
        s->body.push_back(Statement());
      }
      in_.Take();
    } else if (in_.Accept(";")) {
      s->kind = StmtKind::kEmpty;
    } else if (in_.Accept("if")) {
      s->kind = StmtKind::kIf;
      if (in_.Is("constexpr")) in_.Take();
      s->expr = Condition("if");
      s->body.push_back(Statement());
      if (in_.Accept("else")) s->body.push_back(Statement());
    } else if (in_.Accept("while")) {
      s->kind = StmtKind::kWhile;
      s->expr = Condition("while");
      s->body.push_back(Statement());
    } else if (in_.Accept("do")) {
      s->kind = StmtKind::kDo;
      s->body.push_back(Statement());
      in_.Expect("while", "after a do loop's body");
      s->expr = Condition("do ... while");
      in_.Expect(";", "after do ... while (...)");
    } else if (in_.Accept("for")) {
      For(*s);
    } else if (in_.Accept("break") || in_.Accept("continue")) {
      s->kind = t.text == "break" ? StmtKind::kBreak : StmtKind::kContinue;
      in_.Expect(";", ("after " + t.text).c_str());
    } else if (in_.Accept("return")) {
      s->kind = StmtKind::kReturn;
      if (!in_.Is(";")) Refuse(in_.Peek().pos, "a kernel returns nothing: 'return;'");
      in_.Take();
    } else if (in_.Is("switch") || in_.Is("goto") || in_.Is("case") || in_.Is("asm") || in_.Is("try")) {
      Refuse(t.pos, "'" + t.text + "' is not supported");
    } else if (StartsDeclaration()) {
      s->kind = StmtKind::kDecl;
      Declarations(*s);
      in_.Expect(";", "after a declaration");
    } else {
      s->kind = StmtKind::kExpr;
      s->expr = Expression();
      in_.Expect(";", "after an expression");
    }
    return s;
  }

  ExprPtr Condition(const char* what) {
    in_.Expect("(", (std::string("after ") + what).c_str());
    if (StartsDeclaration()) Refuse(in_.Peek().pos, "a declaration inside a condition is not supported");
    ExprPtr e = Expression();
    in_.Expect(")", (std::string("after the ") + what + " condition").c_str());
    return e;
  }

  void For(Stmt& s) {
    s.kind = StmtKind::kFor;
    in_.Expect("(", "after for");
    if (!in_.Is(";")) {
      auto init = std::make_unique<Stmt>();
      init->pos = in_.Peek().pos;
      if (StartsDeclaration()) {
        init->kind = StmtKind::kDecl;
        Declarations(*init);
      } else {
        init->kind = StmtKind::kExpr;
        init->expr = Expression();
      }
      s.init = std::move(init);
    }
    in_.Expect(";", "in a for loop's header");
    if (!in_.Is(";")) s.expr = Expression();
    in_.Expect(";", "in a for loop's header");
    if (!in_.Is(")")) s.step = Expression();
    in_.Expect(")", "after a for loop's header");
    s.body.push_back(Statement());
  }

  bool StartsDeclaration() const {
    const Token& t = in_.Peek();
    if (t.kind != TokenKind::kIdentifier) return false;
    static const std::set<std::string> kStarts{"int", "unsigned", "float", "bool", "const", "constexpr", "__shared__",
                                              "static", "volatile", "register", "extern"};
    if (kStarts.count(t.text) > 0) return true;
    if (kUnsupportedTypes.count(t.text) > 0) Refuse(t.pos, "the type '" + t.text + "' is not supported (int, unsigned, float, bool)");
    if (t.text == "dim3") Refuse(t.pos, "dim3 inside a kernel is not supported");
    return false;
  }

  void Declarations(Stmt& s) {
    Declaration base;
    base.pos = in_.Peek().pos;
    bool has_type = false;
    bool is_extern = false;
    while (true) {
      const Token& t = in_.Peek();
      if (in_.Accept("const") || in_.Accept("constexpr")) {
        base.is_const = true;
      } else if (in_.Accept("__shared__")) {
        base.shared = true;
      } else if (in_.Accept("static") || in_.Accept("volatile") || in_.Accept("register")) {
        // volatile changes nothing here: the model reads and writes shared memory at every access.
      } else if (in_.Accept("extern")) {
        is_extern = true;
      } else if (!has_type && (t.text == "int" || t.text == "float" || t.text == "bool")) {
        base.type = t.text == "float" ? Type::kFloat : (t.text == "bool" ? Type::kBool : Type::kInt);
        in_.Take();
        has_type = true;
      } else if (!has_type && t.text == "unsigned") {
        in_.Take();
        in_.Accept("int");
        base.type = Type::kUnsigned;
        has_type = true;
      } else {
        break;
      }
    }
    if (is_extern) Refuse(base.pos, "dynamic shared memory (extern __shared__) is not supported: give the array its size");
    if (!has_type) {
      const Token& t = in_.Peek();
      if (kUnsupportedTypes.count(t.text) > 0) Refuse(t.pos, "the type '" + t.text + "' is not supported (int, unsigned, float, bool)");
      Refuse(t.pos, "expected a type (int, unsigned, float, bool), found " + Cursor::Describe(t));
    }
    do {
      if (in_.Is("*") || in_.Is("&")) Refuse(in_.Peek().pos, "pointer and reference variables are not supported: index the parameters");
      Declaration d;
      d.pos = in_.Peek().pos;
      d.type = base.type;
      d.is_const = base.is_const;
      d.shared = base.shared;
      d.name = in_.ExpectName("a variable name");
      while (in_.Accept("[")) {
        if (in_.Is("]")) Refuse(in_.Peek().pos, "an array needs its size");
        d.dims.push_back(Expression());
        in_.Expect("]", "after an array's size");
      }
      if (in_.Accept("=")) {
        if (in_.Accept("{")) {
          d.has_init_list = true;
          if (!in_.Is("}")) {
            do {
              if (in_.Is("}")) break;
              d.init_list.push_back(Assignment());
            } while (in_.Accept(","));
          }
          in_.Expect("}", "after an initializer list");
        } else {
          d.init = Assignment();
        }
      } else if (in_.Is("{") || in_.Is("(")) {
        Refuse(in_.Peek().pos, "initialize with '=' (int x = 0;)");
      }
      s.decls.push_back(std::move(d));
    } while (in_.Accept(","));
  }

  // ---- expressions ----
  ExprPtr Assignment() {
    Nesting nesting(depth_, in_.Peek().pos);
    ExprPtr left = ConditionalExpr();
    if (in_.Peek().kind == TokenKind::kPunct && IsAssignment(in_.Peek().text)) {
      const Token& op = in_.Take();
      ExprPtr e = MakeExpr(ExprKind::kAssign, op.pos, op.text);
      e->kids.push_back(std::move(left));
      e->kids.push_back(Assignment());
      return e;
    }
    return left;
  }

  ExprPtr ConditionalExpr() {
    ExprPtr condition = Binary(4);
    if (!in_.Is("?")) return condition;
    const SourcePos pos = in_.Take().pos;
    ExprPtr e = MakeExpr(ExprKind::kConditional, pos, "?:");
    e->kids.push_back(std::move(condition));
    e->kids.push_back(Expression());
    in_.Expect(":", "in a ?: expression");
    e->kids.push_back(Assignment());
    return e;
  }

  // Binary operators binding at least as tightly as `min_precedence` (C's table, left to right).
  ExprPtr Binary(int min_precedence) {
    ExprPtr left = Unary();
    while (true) {
      const Token& t = in_.Peek();
      const int precedence = t.kind == TokenKind::kPunct ? BinaryPrecedence(t.text) : -1;
      if (precedence < min_precedence) return left;
      in_.Take();
      Nesting nesting(depth_, t.pos);
      ExprPtr e = MakeExpr(ExprKind::kBinary, t.pos, t.text);
      e->kids.push_back(std::move(left));
      e->kids.push_back(Binary(precedence + 1));
      left = std::move(e);
    }
  }

  // Below the shift operators: what a launch's argument (`<<<grid, block>>>`) may hold.
  ExprPtr Shift() { return Binary(12); }

  ExprPtr Unary() {
    const Token& t = in_.Peek();
    Nesting nesting(depth_, t.pos);
    if (t.kind == TokenKind::kPunct && (t.text == "-" || t.text == "+" || t.text == "!" || t.text == "~")) {
      in_.Take();
      ExprPtr e = MakeExpr(ExprKind::kUnary, t.pos, t.text);
      e->kids.push_back(Unary());
      return e;
    }
    if (in_.Is("++") || in_.Is("--")) {
      in_.Take();
      ExprPtr e = MakeExpr(ExprKind::kIncDec, t.pos, t.text);
      e->prefix = true;
      e->kids.push_back(Unary());
      return e;
    }
    if (in_.Is("*") || in_.Is("&")) Refuse(t.pos, "'" + t.text + "' on a pointer is not supported: index the parameter (A[i])");
    if (in_.Is("sizeof")) Refuse(t.pos, "sizeof is not supported");
    if (in_.Is("(") && IsTypeName(in_.Peek(1))) {
      in_.Take();
      const Type type = TypeName();
      in_.Expect(")", "after a cast's type");
      ExprPtr e = MakeExpr(ExprKind::kCast, t.pos, "cast");
      e->cast_type = type;
      e->kids.push_back(Unary());
      return e;
    }
    return Postfix();
  }

  bool IsTypeName(const Token& t) const {
    if (t.kind != TokenKind::kIdentifier) return false;
    if (t.text == "int" || t.text == "unsigned" || t.text == "float" || t.text == "bool" || t.text == "const") return true;
    if (kUnsupportedTypes.count(t.text) > 0) Refuse(t.pos, "the type '" + t.text + "' is not supported (int, unsigned, float, bool)");
    return false;
  }

  Type TypeName() {
    in_.Accept("const");
    const Token& t = in_.Take();
    if (t.text == "unsigned") {
      in_.Accept("int");
      return Type::kUnsigned;
    }
    if (t.text == "float") return Type::kFloat;
    if (t.text == "bool") return Type::kBool;
    if (t.text == "int") return Type::kInt;
    Refuse(t.pos, "expected a type, found " + Cursor::Describe(t));
  }

  ExprPtr Postfix() {
    ExprPtr e = Primary();
    while (true) {
      const Token& t = in_.Peek();
      if (in_.Accept("[")) {
        Nesting nesting(depth_, t.pos);
        ExprPtr index = MakeExpr(ExprKind::kIndex, t.pos, "[]");
        index->kids.push_back(std::move(e));
        index->kids.push_back(Expression());
        in_.Expect("]", "after an index");
        e = std::move(index);
      } else if (in_.Is("++") || in_.Is("--")) {
        in_.Take();
        ExprPtr incdec = MakeExpr(ExprKind::kIncDec, t.pos, t.text);
        incdec->kids.push_back(std::move(e));
        e = std::move(incdec);
      } else if (in_.Is(".") || in_.Is("->")) {
        Refuse(t.pos, "'" + t.text + "' is not supported here (only threadIdx.x and its kin)");
      } else {
        return e;
      }
    }
  }

  ExprPtr Primary() {
    const Token& t = in_.Peek();
    if (t.kind == TokenKind::kNumber) {
      in_.Take();
      const NumberValue v = ParseNumber(t);
      if (v.long_suffix) Refuse(t.pos, "a long constant (" + t.text + ") is not supported");
      ExprPtr e = MakeExpr(ExprKind::kNumber, t.pos, t.text);
      e->is_float = v.is_float;
      e->float_suffix = v.float_suffix;
      e->unsigned_suffix = v.unsigned_suffix;
      e->integer = v.integer;
      e->real = v.real;
      return e;
    }
    if (in_.Accept("(")) {
      ExprPtr e = Expression();
      in_.Expect(")", "to close '('");
      return e;
    }
    if (t.kind == TokenKind::kIdentifier) {
      if (t.text == "true" || t.text == "false") {
        in_.Take();
        ExprPtr e = MakeExpr(ExprKind::kNumber, t.pos, t.text);
        e->integer = t.text == "true" ? 1 : 0;
        return e;
      }
      if (t.text == "static_cast") return StaticCast();
      if (IsTypeName(t) && in_.Is("(", 1)) {  // float(x)
        const Type type = TypeName();
        in_.Expect("(", "");
        ExprPtr e = MakeExpr(ExprKind::kCast, t.pos, "cast");
        e->cast_type = type;
        e->kids.push_back(Expression());
        in_.Expect(")", "after a cast's value");
        return e;
      }
      if (const std::optional<int> base = BuiltinBase(t.text)) return BuiltinRegister(*base);
      if (t.text == "warpSize") {
        in_.Take();
        ExprPtr e = MakeExpr(ExprKind::kBuiltin, t.pos, t.text);
        e->builtin = Builtin::kWarpSize;
        return e;
      }
      in_.Take();
      if (in_.Is("(")) return Call(t);
      if (in_.Is("<") && (t.text == "min" || t.text == "max")) Refuse(in_.Peek().pos, "explicit template arguments are not supported");
      return MakeExpr(ExprKind::kName, t.pos, t.text);
    }
    Refuse(t.pos, "expected an expression, found " + Cursor::Describe(t));
  }

  ExprPtr StaticCast() {
    const SourcePos pos = in_.Take().pos;
    in_.Expect("<", "after static_cast");
    if (!IsTypeName(in_.Peek())) Refuse(in_.Peek().pos, "static_cast to this type is not supported");
    const Type type = TypeName();
    in_.Expect(">", "after static_cast's type");
    in_.Expect("(", "after static_cast<...>");
    ExprPtr e = MakeExpr(ExprKind::kCast, pos, "cast");
    e->cast_type = type;
    e->kids.push_back(Expression());
    in_.Expect(")", "after static_cast's value");
    return e;
  }

  static std::optional<int> BuiltinBase(const std::string& name) {
    if (name == "threadIdx") return 0;
    if (name == "blockIdx") return 3;
    if (name == "blockDim") return 6;
    if (name == "gridDim") return 9;
    return std::nullopt;
  }

  ExprPtr BuiltinRegister(int base) {
    const Token& t = in_.Take();
    in_.Expect(".", ("after " + t.text).c_str());
    const Token& field = in_.Take();
    const int axis = field.text == "x" ? 0 : (field.text == "y" ? 1 : (field.text == "z" ? 2 : -1));
    if (axis < 0) Refuse(field.pos, t.text + " has the fields x, y and z");
    ExprPtr e = MakeExpr(ExprKind::kBuiltin, t.pos, t.text + "." + field.text);
    e->builtin = static_cast<Builtin>(base + axis);
    return e;
  }

  ExprPtr Call(const Token& name) {
    ExprPtr e = MakeExpr(ExprKind::kCall, name.pos, name.text);
    in_.Expect("(", "");
    if (!in_.Is(")")) {
      do {
        e->kids.push_back(Assignment());
      } while (in_.Accept(","));
    }
    in_.Expect(")", ("after " + name.text + "'s arguments").c_str());
    return e;
  }

  Cursor in_;
  TranslationUnit unit_;
  int depth_ = 0;
  std::map<std::string, const Expr*> host_constants_;
  std::vector<ExprPtr> host_owned_;
  std::map<std::string, std::optional<std::array<long long, 3>>> host_dims_;
  mutable std::set<std::string> looking_up_;
};

}  // namespace

TranslationUnit Parse(const std::vector<Token>& tokens) { return Parser(tokens).Run(); }

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

}  // namespace sim::cuda
