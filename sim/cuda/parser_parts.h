// parser_parts.h — the parts parser.cpp's reader of a CUDA file is made of:
//   Cursor            the tokens, read front to back
//   ExpressionParser  C's expressions (expression_parser.cpp)
//   StatementParser   a kernel's statements and declarations (statement_parser.cpp)
//   HostCodeReader    host code skipped, its launches and their constants read (host_code.cpp)
// The file's top level (kernels, templates, file constants) is parser.cpp's.
#pragma once
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/cuda/ast.h"
#include "sim/cuda/constant.h"
#include "sim/cuda/lexer.h"
#include "sim/cuda/source_error.h"

namespace sim::cuda::parsing {

// Deeper nesting than this is refused, not followed: the parser recurses once a level.
constexpr int kMaxNesting = 200;

// Types a kernel may not use, refused by name where a type is expected.
bool IsUnsupportedType(const std::string& name);
[[noreturn]] void RefuseType(const Token& t);

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

  int nesting = 0;  // how deep the rules being read recurse (Nesting)

 private:
  const std::vector<Token>& tokens_;
  std::size_t at_ = 0;
};

// Guards the recursion of one rule.
class Nesting {
 public:
  Nesting(Cursor& in, SourcePos pos) : depth_(in.nesting) {
    if (++depth_ > kMaxNesting) Refuse(pos, "nested more than " + std::to_string(kMaxNesting) + " levels deep");
  }
  ~Nesting() { --depth_; }
  Nesting(const Nesting&) = delete;
  Nesting& operator=(const Nesting&) = delete;

 private:
  int& depth_;
};

class ExpressionParser {
 public:
  explicit ExpressionParser(Cursor& in) : in_(in) {}
  ExprPtr Expression();  // with the comma operator
  ExprPtr Assignment();  // without it: an argument, an initializer
  // Below the shift operators: what a launch's argument (`<<<grid, block>>>`) may hold.
  ExprPtr Shift() { return Binary(12); }

 private:
  ExprPtr ConditionalExpr();
  ExprPtr Binary(int min_precedence);
  ExprPtr Unary();
  bool IsTypeName(const Token& t) const;
  Type TypeName();
  ExprPtr Postfix();
  ExprPtr Primary();
  ExprPtr StaticCast();
  ExprPtr BuiltinRegister(int base);
  ExprPtr Call(const Token& name);

  Cursor& in_;
};

class StatementParser {
 public:
  StatementParser(Cursor& in, ExpressionParser& expressions) : in_(in), expressions_(expressions) {}
  StmtPtr Statement();

 private:
  ExprPtr Condition(const char* what);
  void For(Stmt& s);
  bool StartsDeclaration() const;
  void Declarations(Stmt& s);

  Cursor& in_;
  ExpressionParser& expressions_;
};

class HostCodeReader {
 public:
  HostCodeReader(Cursor& in, ExpressionParser& expressions, std::vector<Launch>& launches)
      : in_(in), expressions_(expressions), launches_(launches) {}
  // Skips one host construct: up to a `;` at depth 0, or a `{...}` body closing at depth 0.
  // Launches and the constants they use are read on the way.
  void Skip();
  // A file constant, which a launch may use too.
  void AddConstant(const std::string& name, const Expr* value) { constants_[name] = value; }

 private:
  bool IsLaunch() const;
  void ReadLaunch();
  ExprPtr Argument();
  void ReadDeclaration();
  std::optional<long long> Integer(const ExprPtr& e) const;
  std::optional<Constant> Lookup(const std::string& name) const;
  std::optional<std::array<long long, 3>> Dim3Of(const std::vector<ExprPtr>& args) const;
  std::optional<std::array<long long, 3>> Dim3(const ExprPtr& e) const;

  Cursor& in_;
  ExpressionParser& expressions_;
  std::vector<Launch>& launches_;
  std::map<std::string, const Expr*> constants_;
  std::vector<ExprPtr> owned_;
  std::map<std::string, std::optional<std::array<long long, 3>>> dims_;
  mutable std::set<std::string> looking_up_;
};

}  // namespace sim::cuda::parsing
