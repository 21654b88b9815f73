// expression_compiler.cpp — ExpressionCompiler (compiler_parts.h): C's operators, its
// conversions and the few functions a kernel may call.
#include "sim/cuda/compiler_parts.h"

namespace sim::cuda::compiling {
namespace {

bool IsComparison(const std::string& op) {
return op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=" || op == "&&" || op == "||";
}

}  // namespace

void ExpressionCompiler::Discard(const Expr& e) {
  if (e.kind == ExprKind::kIncDec) {
    places_.IncDec(e, false);
  } else if (e.kind == ExprKind::kComma) {
    Discard(*e.kids[0]);
    Discard(*e.kids[1]);
  } else if (e.kind == ExprKind::kCall && (e.op == "__syncthreads" || e.op == "__syncwarp")) {
    Sync(e);
  } else {
    Compile(e);
  }
}

void ExpressionCompiler::Sync(const Expr& e) {
  if (e.op == "__syncthreads") {
    if (!e.kids.empty()) Refuse(e.pos, "__syncthreads() takes no argument");
    code_.Emit(Opcode::kSyncthreads, e.pos);
    return;
  }
  if (e.kids.size() > 1) Refuse(e.pos, "__syncwarp takes at most one argument (the mask)");
  if (e.kids.size() == 1) {
    const std::optional<Constant> mask = EvaluateConstant(*e.kids[0], symbols_.Lookup());
    if (!mask || !mask->IsInteger() || static_cast<std::uint32_t>(mask->integer) != 0xffffffffu) {
      Refuse(e.pos, "__syncwarp with a mask other than 0xffffffff is not supported");
    }
  }
  code_.Emit(Opcode::kSyncwarp, e.pos);
}

std::int32_t ExpressionCompiler::Condition(const Expr& e) {
  const Value v = Compile(e);
  if (v.type == Type::kDouble && !v.constant) Refuse(e.pos, "double arithmetic is not supported: write the constants with f (0.5f)");
  if (IsFloating(v.type)) return code_.Result(Opcode::kNeF, e.pos, Type::kInt, v.slot, code_.ConstantSlot(0)).slot;
  return v.slot;
}

Value ExpressionCompiler::Compile(const Expr& e) {
  if (e.kind != ExprKind::kName || symbols_.Find(e.op, e.pos).kind == Symbol::Kind::kConstant) {
    if (e.kind != ExprKind::kAssign && e.kind != ExprKind::kIncDec && e.kind != ExprKind::kCall) {
      if (const std::optional<Constant> c = EvaluateConstant(e, symbols_.Lookup())) return code_.ConstantValue(*c);
    }
  }
  switch (e.kind) {
    case ExprKind::kNumber:
      Refuse(e.pos, "'" + e.op + "' is out of the range of int and unsigned");
    case ExprKind::kName:
      return NameValue(e);
    case ExprKind::kBuiltin:
      return {static_cast<std::int32_t>(e.builtin), Type::kUnsigned, std::nullopt, false};
    case ExprKind::kUnary:
      return UnaryValue(e);
    case ExprKind::kBinary:
      return BinaryValue(e);
    case ExprKind::kAssign:
      return places_.Assign(e);
    case ExprKind::kIncDec:
      return places_.IncDec(e, true);
    case ExprKind::kConditional:
      return ConditionalValue(e);
    case ExprKind::kCall:
      return CallValue(e);
    case ExprKind::kIndex:
      return places_.Load(e);
    case ExprKind::kCast: {
      const Value v = Compile(*e.kids[0]);
      return Convert(v, e.cast_type == Type::kBool ? Type::kBool : e.cast_type, e.pos);
    }
    case ExprKind::kComma:
      Discard(*e.kids[0]);
      return Compile(*e.kids[1]);
  }
  Refuse(e.pos, "this expression is not supported");
}

Value ExpressionCompiler::NameValue(const Expr& e) {
  const Symbol& s = symbols_.Find(e.op, e.pos);
  switch (s.kind) {
    case Symbol::Kind::kScalar:
      return {s.slot, s.type, std::nullopt, false};
    case Symbol::Kind::kPointer:
      Refuse(e.pos, e.op + " is a pointer: index it (" + e.op + "[i])");
    default:
      Refuse(e.pos, e.op + " is an array: index it");
  }
}

Value ExpressionCompiler::Convert(const Value& v, Type to, SourcePos pos) {
  if (v.constant) return code_.ConstantValue(ConvertConstant(*v.constant, to));
  const Type from = Promote(v.type);
  if (to == Type::kBool) {
    if (v.type == Type::kBool) return v;
    if (from == Type::kDouble) DoubleRefused(pos);
    const Value b = code_.Result(IsFloating(from) ? Opcode::kNeF : Opcode::kNeI, pos, Type::kBool, v.slot, code_.ConstantSlot(0));
    return b;
  }
  if (from == Type::kDouble) {
    if (to != Type::kFloat && to != Type::kDouble) DoubleRefused(pos);
    return {v.slot, Type::kFloat, std::nullopt, v.fresh};
  }
  if (from == to || (from != Type::kFloat && to != Type::kFloat && to != Type::kDouble)) return {v.slot, to, std::nullopt, v.fresh};
  if (to == Type::kFloat || to == Type::kDouble) {
    return code_.Result(from == Type::kUnsigned ? Opcode::kUnsignedToFloat : Opcode::kIntToFloat, pos, Type::kFloat, v.slot);
  }
  return code_.Result(to == Type::kUnsigned ? Opcode::kFloatToUnsigned : Opcode::kFloatToInt, pos, to, v.slot);
}

void ExpressionCompiler::StoreInto(std::int32_t slot, Type type, const Value& v, SourcePos pos) {
  const Value c = Convert(v, type, pos);
  if (c.fresh && code_.Retarget(c.slot, slot)) return;
  code_.Emit(Opcode::kMove, pos, slot, c.slot);
}

Value ExpressionCompiler::UnaryValue(const Expr& e) {
  const Value v = Compile(*e.kids[0]);
  const Type t = Promote(v.type);
  if (t == Type::kDouble) DoubleRefused(e.pos);
  if (e.op == "+") return {v.slot, t, std::nullopt, false};
  if (e.op == "!") return code_.Result(IsFloating(t) ? Opcode::kNotF : Opcode::kLogicalNot, e.pos, Type::kInt, v.slot);
  if (e.op == "-") return code_.Result(t == Type::kFloat ? Opcode::kNegF : Opcode::kNegI, e.pos, t, v.slot);
  if (t == Type::kFloat) Refuse(e.pos, "'~' needs an integer");
  return code_.Result(Opcode::kNot, e.pos, t, v.slot);
}

// ---- binary operators ----
Type ExpressionCompiler::StaticType(const Expr& e) {
  if (const std::optional<Constant> c = EvaluateConstant(e, symbols_.Lookup())) return c->type;
  switch (e.kind) {
    case ExprKind::kName: {
      const Symbol& s = symbols_.Find(e.op, e.pos);
      return s.kind == Symbol::Kind::kConstant ? s.value.type : s.type;
    }
    case ExprKind::kBuiltin:
      return Type::kUnsigned;
    case ExprKind::kUnary:
      return e.op == "!" ? Type::kInt : Promote(StaticType(*e.kids[0]));
    case ExprKind::kBinary:
      if (e.op == "<<" || e.op == ">>") return Promote(StaticType(*e.kids[0]));
      if (IsComparison(e.op)) return Type::kInt;
      return CommonType(StaticType(*e.kids[0]), StaticType(*e.kids[1]));
    case ExprKind::kAssign:
    case ExprKind::kIncDec:
      return StaticType(*e.kids[0]);
    case ExprKind::kConditional:
      return CommonType(StaticType(*e.kids[1]), StaticType(*e.kids[2]));
    case ExprKind::kCall:
      if (e.op == "min" || e.op == "max") return e.kids.size() == 2 ? CommonType(StaticType(*e.kids[0]), StaticType(*e.kids[1])) : Type::kInt;
      return Type::kFloat;
    case ExprKind::kIndex: {
      const Expr* base = &e;
      while (base->kind == ExprKind::kIndex) base = base->kids[0].get();
      if (base->kind != ExprKind::kName) return Type::kFloat;
      return symbols_.Find(base->op, base->pos).type;
    }
    case ExprKind::kCast:
      return e.cast_type;
    case ExprKind::kComma:
      return StaticType(*e.kids[1]);
    default:
      return Type::kInt;
  }
}

Value ExpressionCompiler::BinaryValue(const Expr& e) {
  const std::string& op = e.op;
  if (op == "&&" || op == "||") return Logical(e);
  if (op == "+" || op == "-") {
    if (std::optional<Value> fused = fma_.Contracted(e)) return *fused;
  }
  const Value l = Compile(*e.kids[0]);
  const Value r = Compile(*e.kids[1]);
  return Arithmetic(op, l, r, e.pos);
}

// Two operands made one type: a double constant meeting a float becomes a float constant
// where it is one exactly (then float arithmetic gives the double's result rounded).
Type ExpressionCompiler::Operands(Value& l, Value& r, SourcePos pos) {
  Type type = CommonType(l.type, r.type);
  if (type == Type::kDouble) {
    const bool l_const_double = l.constant && l.type == Type::kDouble;
    const bool r_const_double = r.constant && r.type == Type::kDouble;
    const Value& other = l_const_double ? r : l;
    const Value& constant = l_const_double ? l : r;
    if (!(l_const_double || r_const_double) || other.type != Type::kFloat || !ExactlyFloat(*constant.constant)) {
      DoubleRefused(pos);
    }
    type = Type::kDouble;
    l = Convert(l, Type::kFloat, pos);
    r = Convert(r, Type::kFloat, pos);
    return type;
  }
  l = Convert(l, type, pos);
  r = Convert(r, type, pos);
  return type;
}

Value ExpressionCompiler::Arithmetic(const std::string& op, Value l, Value r, SourcePos pos) {
  if (op == "<<" || op == ">>") {
    const Type t = Promote(l.type);
    if (IsFloating(t) || IsFloating(r.type)) Refuse(pos, "'" + op + "' needs integers");
    const Opcode code = op == "<<" ? Opcode::kShl : (t == Type::kUnsigned ? Opcode::kShrU : Opcode::kShrI);
    return code_.Result(code, pos, t, l.slot, r.slot);
  }
  const Type type = Operands(l, r, pos);
  const bool floating = IsFloating(type);
  const bool is_unsigned = type == Type::kUnsigned;
  if (floating && (op == "%" || op == "&" || op == "|" || op == "^")) Refuse(pos, "'" + op + "' needs integers");
  // A double result (float op an exact double constant) is right once rounded to float; it
  // may be compared only where the comparison is the float one (a float and the constant).
  const Type result = type;
  if (op == "+") return code_.Result(floating ? Opcode::kAddF : Opcode::kAddI, pos, result, l.slot, r.slot);
  if (op == "-") return code_.Result(floating ? Opcode::kSubF : Opcode::kSubI, pos, result, l.slot, r.slot);
  if (op == "*") return code_.Result(floating ? Opcode::kMulF : Opcode::kMulI, pos, result, l.slot, r.slot);
  if (op == "/") return code_.Result(floating ? Opcode::kDivF : (is_unsigned ? Opcode::kDivU : Opcode::kDivI), pos, result, l.slot, r.slot);
  if (op == "%") return code_.Result(is_unsigned ? Opcode::kRemU : Opcode::kRemI, pos, result, l.slot, r.slot);
  if (op == "&") return code_.Result(Opcode::kAnd, pos, result, l.slot, r.slot);
  if (op == "|") return code_.Result(Opcode::kOr, pos, result, l.slot, r.slot);
  if (op == "^") return code_.Result(Opcode::kXor, pos, result, l.slot, r.slot);
  const Opcode lt = floating ? Opcode::kLtF : (is_unsigned ? Opcode::kLtU : Opcode::kLtI);
  const Opcode le = floating ? Opcode::kLeF : (is_unsigned ? Opcode::kLeU : Opcode::kLeI);
  if (op == "<") return code_.Result(lt, pos, Type::kInt, l.slot, r.slot);
  if (op == "<=") return code_.Result(le, pos, Type::kInt, l.slot, r.slot);
  if (op == ">") return code_.Result(lt, pos, Type::kInt, r.slot, l.slot);
  if (op == ">=") return code_.Result(le, pos, Type::kInt, r.slot, l.slot);
  if (op == "==") return code_.Result(floating ? Opcode::kEqF : Opcode::kEqI, pos, Type::kInt, l.slot, r.slot);
  if (op == "!=") return code_.Result(floating ? Opcode::kNeF : Opcode::kNeI, pos, Type::kInt, l.slot, r.slot);
  Refuse(pos, "the operator '" + op + "' is not supported");
}

// && and ||: the right side runs only where the left does not decide (guards rely on it).
Value ExpressionCompiler::Logical(const Expr& e) {
  const std::int32_t result = code_.NewTemp(e.pos);
  const std::int32_t left = Condition(*e.kids[0]);
  code_.Emit(Opcode::kNeI, e.pos, result, left, code_.IntConstant(0));
  const std::size_t skip = code_.Emit(e.op == "&&" ? Opcode::kJumpIfZero : Opcode::kJumpIfNotZero, e.pos, 0, result);
  const std::int32_t right = Condition(*e.kids[1]);
  code_.Emit(Opcode::kNeI, e.pos, result, right, code_.IntConstant(0));
  code_.PatchTo(skip, code_.Here());
  return {result, Type::kInt, std::nullopt, false};
}

Value ExpressionCompiler::ConditionalValue(const Expr& e) {
  const Type type = CommonType(StaticType(*e.kids[1]), StaticType(*e.kids[2]));
  if (type == Type::kDouble) {
    // `c ? x : 0.0`: a float and an exact double constant pick a float.
    const Type a = StaticType(*e.kids[1]);
    const Type b = StaticType(*e.kids[2]);
    if (!((a == Type::kFloat || a == Type::kDouble) && (b == Type::kFloat || b == Type::kDouble))) DoubleRefused(e.pos);
  }
  const Type result_type = type == Type::kDouble ? Type::kFloat : type;
  const std::int32_t result = code_.NewTemp(e.pos);
  const std::size_t to_else = code_.Emit(Opcode::kJumpIfZero, e.pos, 0, Condition(*e.kids[0]));
  StoreInto(result, result_type, ExactOrRefused(Compile(*e.kids[1]), e.pos), e.pos);
  const std::size_t to_end = code_.Emit(Opcode::kJump, e.pos);
  code_.PatchTo(to_else, code_.Here());
  StoreInto(result, result_type, ExactOrRefused(Compile(*e.kids[2]), e.pos), e.pos);
  code_.PatchTo(to_end, code_.Here());
  return {result, result_type, std::nullopt, false};
}

Value ExpressionCompiler::ExactOrRefused(const Value& v, SourcePos pos) {
  if (v.constant && v.type == Type::kDouble && !ExactlyFloat(*v.constant)) DoubleRefused(pos);
  return v;
}

Value ExpressionCompiler::CallValue(const Expr& e) {
  const std::string& f = e.op;
  const auto arity = [&](std::size_t n) {
    if (e.kids.size() != n) Refuse(e.pos, f + " takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s"));
  };
  const auto floats = [&](std::size_t i) { return Convert(ExactOrRefused(Compile(*e.kids[i]), e.pos), Type::kFloat, e.pos).slot; };
  if (f == "__syncthreads" || f == "__syncwarp") Refuse(e.pos, f + "() is a statement of its own");
  if (f == "fminf" || f == "fmaxf") {
    arity(2);
    const std::int32_t a = floats(0);
    return code_.Result(f == "fminf" ? Opcode::kMinF : Opcode::kMaxF, e.pos, Type::kFloat, a, floats(1));
  }
  if (f == "fmaf") {
    arity(3);
    const std::int32_t a = floats(0);
    const std::int32_t b = floats(1);
    return code_.Result(Opcode::kFma, e.pos, Type::kFloat, a, b, floats(2));
  }
  if (f == "sqrtf" || f == "fabsf") {
    arity(1);
    return code_.Result(f == "sqrtf" ? Opcode::kSqrtF : Opcode::kAbsF, e.pos, Type::kFloat, floats(0));
  }
  if (f == "min" || f == "max") {
    arity(2);
    Value l = Compile(*e.kids[0]);
    Value r = Compile(*e.kids[1]);
    const Type t = Operands(l, r, e.pos);
    if (t == Type::kDouble) DoubleRefused(e.pos);
    const bool lo = f == "min";
    const Opcode code = t == Type::kFloat ? (lo ? Opcode::kMinF : Opcode::kMaxF)
                                          : (t == Type::kUnsigned ? (lo ? Opcode::kMinU : Opcode::kMaxU) : (lo ? Opcode::kMinI : Opcode::kMaxI));
    return code_.Result(code, e.pos, t, l.slot, r.slot);
  }
  if (f == "atomicAdd" || f.rfind("atomic", 0) == 0) Refuse(e.pos, f + " is not supported yet");
  Refuse(e.pos, "the function " + f + " is not supported (min, max, fminf, fmaxf, fmaf, sqrtf, fabsf)");
}

}  // namespace sim::cuda::compiling
