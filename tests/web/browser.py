"""Debian's Chromium, headless, driven through its DevTools protocol over a pipe (standard library
only): the site served by web/serve.py is opened at a link, read, typed into and photographed.

    with Site(site_dir) as site, Browser(1366, 768) as browser:
        browser.open(site.url + "#lesson=default&stop=2&dump")
        state = browser.wait_for_state()
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Site:
    """web/serve.py on a free port of localhost, for as long as the `with` lasts."""

    def __init__(self, site_dir):
        self.process = subprocess.Popen([sys.executable, os.path.join(ROOT, "web", "serve.py"), site_dir, "0"],
                                        stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://"):
            self.process.kill()
            raise RuntimeError("web/serve.py did not say where it serves")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait()


class Browser:
    """One headless Chromium with one page of `width`×`height` CSS pixels, `scale` screen pixels each."""

    # WebGL 2 in software (SwiftShader): the machine may have no GPU. The rest keeps Chromium off
    # the network, which this machine closes, and out of any profile of the user's.
    FLAGS = ["--headless", "--no-sandbox", "--use-angle=swiftshader", "--use-gl=angle", "--enable-unsafe-swiftshader",
             "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-quic", "--disable-extensions", "--mute-audio", "--remote-debugging-pipe"]

    def __init__(self, width, height, scale=1):
        self.profile = tempfile.mkdtemp(prefix="tilescope-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        os.set_inheritable(to_browser_read, True)
        os.set_inheritable(from_browser_write, True)
        # The protocol's pipe is the browser's descriptors 3 (commands) and 4 (replies).
        command = ["chromium", *self.FLAGS, f"--user-data-dir={self.profile}", f"--window-size={width},{height}",
                   "about:blank"]
        self.process = subprocess.Popen(["sh", "-c", f'exec "$@" 3<&{to_browser_read} 4>&{from_browser_write}',
                                         "sh", *command],
                                        pass_fds=(to_browser_read, from_browser_write),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        page = next(t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height,
                  deviceScaleFactor=scale, mobile=False)
        # A focused page, as a user's: the clipboard answers only such a one.
        self.call("Emulation.setFocusEmulationEnabled", session=True, enabled=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.kill()
        self.process.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)

    def call(self, method, session=False, **params):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def _read_message(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed its pipe (did it start? try: chromium --headless --no-sandbox)")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def open(self, url):
        self.call("Page.navigate", session=True, url=url)

    def reload(self):
        """The page loaded afresh, as the browser's reload button does (a link differing only in its
        fragment would not load it again)."""
        self.evaluate("window.tilescopeBeforeReload = true")
        self.call("Page.reload", session=True, ignoreCache=True)
        self.wait_until("!window.tilescopeBeforeReload", 30, "the page did not load again")

    def evaluate(self, expression, wait=False):
        """The expression's value; with `wait`, a promise's, once it settles."""
        reply = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True, awaitPromise=wait)
        if "exceptionDetails" in reply:
            raise RuntimeError(f"{expression}: {reply['exceptionDetails'].get('exception', {}).get('description')}")
        return reply["result"].get("value")

    def allow_clipboard(self, origin):
        self.call("Browser.grantPermissions", origin=origin.rstrip("/"),
                  permissions=["clipboardReadWrite", "clipboardSanitizedWrite"])

    def clipboard(self):
        return self.evaluate("navigator.clipboard.readText()", wait=True)

    def save_downloads_in(self, folder):
        self.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=folder)

    def pick_file(self, input_id, path):
        """`path` chosen in the page's file picker <input id=input_id>, as a user's choice is (the
        input's change event follows)."""
        root = self.call("DOM.getDocument", session=True)["root"]["nodeId"]
        node = self.call("DOM.querySelector", session=True, nodeId=root, selector="#" + input_id)["nodeId"]
        self.call("DOM.setFileInputFiles", session=True, nodeId=node, files=[os.path.abspath(path)])

    def text_of(self, element_id):
        return self.evaluate(f"(document.getElementById({json.dumps(element_id)}) || {{}}).textContent")

    def wait_until(self, expression, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if self.evaluate(expression):
                    return
            except RuntimeError:
                pass  # the page is not there yet (a document still loading has no elements)
            time.sleep(0.2)
        raise TimeoutError(f"{what} after {timeout} s; the page printed:\n{self.text_of('tilescope-output')}")

    def wait_until_ready(self, timeout=120):
        """The page's status says "ready": the asked view is on screen (and, with &dump, in the state)."""
        self.wait_until("(document.getElementById('tilescope-status') || {}).textContent === 'ready'", timeout,
                        "the page is not ready")
        return int(self.evaluate("document.getElementById('tilescope-status').dataset.readyMs"))

    def state(self):
        return json.loads(self.text_of("tilescope-state"))

    def next_frames(self, count=2):
        """Returns once the page has drawn `count` more frames. ImGui 1.86 reads a key as down or up
        once a frame, so a key released in the frame it was pressed in is never seen: on a slow,
        loaded machine a press and its release sent back to back can fall in one frame."""
        self.call("Runtime.evaluate", session=True, awaitPromise=True, returnByValue=True,
                  expression="new Promise(done => { let left = %d; const next = () => "
                             "(--left > 0 ? requestAnimationFrame(next) : done(true)); "
                             "requestAnimationFrame(next); })" % count)

    # Each modifier: the protocol's bit, and its own key, which is pressed first, as a user's: the
    # page's GLFW reads the modifiers from the keys held, not from the event's flags.
    MODIFIERS = {"alt": (1, "Alt", "AltLeft", 18), "ctrl": (2, "Control", "ControlLeft", 17),
                 "shift": (8, "Shift", "ShiftLeft", 16)}

    def press(self, key, code, key_code, *modifiers):
        """A key pressed and released on the canvas, as a user's (key: "ArrowRight", code: its DOM code),
        with `modifiers` ("ctrl", "alt", "shift") held."""
        self.evaluate("document.getElementById('canvas').focus()")
        held = 0
        strokes = []
        for name in modifiers:
            bit, *modifier = self.MODIFIERS[name]
            held |= bit
            strokes.append(("keyDown", held, *modifier))
        strokes += [("keyDown", held, key, code, key_code), ("keyUp", held, key, code, key_code)]
        strokes += [("keyUp", 0, *self.MODIFIERS[name][1:]) for name in reversed(modifiers)]
        for kind, bits, stroke_key, stroke_code, stroke_key_code in strokes:
            self.call("Input.dispatchKeyEvent", session=True, type=kind, key=stroke_key, code=stroke_code,
                      modifiers=bits, windowsVirtualKeyCode=stroke_key_code, nativeVirtualKeyCode=stroke_key_code)
            self.next_frames()

    def type_text(self, text):
        """Characters typed on the canvas, each a key with its text (what a text field reads)."""
        self.evaluate("document.getElementById('canvas').focus()")
        for char in text:
            self.call("Input.dispatchKeyEvent", session=True, type="keyDown", key=char, text=char)
            self.call("Input.dispatchKeyEvent", session=True, type="keyUp", key=char)
        self.next_frames()

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))
