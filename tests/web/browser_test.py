"""The site in a real browser (CTest label `web`): headless Chromium opens the built page at
#lesson=default&stop=2&dump, waits until the page says it is ready, and reads what --dump-state
writes; then types an answer to the stop's question, presses Enter and N (the next stop), as on
the desktop.
Usage: python3 tests/web/browser_test.py SITE_DIR (build-web/site)."""
import sys
import time

from browser import Browser, Site

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


def main():
    site_dir = sys.argv[1]
    with Site(site_dir) as site, Browser(1366, 768) as browser:
        browser.open(site.url + "#lesson=default&stop=2&dump")
        ready_ms = browser.wait_until_ready()
        print(f"ready {ready_ms} ms after the page started")
        state = browser.state()
        guide = state["guide"]
        check(guide["stop"] == 2, f"the link's stop=2 opens the tour's second stop (guide.stop is {guide['stop']})")
        check(state["window"] == {"width": 1366, "height": 768},
              f"the canvas takes the tab's size (window is {state['window']})")
        check("in a browser cannot reach a GPU" in state["about"]["GPU"],
              "the About box says the browser has no GPU")
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
        output = browser.text_of("tilescope-output")
        check("error" not in output.lower(), "the program printed no error:\n" + output)
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
