#include "sim/cuda/preprocessor.h"

#include <set>

namespace sim::cuda {
namespace {

struct Macro {
  bool has_parameters = false;
  std::vector<std::string> parameters;
  std::vector<Token> body;
};

// A macro may expand into others, to this depth: deeper is a loop the file did not mean.
constexpr int kMaxExpansionDepth = 64;
constexpr std::size_t kMaxExpandedTokens = std::size_t{1} << 22;

class Preprocessor {
 public:
  Preprocessor(const std::vector<Token>& tokens, const Defines& defines) : in_(tokens) {
    for (const auto& [name, value] : defines) {
      Macro macro;
      std::vector<Token> body = Lex(value);
      body.pop_back();  // its kEnd
      macro.body = std::move(body);
      macros_[name] = std::move(macro);
      fixed_.insert(name);
    }
  }

  std::vector<Token> Run() {
    std::size_t at = 0;
    while (in_[at].kind != TokenKind::kEnd) {
      const Token& token = in_[at];
      if (token.first_on_line && token.text == "#" && token.kind == TokenKind::kPunct) {
        at = Directive(at);
        continue;
      }
      if (!Active()) {
        ++at;
        continue;
      }
      at = Expand(at, token.pos, 0);
    }
    if (!conditions_.empty()) Refuse(conditions_.back().pos, "this #if has no #endif");
    out_.push_back(in_[at]);
    return std::move(out_);
  }

 private:
  struct Condition {
    SourcePos pos;
    bool parent_active;
    bool taken;   // this branch or an earlier one of the same #if was taken
    bool active;
    bool seen_else = false;
  };

  bool Active() const { return conditions_.empty() || conditions_.back().active; }

  // The tokens of the directive starting at `hash` (its line), and the index after them.
  std::size_t LineEnd(std::size_t from) const {
    std::size_t end = from;
    while (in_[end].kind != TokenKind::kEnd && !in_[end].first_on_line) ++end;
    return end;
  }

  std::size_t Directive(std::size_t hash) {
    const std::size_t name_at = hash + 1;
    const std::size_t end = LineEnd(name_at);
    if (name_at == end || in_[name_at].first_on_line) return end;  // a lone `#`
    const Token& name = in_[name_at];
    const std::string& d = name.text;
    if (d == "ifdef" || d == "ifndef") {
      if (name_at + 1 >= end || in_[name_at + 1].kind != TokenKind::kIdentifier) Refuse(name.pos, "#" + d + " needs a name");
      const bool defined = macros_.count(in_[name_at + 1].text) > 0;
      Open(name.pos, d == "ifdef" ? defined : !defined);
    } else if (d == "if") {
      Open(name.pos, Active() && IfValue(name_at + 1, end, name.pos));
    } else if (d == "else" || d == "elif") {
      if (conditions_.empty() || conditions_.back().seen_else) Refuse(name.pos, "#" + d + " without its #if");
      Condition& c = conditions_.back();
      const bool take = c.parent_active && !c.taken && (d == "else" || IfValue(name_at + 1, end, name.pos));
      c.active = c.parent_active && take;
      c.taken = c.taken || take;
      c.seen_else = d == "else";
    } else if (d == "endif") {
      if (conditions_.empty()) Refuse(name.pos, "#endif without its #if");
      conditions_.pop_back();
    } else if (!Active()) {
      // Inside a branch not taken every other directive is skipped unread.
    } else if (d == "define") {
      Define(name_at + 1, end, name.pos);
    } else if (d == "undef") {
      if (name_at + 1 < end && fixed_.count(in_[name_at + 1].text) == 0) macros_.erase(in_[name_at + 1].text);
    } else if (d == "error") {
      Refuse(name.pos, "the file's #error stops it here");
    } else if (d != "include" && d != "pragma" && d != "warning") {
      Refuse(name.pos, "the directive #" + d + " is not supported");
    }
    return end;
  }

  void Open(SourcePos pos, bool value) {
    const bool parent = Active();
    conditions_.push_back({pos, parent, value, parent && value});
  }

  // `#if N` and `#elif N` with one integer (after macros): what students write to switch code off.
  bool IfValue(std::size_t from, std::size_t end, SourcePos pos) {
    std::vector<Token> expanded;
    std::swap(expanded, out_);
    for (std::size_t at = from; at < end;) at = Expand(at, pos, 0);
    std::swap(expanded, out_);
    if (expanded.size() != 1 || expanded[0].kind != TokenKind::kNumber) {
      Refuse(pos, "#if is supported with one integer only (#if 0, #if 1, or a macro that is one)");
    }
    const NumberValue value = ParseNumber(expanded[0]);
    if (value.is_float) Refuse(pos, "#if needs an integer");
    return value.integer != 0;
  }

  void Define(std::size_t from, std::size_t end, SourcePos pos) {
    if (from >= end || in_[from].kind != TokenKind::kIdentifier) Refuse(pos, "#define needs a name");
    const Token& name = in_[from];
    Macro macro;
    std::size_t at = from + 1;
    if (at < end && in_[at].text == "(" && !in_[at].space_before) {
      macro.has_parameters = true;
      ++at;
      while (at < end && in_[at].text != ")") {
        if (in_[at].kind != TokenKind::kIdentifier) Refuse(in_[at].pos, "a macro's parameter must be a name");
        macro.parameters.push_back(in_[at].text);
        ++at;
        if (at < end && in_[at].text == ",") ++at;
      }
      if (at >= end) Refuse(name.pos, "this macro's parameter list is never closed");
      ++at;
    }
    for (; at < end; ++at) {
      if (in_[at].text == "#" || in_[at].text == "##") Refuse(in_[at].pos, "'" + in_[at].text + "' in a macro is not supported");
      macro.body.push_back(in_[at]);
    }
    if (fixed_.count(name.text) == 0) macros_[name.text] = std::move(macro);
  }

  // Copies the token at `at` to the output, expanded if it names a macro; the index after what it used.
  std::size_t Expand(std::size_t at, SourcePos use, int depth) { return ExpandFrom(in_, at, use, depth); }

  std::size_t ExpandFrom(const std::vector<Token>& tokens, std::size_t at, SourcePos use, int depth) {
    const Token& token = tokens[at];
    const auto found = token.kind == TokenKind::kIdentifier ? macros_.find(token.text) : macros_.end();
    if (found == macros_.end() || expanding_.count(token.text) > 0) {
      Emit(token, use, depth);
      return at + 1;
    }
    if (depth >= kMaxExpansionDepth) Refuse(use, "macros expand into each other too deeply");
    const Macro& macro = found->second;
    std::vector<Token> replaced;
    std::size_t next = at + 1;
    if (!macro.has_parameters) {
      replaced = macro.body;
    } else {
      if (next >= tokens.size() || tokens[next].text != "(") {
        Emit(token, use, depth);  // a function-like macro's name alone is not a use of it
        return at + 1;
      }
      std::vector<std::vector<Token>> arguments = Arguments(tokens, next, use);
      if (arguments.size() == 1 && arguments[0].empty() && macro.parameters.empty()) arguments.clear();
      if (arguments.size() != macro.parameters.size()) {
        Refuse(use, "the macro " + token.text + " takes " + std::to_string(macro.parameters.size()) + " arguments, not " +
                        std::to_string(arguments.size()));
      }
      for (const Token& t : macro.body) {
        std::size_t p = 0;
        while (p < macro.parameters.size() && !(t.kind == TokenKind::kIdentifier && t.text == macro.parameters[p])) ++p;
        if (p < macro.parameters.size()) {
          replaced.insert(replaced.end(), arguments[p].begin(), arguments[p].end());
        } else {
          replaced.push_back(t);
        }
      }
    }
    expanding_.insert(token.text);
    for (std::size_t i = 0; i < replaced.size();) i = ExpandFrom(replaced, i, use, depth + 1);
    expanding_.erase(token.text);
    return next;
  }

  // The arguments of a macro's use whose `(` is at `open`; moves `open` past the `)`.
  static std::vector<std::vector<Token>> Arguments(const std::vector<Token>& tokens, std::size_t& open, SourcePos use) {
    std::vector<std::vector<Token>> arguments(1);
    int depth = 0;
    std::size_t at = open + 1;
    for (;; ++at) {
      if (at >= tokens.size() || tokens[at].kind == TokenKind::kEnd) Refuse(use, "this macro's arguments are never closed");
      const std::string& t = tokens[at].text;
      if (t == ")" && depth == 0) break;
      if (t == "," && depth == 0) {
        arguments.emplace_back();
        continue;
      }
      if (t == "(") ++depth;
      if (t == ")") --depth;
      arguments.back().push_back(tokens[at]);
    }
    open = at + 1;
    return arguments;
  }

  void Emit(Token token, SourcePos use, int depth) {
    if (out_.size() >= kMaxExpandedTokens) Refuse(use, "macros expand this file past " + std::to_string(kMaxExpandedTokens) + " tokens");
    if (depth > 0) {
      token.pos = use;
      token.first_on_line = false;
    }
    out_.push_back(std::move(token));
  }

  const std::vector<Token>& in_;
  std::vector<Token> out_;
  std::map<std::string, Macro> macros_;
  std::set<std::string> fixed_;      // given from outside: the file's #define leaves them
  std::set<std::string> expanding_;  // a macro is not expanded inside itself (C's rule)
  std::vector<Condition> conditions_;
};

}  // namespace

std::vector<Token> Preprocess(const std::vector<Token>& tokens, const Defines& defines) {
  return Preprocessor(tokens, defines).Run();
}

}  // namespace sim::cuda
