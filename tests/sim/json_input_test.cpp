// ParseJsonText: no input throws or recurses; errors name the place without the library's
// tags. DescribeJsonValue: values quoted briefly.
#include "sim/io/json_input.h"

#include <gtest/gtest.h>

namespace {

std::string Nested(int levels) { return std::string(levels, '[') + std::string(levels, ']'); }

TEST(JsonInput, DepthUpToTheLimitParses) {
  const sim::JsonDocument at_limit = sim::ParseJsonText(Nested(sim::kMaxJsonDepth));
  EXPECT_TRUE(at_limit.ok()) << at_limit.error;
  const sim::JsonDocument beyond = sim::ParseJsonText(Nested(sim::kMaxJsonDepth + 1));
  EXPECT_FALSE(beyond.ok());
  EXPECT_TRUE(beyond.value.is_null()) << "a refused document hands back no partial value";
  EXPECT_NE(beyond.error.find("nested deeper than 64 levels"), std::string::npos) << beyond.error;
  EXPECT_FALSE(sim::ParseJsonText(Nested(1000000)).ok());
  EXPECT_FALSE(sim::ParseJsonText("{\"a\": " + Nested(3) + "}", 3).ok()) << "objects count as levels too";
}

TEST(JsonInput, SyntaxErrorKeepsTheLibrarysPlaceWithoutItsTag) {
  const sim::JsonDocument broken = sim::ParseJsonText("{\"m\": 4,\n \"n\": }");
  EXPECT_FALSE(broken.ok());
  EXPECT_EQ(broken.error.rfind("not valid JSON: parse error at line 2, column 7", 0), 0u) << broken.error;
  EXPECT_EQ(broken.error.find("[json.exception"), std::string::npos) << broken.error;
}

TEST(JsonInput, NumberBeyondDoubleNamesTheNumberAndThePlace) {
  const sim::JsonDocument huge = sim::ParseJsonText("{\"a\": 1,\n\n  \"m\": -1e400}");
  EXPECT_FALSE(huge.ok());
  EXPECT_EQ(huge.error.rfind("not valid JSON: number overflow parsing '-1e400' at line 3, column", 0), 0u)
      << huge.error;
}

TEST(JsonInput, ValuesAreDescribedBriefly) {
  using nlohmann::json;
  EXPECT_EQ(sim::DescribeJsonValue(json::parse("[1, [2, [3]]]")), "an array of 2 values");
  EXPECT_EQ(sim::DescribeJsonValue(json::parse("{\"a\": {}}")), "an object of 1 key");
  EXPECT_EQ(sim::DescribeJsonValue(json("four")), "\"four\"");
  EXPECT_EQ(sim::DescribeJsonValue(json(18446744073709551615ull)), "18446744073709551615");
  EXPECT_EQ(sim::DescribeJsonValue(json(std::string(50, 'x'))), "\"" + std::string(40, 'x') + "\"...");
  // Cut inside a two-byte character: replaced, not an exception from dump().
  EXPECT_NO_THROW(sim::DescribeJsonValue(json(std::string(39, 'x') + "\xc3\xa9")));
}

// The JSON library stops at a NUL byte: "{} NUL garbage" read as "{}" before issue 32.
TEST(JsonInput, ANulByteIsRefusedWithItsPlace) {
  const sim::JsonDocument document = sim::ParseJsonText(std::string("{\"m\": 4}\n\0garbage", 17));
  EXPECT_FALSE(document.ok());
  EXPECT_EQ(document.error, "not valid JSON: a NUL byte at line 2, column 1 (JSON text holds none)");
}

}  // namespace
