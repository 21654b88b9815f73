// kernel_code.cpp — the compiler's registers, instructions and scopes (compiler_parts.h).
#include <algorithm>
#include <cstring>

#include "sim/cuda/compiler_parts.h"

namespace sim::cuda::compiling {
namespace {

constexpr std::size_t kMaxInstructions = std::size_t{1} << 20;
constexpr int kMaxVariableSlots = 1 << 16;
constexpr std::size_t kMaxTemps = std::size_t{1} << 16;

}  // namespace

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

void DoubleRefused(SourcePos pos) {
  Refuse(pos, "double arithmetic is not supported: write the constants with f (0.5f)");
}

KernelCode::KernelCode(const std::string& name) { out_.name = name; }

std::int32_t KernelCode::NewVariable(SourcePos pos, int count) {
  if (next_variable_ + count > kMaxVariableSlots) Refuse(pos, "the kernel declares too many variables for the model");
  const std::int32_t slot = next_variable_;
  next_variable_ += count;
  return slot;
}

std::int32_t KernelCode::NewTemp(SourcePos pos) {
  if (next_temp_ >= kMaxTemps) Refuse(pos, "this statement is too large for the model");
  const auto slot = static_cast<std::int32_t>(kTempBase + next_temp_++);
  temps_used_ = std::max(temps_used_, next_temp_);
  return slot;
}

std::int32_t KernelCode::ConstantSlot(std::uint32_t bits) {
  const auto found = constants_.find(bits);
  if (found != constants_.end()) return found->second;
  const auto slot = static_cast<std::int32_t>(kConstantBase + constants_.size());
  constants_.emplace(bits, slot);
  return slot;
}

std::size_t KernelCode::Emit(Opcode op, SourcePos pos, std::int32_t dst, std::int32_t a, std::int32_t b, std::int32_t c,
                             std::uint8_t array) {
  if (out_.code.size() >= kMaxInstructions) Refuse(pos, "the kernel is too long for the model");
  out_.code.push_back({op, array, dst, a, b, c});
  out_.positions.push_back(pos);
  return out_.code.size() - 1;
}

Value KernelCode::Result(Opcode op, SourcePos pos, Type type, std::int32_t a, std::int32_t b, std::int32_t c) {
  const std::int32_t dst = NewTemp(pos);
  Emit(op, pos, dst, a, b, c);
  return {dst, type, std::nullopt, true};
}

bool KernelCode::Retarget(std::int32_t temp, std::int32_t slot) {
  if (temp < kTempBase || out_.code.empty()) return false;
  Instruction& last = out_.code.back();
  const bool stored = last.op == Opcode::kStoreGlobal || last.op == Opcode::kStoreShared || last.op == Opcode::kStoreLocal;
  if (stored || last.dst != temp) return false;
  last.dst = slot;
  return true;
}

CompiledKernel KernelCode::Finish() {
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
    if (i.op != Opcode::kLoadLocal && i.op != Opcode::kStoreLocal && i.op != Opcode::kCheckLocalIndex) remap(i.c);
  }
  out_.initial_registers.assign(static_cast<std::size_t>(temp_start) + temps_used_, 0u);
  for (const auto& [bits, slot] : constants_) out_.initial_registers[static_cast<std::size_t>(constant_start + (slot - kConstantBase))] = bits;
  return std::move(out_);
}

void Symbols::Declare(const std::string& name, SourcePos pos, const Symbol& s) {
  if (!scopes_.back().emplace(name, s).second) Refuse(pos, name + " is declared twice in the same scope");
}

const Symbol& Symbols::Find(const std::string& name, SourcePos pos) const {
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    const auto found = scope->find(name);
    if (found != scope->end()) return found->second;
  }
  if (name == "A" || name == "B" || name == "C" || name == "M" || name == "N" || name == "K") {
    Refuse(pos, name + " is not declared (is it a parameter of the kernel?)");
  }
  Refuse(pos, name + " is not declared");
}

Symbol& Symbols::Assignable(const Expr& target) {
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

ConstantLookup Symbols::Lookup() const {
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

}  // namespace sim::cuda::compiling
