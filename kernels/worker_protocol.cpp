#include "kernels/worker_protocol.h"

#include <algorithm>
#include <cstring>

namespace kernels::worker {
namespace {

struct Header {
  std::uint32_t magic;
  std::uint16_t version;
  std::uint16_t type;
  std::uint32_t length;
};
static_assert(sizeof(Header) == kHeaderBytes, "the header is three packed fields");

bool KnownType(std::uint16_t type) {
  switch (static_cast<Type>(type)) {
    case Type::kHello:
    case Type::kReply:
    case Type::kFault:
    case Type::kOpenSession:
    case Type::kRun:
    case Type::kRaceTrial:
    case Type::kCancel:
    case Type::kStudentRun:
    case Type::kL2Bandwidth:
    case Type::kTestFault:
    case Type::kTestHoldMemory: return true;
  }
  return false;
}

}  // namespace

std::string Encode(Type type, const std::string& payload) {
  const Header header{kMagic, kVersion, static_cast<std::uint16_t>(type), static_cast<std::uint32_t>(payload.size())};
  std::string frame(reinterpret_cast<const char*>(&header), sizeof header);
  return frame + payload;
}

std::optional<Frame> TakeFrame(std::string& buffer, std::string& error) {
  if (buffer.size() < kHeaderBytes) return std::nullopt;
  Header header{};
  std::memcpy(&header, buffer.data(), sizeof header);
  if (header.magic != kMagic) {
    error = "not a TileScope worker frame (its first bytes are not the protocol's magic)";
    return std::nullopt;
  }
  if (header.version != kVersion) {
    error = "protocol version " + std::to_string(header.version) + ", this program speaks " + std::to_string(kVersion);
    return std::nullopt;
  }
  if (!KnownType(header.type)) {
    error = "unknown frame type " + std::to_string(header.type);
    return std::nullopt;
  }
  if (header.length > kMaxPayloadBytes) {
    error = "a frame of " + std::to_string(header.length) + " bytes, above the limit of " +
            std::to_string(kMaxPayloadBytes);
    return std::nullopt;
  }
  if (buffer.size() - kHeaderBytes < header.length) return std::nullopt;
  Frame frame{static_cast<Type>(header.type), buffer.substr(kHeaderBytes, header.length)};
  buffer.erase(0, kHeaderBytes + header.length);
  return frame;
}

Writer& Writer::PutString(const std::string& text) { return PutArray(text.data(), text.size()); }

std::string Reader::GetString() {
  const std::vector<char> chars = GetArray<char>();
  return std::string(chars.begin(), chars.end());
}

}  // namespace kernels::worker
