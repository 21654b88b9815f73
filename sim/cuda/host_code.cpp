// host_code.cpp — HostCodeReader (parser_parts.h): the host code around the kernels, skipped
// but for its launches and the constants their grid and block are made of.
#include "sim/cuda/parser_parts.h"

namespace sim::cuda::parsing {

void HostCodeReader::Skip() {
  int depth = 0;
  bool statement_start = true;
  while (!in_.AtEnd()) {
    const Token& t = in_.Peek();
    if (statement_start) ReadDeclaration();
    statement_start = false;
    if (in_.AtEnd()) return;
    if (t.kind == TokenKind::kIdentifier && IsLaunch()) {
      ReadLaunch();
      continue;
    }
    const std::string text = in_.Take().text;
    if (t.kind == TokenKind::kString || t.kind == TokenKind::kChar) continue;
    if (text == "{" || text == "(" || text == "[") ++depth;
    if (text == "}" || text == ")" || text == "]") --depth;
    if (text == ";" || text == "{" || text == "}") statement_start = true;
    if (depth <= 0 && (text == ";" || text == "}")) return;
    if (depth < 0) return;
  }
}

bool HostCodeReader::IsLaunch() const {
  std::size_t ahead = 1;
  if (in_.Is("<", ahead)) {
    int depth = 0;
    for (;; ++ahead) {
      const Token& t = in_.Peek(ahead);
      if (t.kind == TokenKind::kEnd || t.text == ";" || t.text == "{") return false;
      if (t.text == "<") ++depth;
      if (t.text == ">" && --depth == 0) break;
    }
    ++ahead;
  }
  return in_.Is("<<<", ahead);
}

void HostCodeReader::ReadLaunch() {
  Launch launch;
  launch.pos = in_.Peek().pos;
  launch.kernel = in_.Take().text;
  if (in_.Accept("<")) {
    do {
      launch.template_arguments.push_back(Integer(expressions_.Shift()));
    } while (in_.Accept(","));
    in_.Expect(">", "after the template arguments");
  }
  in_.Expect("<<<", "in a launch");
  launch.grid = Dim3(Argument());
  in_.Expect(",", "between a launch's grid and block");
  launch.block = Dim3(Argument());
  while (in_.Accept(",")) Argument();  // shared bytes, stream
  in_.Expect(">>>", "after a launch's configuration");
  launches_.push_back(std::move(launch));
}

// One argument of a launch; host code may hold what a kernel may not, so a refusal there
// makes the value unknown, and the argument is skipped to its `,` or `>>>`.
ExprPtr HostCodeReader::Argument() {
  const std::size_t start = in_.at();
  try {
    ExprPtr e = expressions_.Shift();
    if (in_.Is(",") || in_.Is(">>>")) return e;
  } catch (const Refusal&) {
  }
  in_.Seek(start);
  int depth = 0;
  while (!in_.AtEnd() && !(depth == 0 && (in_.Is(",") || in_.Is(">>>")))) {
    if (in_.Is("(")) ++depth;
    if (in_.Is(")")) --depth;
    in_.Take();
  }
  return nullptr;
}

// `int n = 1024;`, `dim3 block(16, 16);` and the like inside host code, remembered where
// their values are constants (the last one of a name counts).
void HostCodeReader::ReadDeclaration() {
  const std::size_t start = in_.at();
  try {
    while (in_.Is("const") || in_.Is("constexpr") || in_.Is("static")) in_.Take();
    if (in_.Is("dim3") && in_.Peek(1).kind == TokenKind::kIdentifier) {
      in_.Take();
      const std::string name = in_.Take().text;
      const bool braces = in_.Is("{");
      if (in_.Accept("=")) {
        if (in_.Is("dim3")) in_.Take();
      }
      const bool open_brace = in_.Is("{");
      if (!in_.Accept("(") && !in_.Accept("{")) throw Refusal({}, "");
      std::vector<ExprPtr> args;
      const char* close = open_brace || braces ? "}" : ")";
      if (!in_.Is(close)) {
        do {
          args.push_back(expressions_.Assignment());
        } while (in_.Accept(","));
      }
      in_.Expect(close, "");
      dims_[name] = Dim3Of(args);
    } else if ((in_.Is("int") || in_.Is("unsigned") || in_.Is("size_t") || in_.Is("long")) &&
               in_.Peek(1).kind == TokenKind::kIdentifier && in_.Is("=", 2)) {
      in_.Take();
      const std::string name = in_.Take().text;
      in_.Take();
      owned_.push_back(expressions_.Assignment());
      constants_[name] = owned_.back().get();
    }
  } catch (const Refusal&) {
  }
  in_.Seek(start);
}

std::optional<long long> HostCodeReader::Integer(const ExprPtr& e) const {
  if (!e) return std::nullopt;
  try {
    const std::optional<Constant> c = EvaluateConstant(*e, [this](const std::string& name) { return Lookup(name); });
    if (c && c->IsInteger()) return c->integer;
  } catch (const Refusal&) {
  }
  return std::nullopt;
}

std::optional<Constant> HostCodeReader::Lookup(const std::string& name) const {
  const auto found = constants_.find(name);
  if (found == constants_.end() || looking_up_.count(name) > 0) return std::nullopt;
  looking_up_.insert(name);
  std::optional<Constant> value;
  try {
    value = EvaluateConstant(*found->second, [this](const std::string& n) { return Lookup(n); });
  } catch (const Refusal&) {
  }
  looking_up_.erase(name);
  return value;
}

std::optional<std::array<long long, 3>> HostCodeReader::Dim3Of(const std::vector<ExprPtr>& args) const {
  if (args.empty() || args.size() > 3) return std::nullopt;
  std::array<long long, 3> dims{1, 1, 1};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::optional<long long> v = Integer(args[i]);
    if (!v) return std::nullopt;
    dims[i] = *v;
  }
  return dims;
}

std::optional<std::array<long long, 3>> HostCodeReader::Dim3(const ExprPtr& e) const {
  if (!e) return std::nullopt;
  if (e->kind == ExprKind::kCall && e->op == "dim3") return Dim3Of(e->kids);
  if (e->kind == ExprKind::kName) {
    const auto found = dims_.find(e->op);
    if (found != dims_.end()) return found->second;
  }
  const std::optional<long long> v = Integer(e);
  if (!v) return std::nullopt;
  return std::array<long long, 3>{*v, 1, 1};
}

}  // namespace sim::cuda::parsing
