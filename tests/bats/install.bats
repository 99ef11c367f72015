#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# install.bats - what `make install` gives programs: libpctx as a library
# of its own (libpctx.so.1, libpctx.h, libpctx.pc), found by pkg-config in
# a DESTDIR staging, and a Solaris makefile's `-lcpc -lpctx`.

load helper

ROOT=$(cd "$TESTS_DIR/.." && pwd)
# The build directory of the libraries under test (tests/run sets CPUSTAT).
BUILD=$(cd "$(dirname "$CPUSTAT")/.." 2>/dev/null && pwd)

# stage: install the build under test into $STAGE (prefix /usr), once for
# the file; set STAGE, CC_SAN (the flags a program of a sanitized build
# needs) and PKG (pkg-config looking at the staging alone).
stage() {
	local cc=${CC:-cc} san=
	command -v "$cc" >/dev/null || skip "no C compiler ($cc)"
	command -v make >/dev/null || skip "needs make"
	command -v pkg-config >/dev/null ||
	    skip "needs pkg-config (apt-get install pkg-config)"
	[ -n "$BUILD" ] && [ -e "$BUILD/libcpc/libpctx.so.1" ] ||
	    skip "libpctx.so.1 is not built (make)"
	CC_SAN=()
	if readelf -d "$BUILD/libcpc/libpctx.so.1" | grep -q 'NEEDED.*libasan'
	then
		CC_SAN=(-fsanitize=address,undefined)
		san=1
	fi
	STAGE=$BATS_FILE_TMPDIR/stage
	# pkg-config's paths, as for a sysroot: the .pc files say /usr.
	PKG=(env PKG_CONFIG_SYSROOT_DIR="$STAGE"
	    PKG_CONFIG_LIBDIR="$STAGE/usr/lib/pkgconfig" PKG_CONFIG_PATH=
	    timeout 20 pkg-config)
	[ -e "$STAGE/.done" ] && return 0
	run timeout 600 make -C "$ROOT" -s B="$BUILD" ${san:+SAN=1} \
	    DESTDIR="$STAGE" prefix=/usr install
	expect_status 0 || return 1
	touch "$STAGE/.done"
}

# needed FILE: the NEEDED entries of FILE, one a line.
needed() {
	timeout 20 readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}

@test "install: libpctx.so.1, its link, libpctx.h and libpctx.pc are installed" {
	stage || return 1
	local f
	for f in usr/lib/libpctx.so.1 usr/lib/libpctx.so usr/include/libpctx.h \
	    usr/lib/pkgconfig/libpctx.pc usr/lib/libcpc.so.1 \
	    usr/include/libcpc.h usr/lib/pkgconfig/libcpc.pc; do
		[ -e "$STAGE/$f" ] || fail_with "$f was not installed" ||
		    return 1
	done
	expect_eq "$(readlink "$STAGE/usr/lib/libpctx.so")" libpctx.so.1 \
	    "the libpctx.so link" || return 1
	run timeout 20 readelf -d "$STAGE/usr/lib/libpctx.so.1"
	expect_match "$output" 'SONAME\).*\[libpctx\.so\.1\]' "its soname" ||
	    return 1
	# libcpc.so.1 needs it (cpc_bind_pctx takes a pctx_t); not the reverse.
	needed "$STAGE/usr/lib/libcpc.so.1" | grep -qx libpctx.so.1 ||
	    fail_with "libcpc.so.1 does not need libpctx.so.1" || return 1
	! needed "$STAGE/usr/lib/libpctx.so.1" | grep -q libcpc ||
	    fail_with "libpctx.so.1 needs libcpc"
}

@test "install: a program using only libpctx builds with pkg-config libpctx and follows its command's threads" {
	stage || return 1
	local dir=$BATS_TEST_TMPDIR flags
	cat >"$dir/lwps.c" <<'EOF'
/* Count the callbacks of a command's life with libpctx alone. */
#include <stdio.h>
#include <sys/wait.h>
#include <libpctx.h>

static int nexit, status = -1;

/* NAME: a callback that counts its calls in n_NAME. */
#define COUNTER(name)							\
	static int n_##name;						\
	static int							\
	name(pctx_t *p, pid_t pid, id_t lwp, void *arg)			\
	{								\
		n_##name++;						\
		return 0;						\
	}
COUNTER(init_lwp)
COUNTER(lwp_create)
COUNTER(lwp_exit)
COUNTER(fini_lwp)

static void
proc_exit(pctx_t *p, pid_t pid, id_t lwp, int st, void *arg)
{
	nexit++;
	status = st;
}

int
main(int argc, char **argv)
{
	pctx_t *p;

	if (argc < 2 ||
	    (p = pctx_create(argv[1], &argv[1], NULL, 0, NULL)) == NULL)
		return 2;
	if (pctx_set_events(p, PCTX_INIT_LWP_EVENT, init_lwp,
	    PCTX_SYSC_LWP_CREATE_EVENT, lwp_create,
	    PCTX_SYSC_LWP_EXIT_EVENT, lwp_exit, PCTX_FINI_LWP_EVENT,
	    fini_lwp, PCTX_SYSC_EXIT_EVENT, proc_exit,
	    PCTX_NULL_EVENT) != 0 || pctx_run(p, 0, 0, NULL) != 0)
		return 3;
	pctx_release(p);
	printf("init_lwp %d lwp_create %d lwp_exit %d fini_lwp %d "
	    "exit %d status %d\n", n_init_lwp, n_lwp_create, n_lwp_exit,
	    n_fini_lwp, nexit,
	    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}
EOF
	run "${PKG[@]}" --cflags --libs libpctx
	expect_status 0 || return 1
	flags=$output
	expect_match "$flags" "^-I$STAGE/usr/include -L$STAGE/usr/lib -lpctx *\$" \
	    "pkg-config --cflags --libs libpctx" || return 1
	# $flags unquoted: pkg-config's words.
	run timeout 60 "${CC:-cc}" -std=gnu11 -Wall -Wextra \
	    -Wno-unused-parameter -Werror "${CC_SAN[@]}" -o "$dir/lwps" \
	    "$dir/lwps.c" $flags
	expect_status 0 || return 1
	needed "$dir/lwps" | grep -qx libpctx.so.1 ||
	    fail_with "the program does not need libpctx.so.1" || return 1
	! needed "$dir/lwps" | grep -q libcpc ||
	    fail_with "the program needs libcpc" || return 1
	# Three threads: the main one and two it creates and joins.
	run env LD_LIBRARY_PATH="$STAGE/usr/lib" timeout 60 "$dir/lwps" \
	    "$WORKLOADS/threads_getpid" -k 10 2
	expect_status 0 || return 1
	expect_eq "${lines[${#lines[@]} - 1]}" \
	    "init_lwp 3 lwp_create 2 lwp_exit 2 fini_lwp 3 exit 1 status 0" \
	    "the callbacks"
}

@test "install: a Solaris makefile's -lcpc -lpctx links, as does pkg-config libcpc" {
	stage || return 1
	local dir=$BATS_TEST_TMPDIR flags
	cat >"$dir/both.c" <<'EOF'
/* libcpc and libpctx together, either header first. */
#include <libpctx.h>
#include <libcpc.h>
#include <stdio.h>

int
main(void)
{
	char *argv[] = { "true", NULL };
	cpc_t *cpc;
	pctx_t *p;
	uint_t npic;

	if ((cpc = cpc_open(CPC_VER_CURRENT)) == NULL)
		return 2;
	npic = cpc_npic(cpc);
	cpc_close(cpc);
	if ((p = pctx_create("true", argv, NULL, 0, NULL)) == NULL ||
	    pctx_run(p, 0, 0, NULL) != 0)
		return 3;
	pctx_release(p);
	printf("npic>0 %d\n", npic > 0);
	return 0;
}
EOF
	run timeout 60 "${CC:-cc}" -std=gnu11 -Wall -Werror "${CC_SAN[@]}" \
	    -I"$STAGE/usr/include" -o "$dir/both" "$dir/both.c" \
	    -L"$STAGE/usr/lib" -lcpc -lpctx
	expect_status 0 || return 1
	needed "$dir/both" | grep -qx libpctx.so.1 &&
	    needed "$dir/both" | grep -qx libcpc.so.1 ||
	    fail_with "NEEDED: $(needed "$dir/both" | tr '\n' ' ')" ||
	    return 1
	run env LD_LIBRARY_PATH="$STAGE/usr/lib" timeout 60 "$dir/both"
	expect_status 0 || return 1
	expect_eq "$output" "npic>0 1" "its output" || return 1
	# pkg-config libcpc brings libpctx along (Requires: libpctx).
	run "${PKG[@]}" --libs libcpc
	expect_status 0 || return 1
	flags=$output
	expect_match "$flags" "-lcpc -lpctx" "pkg-config --libs libcpc" ||
	    return 1
	run timeout 60 "${CC:-cc}" -std=gnu11 -Wall -Werror "${CC_SAN[@]}" \
	    -I"$STAGE/usr/include" -o "$dir/both2" "$dir/both.c" $flags
	expect_status 0
}

@test "install: cpcplot (and --flame), cpcplot(1), and the JSON Schema that a --format=json run meets" {
	requires root
	stage || return 1
	local schema=$STAGE/usr/share/cpc-tools/output.schema.json
	[ -x "$STAGE/usr/bin/cpcplot" ] || fail_with "cpcplot was not installed"
	[ -e "$STAGE/usr/share/man/man1/cpcplot.1" ] ||
	    fail_with "cpcplot.1 was not installed"
	[ -e "$schema" ] || fail_with "the schema was not installed" || return 1
	# --flame finds its module and script where install put them, from
	# the installed cpcplot alone (no byte code left behind)
	printf 'prog`main;prog`f 3\nprog`main 1\n' >"$BATS_TEST_TMPDIR/s.folded"
	run --separate-stderr timeout 60 "$STAGE/usr/bin/cpcplot" --flame \
	    "$BATS_TEST_TMPDIR/s.folded"
	expect_status 0
	grep -q '<title>f$' "$BATS_TEST_TMPDIR/s.svg" &&
	    grep -q 'var FLAME = ' "$BATS_TEST_TMPDIR/s.svg" ||
	    fail_with "the installed cpcplot --flame drew no frames"
	[ ! -e "$STAGE/usr/share/cpc-tools/__pycache__" ] ||
	    fail_with "cpcplot left byte code in the installed tree"
	/usr/bin/python3 -c 'import jsonschema' 2>/dev/null ||
	    skip "needs python3-jsonschema (install-deps)"
	run --separate-stderr timeout 20 "$CPUSTAT" --format=json \
	    -o "$BATS_TEST_TMPDIR/run.json" -c cpu-clock 0.1 1
	expect_status 0
	run /usr/bin/python3 -c 'import json, sys, jsonschema
v = jsonschema.Draft7Validator(json.load(open(sys.argv[1])))
n = 0
for line in open(sys.argv[2]):
    v.validate(json.loads(line))
    n += 1
print(n)' "$schema" "$BATS_TEST_TMPDIR/run.json"
	expect_status 0
	expect_eq "$output" "$(($(usable_cpus | wc -l) + 1))" \
	    "objects validated (a tick per CPU, a total)"
}
