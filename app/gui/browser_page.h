// browser_page.h — what the page around the canvas does for TileScope in a browser, in one
// place; web/shell.html is the page's half. The page keeps the settings folder in the browser's
// storage, the view's link in the address bar (one history entry per tour stop, so Back goes to
// the last stop), puts text on the browser's clipboard, offers a written export as a download,
// and hands over what its file picker or a drop opened as an action. On the desktop there is no
// page: each call is then the desktop's own way or nothing.
#pragma once
#include <string>
#include <vector>

#include "app/gui/actions.h"

namespace gui::browser_page {

#ifdef __EMSCRIPTEN__
constexpr bool kInBrowser = true;
#else
constexpr bool kInBrowser = false;
#endif

// The settings folder was written: the page copies it into the browser's storage (IndexedDB),
// where the next visit reads it from before the program starts.
void KeepSettings();

// The view's link ("lesson=default&stop=4"), shown in the address bar: a new history entry when
// `new_entry`, else in place of the one shown.
void ShowLink(const std::string& link, bool new_entry);
// The page's address with `link` as its fragment: what a student opens.
std::string FullLink(const std::string& link);

// On the browser's clipboard (the desktop: GLFW's, through ImGui).
void CopyToClipboard(const std::string& text);

// A file written where the user asked: the browser saves a copy as a download (its name the
// file's), the desktop has it where it is.
void OfferDownload(const std::string& path);

// A desktop key that a browser uses for itself (its own action runs, or first), and the key
// TileScope takes for it instead in a browser; F1 lists them there.
struct KeyClash {
  KeyChord desktop;
  KeyChord instead;
  const char* browser_use;  // "prints the page"
};
// In a browser the clashes with Chromium's and Firefox's own keys; on the desktop none.
const std::vector<KeyClash>& KeyClashes();

// Actions only a page has: "open-file", the browser's file picker for a lesson or a kernel.
void AddActions(ActionRegistry& registry);
// What the page asks for (Back: "guide-stop N"; a file picked or dropped: "lesson-open PATH")
// is pushed on `queue`, to run between frames as a key's action does; and a chord with Ctrl or
// Alt, or an F-key, that `registry` binds is kept from the browser (F1 is TileScope's help).
void ListenOn(ActionQueue& queue, const ActionRegistry& registry);

}  // namespace gui::browser_page
