// compiler_parts.h — the parts compiler.cpp's kernel compiler is made of, each small enough
// to read on its own:
//   KernelCode          registers, instructions and their final layout
//   Symbols             the names in scope and what each one is
//   ExpressionCompiler  operators, conversions, calls (expression_compiler.cpp)
//   FmaRule             when a multiply and an add become one fmaf (fma_rule.cpp)
//   PlaceCompiler       array elements, assignment, ++ and -- (place_compiler.cpp)
// The statements and declarations that drive them are compiler.cpp's.
//
// Register layout while compiling: variables count up from the special registers; constants
// and temporaries get provisional numbers in their own ranges and are placed after the
// variables once the kernel is compiled (constants first), so a statement's temporaries are
// reused by the next.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/cuda/ast.h"
#include "sim/cuda/constant.h"
#include "sim/cuda/ir.h"
#include "sim/cuda/source_error.h"

namespace sim::cuda::compiling {

constexpr std::int32_t kConstantBase = 1 << 26;
constexpr std::int32_t kTempBase = 1 << 27;

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

inline Type Promote(Type t) { return t == Type::kBool ? Type::kInt : t; }
inline bool IsFloating(Type t) { return t == Type::kFloat || t == Type::kDouble; }
Type CommonType(Type a, Type b);
std::uint32_t Bits(const Constant& c);
bool ExactlyFloat(const Constant& c);
[[noreturn]] void DoubleRefused(SourcePos pos);

class KernelCode {
 public:
  explicit KernelCode(const std::string& name);

  std::int32_t NewVariable(SourcePos pos, int count);
  std::int32_t NewTemp(SourcePos pos);
  void FreeTemps() { next_temp_ = 0; }  // a statement's temporaries are the next one's
  std::int32_t ConstantSlot(std::uint32_t bits);
  std::int32_t IntConstant(std::int32_t v) { return ConstantSlot(static_cast<std::uint32_t>(v)); }
  Value ConstantValue(const Constant& c) { return {ConstantSlot(Bits(c)), c.type, c, false}; }

  std::size_t Emit(Opcode op, SourcePos pos, std::int32_t dst = 0, std::int32_t a = 0, std::int32_t b = 0,
                   std::int32_t c = 0, std::uint8_t array = 0);
  Value Result(Opcode op, SourcePos pos, Type type, std::int32_t a, std::int32_t b = 0, std::int32_t c = 0);
  std::int32_t Here() const { return static_cast<std::int32_t>(out_.code.size()); }
  void PatchTo(std::size_t jump, std::int32_t target) { out_.code[jump].dst = target; }
  // Makes the last instruction write `slot` instead of the temporary `temp`, where it computed
  // `temp` (a store's dst is its value, not its result). False where it did not.
  bool Retarget(std::int32_t temp, std::int32_t slot);

  CompiledKernel& out() { return out_; }
  // Places constants and temporaries after the variables and fills the initial registers.
  CompiledKernel Finish();

 private:
  CompiledKernel out_;
  std::map<std::uint32_t, std::int32_t> constants_;
  std::int32_t next_variable_ = kFirstVariableSlot;
  std::size_t next_temp_ = 0;
  std::size_t temps_used_ = 0;
};

class Symbols {
 public:
  void Open() { scopes_.emplace_back(); }
  void Close() { scopes_.pop_back(); }
  void Declare(const std::string& name, SourcePos pos, const Symbol& s);
  void Define(const std::string& name, const Symbol& s) { scopes_.back()[name] = s; }  // file scope: the last one counts
  const Symbol& Find(const std::string& name, SourcePos pos) const;
  // A scalar or pointer that may be assigned; refuses constants and arrays.
  Symbol& Assignable(const Expr& target);
  ConstantLookup Lookup() const;

 private:
  std::vector<std::map<std::string, Symbol>> scopes_;
};

class ExpressionCompiler;

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
class FmaRule {
 public:
  FmaRule(ExpressionCompiler& expressions, KernelCode& code, const Symbols& symbols)
      : expressions_(expressions), code_(code), symbols_(symbols) {}
  // Parts 1 and 2 for a binary + or -; nullopt where neither side is a product.
  std::optional<Value> Contracted(const Expr& e);
  // `old op= value` for op + or -, where value is a product and old a float.
  std::optional<Value> ContractedCompound(const std::string& op, const Expr& value, const Value& old, SourcePos pos);
  // Part 3, for the declaration `float x = p * q` of `statement`, which is `block`'s statement
  // `at` (block null: none): p and q kept in registers of their own, where the rest of the
  // block never assigns x.
  std::optional<Product> DeclaredProduct(const Declaration& d, const Stmt& statement, const Stmt* block, std::size_t at);

 private:
  bool IsFloatProduct(const Expr& e);
  Product ProductOf(const Expr& e);

  ExpressionCompiler& expressions_;
  KernelCode& code_;
  const Symbols& symbols_;
};

class PlaceCompiler {
 public:
  PlaceCompiler(ExpressionCompiler& expressions, FmaRule& fma, KernelCode& code, Symbols& symbols)
      : expressions_(expressions), fma_(fma), code_(code), symbols_(symbols) {}
  Value Load(const Expr& e);
  Value Assign(const Expr& e);
  Value IncDec(const Expr& e, bool want_result);

 private:
  // An indexed place: a[i], s[i][j], acc[k].
  struct Place {
    const Symbol* symbol = nullptr;
    std::string name;
    std::array<std::int32_t, 3> index{};  // registers
    std::optional<int> constant_local;    // a local element known at compile time
    std::int32_t flat = 0;                // a local or global element's register
    bool checked_per_dimension = false;   // a local element whose indices kCheckLocalIndex checks first
  };
  Place PlaceOf(const Expr& e);
  Value LoadPlace(const Place& p, SourcePos pos);
  void Store(const Place& p, const Value& v, SourcePos pos);
  Value Compound(const std::string& op, const Expr& value, const Value& old, SourcePos pos);
  Value MovePointer(const Expr& e, const Symbol& s, const std::string& op);

  ExpressionCompiler& expressions_;
  FmaRule& fma_;
  KernelCode& code_;
  Symbols& symbols_;
};

class ExpressionCompiler {
 public:
  ExpressionCompiler(KernelCode& code, Symbols& symbols)
      : code_(code), symbols_(symbols), fma_(*this, code, symbols), places_(*this, fma_, code, symbols) {}

  Value Compile(const Expr& e);
  // An expression statement: its value unused.
  void Discard(const Expr& e);
  // An int register that is nonzero where `e` is true.
  std::int32_t Condition(const Expr& e);
  // Converts `v` to `to`, as C converts on assignment and in arithmetic.
  Value Convert(const Value& v, Type to, SourcePos pos);
  // Writes `v` converted to `type` into register `slot`: into the instruction that made it
  // when it is fresh, else by a move.
  void StoreInto(std::int32_t slot, Type type, const Value& v, SourcePos pos);
  Value Arithmetic(const std::string& op, Value l, Value r, SourcePos pos);
  Type StaticType(const Expr& e);
  Value ExactOrRefused(const Value& v, SourcePos pos);
  FmaRule& fma() { return fma_; }

 private:
  void Sync(const Expr& e);
  Value NameValue(const Expr& e);
  Value UnaryValue(const Expr& e);
  Value BinaryValue(const Expr& e);
  Type Operands(Value& l, Value& r, SourcePos pos);
  Value Logical(const Expr& e);
  Value ConditionalValue(const Expr& e);
  Value CallValue(const Expr& e);

  KernelCode& code_;
  Symbols& symbols_;
  FmaRule fma_;
  PlaceCompiler places_;
};

}  // namespace sim::cuda::compiling
