// lexer.h — a CUDA C file cut into tokens, each with its line and column.
//
// Host code is lexed too (the front end skips it token by token, and reads the launches in
// it), so the lexer accepts everything C++ writes; what a kernel may not use is refused later,
// by the parser, where it is used.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/cuda/source_error.h"

namespace sim::cuda {

enum class TokenKind : std::uint8_t { kIdentifier, kNumber, kPunct, kString, kChar, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  SourcePos pos;
  bool first_on_line = false;   // a `#` there starts a directive
  bool space_before = false;    // `#define F(x)` (a macro with parameters) against `#define F (x)`
};

// Tokens of `text`, ending with one kEnd. Throws Refusal for an unterminated comment, string
// or character literal, or a byte no C token starts with.
std::vector<Token> Lex(const std::string& text);

// What a number token means: an integer (with its suffix) or a floating constant.
struct NumberValue {
  bool is_float = false;
  bool float_suffix = false;  // 1.0f: a float; 1.0 is a double
  bool unsigned_suffix = false;
  bool long_suffix = false;
  std::uint64_t integer = 0;
  double real = 0.0;
};
// Throws Refusal naming the token when it is not a number C reads.
NumberValue ParseNumber(const Token& token);

}  // namespace sim::cuda
