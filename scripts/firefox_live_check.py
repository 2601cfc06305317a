#!/usr/bin/env python3
# Usage: python3 scripts/firefox_live_check.py PAGE.html OUT.png WAIT_EXPRESSION [SCRIPT]   (docs/live-page.md; needs python3-websocket)
"""Firefox ESR headless, driven over its built-in WebDriver BiDi (no geckodriver): open a page,
wait for an expression to be true, run a script, take a screenshot."""
import base64, json, os, socket, subprocess, sys, tempfile, time
import websocket

page, out, wait_expr, action = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else ""
with socket.socket() as s:
    s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
profile = tempfile.mkdtemp()
ff = subprocess.Popen(["firefox-esr", "--headless", "--remote-debugging-port", str(port), "--profile", profile,
                       "--window-size=1024,768", "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(200):
        try:
            ws = websocket.create_connection(f"ws://127.0.0.1:{port}/session", timeout=120, suppress_origin=True); break
        except Exception as e:
            last = e; time.sleep(0.2)
    else:
        raise SystemExit(f"no BiDi connection: {last}")
    n = [0]
    def call(method, params):
        n[0] += 1
        ws.send(json.dumps({"id": n[0], "method": method, "params": params}))
        while True:
            m = json.loads(ws.recv())
            if m.get("id") == n[0]:
                if m.get("type") == "error": raise RuntimeError(m)
                return m["result"]
    call("session.new", {"capabilities": {}})
    ctx = call("browsingContext.getTree", {})["contexts"][0]["context"]
    call("browsingContext.setViewport", {"context": ctx, "viewport": {"width": 1024, "height": 768}})
    call("browsingContext.navigate", {"context": ctx, "url": "file://" + os.path.abspath(page), "wait": "complete"})
    def ev(expr):
        return call("script.evaluate", {"expression": expr, "target": {"context": ctx}, "awaitPromise": True})["result"]
    t0 = time.time()
    while time.time() - t0 < 120:
        if ev(wait_expr).get("value") is True: break
        time.sleep(0.2)
    print("ready after", round(time.time() - t0, 1), "s")
    if action:
        ev(action); time.sleep(3)
    print(ev("document.querySelector('.as-live-status').textContent + ' | ' + document.querySelector('.as-translation').textContent + ' | ' + document.querySelector('.as-live-error').textContent"))
    shot = call("browsingContext.captureScreenshot", {"context": ctx})["data"]
    open(out, "wb").write(base64.b64decode(shot))
finally:
    ff.terminate(); ff.wait()
