#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# solaris_sources.bats - Solaris sources build and count unchanged: the
# seed page's two examples (tests/seed, built by make check with only
# their error() supplied), headers that meet a program's own Solaris
# types (uperf's #define hrtime_t uint64_t), case SIGEMT:, _lwp_self().

load helper

SEED=$(dirname "$WORKLOADS")/seed
ROOT=$(cd "$TESTS_DIR/.." && pwd)

# compiles PRELUDE BODY: a translation unit that includes libcpc.h after
# PRELUDE and has BODY in main compiles with -Werror (run's $status).
compiles() {
	local dir=$BATS_TEST_TMPDIR
	printf '%s\n#include <libcpc.h>\n#include <libpctx.h>\nint\nmain(void)\n{\n%s\n}\n' \
	    "$1" "$2" >"$dir/src.c"
	run timeout 60 "${CC:-cc}" -std=gnu11 -Wall -Wextra -Werror -c \
	    -I"$ROOT/include" -o "$dir/src.o" "$dir/src.c"
}

@test "seed Example 1: the getpid calls of each of 20 turns, exactly" {
	requires root tracepoint:syscalls:sys_enter_getpid
	[ -x "$SEED/example1" ] || skip "tests/seed is not built (make check)"
	EVENT0=syscalls:sys_enter_getpid EVENT1=syscalls:sys_enter_getppid \
	    run timeout 60 "$SEED/example1"
	expect_status 0 || return 1
	expect_eq "$(grep -c '^ *[0-9]*: 1234 0$' <<<"$output")" 20 \
	    "turns with 1234 getpid and 0 getppid calls" || {
		echo "$output" >&2
		return 1
	}
	expect_eq "$(sed -n '20p' <<<"$output")" " 20: 1234 0" "the last line"
}

@test "seed Example 1: its default events, on a machine without them, end in its error()" {
	local pmu=0
	[ -x "$SEED/example1" ] || skip "tests/seed is not built (make check)"
	ls /sys/bus/event_source/devices | grep -qE '^(cpu|cpu_core|armv)' &&
	    pmu=1
	[ $pmu -eq 0 ] || skip "this machine has a hardware PMU"
	run timeout 60 "$SEED/example1"
	expect_status 1 &&
	    expect_match "$output" "could not add first request"
}

@test "seed Example 2: a signal every 1000 getpid calls, each in the handler's own words" {
	requires root tracepoint:syscalls:sys_enter_getpid
	[ -x "$SEED/example2" ] || skip "tests/seed is not built (make check)"
	EVENT0=syscalls:sys_enter_getpid run timeout 60 "$SEED/example2"
	expect_status 0 || return 1
	# 20 turns of 250 calls: 5000, overflowing every 1000.
	expect_eq "$(grep -c '^lwp[0-9]* - si_addr .* ucontext: %pc 0x[0-9a-f]* %sp 0x[0-9a-f]*$' <<<"$output")" 5 \
	    "handler lines" || { echo "$output" >&2; return 1; }
	# The handler samples the stopped set: the preset has wrapped to 0.
	expect_eq "$(grep -c '^0x0$' <<<"$output")" 5 "samples of 0"
}

@test "libcpc.h: a program's own hrtime_t macro (uperf) does not collide" {
	compiles '#include <stdint.h>
#define hrtime_t uint64_t' 'hrtime_t t = 0; cpc_t *c = cpc_open(CPC_VER_CURRENT);
	(void)c; return (int)(t + (uint64_t)-1 > 0 ? 0 : 1);'
	expect_status 0 || echo "$output" >&2
}

@test "libcpc.h: a program's own typedefs behind their guards, or CPC_NO_SOLARIS_TYPES" {
	compiles 'typedef unsigned long long hrtime_t;
#define _HRTIME_T
typedef unsigned short processorid_t;
#define _PROCESSORID_T' 'hrtime_t t = 0; processorid_t p = 0; uint_t u = 0;
	return (int)(t + p + u);'
	expect_status 0 || { echo "$output" >&2; return 1; }
	compiles '#define CPC_NO_SOLARIS_TYPES
typedef double hrtime_t;
typedef char uint_t;' 'hrtime_t t = 0.5; uint_t u = 1; return (int)(t + u) - 1;'
	expect_status 0 || echo "$output" >&2
}

@test "libcpc.h: SIGEMT is an integer constant (case SIGEMT:), _lwp_self() the thread ID" {
	compiles '#include <unistd.h>
#include <sys/syscall.h>' 'static const int sigs[] = { SIGEMT };
	_Static_assert(SIGEMT > 0, "constant");
	switch (sigs[0]) {
	case SIGEMT:
		break;
	default:
		return 1;
	}
	return _lwp_self() == (id_t)syscall(SYS_gettid) ? 0 : 1;'
	expect_status 0 || echo "$output" >&2
}

@test "seed Example 2 on task-clock (1000 ns to overflow): refused, naming the shortest period, nothing wedged" {
	[ -x "$SEED/example2" ] || skip "tests/seed is not built (make check)"
	# Before the check this stalled a CPU for 18 minutes; the time limit
	# stands whatever happens.
	EVENT0=task-clock run --separate-stderr timeout -s KILL 60 \
	    "$SEED/example2"
	expect_status 1 || return 1
	expect_match "$stderr" "libcpc: cpc_set_add_request: preset 0xfffffffffffffc18 of 'task-clock' would overflow every 1000 events; this kernel cannot take an overflow period under 100000" &&
	    expect_match "$stderr" "cannot add request to set: Invalid argument"
}
