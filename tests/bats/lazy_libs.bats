#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# lazy_libs.bats - libpfm4 and libtracefs are loaded only when a name
# needs them, and tracefs is mounted when it is missing (as perf does),
# tried in a mount namespace of its own so that the machine's mounts
# never change.

setup() {
	load helper
	machine_lock
}

teardown() {
	machine_unlock
}

# maps timeout SECS PROG...: the shared objects PROG has mapped while it
# counts for a second (read from /proc/PID/maps half-way).  PROG is
# timeout's child: timeout itself runs on in a process of its own.
maps() {
	"$@" >/dev/null 2>&1 &
	local pid=$! kid
	sleep 0.5
	kid=$(pgrep -P "$pid" | head -1)
	cat "/proc/${kid:-$pid}/maps"
	wait "$pid"
}

@test "software events map neither libpfm4 nor libtracefs" {
	run maps timeout 10 "$CPUSTAT" -c cpu-clock,context-switches 1 1
	expect_status 0
	expect_match "$output" 'libc\.so'
	grep -qF "$(readlink -f "$CPUSTAT")" <<<"$output" ||
	    fail_with "the maps read are not cpustat's"
	if echo "$output" | grep -E 'libpfm|libtracefs|libtraceevent'; then
		fail_with "a library was loaded for software events"
	fi
}

@test "a tracepoint loads no libpfm4" {
	requires root tracepoint:syscalls:sys_enter_getpid
	run maps timeout 10 "$CPUSTAT" -c syscalls:sys_enter_getpid 1 1
	expect_status 0
	grep -qF "$(readlink -f "$CPUSTAT")" <<<"$output" ||
	    fail_with "the maps read are not cpustat's"
	if echo "$output" | grep libpfm; then
		fail_with "libpfm4 was loaded for a tracepoint"
	fi
}

@test "tracefs unmounted: mounted by libtracefs, and the tracepoint counts" {
	requires root tracepoint:syscalls:sys_enter_getpid
	command -v unshare >/dev/null || skip "needs unshare (util-linux)"
	unshare -m --propagation private true 2>/dev/null ||
	    skip "cannot make a mount namespace here"
	getpid=$(workload getpid_n)
	run unshare -m --propagation private sh -c '
	    umount /sys/kernel/tracing 2>/dev/null
	    umount /sys/kernel/debug/tracing 2>/dev/null
	    umount /sys/kernel/debug 2>/dev/null
	    [ "$(stat -f -c %T /sys/kernel/tracing)" != tracefs ] || exit 99
	    timeout 20 "$1" -c syscalls:sys_enter_getpid "$2" 1234 || exit $?
	    stat -f -c %T /sys/kernel/tracing' sh "$CPUTRACK" "$getpid"
	[ "$status" -ne 99 ] || skip "tracefs could not be unmounted here"
	expect_status 0
	expect_eq "${lines[-1]}" tracefs "tracefs is mounted afterwards"
	run awk '$3 == "exit" { print $4 }' <<<"$output"
	expect_eq "$output" 1234 "the getpid calls counted"
}
