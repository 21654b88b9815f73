// ast.h — a kernel as the parser reads it: expressions, statements, declarations.
//
// A tree of plain structs the compiler walks once; nothing here runs.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/cuda/source_error.h"

namespace sim::cuda {

// Scalar types a kernel's values have. kDouble is a floating constant without `f` (0.5): the
// front end computes with it only where the result is the same as in float (compiler.cpp).
enum class Type : std::uint8_t { kVoid, kBool, kInt, kUnsigned, kFloat, kDouble };

enum class ExprKind : std::uint8_t {
  kNumber,       // integer or floating constant
  kName,         // a variable, parameter, constant or array
  kBuiltin,      // threadIdx.x ... gridDim.z, warpSize
  kUnary,        // op: - + ! ~ (prefix ++/-- are kIncDec)
  kBinary,       // op: arithmetic, comparison, logical, bitwise
  kAssign,       // op: = += -= ... ; kids: target, value
  kIncDec,       // op: ++ or --; prefix or not
  kConditional,  // kids: condition, then, else
  kCall,         // name: the function; kids: arguments
  kIndex,        // kids: the array (a name or another kIndex), the index
  kCast,         // cast_type; kids: the value
  kComma,        // kids: left, right
};

// The special registers, in the order the compiled program keeps them.
enum class Builtin : std::uint8_t {
  kThreadIdxX, kThreadIdxY, kThreadIdxZ, kBlockIdxX, kBlockIdxY, kBlockIdxZ,
  kBlockDimX, kBlockDimY, kBlockDimZ, kGridDimX, kGridDimY, kGridDimZ, kWarpSize
};
constexpr int kBuiltinRegisters = 12;  // all but warpSize, a constant

struct Expr {
  ExprKind kind = ExprKind::kNumber;
  SourcePos pos;
  std::string op;    // operator, or the name (kName, kCall)
  std::vector<std::unique_ptr<Expr>> kids;
  // kNumber:
  bool is_float = false;
  bool float_suffix = false;
  bool unsigned_suffix = false;
  std::uint64_t integer = 0;
  double real = 0.0;
  // kBuiltin, kIncDec, kCast:
  Builtin builtin = Builtin::kThreadIdxX;
  bool prefix = false;
  Type cast_type = Type::kInt;
};
using ExprPtr = std::unique_ptr<Expr>;

enum class StmtKind : std::uint8_t { kExpr, kDecl, kIf, kFor, kWhile, kDo, kBreak, kContinue, kReturn, kBlock, kEmpty };

struct Declaration {
  SourcePos pos;
  Type type = Type::kInt;
  bool is_const = false;
  bool shared = false;
  std::string name;
  std::vector<ExprPtr> dims;  // an array's extents, outermost first
  ExprPtr init;               // `= value`
  std::vector<ExprPtr> init_list;  // `= {a, b, ...}` of a local array
  bool has_init_list = false;
};

struct Stmt {
  StmtKind kind = StmtKind::kEmpty;
  SourcePos pos;
  ExprPtr expr;                 // kExpr; the condition of kIf/kFor/kWhile/kDo
  std::vector<Declaration> decls;  // kDecl (one statement may declare several)
  std::vector<std::unique_ptr<Stmt>> body;  // kBlock's statements; kIf: then, else; loops: body
  std::unique_ptr<Stmt> init;   // kFor
  ExprPtr step;                 // kFor
};
using StmtPtr = std::unique_ptr<Stmt>;

struct Parameter {
  SourcePos pos;
  std::string name;
  bool pointer = false;  // float* (const or not); else an int
  bool const_data = false;
};

struct KernelFunction {
  SourcePos pos;
  std::string name;
  std::vector<std::string> template_parameters;  // `template <int T>`: names
  std::vector<Parameter> parameters;
  StmtPtr body;
};

// A `<<<grid, block>>>` launch in host code, with what could be computed of it from constants.
struct Launch {
  SourcePos pos;
  std::string kernel;
  std::vector<std::optional<long long>> template_arguments;
  std::optional<std::array<long long, 3>> grid;
  std::optional<std::array<long long, 3>> block;
};

// Host code the parser skipped: from `begin` (its first token) to the end of `end_line`.
struct HostRange {
  SourcePos begin;
  int end_line = 0;
};

struct TranslationUnit {
  std::vector<KernelFunction> kernels;
  std::vector<HostRange> host_code;
  std::vector<Launch> launches;
  std::vector<Declaration> constants;  // file-scope `const int`/`constexpr int`
};

}  // namespace sim::cuda
