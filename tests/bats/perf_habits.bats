#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# perf_habits.bats - perf stat's options typed at cpustat or cputrack:
# refused with the option to use (and -e's events spelt for -c), while
# the Solaris options keep their meaning (cputrack -e follows exec, cpustat
# -p is the rotation period, warned about when it looks like a process).

setup() {
	load helper
	machine_lock
}

teardown() {
	machine_unlock
	if [ -n "${BG_PID-}" ]; then
		kill "$BG_PID" 2>/dev/null || true
		wait "$BG_PID" 2>/dev/null || true
	fi
}

# usage_error TOOL MESSAGE: the last run was TOOL's usage error: status 2,
# nothing on stdout, "TOOL: MESSAGE" then the usage lines on stderr.
usage_error() {
	expect_status 2 || return 1
	expect_eq "$output" "" "stdout" || return 1
	expect_eq "${stderr_lines[0]-}" "$1: $2" "the message" || return 1
	expect_match "${stderr_lines[1]-}" "^usage: $1 " || return 1
	# the rest of the usage: its continuation lines, each indented
	local i
	for ((i = 2; i < ${#stderr_lines[@]}; i++)); do
		expect_match "${stderr_lines[i]}" $'^\t' "usage line $i" ||
		    return 1
	done
}

@test "-e: events are given with -c, perf's list spelt for -c" {
	run --separate-stderr "$CPUSTAT" -e cycles 1 1
	usage_error cpustat "invalid option '-e': events are given with -c (perf's -e 'cycles' is -c 'cycles,sys')"
	run --separate-stderr "$CPUSTAT" -ecpu-clock:u,page-faults:k
	usage_error cpustat "invalid option '-e': events are given with -c (perf's -e 'cpu-clock:u,page-faults:k' is -c 'cpu-clock,page-faults,sys1,nouser1')"
	run --separate-stderr "$CPUSTAT" --event=cpu-clock:k
	usage_error cpustat "invalid option '-e': events are given with -c (perf's -e 'cpu-clock:k' is -c 'cpu-clock,sys,nouser')"
	run --separate-stderr "$CPUTRACK" --event cpu-clock:u true
	usage_error cputrack "invalid option '--event': events are given with -c (perf's -e 'cpu-clock:u' is -c 'cpu-clock')"
	# no -c spelling (a precise modifier), no list at all
	run --separate-stderr "$CPUSTAT" -e cycles:pp 1
	usage_error cpustat "invalid option '-e': events are given with -c (see -h and --list-events)"
	run --separate-stderr "$CPUSTAT" -e
	usage_error cpustat "invalid option '-e': events are given with -c (see -h and --list-events)"
	run --separate-stderr "$CPUTRACK" --event
	usage_error cputrack "invalid option '--event': events are given with -c (see -h and --list-events)"
}

@test "the -c spellings the hints show are taken by -c and count" {
	requires root
	local getpid
	getpid=$(workload getpid_n)
	# getpid_n N calls getpid N times: the count is exact
	run --separate-stderr "$CPUSTAT" -e syscalls:sys_enter_getpid 0.1 1
	local spell=${stderr_lines[0]#*is -c \'}
	spell=${spell%\')}
	expect_eq "$spell" "syscalls:sys_enter_getpid,sys" "the spelling"
	run --separate-stderr "$CPUTRACK" -c "$spell" "$getpid" 5
	expect_status 0
	expect_match "${lines[1]}" ' exit +5 $'
}

@test "cputrack -e still follows exec; without -c it says so" {
	run --separate-stderr "$CPUTRACK" -e cycles ./prog
	usage_error cputrack "no events: give at least one -c or -S; -e follows exec(2) here (perf's -e 'cycles' is -c 'cycles,sys')"
	run --separate-stderr "$CPUTRACK" -e -- ./prog
	usage_error cputrack "no events: give at least one -c or -S; -e follows exec(2) here"
	# a command is not taken for an event list
	run --separate-stderr "$CPUTRACK" -e ls -l
	usage_error cputrack "no events: give at least one -c or -S; -e follows exec(2) here"
	# perf's order: -p first, then -e EVENTS
	run --separate-stderr "$CPUTRACK" -p 1 -e cpu-clock:u
	usage_error cputrack "no events: give at least one -c or -S; -e follows exec(2) here (perf's -e 'cpu-clock:u' is -c 'cpu-clock')"
	run --separate-stderr "$CPUTRACK" true
	usage_error cputrack "no events: give at least one -c or -S"
}

@test "cputrack -e with -c is Solaris's -e: counts through the exec" {
	requires root
	local getpid
	getpid=$(workload getpid_n)
	run --separate-stderr "$CPUTRACK" -e -c syscalls:sys_enter_getpid \
	    sh -c "exec $getpid 9"
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_match "$output" ' exit +9 '
}

@test "-a: cpustat always counts every CPU; cputrack counts a command or a process" {
	run --separate-stderr "$CPUSTAT" -a 1 1
	usage_error cpustat "invalid option '-a': cpustat always counts every CPU (-C cpulist counts some)"
	run --separate-stderr "$CPUSTAT" --all-cpus
	usage_error cpustat "invalid option '-a': cpustat always counts every CPU (-C cpulist counts some)"
	run --separate-stderr "$CPUTRACK" -a -c cpu-clock true
	usage_error cputrack "invalid option '-a': cputrack counts a command or a process (-p pid); cpustat counts every CPU"
}

@test "-I: the interval is in seconds, the operand of cpustat and -T of cputrack" {
	run --separate-stderr "$CPUSTAT" -I 500 -c cpu-clock
	usage_error cpustat "invalid option '-I': the interval is the first operand, in seconds (perf's -I 500 is the operand 0.5)"
	run --separate-stderr "$CPUTRACK" --interval-print=2000 -c cpu-clock true
	usage_error cputrack "invalid option '-I': the interval is -T, in seconds (perf's -I 2000 is -T 2)"
	run --separate-stderr "$CPUTRACK" -I x -c cpu-clock true
	usage_error cputrack "invalid option '-I': the interval is -T, in seconds"
}

@test "-x: comma-separated output is --format=csv" {
	run --separate-stderr "$CPUSTAT" -x, -c cpu-clock 1 1
	usage_error cpustat "invalid option '-x': for comma-separated output use --format=csv"
	run --separate-stderr "$CPUTRACK" -x ';' -c cpu-clock true
	usage_error cputrack "invalid option '-x': for comma-separated output use --format=csv"
}

# ---- cpustat -p: the rotation period, warned about when it looks like a pid

# expect_ran: the last cpustat run ended with status 0 and one sample line
# per usable CPU.
expect_ran() {
	expect_status 0
	parse_output
	expect_eq "${#S_TIME[@]}" "$(usable_cpus | wc -l)" "sample lines"
}

@test "cpustat -p PID with one set: a warning, and -p stays the period" {
	requires root
	sleep 30 &
	BG_PID=$!
	run --separate-stderr "$CPUSTAT" -p "$BG_PID" -c cpu-clock 0.1 1
	expect_ran
	expect_eq "$stderr" "cpustat: -p $BG_PID is the period, in seconds, of the rotation of the -c sets; process $BG_PID is counted with cputrack -p $BG_PID" "stderr"
	# without -c: the default set is one set too
	run --separate-stderr "$CPUSTAT" -p "$BG_PID" 0.1 1
	expect_status 0
	expect_match "$stderr" "^cpustat: -p $BG_PID is the period"
}

@test "cpustat -p: no warning with sets to rotate, a fraction, no such process, or a kernel thread" {
	requires root
	local kt=
	sleep 30 &
	BG_PID=$!
	run --separate-stderr "$CPUSTAT" -p "$BG_PID" -c cpu-clock -c cs 0.1 1
	expect_status 0
	expect_eq "$stderr" "" "stderr with two sets"
	run --separate-stderr "$CPUSTAT" -p "$BG_PID.0" -c cpu-clock 0.1 1
	expect_ran
	expect_eq "$stderr" "" "stderr with $BG_PID.0"
	kill "$BG_PID"
	wait "$BG_PID" 2>/dev/null || true
	run --separate-stderr "$CPUSTAT" -p "$BG_PID" -c cpu-clock 0.1 1
	expect_ran
	expect_eq "$stderr" "" "stderr once $BG_PID has ended"
	# kthreadd is pid 2 where there is one
	[ "$(cat /proc/2/comm 2>/dev/null)" = kthreadd ] && kt=2
	[ -n "$kt" ] || skip "no kthreadd as pid 2"
	run --separate-stderr "$CPUSTAT" -p "$kt" -c cpu-clock 0.1 1
	expect_ran
	expect_eq "$stderr" "" "stderr with the kernel thread $kt"
}
