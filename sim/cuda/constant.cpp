#include "sim/cuda/constant.h"

#include <cmath>

namespace sim::cuda {
namespace {

std::int64_t Wrap(Type type, std::int64_t value) {
  if (type == Type::kUnsigned) return static_cast<std::int64_t>(static_cast<std::uint32_t>(value));
  if (type == Type::kBool) return value != 0;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(value));
}

Constant MakeInteger(Type type, std::int64_t value) { return {type, Wrap(type, value), 0.0}; }
Constant MakeBool(bool value) { return {Type::kInt, value ? 1 : 0, 0.0}; }

// C's usual arithmetic conversions for the two operands' types.
Type Common(Type a, Type b) {
  if (a == Type::kDouble || b == Type::kDouble) return Type::kDouble;
  if (a == Type::kFloat || b == Type::kFloat) return Type::kFloat;
  if (a == Type::kUnsigned || b == Type::kUnsigned) return Type::kUnsigned;
  return Type::kInt;
}

double AsReal(const Constant& c) {
  if (c.IsInteger()) return c.type == Type::kUnsigned ? static_cast<double>(static_cast<std::uint32_t>(c.integer))
                                                      : static_cast<double>(c.integer);
  return c.real;
}

std::optional<Constant> Binary(const Expr& expr, const Constant& a, const Constant& b) {
  const std::string& op = expr.op;
  if (op == "&&") return MakeBool(AsReal(a) != 0.0 && AsReal(b) != 0.0);
  if (op == "||") return MakeBool(AsReal(a) != 0.0 || AsReal(b) != 0.0);
  if (op == "<<" || op == ">>") {
    if (!a.IsInteger() || !b.IsInteger()) return std::nullopt;
    const Type type = a.type == Type::kUnsigned ? Type::kUnsigned : Type::kInt;
    if (b.integer < 0 || b.integer >= 32) Refuse(expr.pos, "a shift by " + std::to_string(b.integer) + " bits is undefined in C");
    const auto bits = static_cast<std::uint32_t>(a.integer);
    if (op == "<<") return MakeInteger(type, static_cast<std::int64_t>(bits << b.integer));
    if (type == Type::kUnsigned) return MakeInteger(type, bits >> b.integer);
    return MakeInteger(type, static_cast<std::int32_t>(bits) >> b.integer);
  }
  const Type type = Common(a.type == Type::kBool ? Type::kInt : a.type, b.type == Type::kBool ? Type::kInt : b.type);
  if (type == Type::kFloat || type == Type::kDouble) {
    const double x = AsReal(a);
    const double y = AsReal(b);
    const auto round = [type](double v) { return type == Type::kFloat ? static_cast<double>(static_cast<float>(v)) : v; };
    if (op == "+") return Constant{type, 0, round(x + y)};
    if (op == "-") return Constant{type, 0, round(x - y)};
    if (op == "*") return Constant{type, 0, round(x * y)};
    if (op == "/") return Constant{type, 0, round(x / y)};
    if (op == "<") return MakeBool(x < y);
    if (op == "<=") return MakeBool(x <= y);
    if (op == ">") return MakeBool(x > y);
    if (op == ">=") return MakeBool(x >= y);
    if (op == "==") return MakeBool(x == y);
    if (op == "!=") return MakeBool(x != y);
    return std::nullopt;  // % and bitwise operators need integers: the compiler refuses them
  }
  const bool is_unsigned = type == Type::kUnsigned;
  const std::int64_t x = is_unsigned ? static_cast<std::uint32_t>(a.integer) : a.integer;
  const std::int64_t y = is_unsigned ? static_cast<std::uint32_t>(b.integer) : b.integer;
  if (op == "+") return MakeInteger(type, x + y);
  if (op == "-") return MakeInteger(type, x - y);
  if (op == "*") return MakeInteger(type, x * y);
  if (op == "/" || op == "%") {
    if (y == 0) Refuse(expr.pos, "a constant division by zero");
    return MakeInteger(type, op == "/" ? x / y : x % y);
  }
  if (op == "&") return MakeInteger(type, x & y);
  if (op == "|") return MakeInteger(type, x | y);
  if (op == "^") return MakeInteger(type, x ^ y);
  if (op == "<") return MakeBool(x < y);
  if (op == "<=") return MakeBool(x <= y);
  if (op == ">") return MakeBool(x > y);
  if (op == ">=") return MakeBool(x >= y);
  if (op == "==") return MakeBool(x == y);
  if (op == "!=") return MakeBool(x != y);
  return std::nullopt;
}

}  // namespace

Constant ConvertConstant(const Constant& value, Type type) {
  if (type == Type::kFloat) return {Type::kFloat, 0, static_cast<double>(static_cast<float>(AsReal(value)))};
  if (type == Type::kDouble) return {Type::kDouble, 0, AsReal(value)};
  if (type == Type::kBool) return MakeInteger(Type::kBool, AsReal(value) != 0.0);
  if (value.IsInteger()) return MakeInteger(type, value.integer);
  // Float to integer: truncated, saturating as the GPU's cvt.rzi does (NaN gives 0).
  const double v = std::trunc(value.real);
  if (v != v) return MakeInteger(type, 0);
  const double low = type == Type::kUnsigned ? 0.0 : -2147483648.0;
  const double high = type == Type::kUnsigned ? 4294967295.0 : 2147483647.0;
  return MakeInteger(type, static_cast<std::int64_t>(v < low ? low : (v > high ? high : v)));
}

std::optional<Constant> EvaluateConstant(const Expr& expr, const ConstantLookup& lookup) {
  switch (expr.kind) {
    case ExprKind::kNumber:
      if (expr.is_float) return Constant{expr.float_suffix ? Type::kFloat : Type::kDouble, 0, expr.real};
      if (expr.unsigned_suffix || expr.integer > 0x7fffffffu) {
        if (expr.integer > 0xffffffffu) return std::nullopt;
        return MakeInteger(Type::kUnsigned, static_cast<std::int64_t>(expr.integer));
      }
      return MakeInteger(Type::kInt, static_cast<std::int64_t>(expr.integer));
    case ExprKind::kName:
      return lookup(expr.op);
    case ExprKind::kBuiltin:
      if (expr.builtin == Builtin::kWarpSize) return MakeInteger(Type::kInt, 32);
      return std::nullopt;
    case ExprKind::kUnary: {
      const std::optional<Constant> a = EvaluateConstant(*expr.kids[0], lookup);
      if (!a) return std::nullopt;
      if (expr.op == "!") return MakeBool(AsReal(*a) == 0.0);
      if (expr.op == "+") return a->type == Type::kBool ? MakeInteger(Type::kInt, a->integer) : *a;
      if (expr.op == "-") {
        if (!a->IsInteger()) return Constant{a->type, 0, -a->real};
        return MakeInteger(a->type == Type::kUnsigned ? Type::kUnsigned : Type::kInt, -a->integer);
      }
      if (expr.op == "~" && a->IsInteger()) return MakeInteger(a->type == Type::kUnsigned ? Type::kUnsigned : Type::kInt, ~a->integer);
      return std::nullopt;
    }
    case ExprKind::kBinary: {
      const std::optional<Constant> a = EvaluateConstant(*expr.kids[0], lookup);
      if (!a) return std::nullopt;
      // && and || do not look at the right side when the left decides (C evaluates it lazily).
      if (expr.op == "&&" && AsReal(*a) == 0.0) return MakeBool(false);
      if (expr.op == "||" && AsReal(*a) != 0.0) return MakeBool(true);
      const std::optional<Constant> b = EvaluateConstant(*expr.kids[1], lookup);
      if (!b) return std::nullopt;
      return Binary(expr, *a, *b);
    }
    case ExprKind::kConditional: {
      const std::optional<Constant> c = EvaluateConstant(*expr.kids[0], lookup);
      if (!c) return std::nullopt;
      const std::optional<Constant> a = EvaluateConstant(*expr.kids[1], lookup);
      const std::optional<Constant> b = EvaluateConstant(*expr.kids[2], lookup);
      if (!a || !b) return std::nullopt;
      const Type type = Common(a->type == Type::kBool ? Type::kInt : a->type, b->type == Type::kBool ? Type::kInt : b->type);
      return ConvertConstant(AsReal(*c) != 0.0 ? *a : *b, type);
    }
    case ExprKind::kCast: {
      const std::optional<Constant> a = EvaluateConstant(*expr.kids[0], lookup);
      if (!a) return std::nullopt;
      return ConvertConstant(*a, expr.cast_type);
    }
    case ExprKind::kCall: {
      if ((expr.op != "min" && expr.op != "max") || expr.kids.size() != 2) return std::nullopt;
      const std::optional<Constant> a = EvaluateConstant(*expr.kids[0], lookup);
      const std::optional<Constant> b = EvaluateConstant(*expr.kids[1], lookup);
      if (!a || !b || !a->IsInteger() || !b->IsInteger()) return std::nullopt;
      Expr less_than;
      less_than.kind = ExprKind::kBinary;
      less_than.pos = expr.pos;
      less_than.op = "<";
      const bool less = Binary(less_than, *a, *b)->integer != 0;
      const Type type = Common(a->type == Type::kBool ? Type::kInt : a->type, b->type == Type::kBool ? Type::kInt : b->type);
      return ConvertConstant((expr.op == "min") == less ? *a : *b, type);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace sim::cuda
