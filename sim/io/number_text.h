// number_text.h — the one reader of a number a person types: an action's argument, a cell's
// value, a tour answer, a lesson edit, a saved results figure. It reads the whole text or
// refuses it, so "1,5" is never 1, "2 junk" never 2 and "0x10" never 0 (istringstream and
// strtol stop quietly at the first character they do not know). Decimal only and the same
// under every locale (std::from_chars): "1.5" is one and a half also where the comma is the
// decimal mark.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace sim {

// A finite decimal number: an optional sign, digits with an optional '.', an optional
// exponent. On failure `problem` says why, quoting the text: "'1,5' is not a number (write
// 1.5: digits, one '.', an exponent such as 1e3)". A value beyond double's range, or one so
// small it would read as 0 though it is not ("1e-400"), is refused, never rounded to inf or 0.
std::optional<double> ReadDecimal(std::string_view text, std::string& problem);
// The same, for a value stored as a float: "1e-50" would store 0 and "1e39" inf.
std::optional<float> ReadFloat(std::string_view text, std::string& problem);
// A whole number in [least, most], digits with an optional sign: "1.0", "1e3" and "0x10" are
// refused, as is a number outside the range (named in `problem`).
std::optional<long long> ReadWhole(std::string_view text, long long least, long long most, std::string& problem);
// The same, with the range in words where its top is known only later or not at all:
// "0 (the start) to the lesson's last step", not "0 to 9223372036854775807".
std::optional<long long> ReadWhole(std::string_view text, long long least, long long most, std::string_view range,
                                   std::string& problem);

}  // namespace sim
