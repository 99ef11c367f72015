# SPDX-License-Identifier: BSD-2-Clause
"""cpcflame - the flame graph of cpcplot --flame: folded stacks to one SVG.

The input is folded stacks, one line per distinct call chain: the frames
from the outermost to the innermost joined by ';', a space and the number
of samples.  cputrack and cpustat -g --folded write each frame as
object`function (the program, a library, [kernel.kallsyms] or a kernel
[module]); a frame without a '`' has no object.

The picture: a frame per function in each chain, merged with the same
function called from the same chain, as wide as its samples.  Frames are
laid out in the image's own unit, samples: every <rect> of the frames
has as x the samples before it in its parent's row and as width its own
samples, exact integers; one transform on their group scales samples to
pixels.  Frames narrower than a minimum width in pixels are not drawn,
nor is anything above them: what is drawn keeps its exact position and
width, so the blank along a frame's top edge is the time of callees too
narrow to draw.  The page's script (cpcflame.js, inlined) zooms by
changing that one transform.
"""

import os
import re

ROOT = "all"
PAD = 10            # pixels left and right of the frames
ROW = 16            # pixels per row of frames
HEAD = 52           # pixels above the frames: the title and the controls
CHAR = 6.7          # pixels per character of the labels (11px monospace)
LEGEND_COL = 290    # pixels per column of the legend
HIT = "#e33be3"     # the fill of the frames a search matched
KERNEL = "#ef7d3c"
NO_OBJECT = "#e5b85a"
PALETTE = ("#5b9fd8", "#6cbf6a", "#d9c341", "#4dbdb1", "#e07b91",
           "#9fb54a", "#8fb3e0", "#cf9f6b", "#63a99d", "#a8d26e",
           "#d6a0a0", "#7fc8e0")
# The pseudo-files of a process's own mappings: user space, not kernel.
USER_PSEUDO = ("[vdso]", "[vsyscall]", "[vvar]", "[heap]", "[stack]",
               "[anon]", "[unknown]")
SCRIPT = "cpcflame.js"


class FoldedError(Exception):
    """What is wrong with the input, to report with the file's name."""


# A line: the stack, a space, the count.  The stack takes all up to the
# last space: other tools' function names may have spaces.
LINE = re.compile(rb"(?m)^(.*) ([0-9]+)\r?$")


def read_folded(data, name):
    """{stack: samples} from folded stacks (bytes, UTF-8), duplicates
    added up.  The stacks stay bytes, with their ';' made NULs (see
    layout), and only the names drawn are decoded: with a hundred
    thousand long stacks, each copy of the input costs."""
    if b"\0" in data:
        raise FoldedError("'%s': a NUL byte: not folded stacks" % name)
    data = data.replace(b";", b"\0")
    counts, end = {}, 0
    for m in LINE.finditer(data):
        if data[end:m.start()].strip():
            bad_line(data, end, name)
        end = m.end()
        stack, n = m.group(1), int(m.group(2))
        if stack in counts:
            counts[stack] += n
        elif n > 0 and stack:
            counts[stack] = n
        elif not stack:
            bad_line(data, m.start(), name)
    if data[end:].strip():
        bad_line(data, end, name)
    if not counts:
        raise FoldedError("'%s': no samples" % name)
    return counts


def bad_line(data, pos, name):
    """Report the first line at or after pos that is not blank."""
    while data[pos:pos + 1].isspace():
        pos += 1
    line = data[pos:].split(b"\n", 1)[0].replace(b"\0", b";")
    raise FoldedError("'%s' line %d: not folded stacks (frames joined by "
                      "';', a space and a count): %.60s" %
                      (name, data.count(b"\n", 0, pos) + 1,
                       line.decode("utf-8", errors="replace").rstrip()))


def split_frame(text):
    """(object, function) of a frame; the object is "" when not given."""
    obj, tick, fn = text.partition("`")
    return (obj, fn) if tick else ("", text)


def is_kernel(obj):
    """Is this object the kernel or a kernel module?"""
    return obj.startswith("[") and obj.endswith("]") and \
        obj not in USER_PSEUDO


def layout(counts, scale, min_px):
    """The frames to draw, [(depth, x, samples, text)], sorted, and how
    many frames were too narrow.  Depth 0 is the root (text None); x and
    samples are in samples.  The stacks are walked in their sorted
    order: their frames are separated by NULs, which sort before every
    other character, so a frame's callees follow the stacks that end in
    it, siblings come in the order of their names, and the stacks that
    share a chain of frames are next to each other.  Each frame is then
    one run of lines: it opens at the first line whose chain has it and
    closes at the first that has not.  The frames open are those of the
    last line; starts[d] is where the one at depth d + 1 began."""
    least = min_px / scale
    drawn, prev, starts = [], [], []
    pos = narrow = 0
    for stack in sorted(counts):
        frames = stack.split(b"\0")
        k = shared(frames, prev)
        narrow += close(drawn, prev, starts, k, pos, least)
        starts.extend([pos] * (len(frames) - k))
        pos += counts[stack]
        prev = frames
    narrow += close(drawn, prev, starts, 0, pos, least)
    drawn = [(d, x, w, t.decode("utf-8", errors="replace"))
             for d, x, w, t in drawn]
    drawn.append((0, 0, pos, None))
    drawn.sort(key=lambda f: f[:3])
    return drawn, narrow


def shared(a, b):
    """How many frames a and b share from the root (a binary search on
    list slices: the comparing is done in C)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def close(drawn, names, starts, k, pos, least):
    """Close the open frames from depth k + 1 out, at pos: append those
    at least `least` samples wide to drawn; return how many were not.
    A frame is no wider than the one it is called from (it began no
    earlier and ends with it), so the first too narrow ends the run."""
    d = k
    while d < len(starts) and pos - starts[d] >= least:
        drawn.append((d + 1, starts[d], pos - starts[d], names[d]))
        d += 1
    narrow = len(starts) - d
    del starts[k:]
    return narrow


def objects(counts, drawn):
    """{object: (samples at the top of the stack, css class, fill)} for
    the objects of the frames drawn: the kernel's objects orange, frames
    without an object yellow, each other object a colour of its own,
    the busiest first."""
    self_n = {}
    for _, _, _, text in drawn:
        if text is not None:
            self_n[split_frame(text)[0]] = 0
    leaves = {}
    for stack, n in counts.items():
        obj = stack[stack.rfind(b"\0") + 1:].partition(b"`")
        obj = obj[0] if obj[1] else b""
        leaves[obj] = leaves.get(obj, 0) + n
    for obj, n in leaves.items():
        obj = obj.decode("utf-8", errors="replace")
        if obj in self_n:
            self_n[obj] += n
    order = sorted(self_n, key=lambda o: (-self_n[o], o))
    out, i = {}, 0
    for k, obj in enumerate(order):
        if obj == "":
            fill = NO_OBJECT
        elif is_kernel(obj):
            fill = KERNEL
        else:
            fill = PALETTE[i % len(PALETTE)]
            i += 1
        out[obj] = (self_n[obj], "o%d" % k, fill)
    return out


def esc(s):
    """s as XML character data or an attribute value."""
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(
        ">", "&gt;").replace('"', "&quot;")


def fit(name, px):
    """The label for a frame px pixels wide: name, cut short with '..'
    when longer than fits, or "" when fewer than 3 characters fit."""
    n = int((px - 4) / CHAR)
    if n < 3:
        return ""
    return name if len(name) <= n else name[:n - 2] + ".."


def percent(n, total):
    return "%.2f%%" % (100.0 * n / total)


class Geometry:
    """Where the rows and the frames go, in pixels."""

    def __init__(self, width, total, maxd, icicle):
        self.width = width
        self.span = width - 2 * PAD
        self.scale = self.span / total
        self.maxd = maxd
        self.icicle = icicle

    def y(self, depth):
        """The top of a frame at depth (0: the root)."""
        row = depth if self.icicle else self.maxd - depth
        return HEAD + row * ROW

    def rows_height(self):
        return (self.maxd + 1) * ROW


def frame_svg(g, frame, objs, total, out, labels):
    """Append a frame's <rect> (with its <title>) and its label."""
    depth, x, n, text = frame
    if text is None:
        obj, fn, tip = "", ROOT, ROOT
    else:
        obj, fn = split_frame(text)
        tip = "%s\n%s" % (fn, obj) if obj else fn
    # A shade per function, so that neighbours of one object differ.
    cls = "%s s%d" % (objs[obj][1], sum(fn.encode()) % 3) if text else "root"
    out.append('<rect class="%s" x="%d" y="%d" width="%d" height="%d">'
               '<title>%s\n%d samples, %s</title></rect>\n' %
               (cls, x, g.y(depth), n, ROW - 1, esc(tip), n,
                percent(n, total)))
    label = fit(fn, n * g.scale)
    if label:
        labels.append('<text x="%.1f" y="%d">%s</text>\n' %
                      (PAD + x * g.scale + 2, g.y(depth) + ROW - 4,
                       esc(label)))


def style(objs):
    """The page's CSS: a fill per object, the shades, the search hits."""
    css = ["text{font:11px 'DejaVu Sans Mono',monospace;fill:#000}",
           "#labels text{pointer-events:none}",
           "rect{stroke:#fff;stroke-width:.5;"
           "vector-effect:non-scaling-stroke}",
           "#frames rect:hover{stroke:#000;stroke-width:1}",
           ".s1{fill-opacity:.84}.s2{fill-opacity:.7}",
           ".root{fill:#c8c8c8}.anc{opacity:.5}",
           ".btn{cursor:pointer;fill:#1f4e99}.btn:hover{fill:#c00}",
           ".off{visibility:hidden}"]
    css.extend(".%s{fill:%s}" % (c, fill) for _, c, fill in objs.values())
    css.append(".hit{fill:%s;fill-opacity:1}" % HIT)
    return "\n".join(css)


def legend(objs, total, y, width):
    """The objects, their colours and their share of the samples (at the
    top of the stack); the legend's height."""
    out = []
    per = max(1, (width - 2 * PAD) // LEGEND_COL)
    for i, (obj, (n, cls, _)) in enumerate(objs.items()):
        x = PAD + (i % per) * LEGEND_COL
        top = y + (i // per) * ROW
        name = obj or "(no object)"
        if obj and is_kernel(obj):
            name += " (kernel)"
        out.append('<rect class="%s" x="%d" y="%d" width="12" height="12"/>'
                   '<text x="%d" y="%d">%s %s</text>\n' %
                   (cls, x, top, x + 16, top + 10,
                    esc(fit(name, LEGEND_COL - 80) or name[:3]),
                    percent(n, total)))
    return out, ((len(objs) + per - 1) // per) * ROW


def page_script(g, total, icicle):
    """The script: its settings, then cpcflame.js beside this file."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, SCRIPT), encoding="utf-8") as fp:
        body = fp.read()
    conf = ("var FLAME = {pad: %d, top: %d, row: %d, maxd: %d, span: %d, "
            "total: %d, chr: %s, icicle: %s};\n" %
            (PAD, HEAD, ROW, g.maxd, g.span, total, CHAR,
             "true" if icicle else "false"))
    return "<script><![CDATA[\n" + conf + body + "]]></script>\n"


def render(counts, width=1200, min_px=0.1, icicle=False, title=None):
    """The SVG, as one string."""
    total = sum(counts.values())
    drawn, narrow = layout(counts, (width - 2 * PAD) / total, min_px)
    g = Geometry(width, total, max(f[0] for f in drawn), icicle)
    objs = objects(counts, drawn)
    rects, labels = [], []
    for f in drawn:
        frame_svg(g, f, objs, total, rects, labels)
    foot = HEAD + g.rows_height() + 8
    keys, keys_h = legend(objs, total, foot + 24, width)
    height = foot + 24 + keys_h + 4
    title = title or ("Icicle graph" if icicle else "Flame graph")
    note = "%d samples, %d stacks, %d frames drawn" % (
        total, len(counts), len(drawn))
    if narrow:
        note += ", %d left out (narrower than %g px)" % (narrow, min_px)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n'
           '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
           'width="%d" height="%d" viewBox="0 0 %d %d">\n' %
           (width, height, width, height),
           "<title>%s</title>\n" % esc(title),
           "<style>\n%s\n</style>\n" % style(objs),
           '<rect x="0" y="0" width="%d" height="%d" fill="#fff" '
           'stroke="none"/>\n' % (width, height),
           '<text id="title" x="%d" y="18" style="font-size:15px" '
           'text-anchor="middle">%s</text>\n' % (width // 2, esc(title)),
           '<text id="note" x="%d" y="36">%s</text>\n' % (PAD, esc(note)),
           controls(width),
           '<clipPath id="clip"><rect x="%d" y="%d" width="%d" height="%d"/>'
           '</clipPath>\n' % (PAD, HEAD, g.span, g.rows_height()),
           '<g clip-path="url(#clip)">\n'
           '<g id="frames" transform="translate(%d,0) scale(%r,1)">\n' %
           (PAD, g.scale)]
    out.extend(rects)
    out.append('</g>\n<g id="labels">\n')
    out.extend(labels)
    out.append('</g>\n</g>\n<text id="status" x="%d" y="%d"> </text>\n' %
               (PAD, foot + 8))
    out.append('<text id="matched" x="%d" y="%d" text-anchor="end"> </text>'
               '\n' % (width - PAD, foot + 8))
    out.extend(keys)
    out.append(page_script(g, total, icicle))
    out.append("</svg>\n")
    return "".join(out)


def controls(width):
    """The page's buttons, at the top right: the script shows Reset
    zoom while zoomed and Clear while a search is shown."""
    right = width - PAD
    return ('<text id="search" class="btn" x="%d" y="36" '
            'text-anchor="end">Search</text>\n'
            '<text id="clear" class="btn off" x="%d" y="36" '
            'text-anchor="end">Clear</text>\n'
            '<text id="invert" class="btn" x="%d" y="36" '
            'text-anchor="end">Invert</text>\n'
            '<text id="unzoom" class="btn off" x="%d" y="36" '
            'text-anchor="end">Reset zoom</text>\n' %
            (right, right - 60, right - 114, right - 172))
