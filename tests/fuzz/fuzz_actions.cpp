// --actions scripts as a user or a test writes them: any text parses into steps or is
// refused with a message naming the item, never a crash or an exception; the steps, written
// back as "name argument; ...", parse to the same steps.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/actions.h"
#include "fuzz_check.h"

namespace {

bool SameSteps(const std::vector<gui::ScriptStep>& x, const std::vector<gui::ScriptStep>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i].name != y[i].name || x[i].argument != y[i].argument) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<gui::ScriptStep> steps;
  const auto error = gui::ParseActionScript(std::string(reinterpret_cast<const char*>(data), size), steps);
  if (error) {
    FUZZ_CHECK(error->rfind("--actions item ", 0) == 0, "a refusal names the item");
    return 0;
  }
  std::string written;
  for (const gui::ScriptStep& step : steps) {
    FUZZ_CHECK(!step.name.empty(), "no step without a name");
    FUZZ_CHECK(step.name.find_first_of(" ;\n") == std::string::npos, "a name holds no separator");
    FUZZ_CHECK(step.argument.find_first_of(";\n") == std::string::npos, "an argument holds no separator");
    written += step.name + (step.argument.empty() ? "" : " " + step.argument) + "; ";
  }
  std::vector<gui::ScriptStep> again;
  FUZZ_CHECK(!gui::ParseActionScript(written, again), "written-back steps parse");
  FUZZ_CHECK(SameSteps(steps, again), "written-back steps parse to the same steps");
  return 0;
}
