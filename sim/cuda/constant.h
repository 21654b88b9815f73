// constant.h — integer and floating constants computed at compile time, with C's rules.
//
// Array extents, `const int` locals, `#define`d expressions, template arguments and the
// launch's grid and block are all constant expressions; the parser and the compiler compute
// them here, the same way.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "sim/cuda/ast.h"

namespace sim::cuda {

struct Constant {
  Type type = Type::kInt;  // kInt, kUnsigned, kBool or kDouble (floats are kept in a double)
  std::int64_t integer = 0;  // kInt, kBool: the value; kUnsigned: the value mod 2^32
  double real = 0.0;         // kFloat, kDouble
  bool IsInteger() const { return type == Type::kInt || type == Type::kUnsigned || type == Type::kBool; }
};

// Looks a name up: its constant value, or nullopt where it is not a constant.
using ConstantLookup = std::function<std::optional<Constant>(const std::string&)>;

// The value of `expr` where it is a constant expression (names through `lookup`); nullopt
// where it is not (a variable, a call, an assignment). Throws Refusal for a constant division
// by zero, which C leaves undefined.
std::optional<Constant> EvaluateConstant(const Expr& expr, const ConstantLookup& lookup);

// Converts a constant to `type` as C converts it (float: rounded to float, kept in the double).
Constant ConvertConstant(const Constant& value, Type type);

}  // namespace sim::cuda
