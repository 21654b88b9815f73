#include "app/gui/browser_page.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <cstdlib>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

namespace gui::browser_page {

#ifdef __EMSCRIPTEN__
namespace {

ActionQueue* page_requests = nullptr;
const ActionRegistry* page_keys = nullptr;

// Alt with the same key where that is free in both browsers (Alt+F, E, V, S, B, T, H open their
// menus); the pages' Ctrl+digit is taken by the browser's tabs, Alt+digit too on Linux.
std::vector<KeyClash> BrowserKeyClashes() {
  std::vector<KeyClash> clashes = {
      {{GLFW_KEY_EQUAL, GLFW_MOD_CONTROL}, {GLFW_KEY_EQUAL, GLFW_MOD_ALT}, "zooms the page (TileScope's text grows with it)"},
      {{GLFW_KEY_KP_ADD, GLFW_MOD_CONTROL}, {GLFW_KEY_KP_ADD, GLFW_MOD_ALT}, "zooms the page (TileScope's text grows with it)"},
      {{GLFW_KEY_MINUS, GLFW_MOD_CONTROL}, {GLFW_KEY_MINUS, GLFW_MOD_ALT}, "zooms the page out"},
      {{GLFW_KEY_KP_SUBTRACT, GLFW_MOD_CONTROL}, {GLFW_KEY_KP_SUBTRACT, GLFW_MOD_ALT}, "zooms the page out"},
      {{GLFW_KEY_K, GLFW_MOD_CONTROL}, {GLFW_KEY_K, GLFW_MOD_ALT}, "searches the web"},
      {{GLFW_KEY_O, GLFW_MOD_CONTROL}, {GLFW_KEY_O, GLFW_MOD_ALT}, "opens a file as a page"},
      {{GLFW_KEY_P, GLFW_MOD_CONTROL}, {GLFW_KEY_P, GLFW_MOD_ALT}, "prints the page"},
      {{GLFW_KEY_R, GLFW_MOD_CONTROL}, {GLFW_KEY_R, GLFW_MOD_ALT}, "reloads the page"},
      {{GLFW_KEY_G, GLFW_MOD_CONTROL}, {GLFW_KEY_G, GLFW_MOD_ALT}, "finds the next match"},
      {{GLFW_KEY_Q, GLFW_MOD_CONTROL}, {GLFW_KEY_Q, GLFW_MOD_ALT}, "quits the browser (Firefox)"},
      {{GLFW_KEY_C, GLFW_MOD_CONTROL | GLFW_MOD_SHIFT}, {GLFW_KEY_C, GLFW_MOD_ALT}, "inspects an element"},
  };
  for (int digit = GLFW_KEY_1; digit <= GLFW_KEY_9; ++digit) {
    clashes.push_back({{digit, GLFW_MOD_CONTROL}, {digit, GLFW_MOD_ALT | GLFW_MOD_SHIFT}, "shows the browser's tab of that number"});
  }
  return clashes;
}

const std::vector<KeyClash> kClashes = BrowserKeyClashes();

// Each calls the page's function of the same role (web/shell.html, `Page`).
EM_JS(void, PageKeepSettings, (), { Page.KeepSettings(); });
EM_JS(void, PageShowLink, (const char* link, int new_entry), { Page.ShowLink(UTF8ToString(link), new_entry !== 0); });
EM_JS(void, PageCopy, (const char* text), { Page.Copy(UTF8ToString(text)); });
EM_JS(void, PageOfferDownload, (const char* path), { Page.OfferDownload(UTF8ToString(path)); });
EM_JS(void, PagePickFile, (), { Page.PickFile(); });
EM_JS(char*, PageAddress, (), {
  const address = Page.Address();
  const size = lengthBytesUTF8(address) + 1;
  const text = _malloc(size);
  stringToUTF8(address, text, size);
  return text;
});

}  // namespace

const std::vector<KeyClash>& KeyClashes() { return kClashes; }

void KeepSettings() { PageKeepSettings(); }

void ShowLink(const std::string& link, bool new_entry) { PageShowLink(link.c_str(), new_entry ? 1 : 0); }

std::string FullLink(const std::string& link) {
  char* address = PageAddress();
  std::string full = std::string(address) + "#" + link;
  std::free(address);
  return full;
}

void CopyToClipboard(const std::string& text) { PageCopy(text.c_str()); }

void OfferDownload(const std::string& path) { PageOfferDownload(path.c_str()); }

void AddActions(ActionRegistry& registry) {
  registry.Add({"open-file", "Open a file\u2026",
                "Open a lesson (.json) or a kernel (.cu) from this computer through the browser's file picker; "
                "dropping the file on the page does the same.",
                {}, [](const std::string&) -> std::optional<std::string> {
                  PagePickFile();
                  return std::nullopt;
                }});
}

void ListenOn(ActionQueue& queue, const ActionRegistry& registry) {
  page_requests = &queue;
  page_keys = &registry;
}

}  // namespace gui::browser_page

// The page's way in (web/shell.html): an action by name, run between frames.
extern "C" EMSCRIPTEN_KEEPALIVE void tilescope_page_request(const char* name, const char* argument) {
  if (gui::browser_page::page_requests) gui::browser_page::page_requests->Push(name, argument);
}

// Whether the page keeps a key from the browser (a GLFW key and GLFW_MOD_* bits): the chords
// with Ctrl or Alt, and the F-keys, that an action has. Plain keys stay the browser's, or a
// text field would lose the characters they type.
extern "C" EMSCRIPTEN_KEEPALIVE int tilescope_page_takes_key(int key, int mods) {
  const bool chord = (mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT)) != 0 || (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F25);
  return chord && gui::browser_page::page_keys && gui::browser_page::page_keys->FindByKey(key, mods) ? 1 : 0;
}
#else
const std::vector<KeyClash> kNoClashes;

const std::vector<KeyClash>& KeyClashes() { return kNoClashes; }

void KeepSettings() {}

void ShowLink(const std::string&, bool) {}

std::string FullLink(const std::string& link) { return "#" + link; }

void CopyToClipboard(const std::string& text) { ImGui::SetClipboardText(text.c_str()); }

void OfferDownload(const std::string&) {}

void AddActions(ActionRegistry&) {}

void ListenOn(ActionQueue&, const ActionRegistry&) {}

}  // namespace gui::browser_page
#endif
