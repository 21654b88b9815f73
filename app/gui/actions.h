// actions.h — everything a user can do, by name.
//
// A key, a menu item, a button and a line of an `--actions` script all invoke the same
// named actions, so a GUI test drives exactly what a user would and the F1 help overlay
// lists the real bindings. Actions run between frames (update, then draw): panels only
// queue them while they lay out.
#pragma once
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gui {

struct KeyChord {
  int key = 0;   // GLFW_KEY_*
  int mods = 0;  // GLFW_MOD_* bits that must be held (others ignored but Ctrl/Shift/Alt).
};

struct Action {
  std::string name;         // "step", "toggle-barrier1": what scripts and tests write.
  std::string label;        // Menu and help text: "Step forward".
  std::string description;  // Tooltip: what it does and why one would.
  std::vector<KeyChord> keys;
  // Runs the action; `argument` is the rest of the script line ("" from keys and menus).
  // Returns an error message to show, or nothing.
  std::function<std::optional<std::string>(const std::string& argument)> run;
};

class ActionRegistry {
 public:
  void Add(Action action);
  const Action* Find(const std::string& name) const;
  const Action* FindByKey(int key, int mods) const;
  // Every action bound to `from` is bound to `to` instead.
  void Rebind(const KeyChord& from, const KeyChord& to);
  const std::vector<Action>& All() const { return actions_; }

 private:
  std::vector<Action> actions_;
};

struct ActionRequest {
  std::string name;
  std::string argument;
  bool scripted = false;  // from --actions: a refusal makes the run exit non-zero
};

// Requests queued during a frame and applied before the next one.
class ActionQueue {
 public:
  void Push(std::string name, std::string argument = {}, bool scripted = false) {
    pending_.push_back({std::move(name), std::move(argument), scripted});
  }
  std::deque<ActionRequest> Take() {
    std::deque<ActionRequest> taken;
    taken.swap(pending_);
    return taken;
  }
  bool Empty() const { return pending_.empty(); }

 private:
  std::deque<ActionRequest> pending_;
};

// "Ctrl+=", "Shift+→", "F1", "Space": how a chord reads in menus and the help overlay.
std::string ChordName(const KeyChord& chord);

// Parses an --actions script: actions separated by ';' or newlines, each "name [argument]".
// "wait N" pauses the script for N frames. Returns an error naming the bad item.
constexpr long long kMaxWaitFrames = 100000000;  // as --frames: more is a typo
struct ScriptStep {
  std::string name;
  std::string argument;
};
std::optional<std::string> ParseActionScript(const std::string& script, std::vector<ScriptStep>& steps);

}  // namespace gui
