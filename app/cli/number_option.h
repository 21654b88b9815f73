// number_option.h — the numeric command-line options read by the one number parser
// (sim/io/number_text.h), so that a flag takes the numbers an action's argument or a lesson
// field takes: CLI11 alone reads "0x10" as 16 and "0b11" as 3. The check runs before CLI11
// converts the text, and its message names the value and the range.
#pragma once
#include <CLI/CLI.hpp>

#include <string>

namespace cli {

// A whole number from `least` to `most`.
CLI::Validator WholeNumberIn(long long least, long long most);
// A whole number from `least` whose top is known only once the lesson is open (a step, a tour's
// stop; `most` is what the option's type holds): the help says "INT >= least" and a refusal
// words the range (`range`), never naming the type's largest value as if it meant something.
CLI::Validator WholeNumberFrom(long long least, long long most, const std::string& range);
// A decimal number from `least` to `most`.
CLI::Validator DecimalIn(double least, double most);

}  // namespace cli
