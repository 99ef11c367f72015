#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""fmtcheck.py - parse the machine-readable outputs for formats.bats.

    fmtcheck.py csv FILE           check a --format=csv file; print facts
    fmtcheck.py json SCHEMA FILE   validate every line; print facts
    fmtcheck.py badjson SCHEMA     the schema refuses broken objects
    fmtcheck.py om FILE            parse an OpenMetrics 1.0 file (strictly)
    fmtcheck.py prom FILE          parse a Prometheus text 0.0.4 file
    fmtcheck.py svg FILE           the panels and series of a cpcplot SVG

Facts are printed one per line as "key value..." for the test to grep;
any failure to parse exits 1 with the reason.  Both CSV and JSON are
reduced to the same facts, so the tests compare the formats directly:

    header A,B,...                  (csv) the header row
    row KIND KEY SET COL=V ...      every row with values, KEY the cpu (or
                                    cpus=N for a total; @CGROUP after it
                                    with -G) or pid/lwp; a -S
                                    request's samples are COL samples:NAME
                                    (SET is empty for -S alone)
    note KIND PID LWP CHILD|COMMAND fork and exec-name rows (cputrack)
    sum COL SET VALUE               the sum of the tick rows of a set
    met KIND KEY SET NAME=V ...     a row's -M metrics (after its row
                                    fact), V "-" where it has none

The expositions (om, prom) print, per family, "family NAME TYPE [UNIT]"
then "sample NAME LABEL="VALUE"... VALUE" (labels sorted, JSON-quoted;
the value whole when it is whole); a family without HELP, a file that
is not UTF-8 or that the parser refuses exits 1.
"""

import csv
import json
import sys


def die(msg):
    print("fmtcheck: " + msg, file=sys.stderr)
    sys.exit(1)


def met_fact(kind, key, setname, mets):
    """The met fact of a row's metrics {name: value or None}."""
    if mets:
        print("met %s %s %s %s" % (kind, key, setname, " ".join(
            "%s=%s" % (k, "-" if v is None else repr(float(v)))
            for k, v in sorted(mets.items()))))


def facts_csv(path):
    with open(path, newline="") as fp:
        rows = list(csv.reader(fp))
    if not rows:
        die("empty CSV")
    head = rows[0]
    print("header " + ",".join(head))
    track = head[1] == "pid"
    tail = head.index("enabled_ns")
    first = head.index("set") + 1
    while head[first] in ("epoch", "date", "tsc", "tick"):
        first += 1
    events = [e for e in head[first:tail] if not e.startswith("metric:")]
    mets = [e for e in head[first:tail] if e.startswith("metric:")]
    sums = {}
    for n, r in enumerate(rows[1:], 2):
        if len(r) != len(head):
            die("line %d: %d fields, the header has %d" % (n, len(r), len(head)))
        d = dict(zip(head, r))
        float(d["time"])
        kind = d["kind"]
        key = ("%s/%s" % (d["pid"], d["lwp"]) if track else
               ("cpus=" if kind == "total" else "") + d["cpu"])
        if "cgroup" in d:
            key += "@" + d["cgroup"]
        if d["enabled_ns"] == "":
            print("note %s %s %s %s" % (kind, d["pid"], d["lwp"], d["note"]))
            continue
        vals = {e: int(d[e]) for e in events if d[e] != ""}
        ena, run = int(d["enabled_ns"]), int(d["running_ns"])
        if run > ena or d["scaled"] not in ("0", "1"):
            die("line %d: running %d > enabled %d, or scaled %r" %
                (n, run, ena, d["scaled"]))
        extra = ""
        if "epoch" in d:
            extra = " epoch=%d" % int(d["epoch"])
        if track and d["note"]:
            extra += " note=" + d["note"]
        print("row %s %s %s%s %s" % (kind, key, d["set"], extra, " ".join(
            "%s=%d" % kv for kv in sorted(vals.items()))))
        met_fact(kind, key, d["set"], {m[7:]: float(d[m]) if d[m] else None
                                       for m in mets})
        if kind == "tick":
            for e, v in vals.items():
                sums[(e, d["set"])] = sums.get((e, d["set"]), 0) + v
    for (e, s), v in sorted(sums.items()):
        print("sum %s %s %d" % (e, s, v))


def validator(schema_path):
    import jsonschema
    with open(schema_path) as fp:
        schema = json.load(fp)
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def facts_json(schema_path, path):
    v = validator(schema_path)
    sums = {}
    with open(path) as fp:
        for n, line in enumerate(fp, 1):
            try:
                o = json.loads(line)
            except ValueError as e:
                die("line %d: not JSON: %s" % (n, e))
            errs = sorted(v.iter_errors(o), key=str)
            if errs:
                die("line %d: %s: %s" % (n, errs[0].message, line.strip()))
            kind = o["kind"]
            if o["tool"] == "cpustat":
                key = "cpus=%d" % o["cpus"] if kind == "total" else str(o["cpu"])
            elif o.get("tree"):
                key = "%d/%d" % (o["pid"], o["processes"])
            else:
                key = "%d/%d" % (o["pid"], o["lwp"])
            if "cgroup" in o:
                key += "@" + o["cgroup"]
            if "set_index" not in o:
                print("note %s %d %d %s" % (kind, o["pid"], o["lwp"],
                                            o.get("child", o.get("command"))))
                continue
            vals = dict(o.get("counts", {}))
            vals.update(("samples:" + e, c)
                        for e, c in o.get("samples", {}).items())
            setname = o.get("set", "")
            if o["running_ns"] > o["enabled_ns"]:
                die("line %d: running > enabled" % n)
            extra = " epoch=%d" % o["epoch"] if "epoch" in o else ""
            if o.get("tree"):
                extra += " note=tree"
            print("row %s %s %s%s %s" % (kind, key, setname, extra, " ".join(
                "%s=%d" % kv for kv in sorted(vals.items()))))
            met_fact(kind, key, setname, o.get("metrics"))
            if kind == "tick":
                for e, c in vals.items():
                    sums[(e, setname)] = sums.get((e, setname), 0) + c


    for (e, s), c in sorted(sums.items()):
        print("sum %s %s %d" % (e, s, c))


def bad_json(schema_path):
    """Broken objects the schema must refuse: it can fail."""
    v = validator(schema_path)
    good = {"tool": "cpustat", "kind": "tick", "time": 0.1, "cpu": 0,
            "set": "cpu-clock", "set_index": 0, "counts": {"cpu-clock": 5},
            "enabled_ns": 9, "running_ns": 9, "scaled": False}
    smpl_only = {k: x for k, x in good.items() if k not in ("set", "counts")}
    for g in (good, dict(good, samples={"cpu-clock": 4}),
              dict(smpl_only, samples={"cpu-clock": 4}),
              dict(good, cgroup="/system.slice"),
              dict(good, metrics={"twice": 10, "r": 0.5, "z": None})):
        if list(v.iter_errors(g)):
            die("the schema refuses a good object %r" % g)
    broken = [
        dict(good, counts={"cpu-clock": "5"}),
        dict(good, counts={"cpu-clock": -1}),
        dict(good, scaled=0),
        dict(good, pid=12),
        {k: x for k, x in good.items() if k != "enabled_ns"},
        {k: x for k, x in good.items() if k != "cpu"},
        dict(good, tool="cputrack"),
        {"tool": "cputrack", "kind": "fork", "time": 0, "pid": 3, "lwp": 3},
        dict(good, extra=1),
        dict(good, samples={}),
        dict(good, samples={"cpu-clock": -1}),
        {k: x for k, x in good.items() if k != "set"},
        dict({k: x for k, x in good.items() if k != "counts"},
             samples={"cpu-clock": 5}),
        dict(good, cgroup="system.slice"),
        dict(good, cgroup=3),
        {"tool": "cputrack", "kind": "tick", "time": 0, "pid": 3, "lwp": 3,
         "set": "cpu-clock", "set_index": 0, "counts": {"cpu-clock": 5},
         "enabled_ns": 9, "running_ns": 9, "scaled": False, "cgroup": "/"},
        dict(good, metrics={}),
        dict(good, metrics={"twice": "10"}),
        {"tool": "cputrack", "kind": "fork", "time": 0, "pid": 3, "lwp": 3,
         "child": 4, "metrics": {"twice": 1}},
    ]
    for b in broken:
        if not list(v.iter_errors(b)):
            die("the schema accepts %r" % b)
    print("refused %d" % len(broken))


def expo(path, strict):
    if strict:
        from prometheus_client.openmetrics import parser
    else:
        from prometheus_client import parser
    try:
        with open(path, encoding="utf-8", errors="strict") as fp:
            text = fp.read()
    except UnicodeDecodeError as e:
        die("not UTF-8: %s" % e)
    try:
        fams = list(parser.text_string_to_metric_families(text))
    except ValueError as e:
        die("not %s: %s" % ("OpenMetrics" if strict else "text 0.0.4", e))
    for f in fams:
        if not f.documentation:
            die("no HELP for %s" % f.name)
        print("family %s %s%s" % (f.name, f.type,
                                  " " + f.unit if f.unit else ""))
        for s in f.samples:
            labels = " ".join("%s=%s" % (k, json.dumps(v))
                              for k, v in sorted(s.labels.items()))
            v = s.value
            v = "%d" % v if float(v).is_integer() else repr(v)
            print("sample %s %s %s" % (s.name, labels, v))


def svg(path):
    import re
    import xml.etree.ElementTree as ET
    ns = "{http://www.w3.org/2000/svg}"
    root = ET.parse(path).getroot()
    # Every group gnuplot_plot_<n><panel letter> is a series: its first
    # text is its key title; its point marks are <use>, one per point and
    # one in the key.
    for g in root.iter(ns + "g"):
        m = re.fullmatch(r"gnuplot_plot_(\d+)([a-z]+)", g.get("id") or "")
        if not m:
            continue
        texts = [t.text for t in g.iter(ns + "text") if t.text]
        uses = len(list(g.iter(ns + "use")))
        print("series %s %d %s" % (m.group(2), uses - 1,
                                   texts[0] if texts else "?"))
    for t in root.iter(ns + "text"):
        if t.text and t.text.strip():
            print("text " + t.text.strip())


def main(a):
    if a[:1] == ["csv"] and len(a) == 2:
        facts_csv(a[1])
    elif a[:1] == ["json"] and len(a) == 3:
        facts_json(a[1], a[2])
    elif a[:1] == ["badjson"] and len(a) == 2:
        bad_json(a[1])
    elif a[:1] == ["om"] and len(a) == 2:
        expo(a[1], True)
    elif a[:1] == ["prom"] and len(a) == 2:
        expo(a[1], False)
    elif a[:1] == ["svg"] and len(a) == 2:
        svg(a[1])
    else:
        die("usage: see the top of " + sys.argv[0])


if __name__ == "__main__":
    main(sys.argv[1:])
