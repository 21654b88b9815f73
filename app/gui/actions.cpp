#include "app/gui/actions.h"

#include <GLFW/glfw3.h>

#include <sstream>

#include "sim/io/number_text.h"

namespace gui {
namespace {

constexpr int kModMask = GLFW_MOD_CONTROL | GLFW_MOD_SHIFT | GLFW_MOD_ALT;

std::string Trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

std::string KeyName(int key) {
  switch (key) {
    case GLFW_KEY_SPACE: return "Space";
    case GLFW_KEY_RIGHT: return "\u2192";
    case GLFW_KEY_LEFT: return "\u2190";
    case GLFW_KEY_UP: return "\u2191";
    case GLFW_KEY_DOWN: return "\u2193";
    case GLFW_KEY_EQUAL: return "=";
    case GLFW_KEY_MINUS: return "-";
    case GLFW_KEY_ESCAPE: return "Esc";
    case GLFW_KEY_HOME: return "Home";
    case GLFW_KEY_END: return "End";
    case GLFW_KEY_PAGE_UP: return "PageUp";
    case GLFW_KEY_PAGE_DOWN: return "PageDown";
    case GLFW_KEY_ENTER: return "Enter";
    case GLFW_KEY_TAB: return "Tab";
    case GLFW_KEY_BACKSPACE: return "Backspace";
    case GLFW_KEY_DELETE: return "Delete";
    case GLFW_KEY_KP_ADD: return "Keypad +";
    case GLFW_KEY_KP_SUBTRACT: return "Keypad \u2212";
    case GLFW_KEY_KP_ENTER: return "Keypad Enter";
    default: break;
  }
  if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F25) return "F" + std::to_string(key - GLFW_KEY_F1 + 1);
  if ((key >= GLFW_KEY_A && key <= GLFW_KEY_Z) || (key >= GLFW_KEY_0 && key <= GLFW_KEY_9)) {
    return std::string(1, static_cast<char>(key));
  }
  return "key " + std::to_string(key);
}

}  // namespace

void ActionRegistry::Add(Action action) { actions_.push_back(std::move(action)); }

const Action* ActionRegistry::Find(const std::string& name) const {
  for (const Action& action : actions_) {
    if (action.name == name) return &action;
  }
  return nullptr;
}

const Action* ActionRegistry::FindByKey(int key, int mods) const {
  for (const Action& action : actions_) {
    for (const KeyChord& chord : action.keys) {
      if (chord.key == key && chord.mods == (mods & kModMask)) return &action;
    }
  }
  return nullptr;
}

void ActionRegistry::Rebind(const KeyChord& from, const KeyChord& to) {
  for (Action& action : actions_) {
    for (KeyChord& chord : action.keys) {
      if (chord.key == from.key && chord.mods == from.mods) chord = to;
    }
  }
}

std::string ChordName(const KeyChord& chord) {
  std::string name;
  if (chord.mods & GLFW_MOD_CONTROL) name += "Ctrl+";
  if (chord.mods & GLFW_MOD_ALT) name += "Alt+";
  if (chord.mods & GLFW_MOD_SHIFT) name += "Shift+";
  return name + KeyName(chord.key);
}

std::optional<std::string> ParseActionScript(const std::string& script, std::vector<ScriptStep>& steps) {
  std::string item;
  std::istringstream in(script);
  int index = 0;
  while (std::getline(in, item, ';')) {
    std::istringstream lines(item);
    std::string line;
    while (std::getline(lines, line)) {
      line = Trim(line);
      ++index;
      if (line.empty()) continue;
      const auto space = line.find(' ');
      ScriptStep step{line.substr(0, space), space == std::string::npos ? "" : Trim(line.substr(space))};
      if (step.name == "wait") {
        std::string problem;
        if (!sim::ReadWhole(step.argument, 0, kMaxWaitFrames, problem)) {
          return "--actions item " + std::to_string(index) + " \"" + line + "\": wait needs a number of frames (0 to " +
                 std::to_string(kMaxWaitFrames) + "): " + problem;
        }
      }
      steps.push_back(std::move(step));
    }
  }
  return std::nullopt;
}

}  // namespace gui
