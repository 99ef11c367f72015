#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# flame.bats - cpcplot --flame: the SVG parsed against folded stacks of
# known counts (flamecheck.py: every frame exactly as wide as its samples,
# where its samples put it, titled and coloured by its object), the
# icicle geometry and the options; the page in headless Chromium (a
# screenshot in which a search paints exactly the matched frames, the DOM
# after the script zoomed, searched and turned the picture over as the
# page's address asked, and the page used with real mouse and key events
# through the DevTools protocol, flameclick.py); and the whole way from cputrack -g --folded on a workload whose calls are
# known.  Every run has a time limit.

setup() {
	load helper
	D=$BATS_TEST_TMPDIR
	PY=/usr/bin/python3
	CHECK=$TESTS_DIR/bats/flamecheck.py
	CPCPLOT=${CPCPLOT:-$TESTS_DIR/../cpcplot/cpcplot}
	T=60	# seconds any one run of cpcplot may take
	[ -x "$PY" ] || skip "needs $PY (apt-get install python3)"
	"$PY" "$CHECK" known "$D/k.folded"
}

teardown() {
	machine_unlock
}

# fl ARGS...: cpcplot with a time limit, stderr apart.
fl() {
	run --separate-stderr timeout $T "$CPCPLOT" "$@"
}

# check SVG [MINPX]: flamecheck's facts of SVG (against k.folded).
check() {
	run --separate-stderr "$PY" "$CHECK" svg "$D/k.folded" "$@"
	expect_status 0 || fail_with "$stderr"
}

# chrome ARGS...: headless Chromium, killed after 120 s; skipped where
# Debian's chromium is not installed.
chrome() {
	command -v chromium >/dev/null ||
	    skip "needs chromium (install-deps; Debian's chromium package)"
	run --separate-stderr timeout -s KILL 120 chromium --headless \
	    --no-sandbox --disable-gpu --user-data-dir="$D/chrome" \
	    --window-size=1200,400 "$@"
}

@test "cpcplot --flame: frames exactly as wide as their samples, titled and coloured by object" {
	fl --flame "$D/k.folded"
	expect_status 0
	expect_eq "$output$stderr" "" "cpcplot's output"
	check "$D/k.svg"
	# flamecheck found every frame where its samples put it; now what
	# it saw: the objects, each its class, the kernel's two orange
	grep -qx 'object prog o0 #5b9fd8' <<<"$output" ||
	    fail_with "prog, the busiest, not first in blue: $output"
	grep -qx 'object \[kernel.kallsyms\] o[0-9] #ef7d3c' <<<"$output" &&
	    grep -qx 'object \[ext4\] o[0-9] #ef7d3c' <<<"$output" ||
	    fail_with "kernel frames not orange"
	grep -qx 'object - o[0-9] #e5b85a' <<<"$output" ||
	    fail_with "a frame with no object not in its own colour"
	expect_eq "$(grep -c '^object ' <<<"$output")" 5 "objects"
	grep -qx 'frame prog`main > prog`b 4500' <<<"$output" ||
	    fail_with "no b above main, 4500 samples wide"
	grep -qx 'frame prog`main > prog`a 6000' <<<"$output" ||
	    fail_with "a is not one frame 6000 samples wide"
	grep -qx 'frame \[kernel.kallsyms\]`do_syscall_64 > \[ext4\]`ext4_file_read_iter 1500' \
	    <<<"$output" || fail_with "no ext4 frame above the syscall"
	# 12 frames and the root, the 3000 one-sample ones too narrow
	expect_eq "$(grep -c '^frame ' <<<"$output")" 12 "frames drawn"
	grep -qx 'note 14600 samples, 3008 stacks, 13 frames drawn, 3000 left out (narrower than 0.1 px)' \
	    <<<"$output" || fail_with "the note: $(grep '^note' <<<"$output")"
	# flame: the deepest row on top; labels cut to their frames
	grep -qx 'top-row-depth 6' <<<"$output" || fail_with "not a flame"
	grep -qx 'label 12.0 all' <<<"$output" || fail_with "no root label"
	grep -qx 'label 812.1 ext4_file_read_..' <<<"$output" ||
	    fail_with "the long name not cut to its frame"
}

@test "cpcplot --flame: --icicle, --min-width, --width, standard input" {
	fl --flame --icicle "$D/k.folded" -o "$D/i.svg"
	expect_status 0
	check "$D/i.svg"
	grep -qx 'top-row-depth 0' <<<"$output" || fail_with "not an icicle"
	# every frame drawn: all 3013, each checked
	fl --flame --min-width 0 "$D/k.folded" -o "$D/all.svg"
	expect_status 0
	check "$D/all.svg" 0
	expect_eq "$(grep -c '^frame ' <<<"$output")" 3012 "frames drawn"
	fl --flame --width 3000 --min-width 1 --title 'a <title>' \
	    "$D/k.folded" -o "$D/w.svg"
	expect_status 0
	check "$D/w.svg" 1
	grep -q '<text id="title"[^>]*>a &lt;title&gt;</text>' "$D/w.svg" ||
	    fail_with "no title"
	# standard input: cpcplot.svg, the same picture
	(cd "$D" && timeout $T "$CPCPLOT" --flame <k.folded) ||
	    fail_with "standard input failed"
	cmp -s "$D/cpcplot.svg" "$D/k.svg" 2>/dev/null ||
	    { fl --flame "$D/k.folded"; cmp "$D/cpcplot.svg" "$D/k.svg"; } ||
	    fail_with "standard input drew another picture"
}

@test "cpcplot --flame: clear errors" {
	printf 'a;b 3\nnot folded\n' >"$D/bad.folded"
	fl --flame "$D/bad.folded"
	expect_status 1
	expect_eq "$stderr" "cpcplot: '$D/bad.folded' line 2: not folded stacks (frames joined by ';', a space and a count): not folded" \
	    "a line out of shape"
	[ ! -e "$D/bad.svg" ] || fail_with "an SVG was written"
	printf 'a;b 0\n\n' >"$D/zero.folded"
	fl --flame "$D/zero.folded"
	expect_status 1
	expect_eq "$stderr" "cpcplot: '$D/zero.folded': no samples" "no samples"
	fl --flame "$D/none.folded"
	expect_status 1
	expect_eq "$stderr" "cpcplot: '$D/none.folded': No such file or directory" \
	    "a missing file"
	fl --flame "$D/k.folded" -o "$D/no/such/dir.svg"
	expect_status 1
	expect_eq "$stderr" "cpcplot: '$D/no/such/dir.svg': No such file or directory" \
	    "an output that cannot be written"
	fl --icicle "$D/k.folded"
	expect_status 2
	expect_eq "${stderr_lines[-1]}" "cpcplot: error: --icicle and --min-width go with --flame" \
	    "--icicle alone"
	fl --flame --term "$D/k.folded"
	expect_status 2
	fl --flame --width 100 "$D/k.folded"
	expect_status 2
	expect_eq "${stderr_lines[-1]}" "cpcplot: error: --width 100: must be from 200 to 100000 pixels" \
	    "--width too small"
}

@test "cpcplot --flame in Chromium: it renders, and a search paints exactly the matched frames" {
	local want n
	fl --flame "$D/k.folded"
	expect_status 0
	chrome --screenshot="$D/plain.png" "file://$D/k.svg"
	[ -s "$D/plain.png" ] || fail_with "no screenshot: $stderr"
	run "$PY" "$CHECK" png "$D/plain.png" "#e33be3"
	expect_status 0
	grep -qx 'size 1200x400' <<<"$output" || fail_with "$output"
	n=$(sed -n 's/^colours //p' <<<"$output")
	expect_range "$n" 20 100000 "colours in the picture"
	grep -qx 'pixels #e33be3 0' <<<"$output" ||
	    fail_with "search colour with no search: $output"
	# ?s= searches as the Search button does: b, 4500 of 14600 samples
	# at 1180 px, 15 px high, is painted (less its edges' stroke)
	chrome --screenshot="$D/hit.png" "file://$D/k.svg?s=prog%60b%24"
	run "$PY" "$CHECK" png "$D/hit.png" "#e33be3"
	want=$((4500 * 1180 / 14600 * 15))
	n=$(sed -n 's/^pixels #e33be3 //p' <<<"$output")
	expect_range "$n" $((want * 8 / 10)) "$want" "search-coloured pixels"
}

@test "cpcplot --flame in Chromium: click to zoom, search, reset and invert work (DOM)" {
	local dom=$D/dom.svg
	fl --flame "$D/k.folded"
	expect_status 0
	# ?z= clicks the widest frame matching, ?s= searches: a, with c
	# nested in it (counted once), and the ext4 frame under b
	chrome --dump-dom \
	    "file://$D/k.svg?z=prog%60a%24&s=%60(a%7Cc%7Cext4_file_read_iter)%24"
	expect_status 0
	printf '%s\n' "$output" >"$dom"
	run --separate-stderr "$PY" "$CHECK" dom "$D/k.folded" "$dom" \
	    'prog`a$' '`(a|c|ext4_file_read_iter)$'
	expect_status 0 || fail_with "$stderr"
	grep -qx 'Matched `(a|c|ext4_file_read_iter)$: 7500 samples, 51.37%' \
	    <<<"$output" || fail_with "matched: $output"
	expect_eq "$(grep -c '^label 12.0 ' <<<"$output")" 4 \
	    "labels at the left edge (a and its three ancestors)"
	grep -qx 'label 12.0 a' <<<"$output" || fail_with "a not full width"
	grep -qx 'label 12.0 memcpy' <<<"$output" && fail_with "memcpy at x 0"
	grep -q '^label [0-9.]* memcpy$' <<<"$output" ||
	    fail_with "memcpy's label not remade in the zoom"
	# turned over (?i=1) and zoomed back out by a click on the root
	chrome --dump-dom "file://$D/k.svg?i=1&z=prog%60a%24&s=xyz"
	printf '%s\n' "$output" >"$dom"
	run --separate-stderr "$PY" "$CHECK" dom "$D/k.folded" "$dom" \
	    'prog`a$' 'xyz' flipped
	expect_status 0 || fail_with "$stderr"
	grep -qx 'Matched xyz: 0 samples, 0.00%' <<<"$output" ||
	    fail_with "$output"
	# zoomed, then a click on the root: all as it was, labels too
	chrome --dump-dom "file://$D/k.svg?z=prog%60a%24&z=%5Eall%24"
	printf '%s\n' "$output" >"$dom"
	grep -q '<g id="frames" transform="translate(10,0) scale(0.08082191780821918,1)">' \
	    "$dom" || fail_with "the root's click did not reset the zoom"
	grep -q '<text id="unzoom" class="btn off"' "$dom" ||
	    fail_with "Reset zoom shown while not zoomed"
	grep -q 'class="[^"]*anc' "$dom" && fail_with "frames still dimmed"
	expect_eq "$(grep -o '<g id="labels">.*' "$dom" | grep -o '<text[^<]*<')" \
	    "$(tr -d '\n' <"$D/k.svg" | grep -o '<g id="labels">.*' |
		sed 's|</g>.*||' | grep -o '<text[^<]*<')" \
	    "the labels remade as cpcplot wrote them"
}

@test "cpcplot --flame in Chromium: pointed at, clicked, searched, inverted and zoomed out with the mouse and keys" {
	command -v chromium >/dev/null ||
	    skip "needs chromium (install-deps; Debian's chromium package)"
	fl --flame "$D/k.folded"
	expect_status 0
	# real input events at screen places, through the DevTools protocol
	run --separate-stderr timeout -s KILL 180 "$PY" \
	    "$TESTS_DIR/bats/flameclick.py" "$D/k.svg" a \
	    '`(a|c|ext4_file_read_iter)$'
	expect_status 0 || fail_with "$stderr"
	local s0='translate(10,0) scale(0.08082191780821918,1)'
	# a: 6000 samples from x 500; zoomed, 1180 px are its 6000 samples
	local s1='translate(-88.33333333333333,0) scale(0.19666666666666666,1)'
	expect_eq "$output" "over transform $s0
over status a in prog, 6000 samples, 41.10%
over matched  
over hits 0 anc 0 unzoom btn off root-y 148
click transform $s1
click status a in prog, 6000 samples, 41.10%
click matched  
click hits 0 anc 3 unzoom btn root-y 148
search transform $s1
search status a in prog, 6000 samples, 41.10%
search matched Matched \`(a|c|ext4_file_read_iter)\$: 7500 samples, 51.37%
search hits 3 anc 3 unzoom btn root-y 148
invert transform $s1
invert status a in prog, 6000 samples, 41.10%
invert matched Matched \`(a|c|ext4_file_read_iter)\$: 7500 samples, 51.37%
invert hits 3 anc 3 unzoom btn root-y 52
escape transform $s0
escape status a in prog, 6000 samples, 41.10%
escape matched Matched \`(a|c|ext4_file_read_iter)\$: 7500 samples, 51.37%
escape hits 3 anc 0 unzoom btn off root-y 52" "what the page showed at each step"
}

@test "cputrack -g --folded to cpcplot --flame: the workload's calls, by object" {
	requires root
	machine_lock
	local hot main
	run --separate-stderr timeout -s KILL 120 "$CPUTRACK" -T 0 -g \
	    -S task-clock,period=1000000 --folded="$D/w.folded" \
	    "$WORKLOADS/split_work" 100
	expect_status 0
	fl --flame "$D/w.folded" -o "$D/w.svg"
	expect_status 0
	run --separate-stderr "$PY" "$CHECK" svg "$D/w.folded" "$D/w.svg"
	expect_status 0 || fail_with "$stderr"
	# main calls split_hot 3 parts and split_cold 1: the frames above
	# main, in the program's colour
	hot=$(sed -n 's/^frame split_work`main > split_work`split_hot //p' \
	    <<<"$output")
	main=$(sed -n 's/^frame [^ ]* > split_work`main //p' <<<"$output")
	[ -n "$hot" ] && [ -n "$main" ] ||
	    fail_with "no split_hot above main: $output"
	grep -q '^frame split_work`main > split_work`split_cold ' \
	    <<<"$output" || fail_with "no split_cold above main"
	expect_range $((hot * 100 / main)) 70 80 "split_hot's share of main"
	grep -qE '^object split_work o[0-9]+ #' <<<"$output" &&
	    grep -qE '^object libc\.so\.[0-9]+ o[0-9]+ #' <<<"$output" ||
	    fail_with "the program and libc not apart: $output"
}
