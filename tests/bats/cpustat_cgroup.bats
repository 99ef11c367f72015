#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# cpustat_cgroup.bats - cpustat -G: per CPU, only the tasks of a cgroup.
#
# Exact oracle: a cgroup v2 child is made for the test (wherever cgroup2
# is mounted: /sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid
# system), a workload moves itself into it and then makes a known number
# of getpid calls, while another workload makes a different number
# outside it at the same time.  The cgroup's total over every CPU must be
# exactly the inside count, in text, CSV, JSON and OpenMetrics (nothing
# else runs in a cgroup made for the test, so there is no background to
# allow for); its tick rows must add up to it; and two cgroups at once
# are each exact.  Then the errors.  The cgroups are removed in teardown.

IVAL=0.25
NIVAL=8		# 2 s: the workloads start after the title, end in ms
INSIDE=23011
INSIDE2=17033
OUTSIDE=31007

setup() {
	load helper
	requires root tracepoint:syscalls:sys_enter_getpid
	machine_lock
	EV=syscalls:sys_enter_getpid
	D=$BATS_TEST_TMPDIR
	T=30
	CGROOT=$(cg_root)
	[ -n "$CGROOT" ] || skip "cgroup2 is not mounted"
	CGA=cpc-bats-$$-a CGB=cpc-bats-$$-b
	mkdir "$CGROOT/$CGA" "$CGROOT/$CGB" ||
	    skip "cannot make a cgroup under $CGROOT"
}

teardown() {
	local g
	for g in "${CGA-}" "${CGB-}"; do
		[ -n "$g" ] && [ -d "$CGROOT/$g" ] || continue
		# its processes (ended workloads) are gone; retry a moment
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			rmdir "$CGROOT/$g" 2>/dev/null && break
			sleep 0.1
		done
	done
	machine_unlock
}

# cg_root: where cgroup2 is mounted (the first such mount), from
# mountinfo: the mount point is field 5, the type follows the " - ".
cg_root() {
	awk '{ for (i = 7; i <= NF; i++) if ($i == "-") {
		if ($(i + 1) == "cgroup2") { print $5; exit } break } }' \
	    /proc/self/mountinfo
}

# inside CGROUP N: a shell moves itself into CGROUP, then becomes a
# workload making N getpid calls there.
inside() {
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3"' sh \
	    "$CGROOT/$1" "$(workload getpid_n)" "$2"
}

# measure OUT ARG...: cpustat -c EV ARG... IVAL NIVAL to OUT; once it
# counts (its first line, or with -o its file), the workloads of the
# test run at once: INSIDE calls in CGA, INSIDE2 in CGB when TWO is set,
# OUTSIDE outside both.  Fails unless all end well.
measure() {
	local out=$1 pid p1 p2="" p3 ready=$1
	shift
	[ -z "${OMFILE-}" ] || ready=$OMFILE
	rm -f "$out" "$D/err" "${OMFILE:-$D/none}"
	timeout $T "$CPUSTAT" -c "$EV" "$@" $IVAL $NIVAL >"$out" 2>"$D/err" &
	pid=$!
	wait_lines "$ready" 1 5 || { kill $pid; return 1; }
	inside "$CGA" $INSIDE &
	p1=$!
	if [ -n "${TWO-}" ]; then
		inside "$CGB" $INSIDE2 &
		p2=$!
	fi
	"$(workload getpid_n)" $OUTSIDE &
	p3=$!
	wait $p1 && { [ -z "$p2" ] || wait $p2; } && wait $p3 ||
	    fail_with "a workload failed" || return 1
	wait $pid || fail_with "cpustat failed: $(cat "$D/err")"
}

# text_total OUT CGROUP: the total line's count of CGROUP, and check
# that the tick lines of CGROUP add up to it.
text_total() {
	awk -v cg="/$2" '
	    $3 == cg && $4 == "tick" { sum += $5 }
	    $3 == cg && $4 == "total" { tot = $5; n++ }
	    END { if (n != 1 || sum != tot) print "bad", n, sum, tot;
		else print tot }' "$1"
}

@test "-G: the cgroup's count is exactly its tasks' getpid calls (text)" {
	measure "$D/out" -G "$CGA" || return 1
	# the title has the cgroup column; each CPU a line per interval
	expect_match "$(head -1 "$D/out")" \
	    "^ +time cpu cgroup +event +pic0 *\$" "title" || return 1
	expect_eq "$(grep -c " /$CGA  *tick " "$D/out")" \
	    $((NIVAL * $(nproc))) "tick lines" || return 1
	expect_eq "$(text_total "$D/out" "$CGA")" $INSIDE "the cgroup's total"
}

@test "-G a,b: two cgroups at once, each exact; CSV" {
	TWO=1 measure "$D/out" -G "$CGA,/$CGB/" --format=csv || return 1
	expect_eq "$(head -1 "$D/out")" \
	    "time,cpu,cgroup,kind,set,$EV,enabled_ns,running_ns,scaled" \
	    "CSV header" || return 1
	# the total rows: cpus, cgroup, the count
	run awk -F, '$4 == "total" { print $3, $6 }' "$D/out"
	expect_eq "$output" "/$CGA $INSIDE
/$CGB $INSIDE2" "the totals of both cgroups" || return 1
	run awk -F, -v cg="/$CGB" '$3 == cg && $4 == "tick" { s += $6 }
	    END { print s }' "$D/out"
	expect_eq "$output" $INSIDE2 "the tick rows of $CGB" || return 1
	# cpcplot draws it: a line of NIVAL points per CPU and cgroup
	command -v gnuplot >/dev/null || return 0
	run timeout $T "$TESTS_DIR/../cpcplot/cpcplot" -o "$D/p.svg" "$D/out"
	expect_status 0 || return 1
	run /usr/bin/python3 "$TESTS_DIR/bats/fmtcheck.py" svg "$D/p.svg"
	expect_eq "$(grep -cE "^series [a-z]+ $NIVAL cpu [0-9]+ /$CGB\$" \
	    <<<"$output")" "$(nproc)" "cpcplot's lines of $CGB"
}

@test "-G with -M: each cgroup's rows have their own span and exact metrics" {
	# secs is the span since the same CPU's and cgroup's last row, not
	# since another cgroup's row of that CPU (microseconds before)
	TWO=1 measure "$D/out" -G "$CGA,$CGB" --format=csv \
	    -M "s=secs,twice=2*$EV" || return 1
	run awk -F, -v iv=$IVAL '
	    NR == 1 { lo = iv * 0.8; hi = iv * 1.2
		for (i = 1; i <= NF; i++) c[$i] = i; next }
	    $4 == "tick" { n++; s = $c["metric:s"]
		if (s < lo || s > hi) print "span", $2, $3, s
		if ($c["metric:twice"] != 2 * $c["'"$EV"'"]) print "twice", $0 }
	    $4 == "total" { print $3, $c["metric:twice"] }
	    END { print n, "ticks" }' "$D/out"
	expect_eq "$output" "/$CGA $((2 * INSIDE))
/$CGB $((2 * INSIDE2))
$((2 * NIVAL * $(nproc))) ticks" "spans, twice per row and in the totals"
}

@test "-G: JSON has a cgroup member, valid by the schema, exact" {
	[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import jsonschema' \
	    2>/dev/null || skip "needs python3-jsonschema (install-deps)"
	TWO=1 measure "$D/out" --cgroup="$CGA,$CGB" --format=json || return 1
	run /usr/bin/python3 "$TESTS_DIR/bats/fmtcheck.py" json \
	    "$TESTS_DIR/../share/output.schema.json" "$D/out"
	expect_status 0 || return 1
	expect_eq "$(grep -E "^row total cpus=[0-9]+@/$CGA " <<<"$output")" \
	    "row total cpus=$(nproc)@/$CGA $EV $EV=$INSIDE" "$CGA's total" ||
	    return 1
	expect_eq "$(grep -E "^row total cpus=[0-9]+@/$CGB " <<<"$output")" \
	    "row total cpus=$(nproc)@/$CGB $EV $EV=$INSIDE2" "$CGB's total"
}

@test "-G: OpenMetrics has a cgroup label on every sample, exact" {
	/usr/bin/python3 -c 'import prometheus_client' 2>/dev/null ||
	    skip "needs python3-prometheus-client (install-deps)"
	OMFILE=$D/m.om measure "$D/out" -G "$CGA" --format=openmetrics \
	    -o "$D/m.om" || return 1
	run /usr/bin/python3 "$TESTS_DIR/bats/fmtcheck.py" om "$D/m.om"
	expect_status 0 || return 1
	run awk -v cg="cgroup=\"/$CGA\"" '
	    /^sample cpustat_events_total / { n++; if ($3 == cg) s += $NF }
	    END { print n, s }' <<<"$output"
	expect_eq "$output" "$(nproc) $INSIDE" \
	    "samples (one per cpu) and their sum"
}

@test "-G: a cgroup that does not exist, or is not a cgroup v2 directory" {
	run --separate-stderr timeout $T "$CPUSTAT" -c "$EV" -G no/such 0.1 1
	expect_runtime_error "there is no cgroup '/no/such' (no $CGROOT/no/such)" ||
	    return 1
	run --separate-stderr timeout $T "$CPUSTAT" -c "$EV" -G cgroup.procs \
	    0.1 1
	expect_runtime_error "cgroup '/cgroup.procs': $CGROOT/cgroup.procs is not a directory" ||
	    return 1
	run --separate-stderr timeout $T "$CPUSTAT" -c "$EV" -G .. 0.1 1
	expect_runtime_error "cgroup '/..' is not a directory of the cgroup v2 hierarchy ($CGROOT)"
}

@test "-G: cgroup2 not mounted (a mount namespace without it)" {
	command -v unshare >/dev/null || skip "needs unshare(1)"
	run --separate-stderr timeout $T unshare -m sh -c '
	    grep " - cgroup2 " /proc/self/mountinfo | cut -d" " -f5 |
	    while read -r m; do umount -l "$m" || exit 3; done &&
	    exec "$1" -c "$2" -G "$3" 0.1 1' sh "$CPUSTAT" "$EV" "$CGA"
	[ "$status" -ne 3 ] || skip "cannot unmount cgroup2 in a namespace"
	expect_runtime_error "cgroup '/$CGA': the cgroup v2 hierarchy is not mounted (mount -t cgroup2 none /sys/fs/cgroup)"
}

@test "-G: usage errors: empty, twice, too many, with -S, past the open-file limit" {
	run --separate-stderr timeout $T "$CPUSTAT" -G '' 1 1
	expect_usage_error "-G '': an empty cgroup name" || return 1
	run --separate-stderr timeout $T "$CPUSTAT" -G a,b, 1 1
	expect_usage_error "-G 'a,b,': an empty cgroup name" || return 1
	run --separate-stderr timeout $T "$CPUSTAT" -G a,//a/ 1 1
	expect_usage_error "-G: cgroup '/a' is named twice" || return 1
	run --separate-stderr timeout $T "$CPUSTAT" -G "$(seq -s, 1 65)" 1 1
	expect_usage_error "-G: at most 64 cgroups" || return 1
	run --separate-stderr timeout $T "$CPUSTAT" -G a -S "$EV" 1 1
	expect_usage_error "-G counts; it does not go with -S" || return 1
	# 40 cgroups, one event: 2 descriptors each per cpu, and 64 spare
	run --separate-stderr timeout $T bash -c 'ulimit -n 100 &&
	    exec "$1" -c "$2" -C 0 -G "$(seq -s, 1 40)" 1 1' sh "$CPUSTAT" "$EV"
	expect_usage_error "-G: 40 cgroups on 1 cpus need 144 open files, more than the limit of 100 allows (ulimit -n; or fewer cgroups, cpus (-C) or events)"
}
