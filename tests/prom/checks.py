# SPDX-License-Identifier: BSD-2-Clause
"""checks.py - what tests/prom/run checks through Prometheus's API, once
its stack and the tools run (see run's header): the TAP plan, the hostile
program names, and one function per check."""

import os
import re
import signal
import subprocess
import sys
import time

import stack

EVENT = "syscalls:sys_enter_getpid"
# The paced workload's getpid calls per second: cpustat counts every
# process's, and at this rate the few a quiet machine makes are far below
# 1% (5000 would leave room for 50 a second).
RATE = 20000
WINDOW = 20             # s: rate()'s range
SETTLE = 4              # s from the workload's start to the window's
TOLERANCE = 0.01        # rate() within 1% of RATE
RETRY = 24              # later windows cpustat's rate may be measured over
FIND_LIMIT = 20         # s to wait for series to appear
DOWN_LIMIT = 10         # s for up to turn 0 after a kill
PROMTOOL_LIMIT = 20     # s for one promtool run
TOOLS = ("cpustat", "cputrack")
LISTENERS = ("cpustat", "cputrack", "hostile")
FILES = ("cpustat.prom", "cputrack.prom", "hostile.prom")
# The count of events of each tool: the family every check needs.
EVENTS = {"cpustat": "cpustat_events_total",
          "cputrack": "cputrack_events_total"}
# node_exporter's HELP for a family whose file gave none.
NODE_HELP = "Metric read from "

PLAN = [
    ("stack", "prometheus and prometheus-node-exporter serve on "
     "127.0.0.1"),
    ("up1", "up is 1 for the --listen target of cpustat, cputrack and "
     "cputrack -f while they run"),
    ("odd-file", "cputrack -f: each program with an odd name (quotes, "
     "backslashes, braces, spaces, newline, tab, invalid UTF-8) has its "
     "series, exact count and name through node_exporter's textfile"),
    ("odd-listen", "cputrack -f: each program with an odd name has its "
     "series, exact count and name through --listen"),
    ("promtool", "promtool check metrics: the text files and --listen's "
     "text format are lint-clean"),
    ("type-file-cpustat", "cpustat: every family has its TYPE (counter for "
     "_total) and HELP through node_exporter's textfile"),
    ("type-file-cputrack", "cputrack: every family has its TYPE (counter "
     "for _total) and HELP through node_exporter's textfile"),
    ("type-listen-cpustat", "cpustat: every family has its TYPE (counter "
     "for _total) and HELP through --listen, read as OpenMetrics"),
    ("type-listen-cputrack", "cputrack: every family has its TYPE "
     "(counter for _total) and HELP through --listen, read as "
     "OpenMetrics"),
] + [
    ("rate-%s-%s" % (path, tool), "%s: rate() over %d s is the workload's "
     "%d getpid/s within 1%%, through %s" % (tool, WINDOW, RATE, via))
    for tool in TOOLS
    for path, via in (("file", "node_exporter's textfile"),
                      ("listen", "--listen"))
] + [
    ("scrape-error", "node_textfile_scrape_error stayed 0 for the whole "
     "run, and node_exporter read each of the three files"),
    ("up0", "up is 0 for each --listen target once its tool is killed "
     "(SIGKILL)"),
]

# Program names, at most 15 bytes so that the kernel's comm is the whole
# name.  Executables copied under these names:
EXE_NAMES = [b'q"uo\'te', b'back\\sl\\', b'{br}ace=}', b'sp ace  x',
             b'new\nline', b'bad\xffname', b'x",y="z\\', b'\xc3(\xe9\x80',
             b'ok\xc3\xa9t\xc3\xa9']
# Names set with prctl(PR_SET_NAME) by a program called paced:
PRCTL_NAMES = [b'pr "ctl\\{}', b'pr\xfe\n\t#x']

# The driver cputrack -f follows: it starts each program, in the
# background, writes its pid, and waits.
DRIVER = """pids=$1; shift
while [ $# -ge 3 ]; do
	if [ -n "$3" ]; then "$1" -b "$2" -n "$3" -r 0 "$MS" &
	else "$1" -b "$2" -r 0 "$MS" &
	fi
	echo $! >>"$pids"
	shift 3
done
wait
"""


class Tap:
    """TAP output in PLAN's order; counts the failures."""

    def __init__(self, plan):
        self.plan = plan
        self.n = 0
        self.failed = 0
        print("1..%d" % len(plan), flush=True)

    def result(self, key, ok, diag=()):
        want, desc = self.plan[self.n]
        assert key == want, "check %s out of order (next: %s)" % (key, want)
        self.n += 1
        self.failed += not ok
        print("%s %d - %s" % ("ok" if ok else "not ok", self.n, desc))
        for d in diag:
            print("#   " + d)
        sys.stdout.flush()

    def abandon(self, why):
        """Fail every check not reported yet, saying why."""
        while self.n < len(self.plan):
            self.result(self.plan[self.n][0], False, [why])


def hostile_setup(tmp, paced, ms):
    """Copy paced under each EXE_NAMES name; the driver's argv and a list
    of {exe, burst, name} (pid added once known), each burst distinct."""
    d = os.path.join(os.fsencode(tmp), b"names")
    os.mkdir(d)
    with open(paced, "rb") as f:
        image = f.read()
    progs = []
    for name in EXE_NAMES:
        exe = os.path.join(d, name)
        with open(exe, "wb") as f:
            f.write(image)
        os.chmod(exe, 0o755)
        progs.append({"exe": exe, "name": name, "set": b""})
    for name in PRCTL_NAMES:
        progs.append({"exe": os.fsencode(paced), "name": name, "set": name})
    argv = ["/bin/sh", "-c", DRIVER.replace('"$MS"', str(ms)), "sh",
            os.path.join(tmp, "hostile.pids")]
    for i, p in enumerate(progs):
        p["burst"] = 1000 + 37 * i
        argv += [p["exe"], str(p["burst"]), p["set"]]
    return argv, progs


def check_all(tap, run):
    check_up(tap, run, 1, "up1")
    check_hostile(tap, run, "node", "odd-file")
    check_hostile(tap, run, "hostile", "odd-listen")
    check_promtool(tap, run)
    for path, job in (("file", "node"), ("listen", None)):
        for tool in TOOLS:
            check_types(tap, run.prom, job or tool, tool,
                        "type-%s-%s" % (path, tool))
    at = run.paced_at + SETTLE + WINDOW
    for tool in TOOLS:
        for path, job in (("file", "node"), ("listen", tool)):
            check_rate(tap, run.prom, job, tool, at,
                       "rate-%s-%s" % (path, tool))
    check_scrape_error(tap, run)
    check_down(tap, run)


def listen_diag(run, job):
    """Why job's target is not up: the tool's state, its last error."""
    p = run.procs.procs[job]
    diag = []
    try:
        health, err = run.prom.targets().get(job, ("absent", ""))
        diag.append("%s: target %s %s" % (job, health, err))
    except ValueError as e:
        diag.append("%s: %s" % (job, e))
    if p.poll() is not None:
        diag.append("%s exited with status %s:" % (job, p.returncode))
        diag += ["  " + l for l in run.procs.log(job)]
    return diag


def check_up(tap, run, want, key):
    """up{job} reaches want for each --listen target within a limit."""
    limit = (FIND_LIMIT if want else DOWN_LIMIT)
    deadline = time.monotonic() + limit
    diag = []
    for job in LISTENERS:
        got = stack.wait_for(lambda: run.prom.up(job) == want, deadline,
                             0.5)
        if not got:
            diag.append("%s: up is %s, not %d after %d s" %
                        (job, run.prom.up(job), want, limit))
            if want:
                diag += listen_diag(run, job)
    tap.result(key, not diag, diag)


def check_down(tap, run):
    """Kill each tool with SIGKILL, where it is up (else the check fails:
    a target that was never up proves nothing); then up must be 0."""
    diag = []
    for job in LISTENERS:
        if run.procs.procs[job].poll() is not None or run.prom.up(job) != 1:
            diag.append("%s was not up before the kill:" % job)
            diag += listen_diag(run, job)
        run.procs.kill(job, signal.SIGKILL)
    if diag:
        tap.result("up0", False, diag)
    else:
        check_up(tap, run, 0, "up0")


def tool_state(run, name):
    """A tool's processes (its session: the tool, what it runs) with
    their states, and how old its file's last update is: whether it
    still runs and writes."""
    p = run.procs.procs[name]
    try:
        ps = subprocess.run(["ps", "-s", str(p.pid), "-o",
                             "pid,ppid,stat,wchan:24,comm"],
                            capture_output=True, timeout=10)
        diag = ["processes of %s's session:" % name] + [
            "  " + l for l in ps.stdout.decode(errors="replace").splitlines()]
    except (OSError, subprocess.TimeoutExpired) as e:
        diag = ["ps: %s" % e]
    try:
        with open(os.path.join(run.textdir, name + ".prom")) as f:
            last = [l for l in f if "_last_update_timestamp_seconds " in l]
        diag += ["%s.prom: last update %.1f s ago" %
                 (name, time.time() - float(last[0].split()[-1]))]
    except (OSError, IndexError, ValueError) as e:
        diag += ["%s.prom: no last update (%s)" % (name, e)]
    return diag


def printable(name):
    """name as text when it is valid UTF-8 without a control byte."""
    try:
        s = name.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return s if s.isprintable() else None


def name_ok(label, p):
    """Whether a command label stands for p's name: the name itself when
    it is printable UTF-8; else its printable ASCII pieces, in order.  A
    prctl name may also be given as the executable's name (paced)."""
    if p["set"] and label == "paced":
        return True
    s = printable(p["name"])
    if s is not None:
        return label == s
    pieces = re.findall(rb"[\x20-\x7e]{2,}", p["name"])
    return bool(label) and re.search(
        ".*".join(re.escape(x.decode()) for x in pieces), label,
        re.S) is not None


def read_pids(run):
    try:
        with open(os.path.join(run.tmp, "hostile.pids")) as f:
            pids = f.read().split()
    except OSError:
        return False
    if len(pids) < len(run.hostile):
        return False
    for p, pid in zip(run.hostile, pids):
        p["pid"] = pid
    return True


def hostile_missing(run, job):
    """The hostile programs without a right series in job: a list of
    diagnostics (empty when all are there).  The label each name not
    printable as it is was given goes in run.labels, to be shown."""
    series = run.prom.query('%s{job="%s",event="%s"}' %
                            (EVENTS["cputrack"], job, EVENT))
    bad = []
    run.labels = []
    for p in run.hostile:
        mine = [(m, v) for m, v in series if m.get("pid") == p["pid"]]
        good = [(m, v) for m, v in mine
                if v == p["burst"] and name_ok(m.get("command", ""), p)]
        if not good:
            bad.append("%r (pid %s, %d calls): %s" % (
                p["name"], p["pid"], p["burst"],
                ", ".join("command=%a %g" % (m.get("command"), v)
                          for m, v in mine) or "no series"))
        elif printable(p["name"]) is None:
            run.labels.append("(%r is command=%a)" %
                              (p["name"], good[0][0].get("command")))
    return bad


def check_hostile(tap, run, job, key):
    deadline = time.monotonic() + FIND_LIMIT
    if not stack.wait_for(lambda: read_pids(run), deadline):
        tap.result(key, False, ["the driver did not start the programs:"] +
                   run.procs.log("hostile"))
        return
    bad = stack.wait_for(lambda: hostile_missing(run, job) or None,
                         deadline, 0.5)
    bad = hostile_missing(run, job) if bad is None else bad
    if not bad:
        tap.result(key, True, run.labels)
        return
    tap.result(key, False, bad + (listen_diag(run, "hostile")
                                  if job == "hostile" else []) +
               tool_state(run, "hostile"))


def promtool(text):
    """promtool check metrics's complaints about text, or []."""
    try:
        r = subprocess.run(["promtool", "check", "metrics"], input=text,
                           capture_output=True, timeout=PROMTOOL_LIMIT)
    except subprocess.TimeoutExpired:
        return ["promtool ran for over %d s" % PROMTOOL_LIMIT]
    if r.returncode == 0:
        return []
    out = (r.stdout + r.stderr).decode("utf-8", "backslashreplace")
    return out.splitlines()[:8] or ["exit status %d" % r.returncode]


def check_promtool(tap, run):
    diag = []
    for f in FILES:
        try:
            with open(os.path.join(run.textdir, f), "rb") as fp:
                text = fp.read()
        except OSError as e:
            diag.append("%s: %s" % (f, e))
            continue
        diag += ["%s: %s" % (f, l) for l in promtool(text)]
    for job in LISTENERS:
        url = "http://127.0.0.1:%d/metrics" % run.ports[job]
        status, ctype, body = stack.http_get(url)
        if status != 200:
            diag.append("%s --listen: GET /metrics: %d %s" %
                        (job, status, body[:100]))
            continue
        diag += ["%s --listen (%s): %s" % (job, ctype, l)
                 for l in promtool(body)]
    tap.result("promtool", not diag, diag)


def family_of(name, meta, om):
    """The metadata entries of sample name: under its OpenMetrics family
    (the name less _total, _created or _info), or under its own name,
    which is the family of any other sample, and of a counter's in the
    text format 0.0.4; not so for a counter where om (read as
    OpenMetrics, Prometheus files a counter under its family)."""
    for suffix in ("_total", "_created", "_info"):
        if name.endswith(suffix) and name[:-len(suffix)] in meta:
            return meta[name[:-len(suffix)]]
    if name in meta and not (om and name.endswith("_total")):
        return meta[name]
    return []


def type_complaints(name, meta, om):
    """What is wrong with sample name's TYPE and HELP, or None."""
    entries = family_of(name, meta, om)
    if not entries:
        return "%s: no metadata%s" % (
            name, " under an OpenMetrics family name (read as text "
            "0.0.4?)" if om and name in meta else "")
    for typ, hlp, _ in entries:
        if name.endswith("_total") and typ != "counter":
            return "%s: type %s, not counter" % (name, typ)
        if typ in ("", "unknown", "untyped"):
            return "%s: type %s" % (name, typ or "none")
        if not hlp or hlp.startswith(NODE_HELP):
            return "%s: no HELP of its own (%r)" % (name, hlp)
    return None


def check_types(tap, prom, job, tool, key):
    names = prom.api("/api/v1/label/__name__/values", **{
        "match[]": '{job="%s",__name__=~"%s_.+"}' % (job, tool)})
    meta = prom.metadata(job)
    diag = []
    if EVENTS[tool] not in names:
        diag.append("no %s among %s" % (EVENTS[tool], names or "no series"))
    for n in names:
        c = type_complaints(n, meta, job != "node")
        if c:
            diag.append(c)
    tap.result(key, not diag, diag)


def rate_diag(prom, job, tool, at):
    """The count, up and scrape duration each second of the window."""
    diag = ["each second: the count (the sum of its series), then the "
            "scrape's up and duration (s)"]
    count = prom.query_range('sum(%s{job="%s",event="%s"})' %
                             (EVENTS[tool], job, EVENT),
                             at - WINDOW - 1, at, 1)
    up = dict(prom.query_range('up{job="%s"}' % job, at - WINDOW - 1,
                               at, 1))
    took = dict(prom.query_range('scrape_duration_seconds{job="%s"}' %
                                 job, at - WINDOW - 1, at, 1))
    return diag + ["  %.3f %d %s %s" % (t, v, up.get(t), took.get(t))
                   for t, v in count]


def check_rate(tap, prom, job, tool, at, key):
    """rate() over WINDOW ending at `at' within TOLERANCE of RATE.
    cpustat counts every process's calls: others' can only add to the
    rate, so for it a rate too high is measured again over a window a
    second later, up to RETRY times (a rate too low fails at once)."""
    expr = 'sum(rate(%s{job="%s",event="%s"}[%ds]))' % (
        EVENTS[tool], job, EVENT, WINDOW)
    tries = RETRY if tool == "cpustat" else 0
    seen = []
    for end in (at + i for i in range(tries + 1)):
        while time.time() < end + 3:
            time.sleep(0.2)
        v = prom.query(expr, end)
        if not v:
            tap.result(key, False, ["%s: no value at %.3f" % (expr, end)])
            return
        seen.append("%.2f at %.3f" % (v[0][1], end))
        if abs(v[0][1] - RATE) <= RATE * TOLERANCE or v[0][1] < RATE:
            break
    ok = abs(v[0][1] - RATE) <= RATE * TOLERANCE
    diag = [] if ok else (["%s = %s, not %d +- 1%%" %
                           (expr, ", ".join(seen), RATE)] +
                          rate_diag(prom, job, tool, end))
    if ok and len(seen) > 1:
        diag = ["(other processes' calls: %s)" % ", ".join(seen)]
    tap.result(key, ok, diag)


def check_scrape_error(tap, run):
    prom = run.prom
    span = int(time.time() - run.paced_at) + 5
    err = prom.query('max_over_time(node_textfile_scrape_error{job="node"}'
                     '[%ds])' % span)
    files = [os.path.basename(m.get("file", "")) for m, _ in
             prom.query('node_textfile_mtime_seconds{job="node"}')]
    diag = []
    if not err or err[0][1] != 0:
        diag.append("node_textfile_scrape_error over the last %d s: %s" %
                    (span, err[0][1] if err else "no series"))
    for f in FILES:
        if f not in files:
            diag.append("node_exporter has no mtime for %s (has %s)" %
                        (f, files))
    tap.result("scrape-error", not diag, diag)
