#include "sim/cuda/compiler.h"

#include "sim/cuda/compiler_parts.h"

namespace sim::cuda {
namespace {

using compiling::ExactlyFloat;
using compiling::ExpressionCompiler;
using compiling::IsFloating;
using compiling::KernelCode;
using compiling::Product;
using compiling::Promote;
using compiling::Symbol;
using compiling::Symbols;

constexpr int kMaxLocalArray = 4096;
constexpr int kMaxSharedBytes = 48 * 1024;

// The kernel's statements and declarations; its expressions are ExpressionCompiler's.
class Compiler {
 public:
  Compiler(const KernelFunction& kernel, const TranslationUnit& unit, const std::map<std::string, long long>& templates)
      : kernel_(kernel), code_(kernel.name) {
    symbols_.Open();
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
      symbols_.Define(name, s);
      code_.out().template_values.emplace_back(name, found->second);
    }
    symbols_.Open();
    for (std::size_t i = 0; i < kernel.parameters.size(); ++i) Param(kernel.parameters[i], static_cast<int>(i));
  }

  CompiledKernel Run() {
    Statement(*kernel_.body);
    code_.Emit(Opcode::kExit, kernel_.body->pos);
    return code_.Finish();
  }

 private:
  // ---- symbols ----
  void FileConstant(const Declaration& d) {
    const std::optional<Constant> value = EvaluateConstant(*d.init, symbols_.Lookup());
    if (!value) Refuse(d.pos, "the file constant " + d.name + " is not a constant expression");
    Symbol s;
    s.kind = Symbol::Kind::kConstant;
    s.value = ConvertConstant(*value, d.type);
    symbols_.Define(d.name, s);
  }

  void Param(const Parameter& p, int index) {
    Symbol s;
    s.slot = code_.NewVariable(p.pos, 1);
    if (p.pointer) {
      s.kind = Symbol::Kind::kPointer;
      s.type = Type::kFloat;
      s.index = index;
      s.const_data = p.const_data;
    } else {
      s.kind = Symbol::Kind::kScalar;
      s.type = Type::kInt;
    }
    symbols_.Declare(p.name, p.pos, s);
    code_.out().parameters.push_back({p.name, p.pos, p.pointer, p.const_data, s.slot});
    code_.out().variables.push_back({p.name, p.pos, s.type, s.slot, 1, true});
  }


  // ---- statements ----
  struct Loop {
    std::vector<std::size_t> breaks;
    std::vector<std::size_t> continues;
  };

  void Statement(const Stmt& s) {
    code_.FreeTemps();
    switch (s.kind) {
      case StmtKind::kEmpty:
        return;
      case StmtKind::kExpr:
        expressions_.Discard(*s.expr);
        return;
      case StmtKind::kDecl:
        for (const Declaration& d : s.decls) DeclareLocal(d, s);
        return;
      case StmtKind::kBlock:
        symbols_.Open();
        block_stack_.push_back(&s);
        for (std::size_t i = 0; i < s.body.size(); ++i) {
          statement_index_.push_back(i);
          Statement(*s.body[i]);
          statement_index_.pop_back();
        }
        block_stack_.pop_back();
        symbols_.Close();
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
        const std::size_t jump = code_.Emit(Opcode::kJump, s.pos);
        (s.kind == StmtKind::kBreak ? loops_.back().breaks : loops_.back().continues).push_back(jump);
        return;
      }
      case StmtKind::kReturn:
        code_.Emit(Opcode::kExit, s.pos);
        return;
    }
  }

  void If(const Stmt& s) {
    if (const std::optional<Constant> c = EvaluateConstant(*s.expr, symbols_.Lookup())) {
      // `if constexpr` and constant conditions: only the branch taken is compiled.
      const bool taken = ConvertConstant(*c, Type::kBool).integer != 0;
      if (taken) Scoped(*s.body[0]);
      if (!taken && s.body.size() > 1) Scoped(*s.body[1]);
      return;
    }
    const std::size_t skip_then = code_.Emit(Opcode::kJumpIfZero, s.pos, 0, expressions_.Condition(*s.expr));
    Scoped(*s.body[0]);
    if (s.body.size() > 1) {
      const std::size_t skip_else = code_.Emit(Opcode::kJump, s.pos);
      code_.PatchTo(skip_then, code_.Here());
      Scoped(*s.body[1]);
      code_.PatchTo(skip_else, code_.Here());
    } else {
      code_.PatchTo(skip_then, code_.Here());
    }
  }

  // A statement in its own scope (an if's branch, a loop's body).
  void Scoped(const Stmt& s) {
    symbols_.Open();
    Statement(s);
    symbols_.Close();
  }

  void LoopStatement(const Stmt& s) {
    symbols_.Open();
    if (s.init) Statement(*s.init);
    code_.FreeTemps();
    // for and while test before the body; do tests after it.
    std::optional<std::size_t> exit_jump;
    const std::int32_t top = code_.Here();
    if (s.kind != StmtKind::kDo && s.expr) exit_jump = code_.Emit(Opcode::kJumpIfZero, s.expr->pos, 0, expressions_.Condition(*s.expr));
    loops_.emplace_back();
    Scoped(*s.body[0]);
    const std::int32_t continue_target = code_.Here();
    code_.FreeTemps();
    if (s.step) expressions_.Discard(*s.step);
    if (s.kind == StmtKind::kDo) {
      code_.Emit(Opcode::kJumpIfNotZero, s.expr->pos, top, expressions_.Condition(*s.expr));
    } else {
      code_.Emit(Opcode::kJump, s.pos, top);
    }
    const std::int32_t end = code_.Here();
    if (exit_jump) code_.PatchTo(*exit_jump, end);
    for (const std::size_t b : loops_.back().breaks) code_.PatchTo(b, end);
    for (const std::size_t c : loops_.back().continues) code_.PatchTo(c, continue_target);
    loops_.pop_back();
    symbols_.Close();
  }

  int ExtentOf(const Expr& e, const std::string& name) {
    const std::optional<Constant> c = EvaluateConstant(e, symbols_.Lookup());
    if (!c || !c->IsInteger()) Refuse(e.pos, "the size of " + name + " must be a constant (a #define, a template parameter or a const int)");
    if (c->integer <= 0) Refuse(e.pos, "the size of " + name + " must be positive, not " + std::to_string(c->integer));
    if (c->integer > kMaxLocalArray * 16) Refuse(e.pos, "the array " + name + " is too large for the model");
    return static_cast<int>(c->integer);
  }

  void DeclareLocal(const Declaration& d, const Stmt& statement) {
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
      if (const std::optional<Constant> c = EvaluateConstant(*d.init, symbols_.Lookup())) {
        if (IsFloating(c->type) && !ExactlyFloat(*c) && d.type != Type::kFloat) {
          Refuse(d.init->pos, "double arithmetic is not supported: write the constant with f");
        }
        Symbol s;
        s.kind = Symbol::Kind::kConstant;
        s.value = ConvertConstant(*c, d.type);
        symbols_.Declare(d.name, d.pos, s);
        return;
      }
    }
    Symbol s;
    s.kind = Symbol::Kind::kScalar;
    s.type = d.type;
    s.slot = code_.NewVariable(d.pos, 1);
    if (d.init) {
      const std::optional<Product> product = expressions_.fma().DeclaredProduct(
          d, statement, statement_index_.empty() ? nullptr : block_stack_.back(),
          statement_index_.empty() ? 0 : statement_index_.back());
      if (product) {
        s.product = product;
        code_.Emit(Opcode::kMulF, d.init->pos, s.slot, product->p, product->q);
      } else {
        expressions_.StoreInto(s.slot, d.type, expressions_.Compile(*d.init), d.init->pos);
      }
    }
    code_.out().variables.push_back({d.name, d.pos, d.type, s.slot, 1, d.init != nullptr});
    symbols_.Declare(d.name, d.pos, s);  // after its value: `int x = x;` reads an outer x, as in C
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
    for (const SharedArray& other : code_.out().shared) bytes += static_cast<long long>(other.Words()) * 4;
    if (bytes > kMaxSharedBytes) {
      Refuse(d.pos, "the __shared__ arrays take " + std::to_string(bytes) + " bytes, more than the 48 KiB a block may declare");
    }
    if (code_.out().shared.size() >= 255) Refuse(d.pos, "too many __shared__ arrays");
    Symbol s;
    s.kind = Symbol::Kind::kShared;
    s.type = array.type;
    s.index = static_cast<int>(code_.out().shared.size());
    s.dims.assign(array.dims.begin(), array.dims.begin() + array.rank);
    code_.out().shared.push_back(array);
    symbols_.Declare(d.name, d.pos, s);
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
    s.slot = code_.NewVariable(d.pos, length);
    if (d.init) Refuse(d.pos, "initialize an array with {...}");
    if (d.has_init_list) {
      if (static_cast<int>(d.init_list.size()) > length) Refuse(d.pos, "more initializers than " + d.name + " has elements");
      // Elements without an initializer are zero, as C says (`float acc[4] = {0}`).
      for (int i = 0; i < length; ++i) {
        code_.FreeTemps();
        if (i < static_cast<int>(d.init_list.size())) {
          expressions_.StoreInto(s.slot + i, s.type, expressions_.Compile(*d.init_list[static_cast<std::size_t>(i)]), d.pos);
        } else {
          code_.Emit(Opcode::kMove, d.pos, s.slot + i, code_.IntConstant(0));
        }
      }
    }
    code_.out().variables.push_back({d.name, d.pos, s.type, s.slot, length, d.has_init_list});
    symbols_.Declare(d.name, d.pos, s);
  }

  const KernelFunction& kernel_;
  KernelCode code_;
  Symbols symbols_;
  ExpressionCompiler expressions_{code_, symbols_};
  std::vector<Loop> loops_;
  std::vector<const Stmt*> block_stack_;
  std::vector<std::size_t> statement_index_;
};

}  // namespace

CompiledKernel CompileKernel(const KernelFunction& kernel, const TranslationUnit& unit,
                             const std::map<std::string, long long>& template_values) {
  return Compiler(kernel, unit, template_values).Run();
}

}  // namespace sim::cuda
