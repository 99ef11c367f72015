#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# cputrack_track.bats - cputrack end to end with exact oracles: the
# workloads make a known number of getpid() calls per thread and per
# process, and syscalls:sys_enter_getpid counts exactly those.

setup() {
	load helper
	load cputrack_lines
	requires root tracepoint:syscalls:sys_enter_getpid
	machine_lock
	EV=syscalls:sys_enter_getpid
	OUT=$BATS_TEST_TMPDIR/out
}

teardown() {
	local p
	# What a failed test may have left running (KILL_PIDS).
	for p in ${KILL_PIDS[@]+"${KILL_PIDS[@]}"}; do
		kill -KILL "$p" 2>/dev/null || true
	done
	machine_unlock
	user_cleanup
}

# rows KIND [FILE]: the lines of kind KIND (fields: see ct_check).
rows() {
	awk -v k="$1" '$0 !~ /^   time / && ($3 == k || $4 == k)' "${2:-$OUT}"
}

# value KIND LWP [FILE]: the first value of the KIND line of LWP (no -f).
value() {
	awk -v k="$1" -v l="$2" '$3 == k && $2 == l { print $4; exit }' \
	    "${3:-$OUT}"
}

# sum_ticks LWP [FILE]: the sum of LWP's tick values (no -f).
sum_ticks() {
	awk -v l="$1" '$3 == "tick" && $2 == l { s += $4 } END { print s + 0 }' \
	    "${2:-$OUT}"
}

@test "threads: each lwp_exit equals the thread's calls, exit the sum, ticks add up" {
	local wl tid calls total=0 n=0
	wl=$(workload threads_getpid)
	run --separate-stderr "$CPUTRACK" -T 0.1 -o "$OUT" -c "$EV" \
	    "$wl" -k 100 -m 5 -h 400 4
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	ct_check "$OUT"
	while read -r _ tid calls; do
		expect_eq "$(value lwp_exit "$tid")" "$calls" \
		    "lwp_exit of thread $tid"
		expect_eq "$(value lwp_create "$tid")" 0 \
		    "lwp_create of thread $tid"
		# every call is made before the last tick of the thread
		expect_eq "$(sum_ticks "$tid")" "$calls" "ticks of thread $tid"
		total=$((total + calls)) n=$((n + 1))
	done < <(grep '^thread ' <<<"$output")
	expect_eq "$n" 4 "threads reported by the workload"
	expect_eq "$(rows exit | wc -l)" 1 "exit lines"
	expect_eq "$(rows exit | awk '{ print $4 }')" $((total + 5)) \
	    "exit = all threads + main's 5"
	expect_eq "$(rows exit | awk '{ print $2 }')" \
	    "$(awk '/^main / { print $2 }' <<<"$output")" "exit's lwp"
}

@test "a thread storm: 400 threads one after another, every count exact" {
	local wl bad
	wl=$(workload threads_getpid)
	run --separate-stderr "$CPUTRACK" -T 0 -o "$OUT" -c "$EV" \
	    "$wl" -s -k 1 400
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_eq "$(rows lwp_create | wc -l)" 400 "lwp_create lines"
	expect_eq "$(rows lwp_exit | wc -l)" 400 "lwp_exit lines"
	# thread i made i calls; one thread at a time, so lwp_exit lines
	# come in creation order (tids may repeat when pids wrap around)
	expect_eq "$(rows lwp_exit | awk '{ print $2, $4 }')" \
	    "$(awk '$1 == "thread" { print $2, $3 }' <<<"$output")" \
	    "lwp_exit lines (tid count) against the workload's table"
	expect_eq "$(rows exit | awk '{ print $4 }')" $((400 * 401 / 2)) "exit"
}

@test "-T 0: a command that asks to be traced (PTRACE_TRACEME) runs to its end" {
	local wl mode
	wl=$(workload traceme)
	# Not traced by cputrack under -T 0, the command makes cputrack its
	# tracer; its exec and its signal stop it until cputrack answers.
	for mode in exec signal; do
		run --separate-stderr timeout -s KILL 20 "$CPUTRACK" -T 0 \
		    -o "$OUT" -c "$EV" "$wl" "$mode" 700
		expect_status 0
		expect_eq "$stderr" "" "stderr ($mode)"
		expect_eq "$output" "traceme 0" "the workload's TRACEME ($mode)"
		if [ "$mode" = exec ]; then
			expect_eq "$(rows exec | wc -l)" 2 "exec lines"
		else
			expect_eq "$(rows exit | awk '{ print $4 }')" 700 "exit"
		fi
	done
}

@test "concurrent threads: 200 alive at once, every count exact" {
	local wl bad
	wl=$(workload threads_getpid)
	run --separate-stderr "$CPUTRACK" -T 0.05 -o "$OUT" -c "$EV" \
	    "$wl" -k 10 -h 100 200
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	bad=$(awk 'NR == FNR { if ($1 == "thread") want[$2] = $3; next }
	    $3 == "lwp_exit" { got[$2] = $4 }
	    END { for (t in want) if (got[t] != want[t])
		print t, want[t], got[t] }' <(echo "$output") "$OUT")
	expect_eq "$bad" "" "threads whose count differs (tid want got)"
	expect_eq "$(rows exit | awk '{ print $4 }')" $((10 * 200 * 201 / 2)) \
	    "exit"
}

@test "fork without -f: a fork line names the child, which is not counted" {
	local wl kids
	wl=$(workload forker)
	run --separate-stderr "$CPUTRACK" -o "$OUT" -c "$EV" "$wl" -p 10 -q 20 -n 2
	expect_status 0
	ct_check "$OUT"
	kids=$(awk '/^child / { print $2 }' <<<"$output" | sort)
	expect_eq "$(rows fork | awk '{ print $NF }' | sort)" "$kids" \
	    "fork lines name the children"
	expect_eq "$(rows exit | wc -l)" 1 "one exit line (the parent)"
	expect_eq "$(rows exit | awk '{ print $4 }')" 10 "the parent's calls"
	expect_eq "$(awk '$3 == "tick" || $3 == "exit"' "$OUT" |
	    awk '{ print $2 }' | sort -u)" \
	    "$(awk '/^parent / { print $2 }' <<<"$output")" "only the parent"
}

@test "fork with -f: a pid column; the children counted exactly in their own lines" {
	local wl parent kid
	wl=$(workload forker)
	run --separate-stderr "$CPUTRACK" -f -o "$OUT" -c "$EV" "$wl" \
	    -p 10 -q 20 -n 3
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	ct_check -f "$OUT"
	expect_match "$(head -1 "$OUT")" '^   time     pid     lwp      event '
	parent=$(awk '/^parent / { print $2 }' <<<"$output")
	expect_eq "$(rows fork | awk '{ print $2 }' | sort -u)" "$parent" \
	    "fork lines carry the parent's pid"
	for kid in $(awk '/^child / { print $2 }' <<<"$output"); do
		expect_eq "$(rows fork | grep -c "# $kid\$")" 1 "fork of $kid"
		expect_eq "$(rows exit | awk -v p="$kid" '$2 == p { print $5 }')" \
		    20 "the exit line of child $kid"
	done
	expect_eq "$(rows exit | awk -v p="$parent" '$2 == p { print $5 }')" \
	    10 "the parent's exit line"
	expect_eq "$(rows exit | wc -l)" 4 "exit lines"
}

@test "clone(2) of a process with another exit signal: a fork, not a thread" {
	local wl parent kid sig
	wl=$(workload forker)
	# Exit signal SIGUSR1, and none at all: ptrace calls both a clone.
	for sig in 10 0; do
		run --separate-stderr "$CPUTRACK" -f -o "$OUT" -c "$EV" "$wl" \
		    -k "$sig" -p 7 -q 30 -n 1
		expect_status 0
		expect_eq "$stderr" "" "stderr (exit signal $sig)"
		ct_check -f "$OUT"
		parent=$(awk '/^parent / { print $2 }' <<<"$output")
		kid=$(awk '/^child / { print $2 }' <<<"$output")
		expect_eq "$(rows fork | awk '{ print $2, $NF }')" \
		    "$parent $kid" "a fork line (exit signal $sig)"
		expect_eq "$(rows lwp_create | wc -l)" 0 "no lwp_create"
		expect_eq "$(rows exit | awk -v p="$kid" '$2 == p { print $5 }')" \
		    30 "the child's own exit line (exit signal $sig)"
		expect_eq "$(rows exit | awk -v p="$parent" '$2 == p { print $5 }')" \
		    7 "the parent's calls alone (exit signal $sig)"
	done
}

@test "vfork with -f: the child is followed like a fork child" {
	local wl parent kid getpid
	wl=$(workload forker)
	getpid=$(workload getpid_n)
	run --separate-stderr "$CPUTRACK" -f -e -o "$OUT" -c "$EV" "$wl" \
	    -v -p 3 -n 1 -- "$getpid" 44
	expect_status 0
	parent=$(awk '/^parent / { print $2 }' <<<"$output")
	kid=$(awk '/^child / { print $2 }' <<<"$output")
	expect_eq "$(rows exit | awk -v p="$kid" '$2 == p { print $5 }')" 44 \
	    "the vfork child's new image"
	expect_eq "$(rows exit | awk -v p="$parent" '$2 == p { print $5 }')" 3 \
	    "the parent"
}

@test "exec with -e: the old image's exact totals, the new image from zero" {
	local execer getpid pid
	execer=$(workload execer)
	getpid=$(workload getpid_n)
	run --separate-stderr "$CPUTRACK" -e -o "$OUT" -c "$EV" \
	    "$execer" 300 "$getpid" 500
	expect_status 0
	ct_check "$OUT"
	expect_eq "$(rows exec | awk '$4 ~ /^[0-9]+$/ { print $4 }')" \
	    300 "the exec value line"
	expect_eq "$(rows exec | awk '$4 == "#" { $1 = $2 = $3 = $4 = ""; print }' |
	    sed 's/^ *//')" "'$getpid 500'" "the exec name line"
	expect_eq "$(rows exit | awk '{ print $4 }')" 500 "the new image"
	pid=$(rows exit | awk '{ print $2 }')
	expect_eq "$(rows exec | awk '{ print $2 }' | sort -u)" "$pid" \
	    "exec lines name the process"
}

@test "exec from a second thread with -e: counted as the same process" {
	local execer getpid
	execer=$(workload execer)
	getpid=$(workload getpid_n)
	run --separate-stderr "$CPUTRACK" -e -o "$OUT" -c "$EV" \
	    "$execer" -t 300 "$getpid" 500
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_eq "$(rows exec | awk '$4 ~ /^[0-9]+$/ { print $4 }')" \
	    300 "the old image (both threads)"
	expect_eq "$(rows exit | awk '{ print $4 }')" 500 "the new image"
	expect_eq "$(rows exit | awk '{ print $2 }')" \
	    "$(rows exec | awk '$4 == "#" { print $2 }')" \
	    "the new image runs under the pid"
}

@test "exec without -e: tracking ends there, the command runs on and its status is ours" {
	local execer
	execer=$(workload execer)
	run --separate-stderr "$CPUTRACK" -o "$OUT" -c "$EV" \
	    "$execer" 300 sh -c 'sleep 0.2; exit 4'
	expect_status 4
	expect_eq "$stderr" "" "stderr"
	expect_eq "$(rows exec | awk '$4 ~ /^[0-9]+$/ { print $4 }')" \
	    300 "the exec value line"
	expect_eq "$(rows exit | wc -l)" 0 "no exit line: not followed"
	expect_eq "$(rows tick | wc -l)" 0 "no tick after the exec"
}

@test "-p: attach to a running process, three ticks with -N 3, detach; it ends normally" {
	local wl pid st t tf
	wl=$(workload slowloop)
	"$wl" -i 5 -x 7 2500 >"$BATS_TEST_TMPDIR/wl.out" &
	pid=$!
	# attach to the workload, not to the shell that is about to exec it
	wait_until 10 proc_exe_is "$pid" "$wl"
	run --separate-stderr "$CPUTRACK" -v -T 0.2 -N 3 -o "$OUT" -c "$EV" \
	    -p "$pid"
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	ct_check "$OUT"
	expect_eq "$(rows tick | wc -l)" 3 "tick lines"
	# The total is what the thread counted up to the release, its
	# fini_lwp line; the ticks, up to the third: the calls between the
	# two (one per 5 ms) are in the total only.
	expect_eq "$(rows total | awk '{ print $4 }')" \
	    "$(rows fini_lwp | awk '{ print $4 }')" \
	    "the total line = the thread's count at the release"
	# At one per 5 ms, the calls between the two reads (their times).
	t=$(rows tick | awk 'END { print $1 }')
	tf=$(rows fini_lwp | awk '{ print $1 }')
	expect_range "$(( $(rows total | awk '{ print $4 }') - \
	    $(sum_ticks "$pid") ))" 0 \
	    "$(awk -v a="$t" -v b="$tf" 'BEGIN { printf "%d", (b - a) * 200 + 2 }')" \
	    "calls after the third tick (${t} s), before the release (${tf} s)"
	# At most one call per 5 ms of the counting, which ends at the
	# release: 0.6 s, or later when cputrack was late for the ticks.
	expect_range "$(rows total | awk '{ print $4 }')" 40 \
	    "$(awk -v t="$tf" 'BEGIN { printf "%d", (t < 0.6 ? 0.6 : t) * 200 + 10 }')" \
	    "calls in the ${tf} s up to the release at one per 5 ms"
	wait "$pid" && st=0 || st=$?
	expect_eq "$st" 7 "the process's own exit status after the detach"
	expect_match "$(cat "$BATS_TEST_TMPDIR/wl.out")" "^slowloop $pid [0-9]+$"
	expect_eq "$(grep -c TracerPid:.0 /proc/self/status)" 1 "sanity"
}

# all_asleep PID: every thread of PID is sleeping (S).
all_asleep() {
	! grep -h '^State:' /proc/"$1"/task/*/status 2>/dev/null |
	    grep -qv 'S (sleeping)'
}

# vcsw PID: "tid voluntary-context-switches", a line per thread of PID.
vcsw() {
	local t
	for t in /proc/"$1"/task/*; do
		echo "${t##*/} $(awk '/^voluntary_ctxt_switches:/ { print $2 }' \
		    "$t/status")"
	done
}

@test "-p: neither the attach nor the detach wakes a sleeping thread; none stays traced" {
	local tg pid before
	tg=$(workload threads_getpid)
	# 20 threads that sleep a minute, the main thread joining them
	"$tg" -k 0 -h 60000 20 >/dev/null &
	pid=$!
	KILL_PIDS=("$pid")
	wait_until 10 has_threads "$pid" 21
	wait_until 10 all_asleep "$pid"
	before=$(vcsw "$pid")
	run --separate-stderr "$CPUTRACK" -T 0.1 -N 1 -o "$OUT" -c "$EV" \
	    -p "$pid"
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_eq "$(rows tick | awk '{ print $2 }' | sort -u | wc -l)" 21 \
	    "a tick line per thread"
	expect_eq "$(rows total | wc -l)" 1 "the total line"
	# A thread stopped to be detached would have switched out and in.
	expect_eq "$(vcsw "$pid")" "$before" \
	    "each thread's voluntary context switches, before and after"
	expect_eq "$(grep -h '^TracerPid:' /proc/"$pid"/task/*/status |
	    grep -c 'TracerPid:.0$')" 21 "threads not traced after cputrack"
	kill "$pid"
	wait "$pid" || true
}

# untraced_threads PID TRACER: the threads of PID whose tracer is not
# TRACER (an ended thread, or one ending meanwhile, is passed over).
untraced_threads() {
	local t st
	for t in /proc/"$1"/task/*; do
		st=$(awk '$1 == "State:" { s = $2 }
		    $1 == "TracerPid:" { print s, $2 }' "$t/status" \
		    2>/dev/null) || continue
		case $st in
		""|Z*|X*|*" $2") ;;
		*) echo "${t##*/} $st" ;;
		esac
	done
}

@test "-p: threads born and ending all through the attach: each one seized, none fails it" {
	local wl pid to ct st
	wl=$(workload relay)
	# 50 chains, each thread handing over to a new one every 0.5 ms.  A
	# thread not seized starts untraced ones for ever; a thread seized
	# that ends before its counters are opened must not fail the attach
	# (it did: "init_lwp: cannot count ...: No such process"); nor may
	# the end of one whose creator speaks after it leave the tracking
	# waiting for it (it hung at the release).
	"$wl" -l 500 50 >/dev/null 2>&1 &
	pid=$!
	KILL_PIDS=("$pid")
	wait_until 10 eval '[ "$(ls /proc/$pid/task | wc -l)" -gt 50 ]'
	timeout 60 "$CPUTRACK" -T 0.2 -N 500 -o "$OUT" -c "$EV" -p "$pid" \
	    >/dev/null 2>"$BATS_TEST_TMPDIR/err" &
	to=$!
	KILL_PIDS+=("$to")
	ct=
	wait_until 10 eval 'ct=$(pgrep -P "$to")'
	# Traced from the attach on: the main thread, then every one.
	wait_until 20 eval '[ "$(sed -n "s/^TracerPid:[[:space:]]*//p" \
	    /proc/$pid/status)" = "$ct" ]'
	wait_until 10 eval '[ -z "$(untraced_threads "$pid" "$ct")" ]'
	sleep 1
	kill -TERM "$ct"
	st=0
	wait "$to" || st=$?
	KILL_PIDS=("$pid")
	expect_eq "$st" 0 "cputrack's status after SIGTERM"
	expect_eq "$(cat "$BATS_TEST_TMPDIR/err")" "" "stderr"
	expect_eq "$(rows total | wc -l)" 1 "the total line"
	# The ticks come on time, not after every report of the storm (the
	# loop drained them all first: a tick of 0.2 s came after 1 s)
	expect_eq "$(rows tick | awk '{ print $1 }' | sort -un | awk '
	    NR > 1 && $1 - t > 1.0 { print t, $1 } { t = $1 }')" "" \
	    "ticks more than 1 s apart (want 0.2)"
	kill "$pid"
	wait "$pid" || true
	KILL_PIDS=()
}

@test "-p: every thread of a multi-threaded process; counts until it exits" {
	local wl pid want
	wl=$(workload slowloop)
	"$wl" -i 5 -t 3 -x 0 2000 >"$BATS_TEST_TMPDIR/wl.out" &
	pid=$!
	# the workload with its three threads (not the shell before its exec)
	wait_until 10 has_threads "$pid" 3
	run --separate-stderr "$CPUTRACK" -T 0.1 -o "$OUT" -c "$EV" -p "$pid"
	expect_status 0
	wait "$pid"
	expect_eq "$(rows tick | awk '{ print $2 }' | sort -u | wc -l)" 3 \
	    "threads ticked"
	expect_eq "$(rows exit | wc -l)" 1 "exit line"
	want=$(awk '{ print $3 }' "$BATS_TEST_TMPDIR/wl.out")
	# attached late: counted at most the calls the process made
	expect_range "$(rows exit | awk '{ print $4 }')" 1 "$want" "exit"
}

# perf_fds PID: how many perf event fds PID holds.
perf_fds() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'anon_inode:\[perf_event\]'
}

# own_total PID: the -f output has PID's own total line (not the tree's).
own_total() {
	rows total | awk -v p="$1" '$2 == p && $3 == p { f = 1 }
	    END { exit !f }'
}

@test "-p -f: a process let go while its child is tracked has its counters closed then; each its total" {
	local wl root ct kid n0
	wl=$(workload proctree)
	# The child is forked 1 s in, some ticks after the attach: it is let
	# go 10 ticks after its first, later than its parent.
	"$wl" q s1000 'f[' g7 s3000 ']' g5 s4000 &
	root=$!
	KILL_PIDS+=("$root")
	wait_until 10 proc_exe_is "$root" "$wl"
	"$CPUTRACK" -f -T 0.2 -N 10 -o "$OUT" -c "$EV" -p "$root" \
	    2>"$BATS_TEST_TMPDIR/err" &
	ct=$!
	KILL_PIDS+=("$ct")
	wait_until 10 grep -q ' fork ' "$OUT"
	kid=$(awk '$4 == "fork" { print $NF; exit }' "$OUT")
	n0=$(perf_fds "$ct")
	# The parent's total is out: its counters are closed at the loop's
	# next wait, while the child is still tracked.
	wait_until 10 own_total "$root"
	wait_until 5 eval '! own_total "$kid" && [ "$(perf_fds "$ct")" -lt "$n0" ]'
	wait_exit "$ct" 20
	expect_eq "$WAIT_STATUS" 0 "cputrack's status"
	expect_eq "$(cat "$BATS_TEST_TMPDIR/err")" "" "stderr"
	expect_eq "$(rows tick | awk -v p="$kid" '$2 == p' | wc -l)" 10 \
	    "the child's ticks"
	expect_eq "$(rows total | awk -v p="$kid" '$2 == p && $3 == p' |
	    awk '{ print $5 }')" 7 "the child's total: its 7 calls"
	expect_eq "$(rows total | awk -v p="$root" '$2 == p && $3 == p' |
	    awk '{ print $5 }')" 5 "the parent's total: its 5 calls"
}

@test "-p: a process whose main thread ended (a zombie while the others run) is followed" {
	local wl pid want
	wl=$(workload slowloop)
	# two loopers and the thread that reports; the main thread is gone
	"$wl" -m -i 5 -t 3 -x 0 2000 >"$BATS_TEST_TMPDIR/wl.out" &
	pid=$!
	wait_until 10 grep -q '^State:.*Z' "/proc/$pid/status"
	run --separate-stderr "$CPUTRACK" -T 0.1 -o "$OUT" -c "$EV" -p "$pid"
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	wait "$pid"
	expect_eq "$(rows tick | awk '{ print $2 }' | sort -u | wc -l)" 3 \
	    "threads ticked: the three alive, not the main one"
	expect_eq "$(rows tick | awk '$2 == '"$pid" | wc -l)" 0 \
	    "no line for the ended main thread"
	expect_eq "$(rows exit | wc -l)" 1 "exit line"
	want=$(awk '{ print $3 }' "$BATS_TEST_TMPDIR/wl.out")
	expect_range "$(rows exit | awk '{ print $4 }')" 1 "$want" "exit"
}

@test "SIGTERM: a last partial tick, a total line, the command gets SIGTERM" {
	local getpid pid i
	getpid=$(workload getpid_n)
	"$CPUTRACK" -T 0.2 -o "$OUT" -c "$EV" "$getpid" -a 5000 1234 &
	pid=$!
	# the command has made its calls (it sleeps its -a) and ticked
	wait_until 30 cmd_runs "$pid" "$getpid"
	wait_until 30 proc_nanosleeps "$KID"
	wait_until 30 has_row tick
	kill -TERM "$pid"
	wait "$pid" && st=0 || st=$?
	expect_eq "$st" 143 "exit status: the command's (128 + SIGTERM)"
	expect_eq "$(rows total | awk '{ print $4 }')" 1234 "the total line"
	expect_eq "$(sum_ticks "$(rows total | awk '{ print $2 }')")" 1234 \
	    "ticks, the last one partial"
	expect_eq "$(rows exit | wc -l)" 0 "no exit line"
}

@test "SIGINT sent to cputrack: the command gets it too; status 130" {
	local getpid pid i
	getpid=$(workload getpid_n)
	# an interactive shell would not ignore it in a background job
	env --default-signal=INT "$CPUTRACK" -T 0.2 -o "$OUT" -c "$EV" \
	    "$getpid" -a 5000 99 &
	pid=$!
	wait_until 30 cmd_runs "$pid" "$getpid"
	wait_until 30 proc_nanosleeps "$KID"
	wait_until 30 has_row tick
	kill -INT "$pid"
	wait "$pid" && st=0 || st=$?
	expect_eq "$st" 130 "exit status"
	expect_eq "$(rows total | awk '{ print $4 }')" 99 "the total line"
}

@test "^C at a terminal: a total line; the command handles its SIGINT, lives on, and its status is cputrack's" {
	command -v script >/dev/null || skip "needs script(1) for a terminal"
	local log=$BATS_TEST_TMPDIR/ints ready=$BATS_TEST_TMPDIR/ready
	local fifo=$BATS_TEST_TMPDIR/keys spid fd st
	# The terminal signals the whole foreground group (si_code
	# SI_KERNEL), so cputrack does not send its own (a second SIGINT
	# sent at once would merge with the first, so this cannot be told
	# from here).  The command says when its trap is set; the ^C is
	# typed only then (typed earlier it would kill the shell starting
	# the command).  It waits for the signal, notes it, and exits 7.
	# script(1) reads the keys from a fifo held open until it has ended,
	# so no end of its input can reach the session early.  script(1)
	# runs the line with $SHELL -c: the exec makes cputrack the session's
	# foreground process whatever that shell is (dash, CI's /bin/sh,
	# would else die of the ^C itself while waiting, and report 130).
	mkfifo "$fifo"
	timeout 60 script -qec \
	    "exec $CPUTRACK -T 0 -o $OUT -c task-clock sh -c 'trap \"echo INT >> $log; got=1\" INT; : > $ready; n=0; while [ -z \"\$got\" ] && [ \$n -lt 300 ]; do sleep 0.1; n=\$((n + 1)); done; exit 7'" \
	    /dev/null <"$fifo" >/dev/null &
	spid=$!
	KILL_PIDS+=("$spid")
	exec {fd}>"$fifo"
	wait_until 30 test -e "$ready" || { exec {fd}>&-; return 1; }
	printf '\003' >&"$fd"
	wait_exit "$spid" 70 || { exec {fd}>&-; return 1; }
	exec {fd}>&-
	st=$WAIT_STATUS
	KILL_PIDS=()
	expect_eq "$(cat "$log")" INT "the command's trap ran"
	expect_eq "$st" 7 "exit status: the command's, which lived on"
	expect_eq "$(rows total | wc -l)" 1 "a total line at the ^C"
}

@test "a command killed by SIGKILL: complete counts, status 137" {
	local getpid pid kid i
	getpid=$(workload getpid_n)
	"$CPUTRACK" -T 0 -o "$OUT" -c "$EV" "$getpid" -a 5000 77 &
	pid=$!
	# the command once it runs the workload (not cputrack's child
	# before its exec), and once its 77 calls are made: it sleeps its -a
	wait_until 30 cmd_runs "$pid" "$getpid"
	kid=$KID
	wait_until 30 proc_nanosleeps "$kid"
	kill -KILL "$kid"
	wait "$pid" && st=0 || st=$?
	expect_eq "$st" 137 "exit status"
	expect_eq "$(rows exit | awk '{ print $4 }')" 77 "the exit line"
}

@test "-N: each process is let go after N ticks with a total; the command's status" {
	local getpid
	getpid=$(workload getpid_n)
	# The command ends only once it was let go (the total line is out),
	# giving up after 20 s.
	run --separate-stderr "$CPUTRACK" -T 0.1 -N 2 -o "$OUT" -c "$EV" \
	    sh -c "$getpid 10; n=0; until grep -q ' total ' $OUT || [ \$n -ge 400 ]; do sleep 0.05; n=\$((n + 1)); done; exit 5"
	expect_status 5
	expect_eq "$(rows tick | wc -l)" 2 "tick lines"
	expect_eq "$(rows total | wc -l)" 1 "total line"
	expect_eq "$(rows exit | wc -l)" 0 "no exit line"
}

@test "-v: init_lwp and fini_lwp lines around the counts" {
	local getpid pid
	getpid=$(workload getpid_n)
	run --separate-stderr "$CPUTRACK" -v -o "$OUT" -c "$EV" "$getpid" 321
	expect_status 0
	ct_check "$OUT"
	pid=$(rows exit | awk '{ print $2 }')
	expect_eq "$(awk 'NR > 1 { print $3 }' "$OUT" | tr '\n' ' ')" \
	    "init_lwp fini_lwp exit " "line kinds in order"
	expect_eq "$(value init_lwp "$pid")" 0 "init_lwp"
	expect_eq "$(value fini_lwp "$pid")" 321 "fini_lwp"
	expect_eq "$(value exit "$pid")" 321 "exit"
}

@test "-n, -t and -o: no title, a tick column, output in the file only" {
	local getpid
	getpid=$(workload getpid_n)
	run --separate-stderr "$CPUTRACK" -n -t -o "$OUT" -c "$EV" "$getpid" 5
	expect_status 0
	expect_eq "$output" "" "stdout"
	expect_eq "$(wc -l <"$OUT")" 1 "lines in the file"
	ct_check -t "$OUT"
	expect_eq "$(awk '{ print $3, $5 }' "$OUT")" "exit 5" "kind and value"
	run --separate-stderr "$CPUTRACK" -t -c "$EV" "$getpid" 5
	expect_match "${lines[0]}" "^   time     lwp      event +$(tick_name)      pic0 \$"
}

@test "the output is written out while cputrack waits: the ticks are in the file and the pipe as they come" {
	local wl pid got
	wl=$(workload slowloop)
	# To a file: two ticks there while the command still runs.
	"$CPUTRACK" -T 0.2 -o "$OUT" -c "$EV" "$wl" -i 5 8000 \
	    >/dev/null 2>&1 &
	pid=$!
	KILL_PIDS+=("$pid")
	wait_until 5 eval '[ "$(rows tick 2>/dev/null | wc -l)" -ge 2 ]'
	kill -0 "$pid" || fail_with "cputrack ended before the check"
	expect_eq "$(head -1 "$OUT" | awk '{ print $1, $3 }')" "time event" \
	    "the title first"
	ct_check "$OUT"
	kill -TERM "$pid"
	wait_exit "$pid" 10
	expect_eq "$WAIT_STATUS" 143 "SIGTERM went to the command"
	expect_eq "$(rows total | wc -l)" 1 "the total line at the end"
	# To a pipe, with -p: the reader gets the title and a tick at once,
	# not when cputrack ends (it would not in 10 s).
	"$wl" -i 5 8000 >/dev/null &
	pid=$!
	KILL_PIDS+=("$pid")
	wait_until 10 proc_exe_is "$pid" "$wl"
	got=$(timeout 20 bash -c '"$1" -T 0.2 -N 50 -c "$2" -p "$3" |
	    { IFS= read -r -t 5 a && IFS= read -r -t 5 b && echo "$b"; }' _ \
	    "$CPUTRACK" "$EV" "$pid") || true
	expect_match "$got" "^ +[0-9.]+ +$pid +tick +[0-9]+ *\$" \
	    "a tick line read within 5 s"
	kill -TERM "$pid"
	wait_exit "$pid" 10
}

@test "several -c sets rotate per tick on every thread, each line names its set" {
	local getpid
	getpid=$(workload getpid_n)
	run --separate-stderr "$CPUTRACK" -T 0.1 -o "$OUT" -c "$EV" \
	    -c page-faults "$getpid" -a 650 7
	expect_status 0
	ct_check "$OUT"
	expect_eq "$(rows tick | awk '{ print $NF }' | head -4 | tr '\n' ' ')" \
	    "$EV page-faults $EV page-faults " "sets in turn"
	expect_eq "$(rows exit | grep -c "# $EV\$")" 1 "an exit line per set"
	expect_eq "$(rows exit | grep "# $EV\$" | awk '{ print $4 }')" 7 \
	    "the getpid set"
	expect_eq "$(rows exit | grep -c '# page-faults$')" 1 "page-faults"
}

@test "a closed output pipe: tracking stops quietly, the command finishes" {
	local getpid
	getpid=$(workload getpid_n)
	run --separate-stderr bash -c 'set -o pipefail;
	    "$1" -T 0.05 -c "$2" sh -c "$3 -a 600 10; exit 6" | head -2' _ \
	    "$CPUTRACK" "$EV" "$getpid"
	expect_status 6
	expect_eq "$stderr" "" "stderr"
	expect_eq "${#lines[@]}" 2 "lines read"
}

@test "a closed output pipe while threads come and go: the command is reaped, run after run" {
	local wl i st hung=0
	wl=$(workload threads_getpid)
	# A thread that ended attached after its process was let go must be
	# reaped too, or the command never is (about 1 run in 40 hung).
	for i in $(seq 60); do
		st=0
		timeout -s KILL 20 bash -c 'set -o pipefail; "$1" -T 0.05 \
		    -c "$2" "$3" -k 10 -s 20 2>&1 | head -3 >/dev/null' _ \
		    "$CPUTRACK" "$EV" "$wl" || st=$?
		[ "$st" -ne 137 ] || hung=$((hung + 1))
	done
	expect_eq "$hung" 0 "runs that hung"
}

@test "unprivileged: a user counts the user mode of its own command" {
	requires unpriv_user
	local touch wl
	make_user
	touch=$TEST_WORKLOADS/touch_pages
	run --separate-stderr as_user_cmd "$TEST_CPUTRACK" \
	    -c page-faults,task-clock "$touch" 0
	expect_status 0
	local base
	base=$(awk '$3 == "exit" { print $4 }' <<<"$output")
	run --separate-stderr as_user_cmd "$TEST_CPUTRACK" \
	    -c page-faults,task-clock "$touch" 500
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	# the start-up's own faults vary by a few pages between runs (CI
	# once saw 4 fewer than the run before)
	expect_range "$(awk '$3 == "exit" { print $4 }' <<<"$output")" \
	    $((base + 490)) $((base + 510)) "page faults: 500 more than none"
	expect_range "$(awk '$3 == "exit" { print $5 }' <<<"$output")" 1 \
	    10000000000 "task-clock ns"
}

# has_row KIND: the output has a line of that kind yet.
has_row() {
	[ -e "$OUT" ] && [ -n "$(rows "$1")" ]
}

# cmd_runs PID PROG: cputrack PID's command runs PROG (it has exec'd);
# sets KID to its pid.
cmd_runs() {
	KID=$(pgrep -P "$1") && proc_exe_is "$KID" "$2"
}

@test "SIGTERM once -N released the command: it is forwarded, the status is 143" {
	local wl pid
	wl=$(workload slowloop)
	"$CPUTRACK" -T 0.1 -N 1 -o "$OUT" -c "$EV" "$wl" 10000 &
	pid=$!
	wait_until 5 has_row total
	kill -TERM "$pid"
	wait_exit "$pid" 5
	expect_eq "$WAIT_STATUS" 143 "exit status: the command's (128 + SIGTERM)"
	expect_eq "$(rows tick | wc -l)" 1 "tick lines"
}

@test "SIGTERM once an exec without -e released the command: forwarded, 143" {
	local wl pid
	wl=$(workload slowloop)
	"$CPUTRACK" -T 0.1 -o "$OUT" -c "$EV" sh -c "exec $wl 10000" &
	pid=$!
	wait_until 5 has_row exec
	kill -TERM "$pid"
	wait_exit "$pid" 5
	expect_eq "$WAIT_STATUS" 143 "exit status: the command's (128 + SIGTERM)"
}

@test "a signal after the release reaches the command once; a command that catches it gives the status" {
	local log=$BATS_TEST_TMPDIR/terms ready=$BATS_TEST_TMPDIR/ready pid
	# The trap runs when the current sleep ends; the loop gives up after
	# 10 s, so nothing outlives a failed test.
	"$CPUTRACK" -T 0.1 -N 1 -o "$OUT" -c "$EV" sh -c "trap 'echo TERM >>$log; exit 3' TERM; : >$ready; n=0; while [ \$n -lt 200 ]; do sleep 0.05; n=\$((n + 1)); done; exit 9" &
	pid=$!
	wait_until 5 has_row total
	wait_until 5 test -e "$ready"
	kill -TERM "$pid"
	wait_exit "$pid" 5
	expect_eq "$WAIT_STATUS" 3 "exit status: the command's, from its trap"
	expect_eq "$(cat "$log")" TERM "the signals the command got"
}

@test "SIGTERM after the command was reaped: a process that reused its pid is not signalled" {
	local wl pid cmd kid victim i st
	[ -w /proc/sys/kernel/ns_last_pid ] ||
	    skip "needs a writable /proc/sys/kernel/ns_last_pid"
	wl=$(workload slowloop)
	# The command forks a child, followed into its exec, and exits 7;
	# cputrack reaps it and goes on tracking the child.
	"$CPUTRACK" -f -e -T 0 -o "$OUT" -c "$EV" sh -c "$wl 10000 >/dev/null & exit 7" &
	pid=$!
	wait_until 5 has_row exit
	cmd=$(rows fork | awk '{ print $2 }')
	kid=$(rows fork | awk '{ print $NF }')
	KILL_PIDS+=("$pid" "$kid")
	wait_until 5 test ! -e "/proc/$cmd"
	# Make the next process take the command's pid (others may race).
	for i in $(seq 20); do
		echo $((cmd - 1)) >/proc/sys/kernel/ns_last_pid
		sleep 60 &
		victim=$!
		KILL_PIDS+=("$victim")
		[ "$victim" = "$cmd" ] && break
		kill "$victim"
		wait "$victim" 2>/dev/null || true
	done
	if [ "$victim" != "$cmd" ]; then
		kill -TERM "$pid"
		wait "$pid" || true
		kill -USR1 "$kid" 2>/dev/null || true
		skip "could not start a process with the pid $cmd"
	fi
	kill -TERM "$pid"
	wait_exit "$pid" 5
	kill -0 "$victim" 2>/dev/null && st=alive || st=dead
	kill -KILL "$victim" 2>/dev/null || true
	kill -USR1 "$kid" 2>/dev/null || true
	wait "$victim" 2>/dev/null || true
	KILL_PIDS=()
	expect_eq "$st" alive "the process that took the command's pid"
	expect_eq "$WAIT_STATUS" 7 "exit status: the command's"
	expect_eq "$(rows total | grep -v ' # tree$' | awk '{ print $2 }')" \
	    "$kid" "the child's total line"
	# -f: then the tree's, the command's pid and its two processes
	expect_eq "$(rows total | grep ' # tree$' | awk '{ print $2, $3 }')" \
	    "$cmd 2" "the tree's total line"
}

@test "cputrack killed (SIGKILL) after the release: the kernel kills the command too" {
	local wl pid kid kind
	wl=$(workload slowloop)
	for kind in total exec; do
		rm -f "$OUT"
		if [ "$kind" = total ]; then
			"$CPUTRACK" -T 0.1 -N 1 -o "$OUT" -c "$EV" "$wl" 10000 &
		else
			"$CPUTRACK" -T 0.1 -o "$OUT" -c "$EV" \
			    sh -c "exec $wl 10000" &
		fi
		pid=$!
		wait_until 5 has_row "$kind"
		kid=$(rows "$kind" | awk '{ print $2 }' | head -1)
		KILL_PIDS+=("$kid")
		! proc_gone "$kid" || fail_with "no command running ($kind)"
		kill -KILL "$pid"
		wait "$pid" || true
		wait_until 5 proc_gone "$kid" ||
		    fail_with "the command outlived cputrack (released: $kind)"
		KILL_PIDS=()
	done
}

@test "the command keeps the open-file limit cputrack was started with" {
	local soft=256
	[ "$(ulimit -Hn)" = unlimited ] || [ "$(ulimit -Hn)" -gt $soft ] ||
	    skip "needs a hard open-file limit above $soft"
	run --separate-stderr bash -c 'ulimit -Sn "$1"; shift; exec "$@"' _ \
	    $soft "$CPUTRACK" -n -T 0 -o "$OUT" -c "$EV" sh -c 'ulimit -Sn'
	expect_status 0
	expect_eq "$output" $soft "the command's soft limit"
}

@test "exec lines: control characters of the command line are escaped" {
	local execer arg
	execer=$(workload execer)
	arg=$'x\ny\tz\\w\001v\177u'
	run --separate-stderr "$CPUTRACK" -o "$OUT" -c "$EV" "$execer" 0 true "$arg"
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	ct_check "$OUT"
	expect_eq "$(wc -l <"$OUT")" 3 "lines: title, exec values, exec name"
	expect_eq "$(rows exec | awk '$4 == "#"' | sed 's/.* # //')" \
	    "'true x\\ny\\tz\\\\w\\001v\\177u'" "the exec name line"
}

# ---- -T 0: no thread stopped ---------------------------------------------
# The command runs untraced, the kernel's inherited counters count each
# thread, and every line is the one the ptrace run (with ticks, -T 60
# here: no tick comes in these short runs) prints.

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

@test "-T 0 unprivileged: no thread stopped for a user either, each thread's lines" {
	requires unpriv_user
	local wl
	make_user
	wl=$TEST_WORKLOADS/threads_getpid
	run --separate-stderr as_user_cmd timeout 60 "$TEST_CPUTRACK" -D -T 0 \
	    -c page-faults,task-clock "$wl" -k 0 -s 5
	expect_status 0
	expect_eq "$(grep -c 'threads are stopped' <<<"$stderr")" 0 \
	    "-D says the threads are not stopped ($stderr)"
	expect_eq "$(awk '$3 == "lwp_create"' <<<"$output" | wc -l)" 5 \
	    "lwp_create lines"
	expect_eq "$(awk '$3 == "lwp_exit" && $5 > 0' <<<"$output" | wc -l)" 5 \
	    "lwp_exit lines, each with its task-clock"
}

@test "-T 0: other processes' threads, forks and execs at the same time leave no line" {
	local wl
	wl=$(workload threads_getpid)
	# Noise for 60 s at most: a process creating threads, a shell forking
	# and executing; killed at the end, away from bats's descriptors.
	sh -c 'end=$(($(date +%s) + 60)); while [ "$(date +%s)" -lt $end ]
	    do "$1" -k 0 -s 50; done' _ "$wl" >/dev/null 2>&1 &
	KILL_PIDS+=($!)
	sh -c 'end=$(($(date +%s) + 60)); while [ "$(date +%s)" -lt $end ]
	    do /bin/true; done' >/dev/null 2>&1 &
	KILL_PIDS+=($!)
	run --separate-stderr timeout 60 "$CPUTRACK" -T 0 -o "$OUT" -c "$EV" \
	    "$wl" -k 10 -s 40
	expect_status 0
	expect_eq "$(rows lwp_create | wc -l)" 40 "lwp_create lines"
	expect_eq "$(rows lwp_exit | wc -l)" 40 "lwp_exit lines"
	expect_eq "$(awk '$3 != "lwp_create" && $3 != "lwp_exit" &&
	    $1 != "time"' "$OUT" | awk '{ print $3 }' | tr '\n' ' ')" "exit " \
	    "the other lines: the exit"
	expect_eq "$(rows exit | awk '{ print $4 }')" $((10 * 40 * 41 / 2)) \
	    "exit"
	kill "${KILL_PIDS[@]}"
	KILL_PIDS=()
}
