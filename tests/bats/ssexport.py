#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""ssexport.py - what speedscope imported, from the page ssimport.js
left behind (Chromium's --dump-dom): speedscope's own export of the
profile, in its file format (an "evented" profile: frames opened and
closed at times).

    ssexport.py DOM

Prints "name NAME" for each profile (speedscope names one per thread),
"frame NAME FILE" for each frame, "stack root;...;leaf" each time the
stack changes (a run of samples with the same stack is one), and
"span SECONDS" (the profile's length).  Exits 1 with the page's error,
or when it holds no export.
"""
import html
import json
import re
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: ssexport.py DOM')
    with open(sys.argv[1], encoding='utf-8') as f:
        dom = f.read()
    m = re.search(r'<pre id="error">(.*?)</pre>', dom, re.S)
    if m:
        sys.exit('ssexport.py: the page says: ' + html.unescape(m.group(1)))
    m = re.search(r'<pre id="export">(.*?)</pre>', dom, re.S)
    if not m:
        sys.exit('ssexport.py: no export in the page (speedscope did not '
                 'load the file?)')
    data = json.loads(html.unescape(m.group(1)))
    frames = data['shared']['frames']
    for fr in frames:
        print('frame %s %s' % (fr['name'], fr.get('file', '-')))
    for prof in data['profiles']:
        print('name %s' % prof['name'])
        if prof['type'] != 'evented':
            sys.exit('ssexport.py: a %s profile' % prof['type'])
        stack, last, ev = [], None, prof['events']
        for i, e in enumerate(ev):
            if e['type'] == 'O':
                stack.append(e['frame'])
            elif stack and stack[-1] == e['frame']:
                stack.pop()
            else:
                sys.exit('ssexport.py: frame %d closed out of order'
                         % e['frame'])
            if i + 1 < len(ev) and ev[i + 1]['at'] == e['at']:
                continue
            if stack and stack != last:
                print('stack ' + ';'.join(frames[k]['name'] for k in stack))
                last = list(stack)
        print('span %.9f' % (prof['endValue'] - prof['startValue']))


main()
