// fma_rule.cpp — FmaRule (compiler_parts.h): the products a float add or subtract contracts.
#include "sim/cuda/compiler_parts.h"

namespace sim::cuda::compiling {
namespace {

bool Assigns(const Expr& e, const std::string& name);

// Whether a statement assigns (=, op=, ++, --) to a variable named `name`.
bool AssignsIn(const Stmt& s, const std::string& name) {
  if (s.expr && Assigns(*s.expr, name)) return true;
  if (s.step && Assigns(*s.step, name)) return true;
  if (s.init && AssignsIn(*s.init, name)) return true;
  for (const Declaration& d : s.decls) {
    if (d.init && Assigns(*d.init, name)) return true;
  }
  for (const StmtPtr& b : s.body) {
    if (b && AssignsIn(*b, name)) return true;
  }
  return false;
}

bool Assigns(const Expr& e, const std::string& name) {
  if ((e.kind == ExprKind::kAssign || e.kind == ExprKind::kIncDec) && e.kids[0]->kind == ExprKind::kName &&
      e.kids[0]->op == name) {
    return true;
  }
  for (const ExprPtr& k : e.kids) {
    if (Assigns(*k, name)) return true;
  }
  return false;
}

// Whether the rest of `block` (after its statement `at`, which is `statement`) never assigns `name`.
bool NeverAssignedAfter(const std::string& name, const Stmt& statement, const Stmt* block, std::size_t at) {
  if (!block || at >= block->body.size() || block->body[at].get() != &statement) return false;
  for (std::size_t i = at + 1; i < block->body.size(); ++i) {
    if (AssignsIn(*block->body[i], name)) return false;
  }
  return true;
}

}  // namespace

std::optional<Value> FmaRule::Contracted(const Expr& e) {
  const Expr& x = *e.kids[0];
  const Expr& y = *e.kids[1];
  const bool x_product = IsFloatProduct(x);
  const bool y_product = !x_product && IsFloatProduct(y);
  if (!x_product && !y_product) return std::nullopt;
  const Type other = expressions_.StaticType(x_product ? y : x);
  if (other == Type::kDouble) Refuse(e.pos, "a float product meets a double constant here: write the constant with f (1.0f)");
  const Product product = ProductOf(x_product ? x : y);
  const Value addend = expressions_.Convert(expressions_.Compile(x_product ? y : x), Type::kFloat, e.pos);
  if (e.op == "+") return code_.Result(Opcode::kFma, e.pos, Type::kFloat, product.p, product.q, addend.slot);
  if (x_product) {
    const Value negated = code_.Result(Opcode::kNegF, e.pos, Type::kFloat, addend.slot);
    return code_.Result(Opcode::kFma, e.pos, Type::kFloat, product.p, product.q, negated.slot);
  }
  const Value negated = code_.Result(Opcode::kNegF, e.pos, Type::kFloat, product.p);
  return code_.Result(Opcode::kFma, e.pos, Type::kFloat, negated.slot, product.q, addend.slot);
}

std::optional<Value> FmaRule::ContractedCompound(const std::string& op, const Expr& value, const Value& old, SourcePos pos) {
  if ((op != "+" && op != "-") || old.type != Type::kFloat || !IsFloatProduct(value)) return std::nullopt;
  const Product product = ProductOf(value);
  if (op == "+") return code_.Result(Opcode::kFma, pos, Type::kFloat, product.p, product.q, old.slot);
  const Value negated = code_.Result(Opcode::kNegF, pos, Type::kFloat, product.p);
  return code_.Result(Opcode::kFma, pos, Type::kFloat, negated.slot, product.q, old.slot);
}

std::optional<Product> FmaRule::DeclaredProduct(const Declaration& d, const Stmt& statement, const Stmt* block, std::size_t at) {
  if (d.type != Type::kFloat || !NeverAssignedAfter(d.name, statement, block, at)) return std::nullopt;
  if (!IsFloatProduct(*d.init)) return std::nullopt;
  const Product temps = ProductOf(*d.init);
  Product kept{code_.NewVariable(d.init->pos, 1), code_.NewVariable(d.init->pos, 1)};
  code_.Emit(Opcode::kMove, d.init->pos, kept.p, temps.p);
  code_.Emit(Opcode::kMove, d.init->pos, kept.q, temps.q);
  return kept;
}

bool FmaRule::IsFloatProduct(const Expr& e) {
  if (e.kind == ExprKind::kName) {
    const Symbol& s = symbols_.Find(e.op, e.pos);
    return s.kind == Symbol::Kind::kScalar && s.product.has_value();
  }
  return e.kind == ExprKind::kBinary && e.op == "*" && expressions_.StaticType(*e.kids[0]) == Type::kFloat &&
         expressions_.StaticType(*e.kids[1]) == Type::kFloat;
}

// The operands of a float product (IsFloatProduct), computed.
Product FmaRule::ProductOf(const Expr& e) {
  if (e.kind == ExprKind::kName) return *symbols_.Find(e.op, e.pos).product;
  const Value p = expressions_.Compile(*e.kids[0]);
  const Value q = expressions_.Compile(*e.kids[1]);
  return {p.slot, q.slot};
}

}  // namespace sim::cuda::compiling
