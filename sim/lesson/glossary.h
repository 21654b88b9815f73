// glossary.h — the words the panels use that a student may not know, each explained once: the
// Counters' tooltips and the F1 glossary both read this list.
#pragma once
#include <string>
#include <vector>

namespace sim {

struct GlossaryEntry {
  const char* term;
  const char* meaning;
};

// Every entry, in the order F1 lists them.
const std::vector<GlossaryEntry>& Glossary();
// The meaning of `term`, which must be one of the glossary's (a missing term is a bug).
const char* Meaning(const std::string& term);

}  // namespace sim
