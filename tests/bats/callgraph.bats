#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# callgraph.bats - --profile with -g (total and self per function, the
# callers and callees of the hottest) and --samples-format=perf (the
# text of perf script), exact on a workload whose call tree is known:
# callgraph K makes 3K getpid calls in callg_a, 3K in callg_c (called by
# callg_a), 2K in callg_b, none in main; syscalls:sys_enter_getpid with
# period 1 samples each call once.  The perf text is read by
# perfscript.py, which holds it to the grammar of the importers
# (Firefox Profiler's and speedscope's), where perf is installed
# compared frame by frame with perf's own, and where speedscope (npm) and
# Chromium are installed imported by speedscope itself.  Every tool run
# has a time limit.

setup() {
	load helper
	requires root tracepoint:syscalls:sys_enter_getpid
	machine_lock
	GP=syscalls:sys_enter_getpid
	PERF=$BATS_TEST_TMPDIR/samples.perf
	PS=$TESTS_DIR/bats/perfscript.py
	CG=$(workload callgraph)
}

teardown() {
	machine_unlock
}

# ct ARGS...: cputrack with a time limit, stderr apart.
ct() {
	run --separate-stderr timeout -s KILL 120 "$CPUTRACK" "$@"
}

# cg_rows TEXT SECTION: the lines of the workload's functions (object
# callgraph) in the profile table (SECTION "profile") or the calls
# ("calls"), their fields joined by one space.
cg_rows() {
	awk -v want="$2" '/^# profile: / { s = "profile"; next }
	    /^# calls: / { s = "calls"; next }
	    /^#/ { next }
	    s == want && $NF == "callgraph" { $1 = $1; print }' <<<"$1"
}

# The exact profile of callgraph 100 (800 samples, every one in main).
PROFILE_ROWS="100.00 0.00 800 0 main callgraph
75.00 37.50 600 300 callg_a callgraph
37.50 37.50 300 300 callg_c callgraph
25.00 25.00 200 200 callg_b callgraph"

# Its calls: each function's callers, itself, its callees (the callers
# of main lie in the C library, whose names are not the test's).
CALLS_ROWS="100.00 800 callee main callgraph
100.00 800 function main callgraph
75.00 600 callee callg_a callgraph
25.00 200 callee callg_b callgraph
75.00 600 caller main callgraph
75.00 600 function callg_a callgraph
37.50 300 callee callg_c callgraph
37.50 300 caller callg_a callgraph
37.50 300 function callg_c callgraph
25.00 200 caller main callgraph
25.00 200 function callg_b callgraph"

# perf_stacks FILE: perfscript.py's stacks of the workload (from main
# on: what lies below main is the C library's), "PID TID EVENT STACK N".
perf_stacks() {
	"$PS" --ours "$1" |
	    awk '(n = index(";" $4, ";main;")) > 0 { $4 = substr($4, n); print }'
}

@test "cputrack -g --profile: exact total and self, callers and callees" {
	ct -T 0 -g -S $GP,period=1 --profile "$CG" 100
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_match "$output" $'\n# profile: pid [0-9]+, syscalls:sys_enter_getpid, 800 samples\n# total%    self%     total      self symbol object\n' \
	    "the profile's title lines"
	expect_eq "$(cg_rows "$output" profile)" "$PROFILE_ROWS" \
	    "the workload's functions: total%, self%, total, self"
	expect_match "$output" $'\n# calls: pid [0-9]+, syscalls:sys_enter_getpid: the callers and callees of the [0-9]+ above\n#    pct   samples role     symbol object\n' \
	    "the calls' title lines"
	expect_eq "$(cg_rows "$output" calls)" "$CALLS_ROWS" \
	    "callers, function, callees of each"
	# A caller's and a callee's name are indented under the function.
	expect_match "$output" $'\n   75.00       600 caller     main callgraph\n   75.00       600 function callg_a callgraph\n   37.50       300 callee     callg_c callgraph\n' \
	    "callg_a's block as printed"
}

@test "cputrack -g --profile=N: the N hottest, and the calls of those only" {
	local n top
	# Every sample passes main and what called it (the C library's
	# start: how many frames of it the chains hold is the library's
	# affair): those come first, then callg_a.
	ct -T 0 -g -S $GP,period=1 --profile=100 "$CG" 100
	expect_status 0
	top=$(awk '/^# calls/ { exit } !/^#/ && $3 == 800 { n++ }
	    END { print n + 1 }' <<<"$output")
	expect_range "$top" 3 100 "the functions every sample passes, and one"
	ct -T 0 -g -S $GP,period=1 --profile=$top "$CG" 100
	expect_status 0
	n=$(awk '/^# profile/ { s = 1; next } /^# calls/ { s = 0 }
	    s && !/^#/ { n++ } END { print n + 0 }' <<<"$output")
	expect_eq "$n" "$top" "the profile's lines"
	expect_eq "$(grep -c ' function ' <<<"$output")" "$top" \
	    "functions in the calls"
	expect_eq "$(cg_rows "$output" profile | tail -n 2)" \
	    "$(head -n 2 <<<"$PROFILE_ROWS")" "main and callg_a, the hottest"
	grep -q ' function callg_c ' <<<"$output" &&
	    fail_with "callg_c is not among the 3 hottest: no calls of it"
	# callg_a's callee is still named, though not in the top.
	expect_match "$output" $'\n   37.50       300 callee     callg_c callgraph(\n|$)' \
	    "callg_a's callee"
}

@test "cputrack without -g: --profile keeps its one table of self samples" {
	ct -T 0 -S $GP,period=1 --profile "$CG" 100
	expect_status 0
	expect_match "$output" $'\n#    pct   samples symbol object\n   37.50       300 callg_a callgraph\n   37.50       300 callg_c callgraph\n   25.00       200 callg_b callgraph(\n|$)' \
	    "the flat profile"
	[[ "$output" != *"# calls:"* ]] || fail_with "calls without -g"
}

@test "--samples-format=perf with -g: every sample with its exact chain" {
	local pid
	ct -T 0 -g -S $GP,period=1 --samples="$PERF" --samples-format=perf \
	    "$CG" 100
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	pid=$(awk '$3 == "exit" { print $2 }' <<<"$output")
	[ -n "$pid" ] || fail_with "no exit line"
	run "$PS" --ours "$PERF"
	expect_status 0
	expect_eq "${lines[-1]}" "samples 800" "the samples"
	expect_eq "$(perf_stacks "$PERF")" \
	    "$pid $pid $GP main;callg_a 300
$pid $pid $GP main;callg_a;callg_c 300
$pid $pid $GP main;callg_b 200" "the stacks from main, and their samples"
	# The first line as written, period 1 from -S.
	expect_match "$(head -n 1 "$PERF")" \
	    "^callgraph +$pid/$pid \\[[0-9]{3}\\] [0-9]+\\.[0-9]{9}: 1 $GP:\$" \
	    "a sample's first line"
	expect_match "$(sed -n 2p "$PERF")" \
	    $'^\t +[0-9a-f]+ callg_a\\+0x[0-9a-f]+ \\(callgraph\\)$' \
	    "its first frame"
}

@test "--samples-format=perf without -g: one frame, the program counter; no period unless -S names one" {
	ct -T 0 -S $GP --samples="$PERF" --samples-format=perf "$CG" 100
	expect_status 0
	run "$PS" --ours "$PERF"
	expect_status 0
	expect_eq "$(grep -v '^samples' <<<"$output" | cut -d' ' -f4-)" \
	    "callg_a 300
callg_b 200
callg_c 300" "one frame per sample, in its function"
	expect_eq "${lines[-1]}" "samples 800" "the samples"
	expect_match "$(head -n 1 "$PERF")" " [0-9]+\\.[0-9]{9}: $GP:\$" \
	    "no period"
	run "$PS" --ours /dev/null
	expect_status 0
	expect_eq "$output" "samples 0" "an empty file is empty perf text"
}

@test "--samples-format=perf: the same frames, names and offsets as perf script" {
	command -v perf >/dev/null ||
	    skip "needs perf (Debian package linux-perf)"
	local ours theirs data=$BATS_TEST_TMPDIR/perf.data
	run timeout -s KILL 120 perf record -q -e $GP -c 1 -g -o "$data" \
	    "$CG" 100
	[ "$status" -eq 0 ] || skip "perf record cannot record here: $output"
	timeout -s KILL 120 perf script -i "$data" \
	    >"$BATS_TEST_TMPDIR/theirs" 2>/dev/null
	ct -T 0 -g -S $GP,period=1 --samples="$PERF" --samples-format=perf \
	    "$CG" 100
	expect_status 0
	# The grammar reads perf's own text (pid-less, as perf writes it)
	# to the same stacks.
	theirs=$("$PS" "$BATS_TEST_TMPDIR/theirs" | cut -d' ' -f3-)
	ours=$("$PS" "$PERF" | cut -d' ' -f3-)
	expect_eq "$ours" "$theirs" "the stacks, perf's and ours"
	# Every frame in the workload: symbol+offset as perf writes them.
	theirs=$(awk '/^\t/ && $NF ~ /\/callgraph\)$/ { print $2 }' \
	    "$BATS_TEST_TMPDIR/theirs" | sort | uniq -c)
	ours=$(awk '/^\t/ && $NF == "(callgraph)" { print $2 }' "$PERF" |
	    sort | uniq -c)
	expect_eq "$ours" "$theirs" "symbol+offset of the workload's frames"
	[ -n "$ours" ] || fail_with "no frames"
}

@test "--samples-format=perf: speedscope imports it (its release build, in headless Chromium)" {
	local chrome rel bundle pid t=$BATS_TEST_TMPDIR span
	chrome=$(command -v chromium || command -v chromium-browser) ||
	    skip "needs Chromium (Debian package chromium)"
	rel=${SPEEDSCOPE_RELEASE:-$(npm root -g 2>/dev/null)/speedscope/dist/release}
	bundle=$(ls "$rel"/speedscope-*.js 2>/dev/null | head -n 1)
	[ -n "$bundle" ] ||
	    skip "needs speedscope (npm install -g speedscope), not in $rel"
	ct -T 0 -g -S $GP,period=1 --samples="$PERF" --samples-format=perf \
	    "$CG" 100
	expect_status 0
	pid=$(awk '$3 == "exit" { print $2 }' <<<"$output")
	# As speedscope's command hands a file over, then its Export.
	printf 'speedscope.loadFileFromBase64("samples.perf", "%s")\n' \
	    "$(base64 -w 0 "$PERF")" >"$t/load.js"
	printf '<!DOCTYPE html>\n<html><head><meta charset="UTF-8"><title>%s</title></head><body>\n<script src="file://%s"></script>\n<script src="file://%s"></script>\n</body></html>\n' \
	    speedscope "$TESTS_DIR/bats/ssimport.js" "$bundle" >"$t/page.html"
	timeout -s KILL 120 "$chrome" --headless --no-sandbox --disable-gpu \
	    --allow-file-access-from-files --user-data-dir="$t/chrome" \
	    --virtual-time-budget=20000 \
	    --dump-dom "file://$t/page.html#localProfilePath=$t/load.js" \
	    >"$t/dom" 2>"$t/chrome.err" ||
	    fail_with "Chromium failed: $(tail -n 5 "$t/chrome.err")"
	run "$TESTS_DIR/bats/ssexport.py" "$t/dom"
	expect_status 0
	expect_eq "$(grep '^name ' <<<"$output")" \
	    "name callgraph pid: $pid tid: $pid" "the one profile: the thread"
	expect_eq "$(grep '^frame .* callgraph$' <<<"$output")" \
	    "frame main callgraph
frame callg_a callgraph
frame callg_c callgraph
frame callg_b callgraph" "the workload's frames and their object"
	# The calls come in order: callg_a's, callg_c's, callg_b's; a run of
	# samples with one stack is one stack to speedscope.
	expect_eq "$(sed -n 's/^stack .*;main;/main;/p' <<<"$output")" \
	    "main;callg_a
main;callg_a;callg_c
main;callg_b" "the stacks as time goes"
	# From the first sample's time to the last's.
	span=$(awk -F'[] ]+' '/^[^\t]/ && NF > 3 { sub(/:$/, "", $4)
	    if (f == "") f = $4; l = $4 } END { printf "%.9f", l - f }' "$PERF")
	expect_eq "$(grep '^span ' <<<"$output")" "span $span" \
	    "the times as speedscope read them"
}

@test "cpustat -g --profile --per-cpu and --samples-format=perf: exact for the pinned workload" {
	requires cpu:0
	local pid cpu0
	# Pinned to CPU 0, its calls 1 s in, alive until after cpustat's
	# interval ends (cpustat names the samples then, from the mappings
	# it reads while the process lives).
	"$CG" -c 0 -d 1000 -a 3000 100 >/dev/null 2>&1 3>&- &
	pid=$!
	run --separate-stderr timeout -s KILL 60 "$CPUSTAT" -g -S $GP,period=1 \
	    --profile=100 --per-cpu --samples="$PERF" --samples-format=perf \
	    3 1
	wait "$pid" || true
	expect_status 0
	# Other programs call getpid too: their samples change the
	# percentages, not the workload's samples.
	cpu0=$(awk '/^# profile: cpu 0,/ { s = 1 } /^# profile: cpu [1-9]/ {
	    s = 0 } s' <<<"$output")
	expect_eq "$(cg_rows "$cpu0" profile | cut -d' ' -f3-)" \
	    "$(cut -d' ' -f3- <<<"$PROFILE_ROWS")" \
	    "cpu 0's profile: the workload's total and self"
	expect_eq "$(cg_rows "$cpu0" calls | cut -d' ' -f2-)" \
	    "$(cut -d' ' -f2- <<<"$CALLS_ROWS")" \
	    "cpu 0's calls: the workload's callers and callees"
	expect_eq "$(perf_stacks "$PERF" | grep "^$pid ")" \
	    "$pid $pid $GP main;callg_a 300
$pid $pid $GP main;callg_a;callg_c 300
$pid $pid $GP main;callg_b 200" "the workload's stacks in the perf text"
}

@test "cpustat -g --profile: the system's profile holds the workload exactly" {
	local pid
	"$CG" -d 1000 -a 3000 100 >/dev/null 2>&1 3>&- &
	pid=$!
	run --separate-stderr timeout -s KILL 60 "$CPUSTAT" -g -S $GP,period=1 \
	    --profile=100 3 1
	wait "$pid" || true
	expect_status 0
	expect_match "$output" $'\n# profile: system, syscalls:sys_enter_getpid, [0-9]+ samples\n' \
	    "the system's profile"
	expect_eq "$(cg_rows "$output" profile | cut -d' ' -f3-)" \
	    "$(cut -d' ' -f3- <<<"$PROFILE_ROWS")" \
	    "the workload's total and self"
	expect_eq "$(cg_rows "$output" calls | cut -d' ' -f2-)" \
	    "$(cut -d' ' -f2- <<<"$CALLS_ROWS")" \
	    "the workload's callers and callees"
}

@test "--samples-format: completion offers csv and perf" {
	local t
	# shellcheck source=../../completion/cpc-tools.bash
	source "$TESTS_DIR/../completion/cpc-tools.bash"
	for t in "$CPUTRACK" "$CPUSTAT"; do
		COMP_WORDS=("$t" --samples-format = "")
		COMP_CWORD=3
		COMP_LINE="$t --samples-format="
		COMP_POINT=${#COMP_LINE}
		_cpc_tools
		expect_eq "$(printf '%s\n' "${COMPREPLY[@]}")" "csv
perf" "${t##*/} --samples-format=" || return 1
	done
}
