#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# cputrack_ends.bats - cputrack -T 0 without thread stops: the command
# runs untraced, the kernel's inherited counters count each thread, and
# every line is the one the ptrace run (with ticks, -T 60 here: no tick
# comes in these short runs) prints, with exact oracles.

setup() {
	load helper
	requires root tracepoint:syscalls:sys_enter_getpid
	machine_lock
	EV=syscalls:sys_enter_getpid
	OUT=$BATS_TEST_TMPDIR/out
}

teardown() {
	local p
	for p in ${KILL_PIDS[@]+"${KILL_PIDS[@]}"}; do
		kill -KILL "$p" 2>/dev/null || true
	done
	machine_unlock
}

rows() {
	awk -v k="$1" '$0 !~ /^   time / && $3 == k' "${2:-$OUT}"
}

# workers_sleep PID: every thread of PID but the first sleeps (its
# calls made).
workers_sleep() {
	local t
	for t in $(ls "/proc/$1/task" | grep -vx "$1"); do
		proc_nanosleeps "$t" || return 1
	done
}

# kinds FILE: each line's kind, values and note, without time and lwp.
kinds() {
	awk '$0 !~ /^   time / { $1 = ""; $2 = ""; print }' "$1"
}

@test "-T 0: the command and its threads run untraced, every count exact" {
	local wl ct pid tid bad st
	wl=$(workload threads_getpid)
	timeout 60 "$CPUTRACK" -T 0 -o "$OUT" -c "$EV" "$wl" -k 10 -h 1500 \
	    -m 3 50 >"$BATS_TEST_TMPDIR/table" &
	KILL_PIDS+=($!)
	pid=
	wait_until 30 eval 'ct=$(pgrep -P "${KILL_PIDS[0]}") &&
	    pid=$(pgrep -P "$ct") && has_threads "$pid" 51'
	for tid in $pid $(ls "/proc/$pid/task" | sed -n 2p); do
		expect_eq "$(sed -n 's/^TracerPid:[[:space:]]*//p' \
		    "/proc/$pid/task/$tid/status")" 0 "thread $tid's tracer"
	done
	st=0
	wait "${KILL_PIDS[0]}" || st=$?
	expect_eq "$st" 0 "status"
	KILL_PIDS=()
	bad=$(awk 'NR == FNR { if ($1 == "thread") want[$2] = $3; next }
	    $3 == "lwp_exit" { got[$2] = $4 }
	    END { for (t in want) if (got[t] != want[t])
		print t, want[t], got[t] }' "$BATS_TEST_TMPDIR/table" "$OUT")
	expect_eq "$bad" "" "threads whose count differs (tid want got)"
	expect_eq "$(rows lwp_create | awk '$4 != 0' | wc -l)" 0 \
	    "lwp_create lines: zeros"
	expect_eq "$(rows exit | awk '{ print $4 }')" $((3 + 10 * 50 * 51 / 2)) \
	    "exit: all threads and the main thread's 3"
}

@test "-T 0 prints what the ptrace run prints: threads one after another" {
	local wl
	wl=$(workload threads_getpid)
	run --separate-stderr "$CPUTRACK" -T 0 -o "$OUT" -c "$EV" \
	    "$wl" -s -k 3 -m 7 30
	expect_status 0
	run --separate-stderr "$CPUTRACK" -T 60 -o "$OUT.stops" -c "$EV" \
	    "$wl" -s -k 3 -m 7 30
	expect_status 0
	expect_eq "$(kinds "$OUT")" "$(kinds "$OUT.stops")" \
	    "kinds and values, line by line"
	expect_eq "$(rows exit | awk '{ print $4 }')" $((7 + 3 * 30 * 31 / 2)) \
	    "exit"
}

@test "-T 0: an exec by the main thread or another ends the tracking, as with stops" {
	local ex gp how
	ex=$(workload execer)
	gp=$(workload getpid_n)
	for how in "" -t; do
		run --separate-stderr "$CPUTRACK" -T 0 -o "$OUT" -c "$EV" \
		    "$ex" $how 7 "$gp" -a 500 5
		expect_status 0
		run --separate-stderr "$CPUTRACK" -T 60 -o "$OUT.stops" \
		    -c "$EV" "$ex" $how 7 "$gp" -a 500 5
		expect_status 0
		expect_eq "$(kinds "$OUT")" "$(kinds "$OUT.stops")" \
		    "execer $how: kinds, values and the exec's command line"
		expect_eq "$(rows exec | awk 'NR == 1 { print $4 }')" 7 \
		    "execer $how: the old image's 7 calls"
	done
}

@test "-T 0: fork lines, and the children are not counted" {
	local wl
	wl=$(workload forker)
	run --separate-stderr "$CPUTRACK" -T 0 -o "$OUT" -c "$EV" \
	    "$wl" -p 10 -q 20 -n 3
	expect_status 0
	expect_eq "$(rows fork | wc -l)" 3 "fork lines"
	expect_eq "$(rows exit | awk '{ print $4 }')" 10 "exit: the parent's"
	run --separate-stderr "$CPUTRACK" -T 60 -o "$OUT.stops" -c "$EV" \
	    "$wl" -p 10 -q 20 -n 3
	expect_eq "$(kinds "$OUT" | sed 's/#.*//')" \
	    "$(kinds "$OUT.stops" | sed 's/#.*//')" "the same lines"
}

@test "-T 0: lines the ring had no room for are said lost, status 125, totals whole" {
	local wl st
	wl=$(workload threads_getpid)
	# A page of ring, and a reader blocked on a full pipe meanwhile.
	CPC_ENDS_RING=4096 timeout 120 "$CPUTRACK" -T 0 -c "$EV" "$wl" -s \
	    -k 1 3000 2>"$BATS_TEST_TMPDIR/err" | { sleep 2; cat; } >"$OUT"
	st=${PIPESTATUS[0]}
	expect_eq "$st" 125 "status"
	expect_match "$(cat "$BATS_TEST_TMPDIR/err")" \
	    "^cputrack: [0-9]+: ([0-9]+ )?reports of threads did not fit the ring: some lwp_create and lwp_exit lines are missing \(the totals are whole\)$"
	expect_eq "$(rows exit | awk '{ print $4 }')" $((3000 * 3001 / 2)) \
	    "exit"
	[ "$(rows lwp_exit | wc -l)" -lt 3000 ] ||
	    fail_with "no lwp_exit line is missing"
}

@test "-T 0: a signal gives a total line and goes to the command" {
	local wl ct pid st
	wl=$(workload threads_getpid)
	timeout 60 "$CPUTRACK" -T 0 -o "$OUT" -c "$EV" "$wl" -k 10 -h 30000 \
	    20 >/dev/null &
	KILL_PIDS+=($!)
	wait_until 30 eval 'ct=$(pgrep -P "${KILL_PIDS[0]}") &&
	    pid=$(pgrep -P "$ct") && has_threads "$pid" 21 &&
	    workers_sleep "$pid"'
	kill -TERM "$ct"
	st=0
	wait "${KILL_PIDS[0]}" || st=$?
	expect_eq "$st" $((128 + 15)) "status: the command's death"
	KILL_PIDS=()
	expect_eq "$(rows total | wc -l)" 1 "total lines"
	expect_eq "$(rows total | awk '{ print $4 }')" $((10 * 20 * 21 / 2)) \
	    "total: every call made before the signal"
	expect_eq "$(rows exit | wc -l)" 0 "exit lines"
}
