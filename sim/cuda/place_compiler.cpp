// place_compiler.cpp — PlaceCompiler (compiler_parts.h): array elements read and written,
// assignment, ++ and --.
#include "sim/cuda/compiler_parts.h"

namespace sim::cuda::compiling {
namespace {

int LocalLength(const Symbol& s) {
  int n = 1;
  for (const int d : s.dims) n *= d;
  return n;
}

}  // namespace

Value PlaceCompiler::Load(const Expr& e) { return LoadPlace(PlaceOf(e), e.pos); }

PlaceCompiler::Place PlaceCompiler::PlaceOf(const Expr& e) {
  std::vector<const Expr*> indices;
  const Expr* base = &e;
  while (base->kind == ExprKind::kIndex) {
    indices.insert(indices.begin(), base->kids[1].get());
    base = base->kids[0].get();
  }
  if (base->kind != ExprKind::kName) Refuse(base->pos, "only a named array or parameter can be indexed");
  Place place;
  place.name = base->op;
  place.symbol = &symbols_.Find(base->op, base->pos);
  const Symbol& s = *place.symbol;
  const auto index_register = [&](const Expr* x) {
    const Value v = expressions_.Compile(*x);
    if (IsFloating(v.type)) Refuse(x->pos, "an index must be an integer");
    return v;
  };
  switch (s.kind) {
    case Symbol::Kind::kPointer:
      if (indices.size() != 1) Refuse(base->pos, base->op + " is a pointer: it takes one index");
      place.flat = index_register(indices[0]).slot;
      return place;
    case Symbol::Kind::kShared:
      if (indices.size() != s.dims.size()) {
        Refuse(base->pos, base->op + " has " + std::to_string(s.dims.size()) + " dimension(s): index all of them");
      }
      for (std::size_t i = 0; i < indices.size(); ++i) place.index[i] = index_register(indices[i]).slot;
      for (std::size_t i = indices.size(); i < 3; ++i) place.index[i] = code_.IntConstant(0);
      return place;
    case Symbol::Kind::kLocalArray: {
      if (indices.size() != s.dims.size()) Refuse(base->pos, base->op + " has " + std::to_string(s.dims.size()) + " dimension(s): index all of them");
      bool all_constant = true;  // and inside the array: then the element is a register
      long long constant_flat = 0;
      std::vector<Value> values;
      for (std::size_t i = 0; i < indices.size(); ++i) {
        values.push_back(index_register(indices[i]));
        const std::optional<Constant>& c = values.back().constant;
        all_constant = all_constant && c && c->integer >= 0 && c->integer < s.dims[i];
        if (all_constant) constant_flat = constant_flat * s.dims[i] + c->integer;
      }
      if (all_constant) {
        place.constant_local = static_cast<int>(constant_flat);
        return place;
      }
      // Each index is checked against its own extent where it may leave it (acc[0][5] of a
      // float acc[2][4] is outside, though its flat index 5 is inside the array); a single
      // index is checked by the access itself.
      if (values.size() > 1) {
        for (std::size_t i = 0; i < values.size(); ++i) {
          const std::optional<Constant>& c = values[i].constant;
          if (c && c->integer >= 0 && c->integer < s.dims[i]) continue;
          code_.Emit(Opcode::kCheckLocalIndex, e.pos, 0, s.slot, values[i].slot, s.dims[i], static_cast<std::uint8_t>(i));
          place.checked_per_dimension = true;
        }
      }
      // Row-major: flat = ((i0 · d1) + i1) · d2 + i2.
      std::int32_t flat = values[0].slot;
      for (std::size_t i = 1; i < values.size(); ++i) {
        const Value scaled = code_.Result(Opcode::kMulI, e.pos, Type::kInt, flat, code_.IntConstant(s.dims[i]));
        flat = code_.Result(Opcode::kAddI, e.pos, Type::kInt, scaled.slot, values[i].slot).slot;
      }
      place.flat = flat;
      return place;
    }
    default:
      Refuse(e.pos, base->op + " is not an array");
  }
}

void PlaceCompiler::Store(const Place& p, const Value& v, SourcePos pos) {
  const Symbol& s = *p.symbol;
  const Value c = expressions_.Convert(expressions_.ExactOrRefused(v, pos), s.type, pos);
  switch (s.kind) {
    case Symbol::Kind::kPointer:
      if (s.const_data) Refuse(pos, p.name + " is const float*: the kernel may not write it");
      code_.Emit(Opcode::kStoreGlobal, pos, c.slot, s.slot, p.flat, 0, static_cast<std::uint8_t>(s.index));
      return;
    case Symbol::Kind::kShared:
      code_.Emit(Opcode::kStoreShared, pos, c.slot, p.index[0], p.index[1], p.index[2], static_cast<std::uint8_t>(s.index));
      return;
    default:
      if (p.constant_local) {
        expressions_.StoreInto(s.slot + *p.constant_local, s.type, c, pos);
        return;
      }
      code_.Emit(Opcode::kStoreLocal, pos, c.slot, s.slot, p.flat, LocalLength(s), p.checked_per_dimension ? 1 : 0);
  }
}

Value PlaceCompiler::LoadPlace(const Place& p, SourcePos pos) {
  const Symbol& s = *p.symbol;
  const std::int32_t dst = code_.NewTemp(pos);
  switch (s.kind) {
    case Symbol::Kind::kPointer:
      code_.Emit(Opcode::kLoadGlobal, pos, dst, s.slot, p.flat, 0, static_cast<std::uint8_t>(s.index));
      break;
    case Symbol::Kind::kShared:
      code_.Emit(Opcode::kLoadShared, pos, dst, p.index[0], p.index[1], p.index[2], static_cast<std::uint8_t>(s.index));
      break;
    default:
      if (p.constant_local) return {s.slot + *p.constant_local, s.type, std::nullopt, false};
      code_.Emit(Opcode::kLoadLocal, pos, dst, s.slot, p.flat, LocalLength(s), p.checked_per_dimension ? 1 : 0);
  }
  return {dst, s.type, std::nullopt, true};
}

Value PlaceCompiler::Assign(const Expr& e) {
  const Expr& target = *e.kids[0];
  const std::string op = e.op == "=" ? "" : e.op.substr(0, e.op.size() - 1);
  if (target.kind == ExprKind::kName) {
    Symbol& s = symbols_.Assignable(target);
    if (s.kind == Symbol::Kind::kPointer) return MovePointer(e, s, op);
    s.product.reset();
    const Value v = op.empty() ? expressions_.Compile(*e.kids[1]) : Compound(op, *e.kids[1], {s.slot, s.type, std::nullopt, false}, e.pos);
    expressions_.StoreInto(s.slot, s.type, expressions_.ExactOrRefused(v, e.pos), e.pos);
    return {s.slot, s.type, std::nullopt, false};
  }
  if (target.kind != ExprKind::kIndex) Refuse(target.pos, "this cannot be assigned");
  const Place p = PlaceOf(target);
  const Value v = op.empty() ? expressions_.Compile(*e.kids[1]) : Compound(op, *e.kids[1], LoadPlace(p, e.pos), e.pos);
  Store(p, v, e.pos);
  return expressions_.Convert(v, p.symbol->type, e.pos);
}

// `x op= y`: x op y, with x's current value `old` (FmaRule applies: `acc += a * b`).
Value PlaceCompiler::Compound(const std::string& op, const Expr& value, const Value& old, SourcePos pos) {
  if (std::optional<Value> fused = fma_.ContractedCompound(op, value, old, pos)) return *fused;
  return expressions_.Arithmetic(op, old, expressions_.Compile(value), pos);
}

// `A += offset`: a pointer parameter moved along its array (the SGEMM_CUDA style).
Value PlaceCompiler::MovePointer(const Expr& e, const Symbol& s, const std::string& op) {
  if (op != "+" && op != "-") Refuse(e.pos, "a pointer parameter may only move by += or -=");
  const Value offset = expressions_.Compile(*e.kids[1]);
  if (IsFloating(offset.type)) Refuse(e.pos, "a pointer moves by an integer");
  code_.Emit(op == "+" ? Opcode::kAddI : Opcode::kSubI, e.pos, s.slot, s.slot, offset.slot);
  return {s.slot, Type::kInt, std::nullopt, false};
}

Value PlaceCompiler::IncDec(const Expr& e, bool want_result) {
  const Expr& target = *e.kids[0];
  const bool up = e.op == "++";
  const auto step = [&](const Value& old) {
    if (old.type == Type::kFloat) {
      return code_.Result(up ? Opcode::kAddF : Opcode::kSubF, e.pos, Type::kFloat, old.slot, code_.ConstantSlot(Bits({Type::kFloat, 0, 1.0})));
    }
    if (old.type == Type::kBool) Refuse(e.pos, "++ and -- on a bool are not supported");
    return code_.Result(up ? Opcode::kAddI : Opcode::kSubI, e.pos, old.type, old.slot, code_.IntConstant(1));
  };
  if (target.kind == ExprKind::kName) {
    Symbol& s = symbols_.Assignable(target);
    if (s.kind == Symbol::Kind::kPointer) Refuse(e.pos, "++ and -- on a pointer are not supported: use A += n");
    s.product.reset();
    const Value old{s.slot, s.type, std::nullopt, false};
    std::int32_t kept = s.slot;
    if (want_result && !e.prefix) {
      kept = code_.NewTemp(e.pos);
      code_.Emit(Opcode::kMove, e.pos, kept, s.slot);
    }
    expressions_.StoreInto(s.slot, s.type, step(old), e.pos);
    return {kept, s.type, std::nullopt, false};
  }
  if (target.kind != ExprKind::kIndex) Refuse(target.pos, "++ and -- need a variable or an element");
  const Place p = PlaceOf(target);
  const Value old = LoadPlace(p, e.pos);
  const Value updated = step(old);
  Store(p, updated, e.pos);
  return e.prefix ? updated : old;
}

}  // namespace sim::cuda::compiling
