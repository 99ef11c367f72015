#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# cputrack_errors.bats - cputrack's exit statuses and every error path:
# the message on stderr, nothing on stdout, the status (2 usage, 125 its
# own failure with a command, 126/127 the command cannot run, 1 with -p).

setup() {
	load helper
	machine_lock
	EV=syscalls:sys_enter_getpid
}

teardown() {
	machine_unlock
	user_cleanup
	if [ -n "${BG_PID-}" ]; then
		kill "$BG_PID" 2>/dev/null || true
		wait "$BG_PID" 2>/dev/null || true
	fi
}

# ct_usage_error MSG: status 2, MSG then the usage line on stderr.
ct_usage_error() {
	expect_status 2
	expect_eq "$output" "" "stdout"
	expect_eq "${stderr_lines[0]}" "cputrack: $1" "the message"
	expect_match "${stderr_lines[1]}" '^usage: cputrack '
}

@test "usage errors: status 2, the message, the usage line" {
	run --separate-stderr "$CPUTRACK" -c page-faults
	ct_usage_error "no command to run and no -p pid"
	run --separate-stderr "$CPUTRACK" true
	ct_usage_error "no events: give at least one -c or -S"
	run --separate-stderr "$CPUTRACK" -c page-faults -p 1 true
	ct_usage_error "both a command ('true') and -p 1: choose one"
	run --separate-stderr "$CPUTRACK" -T x -c page-faults true
	ct_usage_error "invalid interval 'x': not a number of seconds"
	run --separate-stderr "$CPUTRACK" -T 0.0001 -c page-faults true
	ct_usage_error "invalid interval '0.0001': must be 0 or at least 0.001 seconds"
	run --separate-stderr "$CPUTRACK" -N -1 -c page-faults true
	ct_usage_error "invalid count '-1': must be from 0 to 1000000000"
	run --separate-stderr "$CPUTRACK" -T 0 -N 3 -c page-faults true
	ct_usage_error "-N 3 counts ticks, and -T 0 makes none"
	run --separate-stderr "$CPUTRACK" -p 0 -c page-faults
	ct_usage_error "invalid pid '0': must be from 1 to 2147483647"
	run --separate-stderr "$CPUTRACK" -p 1 -p 2 -c page-faults
	ct_usage_error "-p given twice: cputrack follows one process"
	run --separate-stderr "$CPUTRACK" -q -c page-faults true
	ct_usage_error "invalid option '-q'"
	run --separate-stderr "$CPUTRACK" -c page-faults -o
	ct_usage_error "option '-o' needs an argument"
	run --separate-stderr "$CPUTRACK" -c page-faults -fo
	ct_usage_error "option '-o' needs an argument"
	run --separate-stderr "$CPUTRACK" --verbose=2 -c page-faults true
	ct_usage_error "option '--verbose' takes no argument"
	run --separate-stderr "$CPUTRACK" -c nosuchevent true
	expect_status 2
	expect_match "${stderr_lines[0]}" "^cputrack: -c 'nosuchevent': unknown event 'nosuchevent'"
}

@test "options stop at the command; -- is honoured" {
	requires root
	local getpid
	getpid=$(workload getpid_n)
	run --separate-stderr "$CPUTRACK" -c "$EV" "$getpid" -a 0 3
	expect_status 0
	expect_match "${lines[1]}" ' exit +3 $'
	run --separate-stderr "$CPUTRACK" -c "$EV" -- "$getpid" -- 4
	expect_status 0
	expect_match "${lines[1]}" ' exit +4 $'
}

@test "--help matches -h's text; --version" {
	run --separate-stderr "$CPUTRACK" --help
	expect_status 0
	expect_match "${lines[0]}" '^Usage:'
	local help=$output
	run --separate-stderr "$CPUTRACK" -h
	expect_status 0
	expect_eq "${output:0:${#help}}" "$help" "-h begins with --help's text"
	run --separate-stderr "$CPUTRACK" --version
	expect_status 0
	expect_match "$output" '^cputrack \(cpc-tools\) '
}

@test "the command's exit status is cputrack's" {
	requires root
	run --separate-stderr "$CPUTRACK" -c page-faults sh -c 'exit 3'
	expect_status 3
	run --separate-stderr "$CPUTRACK" -c page-faults sh -c 'exit 0'
	expect_status 0
	run --separate-stderr "$CPUTRACK" -c page-faults sh -c 'kill -USR1 $$'
	expect_status $((128 + 10))
}

@test "a command that is not found: 127; not executable: 126" {
	run -127 --separate-stderr "$CPUTRACK" -c page-faults no-such-command-here
	expect_status 127
	expect_eq "$output" "" "stdout"
	expect_eq "$stderr" "cputrack: cannot find program 'no-such-command-here'"
	local f=$BATS_TEST_TMPDIR/notexec
	echo 'echo hi' >"$f"
	chmod 644 "$f"
	run --separate-stderr "$CPUTRACK" -c page-faults "$f"
	expect_status 126
	expect_eq "$stderr" "cputrack: cannot execute '$f': Permission denied"
	run --separate-stderr "$CPUTRACK" -c page-faults /
	expect_status 126
}

@test "an output file that cannot be opened: 125 with a command, 1 with -p" {
	run --separate-stderr "$CPUTRACK" -o /nonexistent/dir/f -c page-faults true
	expect_status 125
	expect_eq "$stderr" "cputrack: cannot open '/nonexistent/dir/f' for writing: No such file or directory"
	run --separate-stderr "$CPUTRACK" -o /nonexistent/dir/f -c page-faults -p 1
	expect_status 1
}

@test "-p: a process that does not exist, or cputrack itself" {
	local pid
	pid=$(( $(cat /proc/sys/kernel/pid_max) - 1 ))
	while [ -e "/proc/$pid" ]; do pid=$((pid - 1)); done
	run --separate-stderr "$CPUTRACK" -c page-faults -p "$pid"
	expect_status 1
	expect_eq "$output" "" "stdout"
	expect_eq "$stderr" "cputrack: process $pid does not exist"
}

@test "-p: a thread's id, or a kernel thread, is refused with the reason" {
	local wl pid tid
	requires root
	run --separate-stderr "$CPUTRACK" -c page-faults -p 2
	expect_status 1
	expect_eq "$stderr" "cputrack: cannot trace pid 2: it is a kernel thread, which runs no program to count"
	wl=$(workload slowloop)
	"$wl" -t 2 -x 0 30000 >/dev/null &
	pid=$!
	wait_until 10 has_threads "$pid" 2
	tid=$(ls "/proc/$pid/task" | grep -vx "$pid")
	run --separate-stderr "$CPUTRACK" -c page-faults -p "$tid"
	kill -USR1 "$pid"
	wait "$pid"
	expect_status 1
	expect_eq "$stderr" "cputrack: $tid is a thread of process $pid: give the process's pid"
}

@test "-p: a process already traced is refused, naming its tracer" {
	requires root
	local getpid out
	getpid=$(workload getpid_n)
	out=$BATS_TEST_TMPDIR/first
	# Ticks (-T 60): with -T 0 the threads are not stopped, not traced.
	"$CPUTRACK" -T 60 -o "$out" -c page-faults "$getpid" -a 30000 1 &
	BG_PID=$!
	local kid
	# its child once seized (it is forked first, then traced)
	wait_until 30 eval 'kid=$(pgrep -P "$BG_PID") && traced_by "$kid" "$BG_PID"'
	run --separate-stderr "$CPUTRACK" -c page-faults -p "$kid"
	expect_status 1
	expect_eq "$stderr" "cputrack: cannot trace pid $kid: it is already being traced by pid $BG_PID (cputrack)"
}

@test "unprivileged: tracing another user's process is refused with the reason" {
	requires unpriv_user
	make_user
	sleep 30 &
	BG_PID=$!
	run --separate-stderr as_user_cmd "$TEST_CPUTRACK" -c page-faults -p "$BG_PID"
	expect_status 1
	expect_eq "$stderr" "cputrack: cannot trace pid $BG_PID: it belongs to uid 0; only its owner or root may trace it"
}

@test "unprivileged: kernel-mode counting refused at bind, with the advice; the command is not run" {
	requires unpriv_user paranoid2
	local p marker=$BATS_TEST_TMPDIR/ran
	p=$(cat /proc/sys/kernel/perf_event_paranoid)
	make_user
	chmod 777 "$BATS_TEST_TMPDIR"
	run --separate-stderr as_user_cmd "$TEST_CPUTRACK" -c page-faults,sys \
	    sh -c "touch $marker"
	expect_status 125
	expect_match "$stderr" "cannot count 'page-faults' on thread [0-9]+: Permission denied \(perf_event_paranoid is $p"
	[ ! -e "$marker" ] || fail_with "the command ran"
}

@test "a set-id program under an unprivileged cputrack: it is said to run without its privileges" {
	requires unpriv_user
	make_user
	local prog=$TEST_BINDIR/setuid_true
	cp /bin/true "$prog"
	chmod 4755 "$prog"
	# a nosuid mount would silently drop the bit: nothing to say then
	findmnt -n -o OPTIONS -T "$prog" | grep -qw nosuid &&
	    skip "$TEST_BINDIR is on a nosuid mount"
	run --separate-stderr as_user_cmd "$TEST_CPUTRACK" -c page-faults "$prog"
	expect_status 0
	expect_eq "$stderr" "cputrack: note: '$prog' is set-user-ID: under tracing it runs without its privileges, as under a debugger"
}

@test "an output error (not a closed pipe): 125, the command killed at once and reaped" {
	local wl reaper start
	wl=$(workload slowloop)
	reaper=$(workload subreaper)
	# -n: the first line is the first tick, once the command runs.
	start=$EPOCHREALTIME
	run --separate-stderr "$reaper" "$CPUTRACK" -n -T 0.1 -o /dev/full \
	    -c task-clock "$wl" 10000
	expect_status 125
	expect_eq "$stderr" "cputrack: write error: No space left on device" \
	    "stderr"
	expect_eq "$output" "orphans 0" "what cputrack left behind"
	expect_frange "$(since "$start")" 0 5 "seconds (the command runs 10)"
	# The same on the standard output.
	start=$EPOCHREALTIME
	run --separate-stderr "$reaper" sh -c \
	    'exec "$0" -n -T 0.1 -c task-clock "$1" 10000 >/dev/full' \
	    "$CPUTRACK" "$wl"
	expect_status 125
	expect_eq "$stderr" "cputrack: write error: No space left on device" \
	    "stderr (standard output)"
	expect_eq "$output" "orphans 0" "what cputrack left behind (stdout)"
	expect_frange "$(since "$start")" 0 5 "seconds (stdout)"
}

@test "an output error once the command was released: it is killed and reaped all the same" {
	requires env_signals
	local wl reaper fifo=$BATS_TEST_TMPDIR/fifo out=$BATS_TEST_TMPDIR/out
	local start kid
	wl=$(workload slowloop)
	reaper=$(workload subreaper)
	mkfifo "$fifo"
	# The command execs (no -e: released) and runs on; a child followed
	# with -f waits on a fifo nobody opens, ticking, until the output
	# file reaches the 1 KiB limit.  That child, killed as tracked, is
	# left to the reaper (its parent, the command, is dead): a zombie.
	start=$EPOCHREALTIME
	run --separate-stderr env --ignore-signal=XFSZ bash -c \
	    'ulimit -f 1; exec "$@"' _ "$reaper" "$CPUTRACK" -f -n -T 0.02 \
	    -o "$out" -c task-clock sh -c "(read x <$fifo) & exec $wl 10000"
	expect_status 125
	expect_eq "$stderr" "cputrack: write error: File too large" "stderr"
	kid=$(awk '$4 == "fork" { print $NF }' "$out")
	expect_eq "$output" "$(printf 'orphans 1\norphan %s Z' "$kid")" \
	    "what cputrack left behind: only the child, dead"
	expect_frange "$(since "$start")" 0 5 "seconds (the command runs 10)"
}

@test "-p and an output error: status 1, the process let go, not killed" {
	requires root
	local wl
	wl=$(workload slowloop)
	"$wl" 10000 >/dev/null &
	BG_PID=$!
	# the workload, not the shell about to exec it (an exec would end
	# the tracking before the first tick)
	wait_until 10 proc_exe_is "$BG_PID" "$wl"
	run --separate-stderr "$CPUTRACK" -n -T 0.1 -o /dev/full -c page-faults \
	    -p "$BG_PID"
	expect_status 1
	expect_eq "$stderr" "cputrack: write error: No space left on device" \
	    "stderr"
	kill -0 "$BG_PID" || fail_with "the process did not survive"
}

@test "-p: a thread already traced by another tracer: the message names it and its tracer" {
	requires root
	local wl tracer pid tid tp
	wl=$(workload slowloop)
	tracer=$(workload tracer)
	"$wl" -t 3 10000 >/dev/null &
	BG_PID=$!
	pid=$BG_PID
	wait_until 10 has_threads "$pid" 3
	tid=$(ls "/proc/$pid/task" | sort -n | tail -1)
	"$tracer" "$tid" >"$BATS_TEST_TMPDIR/ready" &
	tp=$!
	wait_until 5 test -s "$BATS_TEST_TMPDIR/ready"
	run --separate-stderr "$CPUTRACK" -c page-faults -p "$pid"
	kill "$tp"
	wait "$tp" || true
	expect_status 1
	expect_eq "$stderr" "cputrack: cannot trace pid $pid: its thread $tid is already being traced by pid $tp (tracer)"
}
