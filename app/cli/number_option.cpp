#include "app/cli/number_option.h"

#include <cstdio>
#include <string>

#include "sim/io/number_text.h"

namespace cli {

CLI::Validator WholeNumberIn(long long least, long long most) {
  return CLI::Validator(
      [least, most](std::string& text) {
        std::string problem;
        return sim::ReadWhole(text, least, most, problem) ? std::string() : problem;
      },
      "INT in [" + std::to_string(least) + " - " + std::to_string(most) + "]");
}

CLI::Validator WholeNumberFrom(long long least, long long most, const std::string& range) {
  return CLI::Validator(
      [least, most, range](std::string& text) {
        std::string problem;
        return sim::ReadWhole(text, least, most, range, problem) ? std::string() : problem;
      },
      "INT >= " + std::to_string(least));
}

CLI::Validator DecimalIn(double least, double most) {
  char range[64];
  std::snprintf(range, sizeof range, "%g to %g", least, most);
  char shown_in_help[64];
  std::snprintf(shown_in_help, sizeof shown_in_help, "FLOAT in [%g - %g]", least, most);
  return CLI::Validator(
      [least, most, shown = std::string(range)](std::string& text) {
        std::string problem;
        const std::optional<double> value = sim::ReadDecimal(text, problem);
        if (!value) return problem;
        return *value >= least && *value <= most ? std::string() : "'" + text + "' is outside " + shown;
      },
      shown_in_help);
}

}  // namespace cli
