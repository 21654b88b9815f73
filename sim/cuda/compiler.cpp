#include "sim/cuda/compiler.h"

#include <cmath>
#include <cstring>
#include <optional>

#include "sim/cuda/constant.h"

namespace sim::cuda {
namespace {

// FmaRule — when a float multiply and an add become one fmaf, as nvcc does by default
// (-fmad=true; LLVM's contraction of fadd/fsub with an fmul operand, left operand first):
//  1. `x + y`: x a float product p·q gives fmaf(p, q, y); else y a float product gives
//     fmaf(p, q, x). So `acc += a * b` is fmaf(a, b, acc), and `a*b + c*d` is fmaf(a, b, c*d).
//  2. `x - y`: x a product gives fmaf(p, q, -y); else y a product gives fmaf(-p, q, x).
//  3. A product is an expression `p * q` of two floats, or a float local declared `= p * q`
//     and never assigned again (the compiler's SSA sees through it); the operands are the
//     values p and q had where the product was written.
//  4. Nothing else contracts: a product meeting a double constant is refused (nvcc may fold
//     it in double), `-(p*q) + x` stays a multiply and an add.
// Measured against the GPU by the corpus's device test; where it differs, this is the place.

// Register layout while compiling: variables count up from the special registers; constants
// and temporaries get provisional numbers in their own ranges and are placed after the
// variables once the kernel is compiled (constants first), so a statement's temporaries are
// reused by the next.
constexpr std::int32_t kConstantBase = 1 << 26;
constexpr std::int32_t kTempBase = 1 << 27;
constexpr std::size_t kMaxInstructions = std::size_t{1} << 20;
constexpr int kMaxLocalArray = 4096;
constexpr int kMaxSharedBytes = 48 * 1024;
constexpr int kMaxVariableSlots = 1 << 16;
constexpr std::size_t kMaxTemps = std::size_t{1} << 16;

struct Value {
  std::int32_t slot = 0;
  Type type = Type::kInt;        // kDouble: a float result that is right only once rounded to float
  std::optional<Constant> constant;
  bool fresh = false;            // the last instruction wrote it, and nothing else did
};

struct Product {
  std::int32_t p = 0;
  std::int32_t q = 0;
};

struct Symbol {
  enum class Kind { kConstant, kScalar, kLocalArray, kShared, kPointer } kind = Kind::kScalar;
  Type type = Type::kInt;
  Constant value;                 // kConstant
  std::int32_t slot = 0;          // kScalar, kLocalArray (first element), kPointer (its offset)
  std::vector<int> dims;          // kLocalArray, kShared
  int index = 0;                  // kShared: the array; kPointer: the parameter
  bool const_data = false;        // kPointer
  std::optional<Product> product;  // kScalar declared as a product, never assigned again
};

Type Promote(Type t) { return t == Type::kBool ? Type::kInt : t; }
bool IsFloating(Type t) { return t == Type::kFloat || t == Type::kDouble; }

Type CommonType(Type a, Type b) {
  a = Promote(a);
  b = Promote(b);
  if (a == Type::kDouble || b == Type::kDouble) return Type::kDouble;
  if (a == Type::kFloat || b == Type::kFloat) return Type::kFloat;
  if (a == Type::kUnsigned || b == Type::kUnsigned) return Type::kUnsigned;
  return Type::kInt;
}

std::uint32_t Bits(const Constant& c) {
  if (c.type == Type::kFloat || c.type == Type::kDouble) {
    const float f = static_cast<float>(c.real);
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
  }
  return static_cast<std::uint32_t>(c.integer);
}

bool ExactlyFloat(const Constant& c) {
  return !IsFloating(c.type) || c.real != c.real || static_cast<double>(static_cast<float>(c.real)) == c.real;
}

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

class Compiler {
 public:
  Compiler(const KernelFunction& kernel, const TranslationUnit& unit, const std::map<std::string, long long>& templates)
      : kernel_(kernel) {
    out_.name = kernel.name;
    next_variable_ = kFirstVariableSlot;
    scopes_.emplace_back();
    for (const Declaration& d : unit.constants) FileConstant(d);
    for (const std::string& name : kernel.template_parameters) {
      const auto found = templates.find(name);
      if (found == templates.end()) {
        Refuse(kernel.pos, "the template parameter " + name + " of " + kernel.name + " needs a value: pass --define " +
                               name + "=VALUE or launch it as " + kernel.name + "<VALUE><<<...>>>");
      }
      Symbol s;
      s.kind = Symbol::Kind::kConstant;
      s.value = Constant{Type::kInt, static_cast<std::int32_t>(found->second), 0.0};
      scopes_.back()[name] = s;
      out_.template_values.emplace_back(name, found->second);
    }
    scopes_.emplace_back();
    for (std::size_t i = 0; i < kernel.parameters.size(); ++i) Param(kernel.parameters[i], static_cast<int>(i));
  }

  CompiledKernel Run() {
    Statement(*kernel_.body);
    Emit(Opcode::kExit, kernel_.body->pos);
    Layout();
    return std::move(out_);
  }

 private:
  // ---- symbols ----
  void FileConstant(const Declaration& d) {
    const std::optional<Constant> value = EvaluateConstant(*d.init, Lookup());
    if (!value) Refuse(d.pos, "the file constant " + d.name + " is not a constant expression");
    Symbol s;
    s.kind = Symbol::Kind::kConstant;
    s.value = ConvertConstant(*value, d.type);
    scopes_.back()[d.name] = s;
  }

  void Param(const Parameter& p, int index) {
    Symbol s;
    s.slot = NewVariable(p.pos, 1);
    if (p.pointer) {
      s.kind = Symbol::Kind::kPointer;
      s.type = Type::kFloat;
      s.index = index;
      s.const_data = p.const_data;
    } else {
      s.kind = Symbol::Kind::kScalar;
      s.type = Type::kInt;
    }
    Declare(p.name, p.pos, s);
    out_.parameters.push_back({p.name, p.pos, p.pointer, p.const_data, s.slot});
    out_.variables.push_back({p.name, p.pos, s.type, s.slot, 1, true});
  }

  void Declare(const std::string& name, SourcePos pos, const Symbol& s) {
    if (!scopes_.back().emplace(name, s).second) Refuse(pos, name + " is declared twice in the same scope");
  }

  const Symbol& Find(const std::string& name, SourcePos pos) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      const auto found = scope->find(name);
      if (found != scope->end()) return found->second;
    }
    if (name == "A" || name == "B" || name == "C" || name == "M" || name == "N" || name == "K") {
      Refuse(pos, name + " is not declared (is it a parameter of the kernel?)");
    }
    Refuse(pos, name + " is not declared");
  }

  ConstantLookup Lookup() const {
    return [this](const std::string& name) -> std::optional<Constant> {
      for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
        const auto found = scope->find(name);
        if (found == scope->end()) continue;
        if (found->second.kind == Symbol::Kind::kConstant) return found->second.value;
        return std::nullopt;
      }
      return std::nullopt;
    };
  }

  // ---- registers and instructions ----
  std::int32_t NewVariable(SourcePos pos, int count) {
    if (next_variable_ + count > kMaxVariableSlots) Refuse(pos, "the kernel declares too many variables for the model");
    const std::int32_t slot = next_variable_;
    next_variable_ += count;
    return slot;
  }

  std::int32_t NewTemp(SourcePos pos) {
    if (next_temp_ >= kMaxTemps) Refuse(pos, "this statement is too large for the model");
    const auto slot = static_cast<std::int32_t>(kTempBase + next_temp_++);
    temps_used_ = std::max(temps_used_, next_temp_);
    return slot;
  }

  std::int32_t ConstantSlot(std::uint32_t bits) {
    const auto found = constants_.find(bits);
    if (found != constants_.end()) return found->second;
    const auto slot = static_cast<std::int32_t>(kConstantBase + constants_.size());
    constants_.emplace(bits, slot);
    return slot;
  }
  std::int32_t IntConstant(std::int32_t v) { return ConstantSlot(static_cast<std::uint32_t>(v)); }
  Value ConstantValue(const Constant& c) { return {ConstantSlot(Bits(c)), c.type, c, false}; }

  std::size_t Emit(Opcode op, SourcePos pos, std::int32_t dst = 0, std::int32_t a = 0, std::int32_t b = 0,
                   std::int32_t c = 0, std::uint8_t array = 0) {
    if (out_.code.size() >= kMaxInstructions) Refuse(pos, "the kernel is too long for the model");
    out_.code.push_back({op, array, dst, a, b, c});
    out_.positions.push_back(pos);
    return out_.code.size() - 1;
  }
  std::int32_t Here() const { return static_cast<std::int32_t>(out_.code.size()); }
  void PatchTo(std::size_t jump, std::int32_t target) { out_.code[jump].dst = target; }

  Value Result(Opcode op, SourcePos pos, Type type, std::int32_t a, std::int32_t b = 0, std::int32_t c = 0) {
    const std::int32_t dst = NewTemp(pos);
    Emit(op, pos, dst, a, b, c);
    return {dst, type, std::nullopt, true};
  }

  // Places constants and temporaries after the variables and fills the initial registers.
  void Layout() {
    const std::int32_t constant_start = next_variable_;
    const auto temp_start = static_cast<std::int32_t>(constant_start + constants_.size());
    const auto remap = [&](std::int32_t& slot) {
      if (slot >= kTempBase) {
        slot = temp_start + (slot - kTempBase);
      } else if (slot >= kConstantBase) {
        slot = constant_start + (slot - kConstantBase);
      }
    };
    for (Instruction& i : out_.code) {
      if (i.op != Opcode::kJump && i.op != Opcode::kJumpIfZero && i.op != Opcode::kJumpIfNotZero) remap(i.dst);
      remap(i.a);
      remap(i.b);
      if (i.op != Opcode::kLoadLocal && i.op != Opcode::kStoreLocal) remap(i.c);
    }
    out_.initial_registers.assign(static_cast<std::size_t>(temp_start) + temps_used_, 0u);
    for (const auto& [bits, slot] : constants_) out_.initial_registers[static_cast<std::size_t>(constant_start + (slot - kConstantBase))] = bits;
  }

  // ---- statements ----
  struct Loop {
    std::vector<std::size_t> breaks;
    std::vector<std::size_t> continues;
  };

  void Statement(const Stmt& s) {
    next_temp_ = 0;
    switch (s.kind) {
      case StmtKind::kEmpty:
        return;
      case StmtKind::kExpr:
        Discard(*s.expr);
        return;
      case StmtKind::kDecl:
        for (const Declaration& d : s.decls) Declare(d, s);
        return;
      case StmtKind::kBlock:
        scopes_.emplace_back();
        block_stack_.push_back(&s);
        for (std::size_t i = 0; i < s.body.size(); ++i) {
          statement_index_.push_back(i);
          Statement(*s.body[i]);
          statement_index_.pop_back();
        }
        block_stack_.pop_back();
        scopes_.pop_back();
        return;
      case StmtKind::kIf:
        If(s);
        return;
      case StmtKind::kWhile:
      case StmtKind::kFor:
      case StmtKind::kDo:
        LoopStatement(s);
        return;
      case StmtKind::kBreak:
      case StmtKind::kContinue: {
        if (loops_.empty()) Refuse(s.pos, std::string(s.kind == StmtKind::kBreak ? "break" : "continue") + " outside a loop");
        const std::size_t jump = Emit(Opcode::kJump, s.pos);
        (s.kind == StmtKind::kBreak ? loops_.back().breaks : loops_.back().continues).push_back(jump);
        return;
      }
      case StmtKind::kReturn:
        Emit(Opcode::kExit, s.pos);
        return;
    }
  }

  void If(const Stmt& s) {
    if (const std::optional<Constant> c = EvaluateConstant(*s.expr, Lookup())) {
      // `if constexpr` and constant conditions: only the branch taken is compiled.
      const bool taken = ConvertConstant(*c, Type::kBool).integer != 0;
      if (taken) Scoped(*s.body[0]);
      if (!taken && s.body.size() > 1) Scoped(*s.body[1]);
      return;
    }
    const std::size_t skip_then = Emit(Opcode::kJumpIfZero, s.pos, 0, Condition(*s.expr));
    Scoped(*s.body[0]);
    if (s.body.size() > 1) {
      const std::size_t skip_else = Emit(Opcode::kJump, s.pos);
      PatchTo(skip_then, Here());
      Scoped(*s.body[1]);
      PatchTo(skip_else, Here());
    } else {
      PatchTo(skip_then, Here());
    }
  }

  // A statement in its own scope (an if's branch, a loop's body).
  void Scoped(const Stmt& s) {
    scopes_.emplace_back();
    Statement(s);
    scopes_.pop_back();
  }

  void LoopStatement(const Stmt& s) {
    scopes_.emplace_back();
    if (s.init) Statement(*s.init);
    next_temp_ = 0;
    // for and while test before the body; do tests after it.
    std::optional<std::size_t> exit_jump;
    const std::int32_t top = Here();
    if (s.kind != StmtKind::kDo && s.expr) exit_jump = Emit(Opcode::kJumpIfZero, s.expr->pos, 0, Condition(*s.expr));
    loops_.emplace_back();
    Scoped(*s.body[0]);
    const std::int32_t continue_target = Here();
    next_temp_ = 0;
    if (s.step) Discard(*s.step);
    if (s.kind == StmtKind::kDo) {
      Emit(Opcode::kJumpIfNotZero, s.expr->pos, top, Condition(*s.expr));
    } else {
      Emit(Opcode::kJump, s.pos, top);
    }
    const std::int32_t end = Here();
    if (exit_jump) PatchTo(*exit_jump, end);
    for (const std::size_t b : loops_.back().breaks) PatchTo(b, end);
    for (const std::size_t c : loops_.back().continues) PatchTo(c, continue_target);
    loops_.pop_back();
    scopes_.pop_back();
  }

  int ExtentOf(const Expr& e, const std::string& name) {
    const std::optional<Constant> c = EvaluateConstant(e, Lookup());
    if (!c || !c->IsInteger()) Refuse(e.pos, "the size of " + name + " must be a constant (a #define, a template parameter or a const int)");
    if (c->integer <= 0) Refuse(e.pos, "the size of " + name + " must be positive, not " + std::to_string(c->integer));
    if (c->integer > kMaxLocalArray * 16) Refuse(e.pos, "the array " + name + " is too large for the model");
    return static_cast<int>(c->integer);
  }

  void Declare(const Declaration& d, const Stmt& statement) {
    if (d.type == Type::kBool && !d.dims.empty()) Refuse(d.pos, "a bool array is not supported");
    if (d.shared) {
      SharedDeclaration(d);
      return;
    }
    if (!d.dims.empty()) {
      LocalArray(d);
      return;
    }
    if (d.has_init_list) Refuse(d.pos, "{...} initializes arrays only");
    // A const with a constant value is a constant: no register, folded where it is used.
    if (d.is_const && d.init) {
      if (const std::optional<Constant> c = EvaluateConstant(*d.init, Lookup())) {
        if (IsFloating(c->type) && !ExactlyFloat(*c) && d.type != Type::kFloat) {
          Refuse(d.init->pos, "double arithmetic is not supported: write the constant with f");
        }
        Symbol s;
        s.kind = Symbol::Kind::kConstant;
        s.value = ConvertConstant(*c, d.type);
        Declare(d.name, d.pos, s);
        return;
      }
    }
    Symbol s;
    s.kind = Symbol::Kind::kScalar;
    s.type = d.type;
    s.slot = NewVariable(d.pos, 1);
    if (d.init) {
      const std::optional<Product> product = d.type == Type::kFloat && NeverAssignedAfter(d.name, statement)
                                                 ? ProductOperands(*d.init) : std::nullopt;
      if (product) {
        s.product = product;
        Emit(Opcode::kMulF, d.init->pos, s.slot, product->p, product->q);
      } else {
        StoreInto(s.slot, d.type, Compile(*d.init), d.init->pos);
      }
    }
    out_.variables.push_back({d.name, d.pos, d.type, s.slot, 1, d.init != nullptr});
    Declare(d.name, d.pos, s);  // after its value: `int x = x;` reads an outer x, as in C
  }

  // Whether the rest of the enclosing block (after `statement`) never assigns `name`.
  bool NeverAssignedAfter(const std::string& name, const Stmt& statement) const {
    if (block_stack_.empty() || statement_index_.empty()) return false;
    const Stmt& block = *block_stack_.back();
    const std::size_t at = statement_index_.back();
    if (at >= block.body.size() || block.body[at].get() != &statement) return false;
    for (std::size_t i = at + 1; i < block.body.size(); ++i) {
      if (AssignsIn(*block.body[i], name)) return false;
    }
    return true;
  }

  // For a declaration `float x = p * q`: p and q, kept in registers of their own.
  std::optional<Product> ProductOperands(const Expr& e) {
    if (!IsFloatProduct(e)) return std::nullopt;
    const Product temps = ProductOf(e);
    Product kept{NewVariable(e.pos, 1), NewVariable(e.pos, 1)};
    Emit(Opcode::kMove, e.pos, kept.p, temps.p);
    Emit(Opcode::kMove, e.pos, kept.q, temps.q);
    return kept;
  }

  void SharedDeclaration(const Declaration& d) {
    if (d.dims.empty()) Refuse(d.pos, "a __shared__ scalar is not supported: declare an array (__shared__ float s[1])");
    if (d.dims.size() > 3) Refuse(d.pos, "a __shared__ array has at most 3 dimensions");
    if (d.init || d.has_init_list) Refuse(d.pos, "a __shared__ array cannot be initialized where it is declared");
    if (d.type != Type::kFloat && d.type != Type::kInt && d.type != Type::kUnsigned) Refuse(d.pos, "__shared__ arrays are float or int");
    SharedArray array;
    array.name = d.name;
    array.pos = d.pos;
    array.type = d.type == Type::kFloat ? Type::kFloat : Promote(d.type);
    array.rank = static_cast<int>(d.dims.size());
    long long words = 1;
    for (std::size_t i = 0; i < d.dims.size(); ++i) {
      array.dims[i] = ExtentOf(*d.dims[i], d.name);
      words *= array.dims[i];
    }
    long long bytes = words * 4;
    for (const SharedArray& other : out_.shared) bytes += static_cast<long long>(other.Words()) * 4;
    if (bytes > kMaxSharedBytes) {
      Refuse(d.pos, "the __shared__ arrays take " + std::to_string(bytes) + " bytes, more than the 48 KiB a block may declare");
    }
    if (out_.shared.size() >= 255) Refuse(d.pos, "too many __shared__ arrays");
    Symbol s;
    s.kind = Symbol::Kind::kShared;
    s.type = array.type;
    s.index = static_cast<int>(out_.shared.size());
    s.dims.assign(array.dims.begin(), array.dims.begin() + array.rank);
    out_.shared.push_back(array);
    Declare(d.name, d.pos, s);
  }

  void LocalArray(const Declaration& d) {
    Symbol s;
    s.kind = Symbol::Kind::kLocalArray;
    s.type = Promote(d.type);
    int length = 1;
    for (const ExprPtr& e : d.dims) {
      s.dims.push_back(ExtentOf(*e, d.name));
      length *= s.dims.back();
      if (length > kMaxLocalArray) Refuse(d.pos, "the local array " + d.name + " is too large for the model (at most 4096 elements)");
    }
    s.slot = NewVariable(d.pos, length);
    if (d.init) Refuse(d.pos, "initialize an array with {...}");
    if (d.has_init_list) {
      if (static_cast<int>(d.init_list.size()) > length) Refuse(d.pos, "more initializers than " + d.name + " has elements");
      // Elements without an initializer are zero, as C says (`float acc[4] = {0}`).
      for (int i = 0; i < length; ++i) {
        next_temp_ = 0;
        if (i < static_cast<int>(d.init_list.size())) {
          StoreInto(s.slot + i, s.type, Compile(*d.init_list[static_cast<std::size_t>(i)]), d.pos);
        } else {
          Emit(Opcode::kMove, d.pos, s.slot + i, IntConstant(0));
        }
      }
    }
    out_.variables.push_back({d.name, d.pos, s.type, s.slot, length, d.has_init_list});
    Declare(d.name, d.pos, s);
  }

  // ---- expressions ----
  void Discard(const Expr& e) {
    if (e.kind == ExprKind::kIncDec) {
      IncDec(e, false);
    } else if (e.kind == ExprKind::kComma) {
      Discard(*e.kids[0]);
      Discard(*e.kids[1]);
    } else if (e.kind == ExprKind::kCall && (e.op == "__syncthreads" || e.op == "__syncwarp")) {
      Sync(e);
    } else {
      Compile(e);
    }
  }

  void Sync(const Expr& e) {
    if (e.op == "__syncthreads") {
      if (!e.kids.empty()) Refuse(e.pos, "__syncthreads() takes no argument");
      Emit(Opcode::kSyncthreads, e.pos);
      return;
    }
    if (e.kids.size() > 1) Refuse(e.pos, "__syncwarp takes at most one argument (the mask)");
    if (e.kids.size() == 1) {
      const std::optional<Constant> mask = EvaluateConstant(*e.kids[0], Lookup());
      if (!mask || !mask->IsInteger() || static_cast<std::uint32_t>(mask->integer) != 0xffffffffu) {
        Refuse(e.pos, "__syncwarp with a mask other than 0xffffffff is not supported");
      }
    }
    Emit(Opcode::kSyncwarp, e.pos);
  }

  // An int register that is nonzero where `e` is true.
  std::int32_t Condition(const Expr& e) {
    const Value v = Compile(e);
    if (v.type == Type::kDouble && !v.constant) Refuse(e.pos, "double arithmetic is not supported: write the constants with f (0.5f)");
    if (IsFloating(v.type)) return Result(Opcode::kNeF, e.pos, Type::kInt, v.slot, ConstantSlot(0)).slot;
    return v.slot;
  }

  Value Compile(const Expr& e) {
    if (e.kind != ExprKind::kName || Find(e.op, e.pos).kind == Symbol::Kind::kConstant) {
      if (e.kind != ExprKind::kAssign && e.kind != ExprKind::kIncDec && e.kind != ExprKind::kCall) {
        if (const std::optional<Constant> c = EvaluateConstant(e, Lookup())) return ConstantValue(*c);
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
        return AssignValue(e);
      case ExprKind::kIncDec:
        return IncDec(e, true);
      case ExprKind::kConditional:
        return ConditionalValue(e);
      case ExprKind::kCall:
        return CallValue(e);
      case ExprKind::kIndex:
        return Load(e);
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

  Value NameValue(const Expr& e) {
    const Symbol& s = Find(e.op, e.pos);
    switch (s.kind) {
      case Symbol::Kind::kScalar:
        return {s.slot, s.type, std::nullopt, false};
      case Symbol::Kind::kPointer:
        Refuse(e.pos, e.op + " is a pointer: index it (" + e.op + "[i])");
      default:
        Refuse(e.pos, e.op + " is an array: index it");
    }
  }

  // Converts `v` to `to`, as C converts on assignment and in arithmetic.
  Value Convert(const Value& v, Type to, SourcePos pos) {
    if (v.constant) return ConstantValue(ConvertConstant(*v.constant, to));
    const Type from = Promote(v.type);
    if (to == Type::kBool) {
      if (v.type == Type::kBool) return v;
      if (from == Type::kDouble) DoubleRefused(pos);
      const Value b = Result(IsFloating(from) ? Opcode::kNeF : Opcode::kNeI, pos, Type::kBool, v.slot, ConstantSlot(0));
      return b;
    }
    if (from == Type::kDouble) {
      if (to != Type::kFloat && to != Type::kDouble) DoubleRefused(pos);
      return {v.slot, Type::kFloat, std::nullopt, v.fresh};
    }
    if (from == to || (from != Type::kFloat && to != Type::kFloat && to != Type::kDouble)) return {v.slot, to, std::nullopt, v.fresh};
    if (to == Type::kFloat || to == Type::kDouble) {
      return Result(from == Type::kUnsigned ? Opcode::kUnsignedToFloat : Opcode::kIntToFloat, pos, Type::kFloat, v.slot);
    }
    return Result(to == Type::kUnsigned ? Opcode::kFloatToUnsigned : Opcode::kFloatToInt, pos, to, v.slot);
  }

  [[noreturn]] static void DoubleRefused(SourcePos pos) {
    Refuse(pos, "double arithmetic is not supported: write the constants with f (0.5f)");
  }

  // Writes `v` converted to `type` into register `slot`: into the instruction that made it
  // when it is fresh, else by a move.
  void StoreInto(std::int32_t slot, Type type, const Value& v, SourcePos pos) {
    const Value c = Convert(v, type, pos);
    const bool stored = !out_.code.empty() && (out_.code.back().op == Opcode::kStoreGlobal ||
                                               out_.code.back().op == Opcode::kStoreShared ||
                                               out_.code.back().op == Opcode::kStoreLocal);
    if (c.fresh && c.slot >= kTempBase && !stored && out_.code.back().dst == c.slot) {
      out_.code.back().dst = slot;
      return;
    }
    Emit(Opcode::kMove, pos, slot, c.slot);
  }

  Value UnaryValue(const Expr& e) {
    const Value v = Compile(*e.kids[0]);
    const Type t = Promote(v.type);
    if (t == Type::kDouble) DoubleRefused(e.pos);
    if (e.op == "+") return {v.slot, t, std::nullopt, false};
    if (e.op == "!") return Result(IsFloating(t) ? Opcode::kNotF : Opcode::kLogicalNot, e.pos, Type::kInt, v.slot);
    if (e.op == "-") return Result(t == Type::kFloat ? Opcode::kNegF : Opcode::kNegI, e.pos, t, v.slot);
    if (t == Type::kFloat) Refuse(e.pos, "'~' needs an integer");
    return Result(Opcode::kNot, e.pos, t, v.slot);
  }

  // ---- binary operators ----
  Type StaticType(const Expr& e) {
    if (const std::optional<Constant> c = EvaluateConstant(e, Lookup())) return c->type;
    switch (e.kind) {
      case ExprKind::kName: {
        const Symbol& s = Find(e.op, e.pos);
        return s.kind == Symbol::Kind::kConstant ? s.value.type : s.type;
      }
      case ExprKind::kBuiltin:
        return Type::kUnsigned;
      case ExprKind::kUnary:
        return e.op == "!" ? Type::kInt : Promote(StaticType(*e.kids[0]));
      case ExprKind::kBinary:
        if (e.op == "<<" || e.op == ">>") return Promote(StaticType(*e.kids[0]));
        if (BinaryPrecedenceIsComparison(e.op)) return Type::kInt;
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
        return Find(base->op, base->pos).type;
      }
      case ExprKind::kCast:
        return e.cast_type;
      case ExprKind::kComma:
        return StaticType(*e.kids[1]);
      default:
        return Type::kInt;
    }
  }

  static bool BinaryPrecedenceIsComparison(const std::string& op) {
    return op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=" || op == "&&" || op == "||";
  }

  bool IsFloatProduct(const Expr& e) {
    if (e.kind == ExprKind::kName) {
      const Symbol& s = Find(e.op, e.pos);
      return s.kind == Symbol::Kind::kScalar && s.product.has_value();
    }
    return e.kind == ExprKind::kBinary && e.op == "*" && StaticType(*e.kids[0]) == Type::kFloat &&
           StaticType(*e.kids[1]) == Type::kFloat;
  }

  // The operands of a float product (IsFloatProduct), computed.
  Product ProductOf(const Expr& e) {
    if (e.kind == ExprKind::kName) return *Find(e.op, e.pos).product;
    const Value p = Compile(*e.kids[0]);
    const Value q = Compile(*e.kids[1]);
    return {p.slot, q.slot};
  }

  Value BinaryValue(const Expr& e) {
    const std::string& op = e.op;
    if (op == "&&" || op == "||") return Logical(e);
    if (op == "+" || op == "-") {
      if (std::optional<Value> fused = Contracted(e)) return *fused;
    }
    const Value l = Compile(*e.kids[0]);
    const Value r = Compile(*e.kids[1]);
    return Arithmetic(op, l, r, e.pos);
  }

  // FmaRule, parts 1 and 2.
  std::optional<Value> Contracted(const Expr& e) {
    const Expr& x = *e.kids[0];
    const Expr& y = *e.kids[1];
    const bool x_product = IsFloatProduct(x);
    const bool y_product = !x_product && IsFloatProduct(y);
    if (!x_product && !y_product) return std::nullopt;
    const Type other = StaticType(x_product ? y : x);
    if (other == Type::kDouble) Refuse(e.pos, "a float product meets a double constant here: write the constant with f (1.0f)");
    const Product product = ProductOf(x_product ? x : y);
    const Value addend = Convert(Compile(x_product ? y : x), Type::kFloat, e.pos);
    if (e.op == "+") return Result(Opcode::kFma, e.pos, Type::kFloat, product.p, product.q, addend.slot);
    if (x_product) {
      const Value negated = Result(Opcode::kNegF, e.pos, Type::kFloat, addend.slot);
      return Result(Opcode::kFma, e.pos, Type::kFloat, product.p, product.q, negated.slot);
    }
    const Value negated = Result(Opcode::kNegF, e.pos, Type::kFloat, product.p);
    return Result(Opcode::kFma, e.pos, Type::kFloat, negated.slot, product.q, addend.slot);
  }

  // Two operands made one type: a double constant meeting a float becomes a float constant
  // where it is one exactly (then float arithmetic gives the double's result rounded).
  Type Operands(Value& l, Value& r, SourcePos pos) {
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

  Value Arithmetic(const std::string& op, Value l, Value r, SourcePos pos) {
    if (op == "<<" || op == ">>") {
      const Type t = Promote(l.type);
      if (IsFloating(t) || IsFloating(r.type)) Refuse(pos, "'" + op + "' needs integers");
      const Opcode code = op == "<<" ? Opcode::kShl : (t == Type::kUnsigned ? Opcode::kShrU : Opcode::kShrI);
      return Result(code, pos, t, l.slot, r.slot);
    }
    const Type type = Operands(l, r, pos);
    const bool floating = IsFloating(type);
    const bool is_unsigned = type == Type::kUnsigned;
    if (floating && (op == "%" || op == "&" || op == "|" || op == "^")) Refuse(pos, "'" + op + "' needs integers");
    // A double result (float op an exact double constant) is right once rounded to float; it
    // may be compared only where the comparison is the float one (a float and the constant).
    const Type result = type;
    if (op == "+") return Result(floating ? Opcode::kAddF : Opcode::kAddI, pos, result, l.slot, r.slot);
    if (op == "-") return Result(floating ? Opcode::kSubF : Opcode::kSubI, pos, result, l.slot, r.slot);
    if (op == "*") return Result(floating ? Opcode::kMulF : Opcode::kMulI, pos, result, l.slot, r.slot);
    if (op == "/") return Result(floating ? Opcode::kDivF : (is_unsigned ? Opcode::kDivU : Opcode::kDivI), pos, result, l.slot, r.slot);
    if (op == "%") return Result(is_unsigned ? Opcode::kRemU : Opcode::kRemI, pos, result, l.slot, r.slot);
    if (op == "&") return Result(Opcode::kAnd, pos, result, l.slot, r.slot);
    if (op == "|") return Result(Opcode::kOr, pos, result, l.slot, r.slot);
    if (op == "^") return Result(Opcode::kXor, pos, result, l.slot, r.slot);
    const Opcode lt = floating ? Opcode::kLtF : (is_unsigned ? Opcode::kLtU : Opcode::kLtI);
    const Opcode le = floating ? Opcode::kLeF : (is_unsigned ? Opcode::kLeU : Opcode::kLeI);
    if (op == "<") return Result(lt, pos, Type::kInt, l.slot, r.slot);
    if (op == "<=") return Result(le, pos, Type::kInt, l.slot, r.slot);
    if (op == ">") return Result(lt, pos, Type::kInt, r.slot, l.slot);
    if (op == ">=") return Result(le, pos, Type::kInt, r.slot, l.slot);
    if (op == "==") return Result(floating ? Opcode::kEqF : Opcode::kEqI, pos, Type::kInt, l.slot, r.slot);
    if (op == "!=") return Result(floating ? Opcode::kNeF : Opcode::kNeI, pos, Type::kInt, l.slot, r.slot);
    Refuse(pos, "the operator '" + op + "' is not supported");
  }

  // && and ||: the right side runs only where the left does not decide (guards rely on it).
  Value Logical(const Expr& e) {
    const std::int32_t result = NewTemp(e.pos);
    const std::int32_t left = Condition(*e.kids[0]);
    Emit(Opcode::kNeI, e.pos, result, left, IntConstant(0));
    const std::size_t skip = Emit(e.op == "&&" ? Opcode::kJumpIfZero : Opcode::kJumpIfNotZero, e.pos, 0, result);
    const std::int32_t right = Condition(*e.kids[1]);
    Emit(Opcode::kNeI, e.pos, result, right, IntConstant(0));
    PatchTo(skip, Here());
    return {result, Type::kInt, std::nullopt, false};
  }

  Value ConditionalValue(const Expr& e) {
    const Type type = CommonType(StaticType(*e.kids[1]), StaticType(*e.kids[2]));
    if (type == Type::kDouble) {
      // `c ? x : 0.0`: a float and an exact double constant pick a float.
      const Type a = StaticType(*e.kids[1]);
      const Type b = StaticType(*e.kids[2]);
      if (!((a == Type::kFloat || a == Type::kDouble) && (b == Type::kFloat || b == Type::kDouble))) DoubleRefused(e.pos);
    }
    const Type result_type = type == Type::kDouble ? Type::kFloat : type;
    const std::int32_t result = NewTemp(e.pos);
    const std::size_t to_else = Emit(Opcode::kJumpIfZero, e.pos, 0, Condition(*e.kids[0]));
    StoreInto(result, result_type, ExactOrRefused(Compile(*e.kids[1]), e.pos), e.pos);
    const std::size_t to_end = Emit(Opcode::kJump, e.pos);
    PatchTo(to_else, Here());
    StoreInto(result, result_type, ExactOrRefused(Compile(*e.kids[2]), e.pos), e.pos);
    PatchTo(to_end, Here());
    return {result, result_type, std::nullopt, false};
  }

  Value ExactOrRefused(const Value& v, SourcePos pos) {
    if (v.constant && v.type == Type::kDouble && !ExactlyFloat(*v.constant)) DoubleRefused(pos);
    return v;
  }

  Value CallValue(const Expr& e) {
    const std::string& f = e.op;
    const auto arity = [&](std::size_t n) {
      if (e.kids.size() != n) Refuse(e.pos, f + " takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s"));
    };
    const auto floats = [&](std::size_t i) { return Convert(ExactOrRefused(Compile(*e.kids[i]), e.pos), Type::kFloat, e.pos).slot; };
    if (f == "__syncthreads" || f == "__syncwarp") Refuse(e.pos, f + "() is a statement of its own");
    if (f == "fminf" || f == "fmaxf") {
      arity(2);
      const std::int32_t a = floats(0);
      return Result(f == "fminf" ? Opcode::kMinF : Opcode::kMaxF, e.pos, Type::kFloat, a, floats(1));
    }
    if (f == "fmaf") {
      arity(3);
      const std::int32_t a = floats(0);
      const std::int32_t b = floats(1);
      return Result(Opcode::kFma, e.pos, Type::kFloat, a, b, floats(2));
    }
    if (f == "sqrtf" || f == "fabsf") {
      arity(1);
      return Result(f == "sqrtf" ? Opcode::kSqrtF : Opcode::kAbsF, e.pos, Type::kFloat, floats(0));
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
      return Result(code, e.pos, t, l.slot, r.slot);
    }
    if (f == "atomicAdd" || f.rfind("atomic", 0) == 0) Refuse(e.pos, f + " is not supported yet");
    Refuse(e.pos, "the function " + f + " is not supported (min, max, fminf, fmaxf, fmaf, sqrtf, fabsf)");
  }

  // ---- memory ----
  // An indexed place: a[i], s[i][j], acc[k].
  struct Place {
    const Symbol* symbol = nullptr;
    std::string name;
    std::array<std::int32_t, 3> index{};  // registers
    std::optional<int> constant_local;    // a local element known at compile time
    std::int32_t flat = 0;                // a local or global element's register
  };

  Place PlaceOf(const Expr& e) {
    std::vector<const Expr*> indices;
    const Expr* base = &e;
    while (base->kind == ExprKind::kIndex) {
      indices.insert(indices.begin(), base->kids[1].get());
      base = base->kids[0].get();
    }
    if (base->kind != ExprKind::kName) Refuse(base->pos, "only a named array or parameter can be indexed");
    Place place;
    place.name = base->op;
    place.symbol = &Find(base->op, base->pos);
    const Symbol& s = *place.symbol;
    const auto index_register = [&](const Expr* x) {
      const Value v = Compile(*x);
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
        for (std::size_t i = indices.size(); i < 3; ++i) place.index[i] = IntConstant(0);
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
        // Row-major: flat = ((i0 · d1) + i1) · d2 + i2.
        std::int32_t flat = values[0].slot;
        for (std::size_t i = 1; i < values.size(); ++i) {
          const Value scaled = Result(Opcode::kMulI, e.pos, Type::kInt, flat, IntConstant(s.dims[i]));
          flat = Result(Opcode::kAddI, e.pos, Type::kInt, scaled.slot, values[i].slot).slot;
        }
        place.flat = flat;
        return place;
      }
      default:
        Refuse(e.pos, base->op + " is not an array");
    }
  }

  int LocalLength(const Symbol& s) const {
    int n = 1;
    for (const int d : s.dims) n *= d;
    return n;
  }

  Value Load(const Expr& e) {
    const Place p = PlaceOf(e);
    const Symbol& s = *p.symbol;
    const std::int32_t dst = NewTemp(e.pos);
    switch (s.kind) {
      case Symbol::Kind::kPointer:
        Emit(Opcode::kLoadGlobal, e.pos, dst, s.slot, p.flat, 0, static_cast<std::uint8_t>(s.index));
        break;
      case Symbol::Kind::kShared:
        Emit(Opcode::kLoadShared, e.pos, dst, p.index[0], p.index[1], p.index[2], static_cast<std::uint8_t>(s.index));
        break;
      default:
        if (p.constant_local) return {s.slot + *p.constant_local, s.type, std::nullopt, false};
        Emit(Opcode::kLoadLocal, e.pos, dst, s.slot, p.flat, LocalLength(s));
        break;
    }
    return {dst, s.type, std::nullopt, true};
  }

  void Store(const Place& p, const Value& v, SourcePos pos) {
    const Symbol& s = *p.symbol;
    const Value c = Convert(ExactOrRefused(v, pos), s.type, pos);
    switch (s.kind) {
      case Symbol::Kind::kPointer:
        if (s.const_data) Refuse(pos, p.name + " is const float*: the kernel may not write it");
        Emit(Opcode::kStoreGlobal, pos, c.slot, s.slot, p.flat, 0, static_cast<std::uint8_t>(s.index));
        return;
      case Symbol::Kind::kShared:
        Emit(Opcode::kStoreShared, pos, c.slot, p.index[0], p.index[1], p.index[2], static_cast<std::uint8_t>(s.index));
        return;
      default:
        if (p.constant_local) {
          StoreInto(s.slot + *p.constant_local, s.type, c, pos);
          return;
        }
        Emit(Opcode::kStoreLocal, pos, c.slot, s.slot, p.flat, LocalLength(s));
    }
  }

  Value LoadPlace(const Place& p, SourcePos pos) {
    const Symbol& s = *p.symbol;
    const std::int32_t dst = NewTemp(pos);
    switch (s.kind) {
      case Symbol::Kind::kPointer:
        Emit(Opcode::kLoadGlobal, pos, dst, s.slot, p.flat, 0, static_cast<std::uint8_t>(s.index));
        break;
      case Symbol::Kind::kShared:
        Emit(Opcode::kLoadShared, pos, dst, p.index[0], p.index[1], p.index[2], static_cast<std::uint8_t>(s.index));
        break;
      default:
        if (p.constant_local) return {s.slot + *p.constant_local, s.type, std::nullopt, false};
        Emit(Opcode::kLoadLocal, pos, dst, s.slot, p.flat, LocalLength(s));
    }
    return {dst, s.type, std::nullopt, true};
  }

  // ---- assignment ----
  Symbol& Assignable(const Expr& target) {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      const auto found = scope->find(target.op);
      if (found == scope->end()) continue;
      Symbol& s = found->second;
      if (s.kind == Symbol::Kind::kConstant) Refuse(target.pos, target.op + " is a constant: it cannot be assigned");
      if (s.kind == Symbol::Kind::kScalar || s.kind == Symbol::Kind::kPointer) return s;
      Refuse(target.pos, target.op + " is an array: assign its elements");
    }
    Find(target.op, target.pos);
    Refuse(target.pos, target.op + " cannot be assigned");
  }

  Value AssignValue(const Expr& e) {
    const Expr& target = *e.kids[0];
    const std::string op = e.op == "=" ? "" : e.op.substr(0, e.op.size() - 1);
    if (target.kind == ExprKind::kName) {
      Symbol& s = Assignable(target);
      if (s.kind == Symbol::Kind::kPointer) return MovePointer(e, s, op);
      s.product.reset();
      const Value v = op.empty() ? Compile(*e.kids[1]) : Compound(op, *e.kids[1], {s.slot, s.type, std::nullopt, false}, e.pos);
      StoreInto(s.slot, s.type, ExactOrRefused(v, e.pos), e.pos);
      return {s.slot, s.type, std::nullopt, false};
    }
    if (target.kind != ExprKind::kIndex) Refuse(target.pos, "this cannot be assigned");
    const Place p = PlaceOf(target);
    const Value v = op.empty() ? Compile(*e.kids[1]) : Compound(op, *e.kids[1], LoadPlace(p, e.pos), e.pos);
    Store(p, v, e.pos);
    return Convert(v, p.symbol->type, e.pos);
  }

  // `x op= y`: x op y, with x's current value `old` (FmaRule applies: `acc += a * b`).
  Value Compound(const std::string& op, const Expr& value, const Value& old, SourcePos pos) {
    if ((op == "+" || op == "-") && old.type == Type::kFloat && IsFloatProduct(value)) {
      const Product product = ProductOf(value);
      if (op == "+") return Result(Opcode::kFma, pos, Type::kFloat, product.p, product.q, old.slot);
      const Value negated = Result(Opcode::kNegF, pos, Type::kFloat, product.p);
      return Result(Opcode::kFma, pos, Type::kFloat, negated.slot, product.q, old.slot);
    }
    return Arithmetic(op, old, Compile(value), pos);
  }

  // `A += offset`: a pointer parameter moved along its array (the SGEMM_CUDA style).
  Value MovePointer(const Expr& e, const Symbol& s, const std::string& op) {
    if (op != "+" && op != "-") Refuse(e.pos, "a pointer parameter may only move by += or -=");
    const Value offset = Compile(*e.kids[1]);
    if (IsFloating(offset.type)) Refuse(e.pos, "a pointer moves by an integer");
    Emit(op == "+" ? Opcode::kAddI : Opcode::kSubI, e.pos, s.slot, s.slot, offset.slot);
    return {s.slot, Type::kInt, std::nullopt, false};
  }

  Value IncDec(const Expr& e, bool want_result) {
    const Expr& target = *e.kids[0];
    const bool up = e.op == "++";
    const auto step = [&](const Value& old) {
      if (old.type == Type::kFloat) {
        return Result(up ? Opcode::kAddF : Opcode::kSubF, e.pos, Type::kFloat, old.slot, ConstantSlot(Bits({Type::kFloat, 0, 1.0})));
      }
      if (old.type == Type::kBool) Refuse(e.pos, "++ and -- on a bool are not supported");
      return Result(up ? Opcode::kAddI : Opcode::kSubI, e.pos, old.type, old.slot, IntConstant(1));
    };
    if (target.kind == ExprKind::kName) {
      Symbol& s = Assignable(target);
      if (s.kind == Symbol::Kind::kPointer) Refuse(e.pos, "++ and -- on a pointer are not supported: use A += n");
      s.product.reset();
      const Value old{s.slot, s.type, std::nullopt, false};
      std::int32_t kept = s.slot;
      if (want_result && !e.prefix) {
        kept = NewTemp(e.pos);
        Emit(Opcode::kMove, e.pos, kept, s.slot);
      }
      StoreInto(s.slot, s.type, step(old), e.pos);
      return {kept, s.type, std::nullopt, false};
    }
    if (target.kind != ExprKind::kIndex) Refuse(target.pos, "++ and -- need a variable or an element");
    const Place p = PlaceOf(target);
    const Value old = LoadPlace(p, e.pos);
    const Value updated = step(old);
    Store(p, updated, e.pos);
    return e.prefix ? updated : old;
  }

  const KernelFunction& kernel_;
  CompiledKernel out_;
  std::vector<std::map<std::string, Symbol>> scopes_;
  std::vector<Loop> loops_;
  std::vector<const Stmt*> block_stack_;
  std::vector<std::size_t> statement_index_;
  std::map<std::uint32_t, std::int32_t> constants_;
  std::int32_t next_variable_ = 0;
  std::size_t next_temp_ = 0;
  std::size_t temps_used_ = 0;
};

}  // namespace

CompiledKernel CompileKernel(const KernelFunction& kernel, const TranslationUnit& unit,
                             const std::map<std::string, long long>& template_values) {
  return Compiler(kernel, unit, template_values).Run();
}

}  // namespace sim::cuda
