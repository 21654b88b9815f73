"""The site in a real browser (CTest label `web`): headless Chromium opens the built page at
#lesson=default&stop=2&dump, waits until the page says it is ready, and reads what --dump-state
writes; then, as a user would:
- types an answer to the stop's question, presses Enter and N (the next stop), as on the desktop;
- presses the browser's Back (the last stop again) and copies the view's link;
- reloads the page (the answer's score is kept in the browser's storage), then reloads it with a
  corrupt settings file and with a corrupt store (a message, and the program runs);
- opens F1 (the keys that differ from the desktop's), saves a screenshot (a download) and opens
  a lesson through the page's file picker;
- opens the page at device-pixel-ratio 2 (a canvas of the screen's pixels, text at that scale).
Usage: python3 tests/web/browser_test.py SITE_DIR (build-web/site)."""
import os
import shutil
import sys
import tempfile
import time

from browser import ROOT, Browser, Site

LINK = "#lesson=default&stop=2&dump"
SETTINGS_FILE = "/home/web_user/.config/tilescope/settings.json"
failures = []


def check(condition, message):
    print(("PASS: " if condition else "FAIL: ") + message)
    if not condition:
        failures.append(message)


def wait_for(browser, condition, timeout=30):
    """The page's state once `condition` holds of it (the state is rewritten each second), or as it is then."""
    deadline = time.monotonic() + timeout
    state = browser.state()
    while not condition(state) and time.monotonic() < deadline:
        time.sleep(0.3)
        state = browser.state()
    return state


def settings_kept(browser):
    """How many times the page has written the settings folder into the browser's storage."""
    return int(browser.evaluate("document.getElementById('tilescope-status').dataset.settingsKept || 0"))


def reload_until_ready(browser):
    browser.reload()
    browser.wait_until_ready()


def answer_and_next(browser):
    state = browser.state()
    guide = state["guide"]
    check(guide["stop"] == 2, f"the link's stop=2 opens the tour's second stop (guide.stop is {guide['stop']})")
    check(state["window"] == {"width": 1366, "height": 768},
          f"the canvas takes the tab's size (window is {state['window']})")
    check("in a browser cannot reach a GPU" in state["about"]["GPU"], "the About box says the browser has no GPU")
    check(guide["question_kind"] == "cells" and guide["answer"]["state"] == "waiting",
          f"stop 2 waits for cells typed as the answer ({guide['question_kind']}, {guide['answer']['state']})")
    browser.type_text("As[0][0]")
    browser.press("Enter", "Enter", 13)
    answer = wait_for(browser, lambda s: s["guide"]["answer"]["state"] != "waiting")["guide"]["answer"]
    check(answer["state"] in ("right", "wrong") and answer.get("yours") == "As[0][0]",
          f"the typed cells and Enter are judged, as on the desktop: {answer}")
    browser.press("n", "KeyN", 78)
    stop = wait_for(browser, lambda s: s["guide"]["stop"] != 2)["guide"]["stop"]
    check(stop == 3, f"N then moves the tour to its third stop (guide.stop is {stop})")


def back_and_copy_link(browser, site):
    check(browser.evaluate("location.hash") == "#lesson=default&stop=3&dump",
          f"the address bar shows the new stop's link ({browser.evaluate('location.hash')})")
    browser.evaluate("history.back()")
    stop = wait_for(browser, lambda s: s["guide"]["stop"] != 3)["guide"]["stop"]
    check(stop == 2, f"the browser's Back goes to the last stop (guide.stop is {stop})")
    browser.allow_clipboard(site.url)
    browser.press("c", "KeyC", 67, "alt")
    browser.next_frames(3)
    copied = browser.clipboard()
    check(copied == site.url + "#lesson=default&stop=2",
          f"File → Copy link (Alt+C) puts the view's link on the clipboard: {copied!r}")


def scores_and_settings_kept(browser):
    answered = browser.state()["guide"]["score"]["answered"]
    wait_until = time.monotonic() + 30
    kept = settings_kept(browser)
    while time.monotonic() < wait_until and kept == settings_kept(browser):
        time.sleep(0.3)  # the next autosave, which holds the Back and the answer, written to the store
    reload_until_ready(browser)
    state = wait_for(browser, lambda s: s["guide"]["score"]["answered"] > 0, 10)
    check(answered == 1 and state["guide"]["score"]["answered"] == answered,
          f"after a reload the score is still there: {answered} answered before, {state['guide']['score']['answered']} after")

    browser.evaluate(f"FS.writeFile({SETTINGS_FILE!r}, '{{\"presentation\": tru'); Page.KeepSettings()")
    browser.wait_until(f"Number(document.getElementById('tilescope-status').dataset.settingsKept || 0) > {settings_kept(browser)}",
                       30, "the corrupt settings were not written to the store")
    reload_until_ready(browser)
    warnings = [n["text"] for n in browser.state()["notifications"] if n["severity"] == "warning"]
    check(any("settings.json" in text for text in warnings),
          f"a corrupt settings file is set aside with a message, and the program runs: {warnings}")

    # A record IDBFS cannot restore (a file of no kind), put into the store behind its back.
    browser.evaluate("""new Promise((done, failed) => {
        const opened = indexedDB.open('/home/web_user/.config');
        opened.onerror = () => failed(opened.error);
        opened.onsuccess = () => {
          const put = opened.result.transaction('FILE_DATA', 'readwrite').objectStore('FILE_DATA')
                          .put({timestamp: new Date(), mode: 0}, '/home/web_user/.config/tilescope/broken');
          put.onsuccess = () => { opened.result.close(); done(true); };
          put.onerror = () => failed(put.error);
        };
      })""", wait=True)
    reload_until_ready(browser)
    notice = browser.text_of("tilescope-notice")
    shown = browser.evaluate("document.getElementById('tilescope-notice').classList.contains('shown')")
    notes = [n["text"] for n in browser.state()["notifications"]]
    check(shown and "could not read all of its settings" in notice and browser.state()["guide"]["stop"] == 2,
          f"a store the browser cannot read is said on the page, and the program runs: {notice!r}; {notes}")


def help_download_and_picker(browser, downloads):
    browser.press("F1", "F1", 112)
    help_list = wait_for(browser, lambda s: s["help_visible"])
    lines = help_list.get("help", {}).get("browser_keys", [])
    check(any(line.startswith("Ctrl+K ") and "press Alt+K" in line for line in lines) and
          any(line.startswith("Ctrl+= ") and "press Alt+=" in line for line in lines),
          f"F1 says which keys differ in a browser and what to press instead: {lines}")
    browser.press("F1", "F1", 112)

    browser.save_downloads_in(downloads)
    browser.press("p", "KeyP", 80, "alt")
    deadline = time.monotonic() + 30
    pngs = []
    while not pngs and time.monotonic() < deadline:
        time.sleep(0.3)
        pngs = [name for name in os.listdir(downloads) if name.startswith("tilescope-") and name.endswith(".png")]
    header = b""
    if pngs:
        with open(os.path.join(downloads, pngs[0]), "rb") as f:
            header = f.read(8)
    check(header == b"\x89PNG\r\n\x1a\n", f"Alt+P saves a screenshot as a download: {pngs}")

    picked = os.path.join(downloads, "my lesson.json")
    shutil.copy(os.path.join(ROOT, "assets", "lessons", "tile4_8x8x8.json"), picked)
    before = browser.state()["lesson"]["m"]
    browser.pick_file("tilescope-open", picked)
    lesson = wait_for(browser, lambda s: s["lesson"]["m"] != before)["lesson"]
    check(before != 8 and lesson["m"] == 8 and lesson["tile"] == 4,
          f"a lesson chosen in the browser's file picker opens (m {before} → {lesson['m']}, tile {lesson['tile']})")

    neither = os.path.join(downloads, "notes.txt")
    with open(neither, "w") as f:
        f.write("not a lesson\n")
    browser.pick_file("tilescope-open", neither)
    browser.wait_until("document.getElementById('tilescope-notice').textContent.includes('notes.txt')", 10,
                       "no message for a file of another kind")
    check(browser.state()["lesson"]["m"] == 8, "a file of another kind is refused by name, and the lesson stays")


def clipped_text(state):
    """The shown panels whose text is cut off, with how many items."""
    return {name: panel["clipped_text"] for name, panel in state["lesson_panels"].items()
            if panel.get("visible") and panel["clipped_text"]}


def crisp_at_ratio_two(site, at_one):
    """`at_one`: the state of the same link at ratio 1."""
    with Browser(1366, 768, scale=2) as browser:
        browser.open(site.url + LINK)
        browser.wait_until_ready()
        state = browser.state()
        canvas = browser.evaluate("[canvas.width, canvas.height, canvas.clientWidth, canvas.clientHeight]")
        check(canvas == [2732, 1536, 1366, 768] and state["window"] == {"width": 2732, "height": 1536},
              f"at device-pixel-ratio 2 the canvas has 2 screen pixels per CSS pixel: {canvas}, window {state['window']}")
        check(state["content_scale"] == 2 and state["font_size"] == 2 * at_one["font_size"],
              f"and its fonts are twice the size ({state['font_size']} px, scale {state['content_scale']})")
        shown = sorted(name for name, panel in state["lesson_panels"].items() if panel.get("visible"))
        shown_at_one = sorted(name for name, panel in at_one["lesson_panels"].items() if panel.get("visible"))
        clipped, clipped_at_one = clipped_text(state), clipped_text(at_one)
        check(state["guide"]["stop"] == 2 and shown == shown_at_one and "guide" not in clipped and
              all(count <= clipped_at_one.get(name, 0) for name, count in clipped.items()),
              f"the stop shows the same panels as at ratio 1 ({shown}), its text cut off no more than there "
              f"({clipped}; at ratio 1 {clipped_at_one})")


def main():
    site_dir = sys.argv[1]
    downloads = tempfile.mkdtemp(prefix="tilescope-downloads-")
    try:
        with Site(site_dir) as site:
            with Browser(1366, 768) as browser:
                browser.open(site.url + LINK)
                ready_ms = browser.wait_until_ready()
                print(f"ready {ready_ms} ms after the page started")
                at_one = browser.state()
                answer_and_next(browser)
                back_and_copy_link(browser, site)
                scores_and_settings_kept(browser)
                help_download_and_picker(browser, downloads)
                output = browser.text_of("tilescope-output")
                check("tilescope: error" not in output, "the program printed no error:\n" + output)
            crisp_at_ratio_two(site, at_one)
    finally:
        shutil.rmtree(downloads, ignore_errors=True)
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
