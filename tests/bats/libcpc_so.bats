#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# libcpc_so.bats - programs built against the shared object libcpc.so.1,
# as users build them: cpc_strtoset is exported, the v1 interface is in
# the SUNW_1.1 node under the v2 one, and the Solaris 8-style program of
# tests/unit/t_v1sol.c counts exactly when linked with -lcpc.

load helper

ROOT=$(cd "$TESTS_DIR/.." && pwd)
BUILD=$(cd "$(dirname "$CPUSTAT")/.." 2>/dev/null && pwd)

@test "libcpc.so: the symbol versions of the Solaris nodes, oldest first" {
	local syms
	command -v objdump >/dev/null || skip "needs objdump"
	[ -e "$BUILD/libcpc/libcpc.so.1" ] || skip "libcpc.so.1 is not built"
	syms=$(objdump -T "$BUILD/libcpc/libcpc.so.1")
	grep -qE 'SUNW_1\.1 +cpc_bind_event$' <<<"$syms" &&
	    grep -qE 'SUNW_1\.1 +cpc_strtoevent$' <<<"$syms" &&
	    grep -qE 'SUNW_1\.2 +cpc_open$' <<<"$syms" &&
	    grep -qE 'CPCTOOLS_1\.1 +cpc_strtoset$' <<<"$syms" ||
	    fail_with "unexpected versions: $(grep -E 'cpc_(bind_event|strtoevent|open|strtoset)$' <<<"$syms")"
	# SUNW_1.2 inherits SUNW_1.1, as on Solaris.
	run objdump -p "$BUILD/libcpc/libcpc.so.1"
	[[ $output =~ SUNW_1\.2[[:space:]]+SUNW_1\.1 ]] ||
	    fail_with "SUNW_1.2 does not inherit SUNW_1.1"
}

@test "libcpc.so: a program links cpc_strtoset and binds its set" {
	requires root tracepoint:syscalls:sys_enter_getpid
	local dir=$BATS_TEST_TMPDIR
	cat >"$dir/strtoset.c" <<'PROG'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <libcpc.h>

int
main(int argc, char **argv)
{
	cpc_t *cpc = cpc_open(CPC_VER_CURRENT);
	cpc_set_t *set;
	cpc_buf_t *buf;
	uint64_t n = 0;
	int i, rc = 0;

	(void)argc;
	if (cpc == NULL)
		return 4;
	if ((set = cpc_strtoset(cpc, argv[1], 0)) == NULL)
		rc = 1;
	else if ((buf = cpc_buf_create(cpc, set)) == NULL ||
	    cpc_bind_curlwp(cpc, set, 0) != 0)
		rc = 2;
	else {
		for (i = 0; i < 777; i++)
			(void)syscall(SYS_getpid);
		if (cpc_set_sample(cpc, set, buf) != 0 ||
		    cpc_buf_get(cpc, buf, 0, &n) != 0)
			rc = 3;
		else
			printf("%llu\n", (unsigned long long)n);
	}
	cpc_close(cpc);
	return rc;
}
PROG
	cc_libcpc "$dir/strtoset" "$dir/strtoset.c"
	expect_status 0 || return 1
	run timeout 60 "$dir/strtoset" "pic0=syscalls:sys_enter_getpid,sys"
	expect_status 0 && expect_eq "$output" 777 "getpid calls counted"
	run timeout 60 "$dir/strtoset" "pic0=syscalls:sys_enter_getpid,,x"
	expect_status 1 &&
	    expect_eq "$output" "libcpc: cpc_strtoset: empty token (two $(
	    )commas, or a comma at an end)" "the default handler's message"
}

@test "libcpc.so: a Solaris 8-style v1 program counts exactly with -lcpc" {
	requires root tracepoint:syscalls:sys_enter_getpid
	cc_libcpc "$BATS_TEST_TMPDIR/v1sol" "$ROOT/tests/unit/t_v1sol.c"
	expect_status 0 || return 1
	run timeout 60 "$BATS_TEST_TMPDIR/v1sol"
	expect_status 0 || return 1
	expect_eq "$(grep -c '^ok ' <<<"$output")" 21 "iterations counted" &&
	    expect_eq "$(grep -c '^not ok' <<<"$output")" 0 "failures"
}
