#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""flameclick.py - use cpcplot --flame's page as a person does, in
headless Chromium driven through the DevTools protocol, for flame.bats.

    flameclick.py SVG FUNCTION SEARCH

Chromium runs with --remote-debugging-pipe: it reads the protocol's
commands on its fd 3 and writes its answers and events on fd 4, each
message JSON ended by a NUL.  On the page, with real input events at
screen coordinates (so that what is drawn over a frame, the labels,
must let the click through):

  - the mouse over FUNCTION's frame (the widest one), on its name: the
    line under the frames describes it;
  - a click there: zoomed;
  - the Search button, and the prompt it opens answered with SEARCH;
  - the Invert button;
  - the Escape key: zoomed out;

and after each prints what the page then shows, one fact a line, for
the test to compare.  Exits 1 with the reason when Chromium does not
answer in time (each wait is bounded; flame.bats runs this under
timeout too).
"""

import json
import os
import select
import subprocess
import sys
import tempfile
import time

WAIT = 60       # seconds for any one answer or event


class Page:
    """One Chromium, its first tab, and the protocol to them."""

    def __init__(self, url, profile):
        cmd_r, self.cmd_w = os.pipe()
        self.ans_r, ans_w = os.pipe()

        def fds():
            # Through copies: either end may already be fd 3 or 4
            # (and close-on-exec, which only dup2 to another fd clears).
            a, b = os.dup(cmd_r), os.dup(ans_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--user-data-dir=" + profile,
             "--window-size=1200,400", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False)
        os.close(cmd_r)
        os.close(ans_w)
        self.buf, self.next_id, self.events = b"", 0, []
        self.session = None
        page = [t for t in self.send("Target.getTargets")["targetInfos"]
                if t["type"] == "page"][0]
        self.session = self.send("Target.attachToTarget", {
            "targetId": page["targetId"], "flatten": True})["sessionId"]
        self.send("Page.enable")
        self.send("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def message(self):
        """The next message from Chromium."""
        end = time.monotonic() + WAIT
        while b"\0" not in self.buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.ans_r], [], [], left)[0]:
                sys.exit("flameclick: Chromium did not answer in %d s" % WAIT)
            chunk = os.read(self.ans_r, 65536)
            if not chunk:
                sys.exit("flameclick: Chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None):
        """Send a command and return its result; events that come first
        are kept for wait_event."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session is not None:
            msg["sessionId"] = self.session
        os.write(self.cmd_w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self.message()
            if m.get("id") == self.next_id:
                if "error" in m:
                    sys.exit("flameclick: %s: %s" % (method, m["error"]))
                return m["result"]
            self.events.append(m)

    def wait_event(self, method):
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method:
                    return self.events.pop(i)["params"]
            self.events.append(self.message())

    def js(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr,
                                           "returnByValue": True})
        if "exceptionDetails" in r:
            sys.exit("flameclick: %s: %s" % (expr, r["exceptionDetails"]))
        return r["result"].get("value")

    def mouse(self, kind, x, y):
        self.send("Input.dispatchMouseEvent", {
            "type": kind, "x": x, "y": y, "button": "left",
            "clickCount": 1 if kind != "mouseMoved" else 0})

    def click(self, x, y):
        self.mouse("mouseMoved", x, y)
        self.mouse("mousePressed", x, y)
        self.mouse("mouseReleased", x, y)

    def centre(self, expr, left=None):
        """Where to click on the element expr names: its middle, or left
        pixels in from its left edge."""
        r = self.js("(function(){var r=(%s).getBoundingClientRect();"
                    "return [r.left, r.width, r.top+r.height/2];})()" % expr)
        return r[0] + (r[1] / 2 if left is None else left), r[2]

    def close(self):
        try:
            self.send("Browser.close")
        except SystemExit:
            pass
        self.proc.wait(timeout=WAIT)


# The widest frame whose title begins with the function (a JavaScript
# expression), and what the page shows (printed as facts).
FRAME = ("Array.from(document.querySelectorAll('#frames rect')).filter("
         "function(r){return r.firstElementChild.textContent.split('\\n')[0]"
         "===%s;}).sort(function(a,b){return b.getAttribute('width')-"
         "a.getAttribute('width');})[0]")
STATE = ("[document.getElementById('frames').getAttribute('transform'),"
         "document.getElementById('status').textContent,"
         "document.getElementById('matched').textContent,"
         "document.querySelectorAll('#frames rect.hit').length,"
         "document.querySelectorAll('#frames rect.anc').length,"
         "document.getElementById('unzoom').getAttribute('class'),"
         "document.querySelector('#frames rect.root').getAttribute('y')]")


def show(page, step):
    t, status, matched, hits, anc, unzoom, root_y = page.js(STATE)
    print("%s transform %s" % (step, t))
    print("%s status %s" % (step, status))
    print("%s matched %s" % (step, matched))
    print("%s hits %d anc %d unzoom %s root-y %s" %
          (step, hits, anc, unzoom, root_y))


def session(page, fn, search):
    frame = FRAME % json.dumps(fn)
    # On the first letter of its name: the label, drawn over the frame,
    # must let the pointer through to it.
    x, y = page.centre(frame, 5)
    page.mouse("mouseMoved", x, y)
    show(page, "over")
    page.click(x, y)
    show(page, "click")
    # The prompt blocks the page: its answer is sent while it is open.
    sx, sy = page.centre("document.getElementById('search')")
    page.mouse("mouseMoved", sx, sy)
    page.mouse("mousePressed", sx, sy)
    # Not waited for: its answer comes once the prompt is answered.
    os.write(page.cmd_w, json.dumps({
        "id": 0, "method": "Input.dispatchMouseEvent",
        "sessionId": page.session, "params": {
            "type": "mouseReleased", "x": sx, "y": sy, "button": "left",
            "clickCount": 1}}).encode() + b"\0")
    page.wait_event("Page.javascriptDialogOpening")
    page.send("Page.handleJavaScriptDialog", {"accept": True,
                                              "promptText": search})
    show(page, "search")
    page.click(*page.centre("document.getElementById('invert')"))
    show(page, "invert")
    for kind in ("keyDown", "keyUp"):
        page.send("Input.dispatchKeyEvent", {
            "type": kind, "key": "Escape", "code": "Escape",
            "windowsVirtualKeyCode": 27})
    show(page, "escape")


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: flameclick.py SVG FUNCTION SEARCH")
    with tempfile.TemporaryDirectory(prefix="flameclick.") as profile:
        page = Page("file://" + os.path.abspath(argv[0]), profile)
        try:
            session(page, argv[1], argv[2])
        finally:
            page.close()


if __name__ == "__main__":
    main(sys.argv[1:])
