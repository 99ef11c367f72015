#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# cpustat_counts.bats - exact oracles: workloads whose true counts are
# known run pinned to a CPU while cpustat counts every CPU.
#
# cpustat counts the whole CPU, so other processes add to what a workload
# did; they never take anything away.  Hence:
#
#  * every attempt must see at least the workload's count on the
#    workload's CPU, in the intervals while it ran (a lost or misattributed
#    event always fails);
#  * at least one of TRIES attempts must see there at most the count plus
#    a small fixed margin plus the background: the mean of the same event
#    on the same CPU in the intervals after the workload ended, times the
#    number of intervals while it ran.  On a quiet machine the background
#    is zero and the bound is the fixed margin alone; on a busy one it
#    follows what other processes measurably did, and a burst of theirs is
#    retried.
#
# cpustat runs 8 intervals of 0.1 s; the workloads sleep 150 ms (so the
# counters are bound) and finish in well under 0.6 s; the intervals that
# began after that measure the background.  Concurrent runs of this file
# (two checkouts tested at once) take turns through machine_lock, so their
# workloads do not count into each other.
#
# With CPC_BATS_VERBOSE set, a passing test shows what it saw.

TRIES=5
IVAL=0.1
NIVAL=8

setup() {
	load helper
	requires root
	machine_lock -x
}

teardown() {
	machine_unlock
}

# measure EVENTSPEC -- COMMAND ARG...: run cpustat -c EVENTSPEC 0.1 8 in
# the background, run COMMAND once the title is out, wait for both, and
# parse the output.  Sets WL_END, the seconds from cpustat's start to the
# end of COMMAND (at least the workload's end on cpustat's clock, whose
# start comes later: no interval the workload ran in is taken for a later
# one), and SLOW=1 when COMMAND may have outlived the counting (the
# attempt proves nothing then).
measure() {
	local spec=$1 pid t0 t1
	local out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err
	shift 2
	rm -f "$out" "$err"
	t0=$EPOCHREALTIME
	"$CPUSTAT" -c "$spec" "$IVAL" "$NIVAL" >"$out" 2>"$err" &
	pid=$!
	# Until cpustat ends, this shell and what it starts run on CPU 0, so
	# its own forks and execs (and the workload's start-up, before the
	# workload pins itself) do not count on CPU 1.  cpustat, started
	# before, keeps every CPU.
	taskset -p -c 0 "$BASHPID" >/dev/null
	if ! wait_lines "$out" 1 5; then
		kill "$pid" 2>/dev/null
		wait "$pid" || true
		taskset -p "$MASK" "$BASHPID" >/dev/null
		return 1
	fi
	if ! "$@"; then
		kill "$pid" 2>/dev/null
		wait "$pid" || true
		taskset -p "$MASK" "$BASHPID" >/dev/null
		fail_with "the workload failed: $*"
		return 1
	fi
	t1=$EPOCHREALTIME
	status=0
	wait "$pid" || status=$?
	taskset -p "$MASK" "$BASHPID" >/dev/null
	WL_END=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	SLOW=$(awk -v e="$WL_END" -v i=$IVAL -v n=$NIVAL \
	    'BEGIN { print (e > (n - 2) * i) }')
	load_files "$out" "$err"
	expect_status 0 || return 1
	expect_eq "$stderr" "" "stderr" || return 1
	parse_output || return 1
	# Nothing lost between the lines and the total.
	local col sums=()
	for ((col = 0; col < $(wc -w <<<"${T_VALS[0]}"); col++)); do
		sums+=("$(sum_samples $col)")
	done
	expect_eq "${T_VALS[0]}" "${sums[*]}" "total vs sum of lines"
}

# window CPU COL: split CPU's values in column COL at the end of the
# workload: PRE_SUM over the intervals that began before WL_END + 0.1 s
# (the workload's time, with room to spare), NPRE of them; POST_SUM and
# NPOST over the rest, when only other processes ran.
window() {
	local cpu=$1 col=$2 i k v post
	PRE_SUM=0 NPRE=0 POST_SUM=0 NPOST=0
	for i in "${!S_TIME[@]}"; do
		[ "${S_CPU[i]}" = "$cpu" ] || continue
		k=$((i / ${#CPUS[@]} + 1))
		v=$(field "${S_VALS[i]}" "$col")
		post=$(awk -v k=$k -v i=$IVAL -v e="$WL_END" \
		    'BEGIN { print ((k - 1) * i >= e + 0.1) }')
		if [ "$post" = 1 ]; then
			POST_SUM=$((POST_SUM + v)) NPOST=$((NPOST + 1))
		else
			PRE_SUM=$((PRE_SUM + v)) NPRE=$((NPRE + 1))
		fi
	done
}

# check WHAT CPU COL WANT MARGIN: the count on CPU in column COL over the
# workload's intervals must be at least WANT (else LOST=1: the test must
# fail); returns 0 when it is at most WANT + MARGIN + background, where
# background is the mean of the later intervals times the number of the
# workload's (0 when there are no later intervals), 1 otherwise.  Appends
# to SEEN.
check() {
	local what=$1 cpu=$2 col=$3 want=$4 margin=$5 bg=0
	window "$cpu" "$col"
	if [ "$PRE_SUM" -lt "$want" ]; then
		fail_with "$what on CPU $cpu: got $PRE_SUM in the first" \
		    "$NPRE intervals, fewer than the $want the workload made"
		LOST=1
		return 1
	fi
	if [ "$NPOST" -gt 0 ]; then
		bg=$(((POST_SUM * NPRE + NPOST - 1) / NPOST))
	fi
	SEEN+=" $what@cpu$cpu=$PRE_SUM(background $bg)"
	[ "$PRE_SUM" -le $((want + margin + bg)) ]
}

# attempt: start one attempt; the caller `continue`s when it returns 1.
attempt() {
	if [ "$SLOW" = 1 ]; then
		SEEN+=" [the workload ran too long: ${WL_END}s]"
		return 1
	fi
	SEEN+=" |"
}

# passed: an attempt was within its bounds; with CPC_BATS_VERBOSE set in
# the environment, show what the attempts saw (TAP comment lines).
passed() {
	[ -z "${CPC_BATS_VERBOSE-}" ] || echo "# seen:$SEEN" >&3
}

# give_up WHAT: no attempt was within its bound.
give_up() {
	fail_with "$1; $TRIES attempts saw:$SEEN"
}

setup_cpus() {
	command -v taskset >/dev/null || skip "needs taskset (util-linux)"
	mapfile -t CPUS < <(usable_cpus)
	MASK=$(taskset -p "$BASHPID" | sed 's/.*: //')
	SEEN= LOST=
}

@test "getpid x 20000 on CPU 1: CPU 1 counts exactly that" {
	requires cpu:0 cpu:1 tracepoint:syscalls:sys_enter_getpid
	setup_cpus
	local wl n=20000 try ok
	wl=$(workload getpid_n)
	for ((try = 1; try <= TRIES; try++)); do
		measure syscalls:sys_enter_getpid -- "$wl" -c 1 -d 150 "$n"
		attempt || continue
		ok=1
		check getpid 1 0 "$n" 20 || ok=0
		# CPU 0 ran none of it: only background there.
		check getpid 0 0 0 20 || ok=0
		[ -z "$LOST" ] || return 1
		[ $ok = 0 ] || { passed; return 0; }
	done
	give_up "want CPU 1 within $n + 20 + background, CPU 0 within 20 + background"
}

@test "getpid on both CPUs: each CPU's lines count its own workload" {
	requires cpu:0 cpu:1 tracepoint:syscalls:sys_enter_getpid
	setup_cpus
	local wl n0=3000 n1=7000 try ok
	wl=$(workload getpid_n)
	both() {
		"$wl" -c 0 -d 150 "$n0" &
		local p=$!
		"$wl" -c 1 -d 150 "$n1" || return 1
		wait "$p"
	}
	for ((try = 1; try <= TRIES; try++)); do
		measure syscalls:sys_enter_getpid -- both
		attempt || continue
		ok=1
		check getpid 0 0 "$n0" 20 || ok=0
		check getpid 1 0 "$n1" 20 || ok=0
		[ -z "$LOST" ] || return 1
		[ $ok = 0 ] || { passed; return 0; }
	done
	give_up "want CPU 0 within $n0 + 20, CPU 1 within $n1 + 20 (+ background)"
}

@test "a tracepoint counts in either mode, and nothing with nouser alone" {
	requires cpu:0 cpu:1 tracepoint:syscalls:sys_enter_getpid
	setup_cpus
	local wl n=5000 try ok i a b c ev=syscalls:sys_enter_getpid
	wl=$(workload getpid_n)
	for ((try = 1; try <= TRIES; try++)); do
		# pic0 the default (user), pic1 with sys, pic2 nouser alone
		measure "$ev,$ev,$ev,sys1,nouser2" -- "$wl" -c 1 -d 150 "$n"
		attempt || continue
		# One snapshot per CPU and line: the first two count the same
		# calls (a tracepoint fires in the kernel, in either mode);
		# the third counts in neither mode: nothing (seed 000).
		for i in "${!S_VALS[@]}"; do
			read -r a b c <<<"${S_VALS[i]}"
			[ "$a" = "$b" ] && [ "$c" = 0 ] ||
			    fail_with "line $((i + 1)): '${S_VALS[i]}' are" \
			    "not two equal counts and a 0"
		done
		ok=1
		check getpid 1 0 "$n" 20 || ok=0
		[ -z "$LOST" ] || return 1
		[ $ok = 0 ] || { passed; return 0; }
	done
	give_up "want CPU 1 within $n + 20 + background"
}

@test "page faults: 20000 fresh pages touched on CPU 1" {
	requires cpu:0 cpu:1
	setup_cpus
	local wl n=20000 try ok
	wl=$(workload touch_pages)
	for ((try = 1; try <= TRIES; try++)); do
		measure page-faults -- "$wl" -c 1 -d 150 "$n"
		attempt || continue
		ok=1
		# the workload starts on CPU 0 and pins itself to CPU 1: a
		# few faults of its own there besides the pages
		check page-faults 1 0 "$n" 20 || ok=0
		[ -z "$LOST" ] || return 1
		[ $ok = 0 ] || { passed; return 0; }
	done
	give_up "want CPU 1 within $n + 20 + background"
}

@test "page faults honour the mode keywords: user faults in pic0, none in pic1" {
	requires cpu:0 cpu:1
	setup_cpus
	local wl n=10000 try ok
	wl=$(workload touch_pages)
	for ((try = 1; try <= TRIES; try++)); do
		# pic0 user mode only (the default), pic1 kernel mode only
		measure page-faults,page-faults,nouser1,sys1 -- \
		    "$wl" -c 1 -d 150 "$n"
		attempt || continue
		ok=1
		check user-faults 1 0 "$n" 20 || ok=0
		# touching its own pages, the workload faults in user mode
		check kernel-faults 1 1 0 20 || ok=0
		[ -z "$LOST" ] || return 1
		[ $ok = 0 ] || { passed; return 0; }
	done
	give_up "want user faults within $n + 20, kernel faults within 20 (+ background)"
}

@test "page-faults with nouser alone counts nothing: exactly zero" {
	requires cpu:0 cpu:1
	setup_cpus
	local wl
	wl=$(workload touch_pages)
	measure page-faults,nouser -- "$wl" -c 1 -d 150 20000
	local i
	for i in "${!S_VALS[@]}"; do
		expect_eq "${S_VALS[i]}" 0 "sample line $((i + 1))"
	done
	expect_eq "${T_VALS[0]}" 0 "total"
}

@test "context switches: 10000 ping-pong rounds on CPU 1 are 20000 switches" {
	requires cpu:0 cpu:1
	setup_cpus
	local wl n=10000 try ok
	wl=$(workload pingpong)
	for ((try = 1; try <= TRIES; try++)); do
		measure context-switches -- "$wl" -c 1 -d 150 "$n"
		attempt || continue
		ok=1
		# the margin: the workload's sleeps, start and exit, and the
		# timer and kernel-thread switches of an idle CPU
		check context-switches 1 0 $((2 * n)) 50 || ok=0
		[ -z "$LOST" ] || return 1
		[ $ok = 0 ] || { passed; return 0; }
	done
	give_up "want CPU 1 within $((2 * n)) + 50 + background"
}

@test "sched:sched_switch agrees with context-switches for the ping-pong" {
	requires cpu:0 cpu:1 tracepoint:sched:sched_switch
	setup_cpus
	local wl n=10000 try ok
	wl=$(workload pingpong)
	for ((try = 1; try <= TRIES; try++)); do
		measure sched:sched_switch -- "$wl" -c 1 -d 150 "$n"
		attempt || continue
		ok=1
		check sched_switch 1 0 $((2 * n)) 50 || ok=0
		[ -z "$LOST" ] || return 1
		[ $ok = 0 ] || { passed; return 0; }
	done
	give_up "want CPU 1 within $((2 * n)) + 50 + background"
}

@test "two events in one set count together: getpid and page faults" {
	requires cpu:0 cpu:1 tracepoint:syscalls:sys_enter_getpid
	setup_cpus
	local wg wt n=4000 try ok
	wg=$(workload getpid_n)
	wt=$(workload touch_pages)
	work() {
		"$wg" -c 1 -d 150 "$n" && "$wt" -c 1 "$n"
	}
	for ((try = 1; try <= TRIES; try++)); do
		measure syscalls:sys_enter_getpid,page-faults -- work
		attempt || continue
		ok=1
		check getpid 1 0 "$n" 20 || ok=0
		check page-faults 1 1 "$n" 40 || ok=0
		[ -z "$LOST" ] || return 1
		[ $ok = 0 ] || { passed; return 0; }
	done
	give_up "want getpid within $n + 20, page faults within $n + 40 (+ background)"
}
