"""A small WebDriver client (W3C protocol over HTTP, Python's standard library only) for Debian's
chromium and chromium-driver: headless Chromium that opens pages from file://, runs script in
them, sends keys, takes screenshots and hands back the console's messages and every network
request the page made."""

import base64
import json
import os
import shutil
import socket
import subprocess
import time
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Dict, List, Optional

KEYS = {"ArrowRight": "\ue014", "ArrowLeft": "\ue012", "Home": "\ue011", "End": "\ue010",
        "PageDown": "\ue00f", "PageUp": "\ue00e", "Tab": "\ue004", "Enter": "\ue007"}


def find_chromium() -> Optional[str]:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def available() -> Optional[str]:
    """None where the browser tests can run, else why not (the test then skips with it)."""
    if not find_chromium():
        return "chromium is not installed (scripts/setup.sh --with-test-tools installs it)"
    if not shutil.which("chromedriver"):
        return "chromedriver is not installed (Debian's chromium-driver; scripts/setup.sh --with-test-tools)"
    return None


class WebDriverError(RuntimeError):
    pass


class Browser:
    """with Browser(width, height) as b: b.open(path); b.run("return document.title")."""

    def __init__(self, width: int = 1024, height: int = 768):
        self.width, self.height = width, height
        self.driver: Optional[subprocess.Popen] = None
        self.session = ""

    def __enter__(self) -> "Browser":
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.driver = subprocess.Popen(["chromedriver", f"--port={port}"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while True:
            try:
                self._call("GET", "/status")
                break
            except (urllib.error.URLError, ConnectionError):
                if time.time() > deadline:
                    raise WebDriverError("chromedriver did not start within 20 s")
                time.sleep(0.1)
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={self.width},{self.height}", "--force-device-scale-factor=1",
                "--hide-scrollbars", "--no-first-run", "--disable-extensions"]
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": find_chromium(), "args": args,
                                   "perfLoggingPrefs": {"enableNetwork": True, "enablePage": False}},
            "goog:loggingPrefs": {"browser": "ALL", "performance": "ALL"}}}}
        self.session = self._call("POST", "/session", caps)["sessionId"]
        # The window's outer size less its frame: make the page's viewport width x height.
        # A resize reaches the page a moment later: the viewport is read once it has settled, else a
        # stale reading sets a wrong size (a 390-pixel phone measured at 280).
        self._call("POST", f"/session/{self.session}/window/rect", {"width": self.width, "height": self.height})
        inner = self._settled_viewport()
        self._call("POST", f"/session/{self.session}/window/rect",
                   {"width": 2 * self.width - inner[0], "height": 2 * self.height - inner[1]})
        self._settled_viewport()
        return self

    def _settled_viewport(self) -> Any:
        time.sleep(0.3)
        previous = None
        for _ in range(20):
            inner = self.run("return [window.innerWidth, window.innerHeight]")
            if inner == previous:
                return inner
            previous = inner
            time.sleep(0.1)
        return previous

    def __exit__(self, *exc) -> None:
        try:
            if self.session:
                self._call("DELETE", f"/session/{self.session}")
        finally:
            if self.driver:
                self.driver.terminate()
                try:
                    self.driver.wait(10)
                except subprocess.TimeoutExpired:
                    self.driver.kill()

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else (b"{}" if method == "POST" else None)
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.loads(response.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            detail = json.loads(e.read() or b"{}").get("value", {})
            raise WebDriverError(f"{method} {path}: {detail.get('error')}: {detail.get('message', '')[:500]}") from None

    def _s(self, path: str) -> str:
        return f"/session/{self.session}{path}"

    def open(self, path: Path) -> None:
        self._call("POST", self._s("/url"), {"url": Path(path).resolve().as_uri()})

    def run(self, script: str, *args: Any) -> Any:
        """The value `script` (a function body) returns in the page."""
        return self._call("POST", self._s("/execute/sync"), {"script": script, "args": list(args)})

    def keys(self, *names: str) -> None:
        """Presses and releases each key (KEYS' names, or plain characters) on the focused element."""
        actions = []
        for name in names:
            key = KEYS.get(name, name)
            actions += [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]
        self._call("POST", self._s("/actions"), {"actions": [{"type": "key", "id": "keyboard", "actions": actions}]})

    def screenshot(self, css: Optional[str] = None) -> bytes:
        """PNG bytes of the viewport, or of the first element matching `css`."""
        if css is None:
            return base64.b64decode(self._call("GET", self._s("/screenshot")))
        element = self._call("POST", self._s("/element"), {"using": "css selector", "value": css})
        eid = next(iter(element.values()))
        return base64.b64decode(self._call("GET", self._s(f"/element/{eid}/screenshot")))

    def alert_text(self) -> Optional[str]:
        """The text of an open alert() dialog, None where there is none."""
        try:
            return self._call("GET", self._s("/alert/text"))
        except WebDriverError as e:
            if "no such alert" in str(e):
                return None
            raise

    def console(self) -> List[Dict[str, Any]]:
        """The console's messages since the last call: {level, message}."""
        return self._call("POST", self._s("/se/log"), {"type": "browser"}) or []

    def requests(self) -> List[str]:
        """The URLs of every request the page started since the last call (the network log)."""
        urls = []
        for entry in self._call("POST", self._s("/se/log"), {"type": "performance"}) or []:
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                urls.append(message["params"]["request"]["url"])
        return urls


# What a lesson page frames, as its reader must see it: a heatmap's or the encoder panel's matrix
# (the colour scale under it may be below the window's edge), the part of Step explained it marks,
# or the panel itself.
FRAMED = {"heatmap": ".as-heatmap-panel .as-heatmap-box", "encoder": ".as-encoder-panel .as-encoder-box",
          "candidates": ".as-candidates-panel", "beam": ".as-beam-panel", "explain": ".as-explain"}


def assert_framed_on_screen(b: Browser, highlight: str, explain: Optional[str], where: str) -> str:
    """Every row the page talks about on screen: what it frames wholly in the window where it fits
    there, its top in the window otherwise. Returns the selector checked."""
    css = f".as-part-{explain}" if highlight == "explain" and explain else FRAMED[highlight]
    top, bottom, inner = b.run("const r = document.querySelector(arguments[0]).getBoundingClientRect(); "
                               "return [r.top, r.bottom, innerHeight]", css)
    at = f"{where}: {css} at {top:.0f}..{bottom:.0f} of {inner}"
    if bottom - top <= inner:
        assert top >= -1 and bottom <= inner + 1, at + " is not wholly on screen"
    else:
        assert -1 <= top < inner, at + " is cut at the top"
    return css
