#include "sim/io/number_text.h"

#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace sim {
namespace {

// A message quotes at most this much of what was typed (a pasted page stays one line).
constexpr std::size_t kQuotedChars = 40;

std::string Quoted(std::string_view text) {
  if (text.size() <= kQuotedChars) return "'" + std::string(text) + "'";
  return "'" + std::string(text.substr(0, kQuotedChars)) + "\u2026'";
}

// from_chars takes no '+'; a person may type one.
std::string_view WithoutPlus(std::string_view text) {
  return text.size() > 1 && text[0] == '+' && text[1] != '-' ? text.substr(1) : text;
}

// Only what a decimal number is made of: from_chars would also read "inf" and "nan".
bool DecimalCharacters(std::string_view text) {
  return !text.empty() && text.find_first_not_of("0123456789.eE+-") == std::string_view::npos;
}

#if __cpp_lib_to_chars
std::from_chars_result ReadDouble(std::string_view digits, double& value) {
  return std::from_chars(digits.data(), digits.data() + digits.size(), value);
}
#else
// The browser build's libc++ (Emscripten 3.1.6) has no from_chars for doubles. strtod reads the
// same text here: DecimalCharacters leaves it no hex, spaces or "inf", and a browser's C library
// has no locale but "C"; ERANGE is its word for beyond the range, too large or too small.
std::from_chars_result ReadDouble(std::string_view digits, double& value) {
  const std::string text(digits);
  char* end = nullptr;
  errno = 0;
  const double read = std::strtod(text.c_str(), &end);
  const char* stop = digits.data() + (end - text.c_str());
  if (end == text.c_str()) return {digits.data(), std::errc::invalid_argument};
  if (errno == ERANGE) return {stop, std::errc::result_out_of_range};
  value = read;
  return {stop, std::errc()};
}
#endif

}  // namespace

std::optional<double> ReadDecimal(std::string_view text, std::string& problem) {
  const std::string_view digits = WithoutPlus(text);
  double value = 0.0;
  const auto [end, error] = DecimalCharacters(digits)
                                ? ReadDouble(digits, value)
                                : std::from_chars_result{digits.data(), std::errc::invalid_argument};
  if (error == std::errc::result_out_of_range) {
    problem = Quoted(text) + " is beyond the range of a number (about 1e-308 to 1e308 in size)";
    return std::nullopt;
  }
  if (error != std::errc() || end != digits.data() + digits.size()) {
    problem = Quoted(text) + " is not a number (write 1.5: digits, one '.', an exponent such as 1e3)";
    return std::nullopt;
  }
  return value;
}

std::optional<float> ReadFloat(std::string_view text, std::string& problem) {
  const std::optional<double> value = ReadDecimal(text, problem);
  if (!value) return std::nullopt;
  const double size = std::fabs(*value);
  if (size > std::numeric_limits<float>::max() || (size != 0.0 && size < std::numeric_limits<float>::min())) {
    problem = Quoted(text) + " is beyond the range of a float (about 1e-38 to 3e38 in size)";
    return std::nullopt;
  }
  return static_cast<float>(*value);
}

std::optional<long long> ReadWhole(std::string_view text, long long least, long long most, std::string& problem) {
  return ReadWhole(text, least, most, std::to_string(least) + " to " + std::to_string(most), problem);
}

std::optional<long long> ReadWhole(std::string_view text, long long least, long long most, std::string_view range,
                                   std::string& problem) {
  const std::string_view digits = WithoutPlus(text);
  long long value = 0;
  const bool plain = !digits.empty() && digits.find_first_not_of("0123456789-") == std::string_view::npos;
  const auto [end, error] = plain ? std::from_chars(digits.data(), digits.data() + digits.size(), value)
                                  : std::from_chars_result{digits.data(), std::errc::invalid_argument};
  const bool whole = error == std::errc() && end == digits.data() + digits.size();
  if (error != std::errc::result_out_of_range && !whole) {
    problem = Quoted(text) + " is not a whole number";
    return std::nullopt;
  }
  if (error == std::errc::result_out_of_range || value < least || value > most) {
    problem = Quoted(text) + " is outside " + std::string(range);
    return std::nullopt;
  }
  return value;
}

}  // namespace sim
