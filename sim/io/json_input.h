// json_input.h — JSON that comes from outside (a lesson, saved results, settings), parsed
// so that no input can take the process down.
//
// nlohmann::json parses any depth, but printing or comparing a value recurses once per
// level: 100,000 nested brackets overflow the stack the first time a message quotes the
// value. Its exceptions (a syntax error, a number beyond double such as 1e400) must not
// escape either. ParseJsonText turns all of them into one message naming the place, and
// DescribeJsonValue quotes a value for a message without recursing or copying a huge one.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace sim {

// Far deeper than any TileScope file (a lesson is 3 levels, settings 5), far shallower
// than what the stack can take.
constexpr int kMaxJsonDepth = 64;

struct JsonDocument {
  nlohmann::json value;  // discarded (null) on error
  std::string error;     // "not valid JSON: <what> at line L, column C", empty when parsed

  bool ok() const { return error.empty(); }
};

JsonDocument ParseJsonText(const std::string& text, int max_depth = kMaxJsonDepth);

// For a message: a scalar as JSON spells it (a string cut at 40 characters), an array or
// object by its size only ("an array of 3 values").
std::string DescribeJsonValue(const nlohmann::json& value);

}  // namespace sim
