#include "sim/cuda/lexer.h"

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string_view>

namespace sim::cuda {
namespace {

// Longest first: the lexer takes the first that matches.
constexpr std::array<std::string_view, 49> kPunctuators{
    "<<<", ">>>", "<<=", ">>=", "...", "->*", "<=>", "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
    "&&",  "||",  "+=",  "-=",  "*=",  "/=",  "%=",  "&=", "|=", "^=", "##", "+",  "-",  "*",  "/",  "%",
    "<",   ">",   "=",   "!",   "~",   "&",   "|",   "^",  "?",  ":",  ";",  ",",  ".",  "(",  ")",  "#"};
constexpr std::string_view kBrackets = "[]{}";

bool IsIdentifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

class Lexer {
 public:
  explicit Lexer(const std::string& text) : text_(text) {}

  std::vector<Token> Run() {
    std::vector<Token> tokens;
    while (true) {
      SkipSpaceAndComments();
      Token token;
      token.pos = Pos();
      token.first_on_line = line_start_;
      token.space_before = space_before_;
      line_start_ = false;
      space_before_ = false;
      if (at_ >= text_.size()) {
        tokens.push_back(token);
        return tokens;
      }
      Next(token);
      tokens.push_back(std::move(token));
    }
  }

 private:
  SourcePos Pos() const { return {line_, static_cast<int>(at_ - line_begin_) + 1}; }
  char Peek(std::size_t ahead = 0) const { return at_ + ahead < text_.size() ? text_[at_ + ahead] : '\0'; }
  void Advance() {
    if (text_[at_] == '\n') {
      ++line_;
      line_begin_ = at_ + 1;
      line_start_ = true;
    }
    ++at_;
  }

  void SkipSpaceAndComments() {
    while (at_ < text_.size()) {
      const char c = Peek();
      if (c == '\\' && (Peek(1) == '\n' || (Peek(1) == '\r' && Peek(2) == '\n'))) {
        // A continued line stays one line for the directives.
        const bool was_start = line_start_;
        Advance();
        if (Peek() == '\r') Advance();
        Advance();
        line_start_ = was_start;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
        Advance();
      } else if (c == '/' && Peek(1) == '/') {
        while (at_ < text_.size() && Peek() != '\n') Advance();
      } else if (c == '/' && Peek(1) == '*') {
        const SourcePos start = Pos();
        Advance();
        Advance();
        while (!(Peek() == '*' && Peek(1) == '/')) {
          if (at_ >= text_.size()) Refuse(start, "this comment is never closed");
          Advance();
        }
        Advance();
        Advance();
      } else {
        return;
      }
      space_before_ = true;
    }
  }

  void Next(Token& token) {
    const std::size_t begin = at_;
    const char c = Peek();
    if (IsIdentifierStart(c)) {
      token.kind = TokenKind::kIdentifier;
      while (IsIdentifierChar(Peek())) Advance();
    } else if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
               (c == '.' && std::isdigit(static_cast<unsigned char>(Peek(1))) != 0)) {
      token.kind = TokenKind::kNumber;
      // A pp-number: digits, letters, dots, and a sign after an exponent's e or p.
      while (IsIdentifierChar(Peek()) || Peek() == '.' ||
             ((Peek() == '+' || Peek() == '-') && (text_[at_ - 1] == 'e' || text_[at_ - 1] == 'E' ||
                                                   text_[at_ - 1] == 'p' || text_[at_ - 1] == 'P'))) {
        Advance();
      }
    } else if (c == '"' || c == '\'') {
      token.kind = c == '"' ? TokenKind::kString : TokenKind::kChar;
      Advance();
      while (Peek() != c) {
        if (at_ >= text_.size() || Peek() == '\n') {
          Refuse(token.pos, c == '"' ? "this string is never closed" : "this character literal is never closed");
        }
        if (Peek() == '\\') Advance();
        if (at_ < text_.size()) Advance();
      }
      Advance();
    } else {
      token.kind = TokenKind::kPunct;
      if (kBrackets.find(c) != std::string_view::npos) {
        Advance();
      } else {
        std::size_t length = 0;
        for (const std::string_view p : kPunctuators) {
          if (text_.compare(at_, p.size(), p) == 0) {
            length = p.size();
            break;
          }
        }
        if (length == 0) {
          const unsigned byte = static_cast<unsigned char>(c);
          Refuse(token.pos, byte >= 0x20 && byte < 0x7f ? std::string("'") + c + "' is not a C token"
                                                         : "a byte that is not C (" + std::to_string(byte) + ")");
        }
        for (std::size_t i = 0; i < length; ++i) Advance();
      }
    }
    token.text = text_.substr(begin, at_ - begin);
  }

  const std::string& text_;
  std::size_t at_ = 0;
  std::size_t line_begin_ = 0;
  int line_ = 1;
  bool line_start_ = true;
  bool space_before_ = false;
};

}  // namespace

std::vector<Token> Lex(const std::string& text) { return Lexer(text).Run(); }

NumberValue ParseNumber(const Token& token) {
  NumberValue value;
  std::string body = token.text;
  const bool hex = body.size() > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X');
  const bool has_point = body.find('.') != std::string::npos;
  const bool has_exponent = hex ? body.find_first_of("pP") != std::string::npos : body.find_first_of("eE") != std::string::npos;
  value.is_float = has_point || has_exponent;
  // Suffixes: f for a float constant; u and l (in any order and case) for an integer.
  while (!body.empty()) {
    const char s = body.back();
    if (value.is_float && (s == 'f' || s == 'F')) {
      value.float_suffix = true;
    } else if (!value.is_float && (s == 'u' || s == 'U')) {
      value.unsigned_suffix = true;
    } else if (s == 'l' || s == 'L') {
      value.long_suffix = true;
    } else {
      break;
    }
    body.pop_back();
  }
  const std::string what = "'" + token.text + "' is not a number C reads";
  if (body.empty()) Refuse(token.pos, what);
  errno = 0;
  char* end = nullptr;
  if (value.is_float) {
    value.real = std::strtod(body.c_str(), &end);
  } else {
    const bool octal = body.size() > 1 && body[0] == '0' && !hex;
    value.integer = std::strtoull(body.c_str(), &end, hex ? 16 : (octal ? 8 : 10));
  }
  if (end != body.c_str() + body.size() || errno == ERANGE) Refuse(token.pos, what);
  return value;
}

}  // namespace sim::cuda
