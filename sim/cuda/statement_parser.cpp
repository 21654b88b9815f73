// statement_parser.cpp — StatementParser (parser_parts.h): a kernel's statements and its
// declarations.
#include "sim/cuda/parser_parts.h"

namespace sim::cuda::parsing {

StmtPtr StatementParser::Statement() {
  const Token& t = in_.Peek();
  Nesting nesting(in_, t.pos);
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
    s->expr = expressions_.Expression();
    in_.Expect(";", "after an expression");
  }
  return s;
}

ExprPtr StatementParser::Condition(const char* what) {
  in_.Expect("(", (std::string("after ") + what).c_str());
  if (StartsDeclaration()) Refuse(in_.Peek().pos, "a declaration inside a condition is not supported");
  ExprPtr e = expressions_.Expression();
  in_.Expect(")", (std::string("after the ") + what + " condition").c_str());
  return e;
}

void StatementParser::For(Stmt& s) {
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
      init->expr = expressions_.Expression();
    }
    s.init = std::move(init);
  }
  in_.Expect(";", "in a for loop's header");
  if (!in_.Is(";")) s.expr = expressions_.Expression();
  in_.Expect(";", "in a for loop's header");
  if (!in_.Is(")")) s.step = expressions_.Expression();
  in_.Expect(")", "after a for loop's header");
  s.body.push_back(Statement());
}

bool StatementParser::StartsDeclaration() const {
  const Token& t = in_.Peek();
  if (t.kind != TokenKind::kIdentifier) return false;
  static const std::set<std::string> kStarts{"int", "unsigned", "float", "bool", "const", "constexpr", "__shared__",
                                            "static", "volatile", "register", "extern"};
  if (kStarts.count(t.text) > 0) return true;
  if (IsUnsupportedType(t.text)) RefuseType(t);
  if (t.text == "dim3") Refuse(t.pos, "dim3 inside a kernel is not supported");
  return false;
}

void StatementParser::Declarations(Stmt& s) {
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
    if (IsUnsupportedType(t.text)) RefuseType(t);
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
      d.dims.push_back(expressions_.Expression());
      in_.Expect("]", "after an array's size");
    }
    if (in_.Accept("=")) {
      if (in_.Accept("{")) {
        d.has_init_list = true;
        if (!in_.Is("}")) {
          do {
            if (in_.Is("}")) break;
            d.init_list.push_back(expressions_.Assignment());
          } while (in_.Accept(","));
        }
        in_.Expect("}", "after an initializer list");
      } else {
        d.init = expressions_.Assignment();
      }
    } else if (in_.Is("{") || in_.Is("(")) {
      Refuse(in_.Peek().pos, "initialize with '=' (int x = 0;)");
    }
    s.decls.push_back(std::move(d));
  } while (in_.Accept(","));
}

}  // namespace sim::cuda::parsing
