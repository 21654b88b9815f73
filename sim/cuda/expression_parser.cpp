// expression_parser.cpp — ExpressionParser (parser_parts.h): C's expressions, by precedence.
#include <map>

#include "sim/cuda/parser_parts.h"

namespace sim::cuda::parsing {
namespace {

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

std::optional<int> BuiltinBase(const std::string& name) {
  if (name == "threadIdx") return 0;
  if (name == "blockIdx") return 3;
  if (name == "blockDim") return 6;
  if (name == "gridDim") return 9;
  return std::nullopt;
}

}  // namespace

ExprPtr ExpressionParser::Expression() {
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

ExprPtr ExpressionParser::Assignment() {
  Nesting nesting(in_, in_.Peek().pos);
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

ExprPtr ExpressionParser::ConditionalExpr() {
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
ExprPtr ExpressionParser::Binary(int min_precedence) {
  ExprPtr left = Unary();
  while (true) {
    const Token& t = in_.Peek();
    const int precedence = t.kind == TokenKind::kPunct ? BinaryPrecedence(t.text) : -1;
    if (precedence < min_precedence) return left;
    in_.Take();
    Nesting nesting(in_, t.pos);
    ExprPtr e = MakeExpr(ExprKind::kBinary, t.pos, t.text);
    e->kids.push_back(std::move(left));
    e->kids.push_back(Binary(precedence + 1));
    left = std::move(e);
  }
}

ExprPtr ExpressionParser::Unary() {
  const Token& t = in_.Peek();
  Nesting nesting(in_, t.pos);
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

bool ExpressionParser::IsTypeName(const Token& t) const {
  if (t.kind != TokenKind::kIdentifier) return false;
  if (t.text == "int" || t.text == "unsigned" || t.text == "float" || t.text == "bool" || t.text == "const") return true;
  if (IsUnsupportedType(t.text)) RefuseType(t);
  return false;
}

Type ExpressionParser::TypeName() {
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

ExprPtr ExpressionParser::Postfix() {
  ExprPtr e = Primary();
  while (true) {
    const Token& t = in_.Peek();
    if (in_.Accept("[")) {
      Nesting nesting(in_, t.pos);
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

ExprPtr ExpressionParser::Primary() {
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

ExprPtr ExpressionParser::StaticCast() {
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

ExprPtr ExpressionParser::BuiltinRegister(int base) {
  const Token& t = in_.Take();
  in_.Expect(".", ("after " + t.text).c_str());
  const Token& field = in_.Take();
  const int axis = field.text == "x" ? 0 : (field.text == "y" ? 1 : (field.text == "z" ? 2 : -1));
  if (axis < 0) Refuse(field.pos, t.text + " has the fields x, y and z");
  ExprPtr e = MakeExpr(ExprKind::kBuiltin, t.pos, t.text + "." + field.text);
  e->builtin = static_cast<Builtin>(base + axis);
  return e;
}

ExprPtr ExpressionParser::Call(const Token& name) {
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

}  // namespace sim::cuda::parsing
