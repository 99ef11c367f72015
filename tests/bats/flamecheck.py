#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""flamecheck.py - check cpcplot --flame's SVG for flame.bats.

    flamecheck.py known FILE        write folded stacks of known counts
    flamecheck.py svg FOLDED SVG [MINPX]
                                    the picture against the stacks
    flamecheck.py dom FOLDED DOM ZOOM SEARCH [flipped]
                                    the page after its script zoomed to
                                    the widest frame ZOOM matches and
                                    searched SEARCH (chromium --dump-dom),
                                    and with flipped turned over
    flamecheck.py png FILE COLOUR   a screenshot: its size, how many
                                    colours, how many pixels of COLOUR

The stacks are read into a tree of their own here (a dict per frame,
not cpcflame's sorted walk), and every frame drawn is found again in it
by its place alone: its depth (from its row) and the frame below it
that spans it.  Then each must have: as width exactly its samples (the
<rect>s are in samples; the one transform scales them), as x its
parent's x plus the parent's own samples (those that end in it) plus
the samples of the siblings before it (in the order of object`function),
its function and object in its title with its samples and percentage,
the class (and so the colour) of its object.  Frames narrower than the
minimum width must be absent, all others present.  Prints facts for the
test to grep; any mismatch exits 1 with the reason.
"""

import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
KERNEL_FILL = "#ef7d3c"


def die(msg):
    print("flamecheck: " + msg, file=sys.stderr)
    sys.exit(1)


def known(path):
    """The input of known counts: a program, libc, the kernel and a
    frame with no object (with a space in its name); 3000 one-sample
    stacks that are too narrow to draw at the default width; a self
    time in main."""
    lines = [
        "libc.so.6`__libc_start_call_main;prog`main;prog`a;prog`c 3000",
        "libc.so.6`__libc_start_call_main;prog`main;prog`a 1000",
        "libc.so.6`__libc_start_call_main;prog`main;prog`a;"
        "libc.so.6`memcpy 2000",
        "libc.so.6`__libc_start_call_main;prog`main;prog`b 2500",
        "libc.so.6`__libc_start_call_main;prog`main;prog`b;"
        "[kernel.kallsyms]`entry_SYSCALL_64;[kernel.kallsyms]`do_syscall_64;"
        "[ext4]`ext4_file_read_iter 1500",
        "libc.so.6`__libc_start_call_main;prog`main 500",
        "noobj;leaf (x<&>) 200",
        # Sorts between a's own line and a's callees' when the lines
        # are sorted as they are: a must still be one frame.
        "libc.so.6`__libc_start_call_main;prog`main;prog`a+b 400",
    ]
    lines += ["libc.so.6`__libc_start_call_main;prog`main;prog`tiny%04d 1"
              % i for i in range(3000)]
    # The same stack twice: its counts add up.
    lines.append("libc.so.6`__libc_start_call_main;prog`main;prog`b 500")
    with open(path, "w") as fp:
        fp.write("\n".join(lines) + "\n")


def tree(path):
    """{path tuple: samples} of every frame, {path: own samples}."""
    incl, own = {(): 0}, {}
    for line in open(path, encoding="utf-8"):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        frames = tuple(stack.split(";"))
        incl[()] += int(n)
        for d in range(1, len(frames) + 1):
            incl[frames[:d]] = incl.get(frames[:d], 0) + int(n)
        own[frames] = own.get(frames, 0) + int(n)
    return incl, own


def settings(root):
    """The page's settings (var FLAME) as a dict of numbers."""
    text = root.find(NS + "script").text
    m = re.search(r"var FLAME = \{([^}]*)\}", text)
    if m is None:
        die("no FLAME settings in the script")
    out = {}
    for kv in m.group(1).split(","):
        k, v = kv.split(":")
        v = v.strip()
        out[k.strip()] = v == "true" if v in ("true", "false") else float(v)
    return out


def classes(root):
    """{css class: fill} from the page's style."""
    css = root.find(NS + "style").text
    return dict(re.findall(r"\.(o\d+)\{fill:(#[0-9a-f]{6})\}", css))


def rects(root, conf):
    """[(depth, x, width, title, classes)] of the frames drawn."""
    out = []
    frames = root.find(".//%sg[@id='frames']" % NS)
    for r in frames.iter(NS + "rect"):
        row = (float(r.get("y")) - conf["top"]) / conf["row"]
        d = row if conf["icicle"] else conf["maxd"] - row
        if d != int(d) or r.get("height") != "%d" % (conf["row"] - 1):
            die("a frame off the rows: y %s" % r.get("y"))
        out.append((int(d), int(r.get("x")), int(r.get("width")),
                    r.find(NS + "title").text, r.get("class").split()))
    return sorted(out)


def place(drawn):
    """Each frame's path, found from the geometry alone."""
    paths, below = {}, {}
    for d, x, w, title, _ in drawn:
        name = title.split("\n")
        text = name[0] if len(name) == 2 else name[1] + "`" + name[0]
        if d == 0:
            paths[(d, x)] = ()
            below[0] = [(x, w, ())]
            continue
        up = [p for px, pw, p in below.get(d - 1, [])
              if px <= x and x + w <= px + pw]
        if len(up) != 1:
            die("frame %s at depth %d, x %d: %d frames below span it" %
                (text, d, x, len(up)))
        paths[(d, x)] = up[0] + (text,)
        below.setdefault(d, []).append((x, w, up[0] + (text,)))
    return paths


def expect_x(incl, own, path):
    """Where path must begin: its parent's start, the parent's own
    samples, then the siblings before it in order of their text."""
    if path == ():
        return 0
    parent = path[:-1]
    x = expect_x(incl, own, parent) + own.get(parent, 0)
    for p in sorted(p for p in incl if len(p) == len(path) and
                    p[:-1] == parent):
        if p == path:
            return x
        x += incl[p]
    die("no place for %s" % (path,))


def check_svg(folded, svg, minpx=0.1):
    incl, own = tree(folded)
    total = incl[()]
    root = ET.parse(svg).getroot()
    conf = settings(root)
    width = float(root.get("width"))
    span = width - 2 * conf["pad"]
    scale = span / total
    g = root.find(".//%sg[@id='frames']" % NS)
    want = "translate(%d,0) scale(%r,1)" % (conf["pad"], scale)
    if g.get("transform") != want or conf["span"] != span:
        die("frames' transform %s, not %s" % (g.get("transform"), want))
    drawn = rects(root, conf)
    paths = place(drawn)
    fills = classes(root)
    seen_cls = {}
    for d, x, w, title, cls in drawn:
        path = paths[(d, x)]
        n = incl[path]
        if w != n or x != expect_x(incl, own, path):
            die("%s: x %d width %d, not x %d width %d" %
                (path, x, w, expect_x(incl, own, path), n))
        name = path[-1] if path else "all"
        obj, tick, fn = name.partition("`")
        if not tick:
            obj, fn = "", name
        tip = "%s\n%s\n" % (fn, obj) if obj else fn + "\n"
        tip += "%d samples, %.2f%%" % (n, 100.0 * n / total)
        if title != tip:
            die("title %r, not %r" % (title, tip))
        if path:
            seen_cls.setdefault(obj, set()).add(cls[0])
            if obj.startswith("[") and fills[cls[0]] != KERNEL_FILL:
                die("kernel frame %s not in the kernel's colour" % name)
    placed = set(paths.values())
    for p, n in incl.items():
        drawn_p = p in placed
        if drawn_p != (n * scale >= minpx):
            die("%s (%d samples, %.3f px) %s" % (
                p, n, n * scale, "drawn" if drawn_p else "not drawn"))
    by_obj = {o: c.pop() for o, c in seen_cls.items() if len(c) == 1}
    if len(by_obj) != len(seen_cls):
        die("an object with frames of two classes: %s" % seen_cls)
    user = [fills[c] for o, c in by_obj.items() if not o.startswith("[")]
    if len(set(user)) != len(user):
        die("two objects share a colour: %s" % by_obj)
    facts(root, conf, drawn, paths, {o: (c, fills[c])
                                     for o, c in by_obj.items()})


def facts(root, conf, drawn, paths, objs):
    """What the test greps: the frames (by their caller), the objects,
    the row on top, the note, the labels."""
    for d, x, w, *_ in drawn:
        p = paths[(d, x)]
        if p:
            print("frame %s > %s %d" % ((p[-2] if len(p) > 1 else "all"),
                                        p[-1], w))
    for o, (c, fill) in sorted(objs.items()):
        print("object %s %s %s" % (o or "-", c, fill))
    print("frames %d" % len(drawn))
    print("maxdepth %d" % max(d for d, *_ in drawn))
    rows = sorted((conf["top"] + (d if conf["icicle"] else conf["maxd"] - d)
                   * conf["row"], d) for d, *_ in drawn)
    print("top-row-depth %d" % rows[0][1])
    print("note %s" % root.find(".//%stext[@id='note']" % NS).text)
    for t in root.find(".//%sg[@id='labels']" % NS):
        print("label %s %s" % (t.get("x"), t.text))


def check_dom(folded, dom, zoom, search, flipped=None):
    """The page after ?z=ZOOM&s=SEARCH (and ?i=1 when flipped): zoomed,
    ancestors dimmed, labels remade on the frames' rows, the matching
    frames highlighted and their samples counted once; turned over,
    every frame on the other geometry's row."""
    incl, _ = tree(folded)
    total = incl[()]
    root = ET.parse(dom).getroot()
    conf = settings(root)
    if flipped == "flipped":
        conf["icicle"] = not conf["icicle"]
    drawn = rects(root, conf)
    paths = place(drawn)
    zrx, srx = re.compile(zoom), re.compile(search)
    cands = [(w, d, x) for d, x, w, *_ in drawn
             if d > 0 and zrx.search(paths[(d, x)][-1])]
    zw, zd, zx = max(cands, key=lambda c: (c[0], -c[1], -c[2]))
    s = conf["span"] / zw
    g = root.find(".//%sg[@id='frames']" % NS)
    want = "translate(%r,0) scale(%r,1)" % (conf["pad"] - zx * s, s)
    got = g.get("transform")
    m = re.fullmatch(r"translate\(([^,]+),0\) scale\(([^,]+),1\)", got)
    # JavaScript's and Python's shortest printing of a double may differ.
    if m is None or abs(float(m.group(1)) - (conf["pad"] - zx * s)) > 1e-6 \
            or abs(float(m.group(2)) - s) > 1e-9:
        die("zoomed transform %s, not %s" % (got, want))
    hits = []
    for d, x, w, _, cls in drawn:
        path = paths[(d, x)]
        anc = d < zd and x <= zx and x + w >= zx + zw
        if ("anc" in cls) != anc:
            die("%s: ancestor class %s, should be %s" % (path, cls, anc))
        hit = d > 0 and srx.search(path[-1]) is not None
        if ("hit" in cls) != hit:
            die("%s: hit class %s, should be %s" % (path, cls, hit))
        if hit:
            hits.append(path)
    # Samples under the matches, each once: drop a match under a match.
    top = [p for p in hits if not any(p[:k] in hits for k in range(len(p)))]
    n = sum(incl[p] for p in top)
    text = root.find(".//%stext[@id='matched']" % NS).text
    want = "Matched %s: %d samples, %.2f%%" % (search, n, 100.0 * n / total)
    if text != want:
        die("matched %r, not %r" % (text, want))
    if "off" in root.find(".//%stext[@id='unzoom']" % NS).get("class"):
        die("Reset zoom is hidden while zoomed")
    print("zoomed %s" % (paths[(zd, zx)][-1],))
    print("hits %d" % len(hits))
    print(text)
    rows = {conf["top"] + (d if conf["icicle"] else conf["maxd"] - d) *
            conf["row"] + conf["row"] - 4 for d, *_ in drawn}
    for t in root.find(".//%sg[@id='labels']" % NS):
        if float(t.get("y")) not in rows:
            die("label %s off the rows (y %s)" % (t.text, t.get("y")))
        print("label %s %s" % (t.get("x"), t.text))


def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced
    PNG, the filters undone (PNG 1.2, section 6)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        die("%s: not a PNG" % path)
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        die("%s: PNG kind %d/%d/%d not handled" % (path, depth, ctype,
                                                    interlace))
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], None
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(
            raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        prev = prev or bytearray(stride)
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def check_png(path, colour):
    w, h, bpp, rows = png_pixels(path)
    want = bytes.fromhex(colour.lstrip("#"))
    seen, n = set(), 0
    for r in rows:
        for i in range(0, len(r), bpp):
            px = r[i:i + 3]
            seen.add(px)
            n += px == want
    print("size %dx%d" % (w, h))
    print("colours %d" % len(seen))
    print("pixels %s %d" % (colour, n))


def main(argv):
    if len(argv) == 2 and argv[0] == "known":
        known(argv[1])
    elif len(argv) in (3, 4) and argv[0] == "svg":
        check_svg(argv[1], argv[2], float(argv[3]) if len(argv) > 3
                  else 0.1)
    elif len(argv) in (5, 6) and argv[0] == "dom":
        check_dom(*argv[1:])
    elif len(argv) == 3 and argv[0] == "png":
        check_png(argv[1], argv[2])
    else:
        die("usage: see the top of flamecheck.py")


if __name__ == "__main__":
    main(sys.argv[1:])
