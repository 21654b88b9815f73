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
    """One headless Chromium with one page of `width`×`height` CSS pixels."""

    # WebGL 2 in software (SwiftShader): the machine may have no GPU. The rest keeps Chromium off
    # the network, which this machine closes, and out of any profile of the user's.
    FLAGS = ["--headless", "--no-sandbox", "--use-angle=swiftshader", "--use-gl=angle", "--enable-unsafe-swiftshader",
             "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-quic", "--disable-extensions", "--mute-audio", "--remote-debugging-pipe"]

    def __init__(self, width, height):
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
                  deviceScaleFactor=1, mobile=False)

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

    def evaluate(self, expression):
        reply = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        return reply["result"].get("value")

    def text_of(self, element_id):
        return self.evaluate(f"(document.getElementById({json.dumps(element_id)}) || {{}}).textContent")

    def wait_until(self, expression, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.2)
        raise TimeoutError(f"{what} after {timeout} s; the page printed:\n{self.text_of('tilescope-output')}")

    def wait_until_ready(self, timeout=120):
        """The page's status says "ready": the asked view is on screen (and, with &dump, in the state)."""
        self.wait_until("document.getElementById('tilescope-status').textContent === 'ready'", timeout,
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

    def press(self, key, code, key_code):
        """A key pressed and released on the canvas, as a user's (key: "ArrowRight", code: its DOM code)."""
        self.evaluate("document.getElementById('canvas').focus()")
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", session=True, type=kind, key=key, code=code,
                      windowsVirtualKeyCode=key_code, nativeVirtualKeyCode=key_code)
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
