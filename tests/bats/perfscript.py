#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""perfscript.py - read `perf script` text as the profilers that import it
do, and say what they would see.

    perfscript.py [--ours] FILE

Each sample is read twice, by the grammar of each importer (their own
regular expressions, the same rules):

  Firefox Profiler (src/profile-logic/import/linux-perf.js): the file is
  taken for perf script text when it begins with "# ========" or its
  first line is a sample's; a sample's first line is
  "NAME [PID/]TID [[CPU]] TIME:" and anything after (NAME may hold
  spaces, trimmed), its frames the lines up to an empty one, each
  "ADDRESS FUNCTION (OBJECT)" (a trailing +0xOFFSET of FUNCTION dropped);
  a sample with no frame is dropped.

  speedscope (src/import/linux-tools-perf.ts): blocks cut at empty
  lines, "#" lines dropped; the first line must match
  "^(\\S.+?)\\s+(\\d+)(?:\\/?(\\d+))?\\s+" (command, then pid/tid or tid),
  hold the time as "\\s+(\\d+\\.\\d+):\\s+" (a sample without is dropped)
  and end with "EVENT:"; frames as Firefox's; only the first sample's
  event is imported.

Both must read every sample alike (the same thread, time, frames), no
sample may be dropped, and no line may be left unread.  With --ours the
lines must also have exactly the shape cputrack and cpustat write
(perfout.h): "COMM PID/TID [CPU] SECS.NNNNNNNNN: [PERIOD ]EVENT:", frames
"\\tADDRESS SYMBOL[+0xOFF] (OBJECT)", one empty line after each sample.

Prints one line per distinct (pid, tid, event, stack), sorted:
"PID TID EVENT root;...;leaf COUNT" (PID "-" where the text has none,
spaces in names made "_"), then "samples N".  Exits 1 with the reason
on the first line that breaks a rule.
"""
import re
import sys

FF_DETECT = re.compile(r'^\S.*?\s+(?:\d+\/)?\d+\s+(?:\[\d+\]\s+)?[\d.]+:')
FF_START = re.compile(r'^(.*)\s+([\d.]+):')
FF_THREAD = re.compile(r'^(.*)\s+(?:(\d+)\/)?(\d+)\b')
SS_START = re.compile(r'^(\S.+?)\s+(\d+)(?:\/?(\d+))?\s+')
SS_TIME = re.compile(r'\s+(\d+\.\d+):\s+')
SS_EVENT = re.compile(r'(\S+):\s*$')
FRAME = re.compile(r'^\s*(\w+)\s*(.+) \((\S*)\)')
OFFSET = re.compile(r'\+0x[\da-f]+$')
OUR_START = re.compile(r'^(\S.*?) +(\d+)/(\d+) \[(\d+)\] (\d+\.\d{9}): '
                       r'(?:(\d+) )?(\S+):$')
OUR_FRAME = re.compile(r'^\t *([0-9a-f]+) (\S.*?)(\+0x[0-9a-f]+)? '
                       r'\((\S+)\)$')


def die(lineno, why, line):
    sys.exit('perfscript.py: line %d: %s: %r' % (lineno, why, line))


def firefox_head(n, line):
    m = FF_START.match(line)
    if not m:
        die(n, 'Firefox Profiler finds no time', line)
    t = FF_THREAD.match(m.group(1))
    if not t:
        die(n, 'Firefox Profiler finds no thread', line)
    return (t.group(1).strip(), t.group(2) or '-', t.group(3),
            float(m.group(2)))


def speedscope_head(n, line):
    m = SS_START.match(line)
    if not m:
        die(n, 'speedscope cannot read the first line', line)
    pid, tid = (m.group(2), m.group(3)) if m.group(3) else ('-', m.group(2))
    t = SS_TIME.search(line)
    if not t:
        die(n, 'speedscope finds no time (the sample is dropped)', line)
    e = SS_EVENT.search(line)
    if not e:
        die(n, 'speedscope finds no event', line)
    return m.group(1), pid, tid, float(t.group(1)), e.group(1)


def frame(n, line, ours):
    m = FRAME.match(line)
    if not m:
        die(n, 'not a frame line to either importer', line)
    if ours and not OUR_FRAME.match(line):
        die(n, 'a frame line out of shape', line)
    return OFFSET.sub('', m.group(2))


def head(n, line, ours):
    ff = firefox_head(n, line)
    ss = speedscope_head(n, line)
    if ff[1:] != ss[1:4]:
        die(n, 'the importers read the thread or time apart', line)
    if ours:
        m = OUR_START.match(line)
        if not m:
            die(n, 'a first line out of shape', line)
        if (m.group(2), m.group(3), m.group(7)) != (ss[1], ss[2], ss[4]):
            die(n, 'the importers misread the line', line)
    return ss[1], ss[2], ss[4]


def parse(text, ours):
    lines = text.split('\n')
    if text and not (text.startswith('# ========\n') or
                     FF_DETECT.match(lines[0])):
        die(1, 'Firefox Profiler would not take this for perf script',
            lines[0])
    if text and not text.endswith('\n\n'):
        die(len(lines), 'the last sample has no empty line after it', '')
    stacks, n, i = {}, 0, 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line == '' or (line.startswith('#') and not ours):
            continue
        pid, tid, event = head(i, line, ours)
        frames = []
        while i < len(lines) and lines[i].strip() != '':
            i += 1
            frames.append(frame(i, lines[i - 1], ours))
        if ours and i < len(lines) and lines[i] != '':
            die(i + 1, 'an empty line that is not empty', lines[i])
        if not frames:
            die(i, 'a sample with no frame (Firefox drops it)', line)
        key = (pid, tid, event,
               ';'.join(f.replace(' ', '_') for f in reversed(frames)))
        stacks[key] = stacks.get(key, 0) + 1
        n += 1
    return stacks, n


def main():
    args = sys.argv[1:]
    ours = args[:1] == ['--ours']
    if ours:
        args = args[1:]
    if len(args) != 1:
        sys.exit('usage: perfscript.py [--ours] FILE')
    with open(args[0], encoding='utf-8', errors='strict') as f:
        stacks, n = parse(f.read(), ours)
    for key in sorted(stacks):
        print('%s %s %s %s %d' % (key + (stacks[key],)))
    print('samples %d' % n)


main()
