# SPDX-License-Identifier: BSD-2-Clause
"""stack.py - the real Prometheus stack for tests/prom/run: free loopback
ports, processes that cannot outlive the suite, prometheus-node-exporter
and prometheus started on 127.0.0.1 and asked through their HTTP API.

Every wait here has a deadline and every request a timeout, so nothing
hangs; every process is started in a session of its own (so that its
children can be killed with it) and with PR_SET_PDEATHSIG, so that even a
suite killed with SIGKILL takes its daemons and tools with it.
"""

import ctypes
import json
import os
import signal
import socket
import subprocess
import time
import urllib.parse
import urllib.request

PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


def free_ports(n):
    """n distinct TCP ports free on 127.0.0.1 now (all held open while
    they are chosen, so they differ)."""
    socks, ports = [], []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def _die_with_parent():
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


class Procs:
    """The processes of one run, each logging to a file in a directory,
    all killed (with their sessions) by stop_all."""

    def __init__(self, logdir):
        self.logdir = logdir
        self.procs = {}

    def start(self, name, argv, env=None):
        log = open(os.path.join(self.logdir, name + ".log"), "wb")
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log,
                             stderr=subprocess.STDOUT, env=env,
                             start_new_session=True,
                             preexec_fn=_die_with_parent)
        log.close()
        self.procs[name] = p
        return p

    def log(self, name, lines=15):
        """The last lines of name's output, for a diagnostic."""
        try:
            with open(os.path.join(self.logdir, name + ".log"), "rb") as f:
                text = f.read().decode("utf-8", "backslashreplace")
        except OSError as e:
            return ["(no log: %s)" % e]
        return text.splitlines()[-lines:]

    def kill(self, name, sig=signal.SIGKILL):
        """Send sig to name's process alone (its children stay)."""
        p = self.procs[name]
        if p.poll() is None:
            p.send_signal(sig)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def stop_all(self):
        """SIGKILL every process and its session, and reap them."""
        for p in self.procs.values():
            for kill in (lambda: os.killpg(p.pid, signal.SIGKILL),
                         lambda: p.kill()):
                try:
                    kill()
                except (ProcessLookupError, PermissionError):
                    pass
        for p in self.procs.values():
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass


def http_get(url, headers=None, timeout=5):
    """(status, content type, body bytes) of a GET; status 0 and the
    error as body when there was no answer."""
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, "", e.read()
    except (OSError, ValueError) as e:
        return 0, "", str(e).encode()


def wait_for(what, deadline, step=0.2):
    """Call what() until it returns something true or deadline (a
    time.monotonic() value) passes; its last value."""
    while True:
        v = what()
        if v or time.monotonic() >= deadline:
            return v
        time.sleep(step)


class Prom:
    """A Prometheus server's HTTP API at 127.0.0.1:port."""

    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port

    def ready(self):
        return http_get(self.base + "/-/ready")[0] == 200

    def api(self, path, **params):
        """The data of an API answer; ValueError saying why when the
        answer is not a success."""
        url = self.base + path + "?" + urllib.parse.urlencode(params)
        status, _, body = http_get(url, timeout=10)
        try:
            doc = json.loads(body)
        except ValueError:
            raise ValueError("%s: HTTP %d: %r" % (path, status, body[:200]))
        if doc.get("status") != "success":
            raise ValueError("%s: %s" % (path, doc.get("error", doc)))
        return doc["data"]

    def query(self, expr, at=None):
        """The instant vector of expr (at a Unix time, or now): a list of
        (labels, float value)."""
        params = {"query": expr}
        if at is not None:
            params["time"] = "%.3f" % at
        data = self.api("/api/v1/query", **params)
        if data["resultType"] != "vector":
            raise ValueError("%s: a %s, not a vector" %
                             (expr, data["resultType"]))
        return [(r["metric"], float(r["value"][1])) for r in data["result"]]

    def query_range(self, expr, start, end, step):
        """The values of expr's first series from start to end: a list of
        (Unix time, float value)."""
        data = self.api("/api/v1/query_range", query=expr,
                        start="%.3f" % start, end="%.3f" % end, step=step)
        if not data["result"]:
            return []
        return [(float(t), float(v)) for t, v in data["result"][0]["values"]]

    def metadata(self, job):
        """{metric: [(type, help, unit), ...]} of the targets of job."""
        data = self.api("/api/v1/targets/metadata",
                        match_target='{job="%s"}' % job)
        meta = {}
        for m in data:
            meta.setdefault(m["metric"], []).append(
                (m.get("type", ""), m.get("help", ""), m.get("unit", "")))
        return meta

    def targets(self):
        """{job: (health, last error)} of the active targets."""
        data = self.api("/api/v1/targets", state="active")
        return {t["labels"]["job"]: (t["health"], t["lastError"])
                for t in data["activeTargets"]}

    def up(self, job):
        """up of job now: 1, 0, or None when there is no sample."""
        v = self.query('up{job="%s"}' % job)
        return v[0][1] if v else None


def prom_config(path, jobs):
    """Write a configuration scraping each job's 127.0.0.1 port every
    second (jobs: {name: port})."""
    lines = ["global:", "  scrape_interval: 1s", "  scrape_timeout: 1s",
             "  evaluation_interval: 1s", "scrape_configs:"]
    for job, port in jobs.items():
        lines += ["  - job_name: %s" % job,
                  "    static_configs:",
                  "      - targets: ['127.0.0.1:%d']" % port]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
