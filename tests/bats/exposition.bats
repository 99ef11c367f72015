#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# exposition.bats - --format=prometheus (text 0.0.4) and openmetrics of
# both tools read by the real readers: `promtool check metrics` and
# prometheus_client's two parsers (fmtcheck.py prom, om).  Every family
# has its HELP and every count is a counter; both flavours carry the same
# series; the run's metrics; exact getpid counts; hostile and prctl'd
# command names; cputrack's --grace and --by-command.

setup() {
	load helper
	load pycheck
	requires root tracepoint:syscalls:sys_enter_getpid
	machine_lock
	EV=syscalls:sys_enter_getpid
	D=$BATS_TEST_TMPDIR
	T=30	# seconds any one run may take
}

teardown() {
	machine_unlock
}

needs_promtool() {
	command -v promtool >/dev/null ||
	    skip "needs promtool (apt-get install prometheus; install-deps)"
}

# lint FILE: promtool finds nothing to say of a 0.0.4 file.
lint() {
	run promtool check metrics <"$1"
	expect_status 0 || return 1
	expect_eq "$output" "" "promtool check metrics"
}

# parsed FLAVOUR FILE: fmtcheck's lines of the file (om or prom) in
# $output; the parser refusing it fails the test.
parsed() {
	run "$PY" "$CHECK" "$1" "$2"
	expect_status 0
}

# value NAME LABELS: the value of the sample NAME{LABELS} in $output
# (LABELS as fmtcheck prints them, sorted).
value() {
	grep -F "sample $1 $2 " <<<"$output" | awk '{ print $NF }'
}

@test "prometheus and openmetrics: need -o; --grace needs seconds" {
	run --separate-stderr timeout $T "$CPUSTAT" --format=prometheus 1 1
	expect_usage_error "--format=prometheus needs -o file"
	run --separate-stderr timeout $T "$CPUTRACK" --grace=-1 -c "$EV" true
	expect_status 2
	expect_eq "${stderr_lines[0]}" "cputrack: invalid --grace '-1': must be from 0 to 1000000 seconds" "message"
}

@test "cpustat prometheus and openmetrics: typed with HELP, lint-clean, the same series, the run's metrics" {
	needs_py prometheus_client
	needs_promtool
	local fl f om prom t0 t1 n
	t0=$(date +%s)
	for fl in prometheus openmetrics; do
		timeout $T "$CPUSTAT" --format=$fl -o "$D/c.$fl" \
		    -c "$EV,task-clock" -c page-faults 0.2 3 ||
		    fail_with "cpustat --format=$fl failed" || return 1
	done
	t1=$(date +%s)
	lint "$D/c.prometheus" || return 1
	parsed prom "$D/c.prometheus" || return 1
	prom=$output
	expect_eq "$(grep '^family ' <<<"$prom")" "family cpustat_info gauge
family cpustat_start_time_seconds gauge
family cpustat_last_update_timestamp_seconds gauge
family cpustat_interval_seconds gauge
family cpustat_events counter
family cpustat_clock_seconds counter
family cpustat_enabled_seconds counter
family cpustat_running_seconds counter" "0.4.0's families" || return 1
	parsed om "$D/c.openmetrics" || return 1
	om=$output
	expect_eq "$(grep '^family ' <<<"$om")" "family cpustat info
family cpustat_start_time_seconds gauge seconds
family cpustat_last_update_timestamp_seconds gauge seconds
family cpustat_interval_seconds gauge seconds
family cpustat_events counter
family cpustat_clock_seconds counter seconds
family cpustat_enabled_seconds counter seconds
family cpustat_running_seconds counter seconds" "OpenMetrics' families" ||
	    return 1
	tail -n 1 "$D/c.openmetrics" | grep -qx '# EOF' ||
	    fail_with "OpenMetrics does not end with # EOF" || return 1
	# the same samples with the same labels, OpenMetrics adding _created
	expect_eq "$(grep '^sample ' <<<"$om" | grep -v '_created ' |
	    awk '{ $NF = ""; print }')" "$(grep '^sample ' <<<"$prom" |
	    awk '{ $NF = ""; print }')" "the series of both" || return 1
	expect_eq "$(grep -c '^sample [a-z_]*_created ' <<<"$om")" \
	    "$(grep -c '^sample [a-z_]*_total ' <<<"$om")" "a _created per counter" ||
	    return 1
	n=$(usable_cpus | wc -l)
	output=$prom
	expect_eq "$(grep -c "^sample cpustat_events_total .*event=\"$EV\"" <<<"$output")" \
	    "$n" "a getpid counter per CPU" || return 1
	expect_eq "$(grep -c '^sample cpustat_clock_seconds_total .*event="task-clock"' <<<"$output")" \
	    "$n" "task-clock in seconds, per CPU" || return 1
	expect_eq "$(grep -c 'event="task-clock"' <<<"$(grep '^sample cpustat_events_total' <<<"$output")")" \
	    0 "task-clock is not among the events" || return 1
	expect_eq "$(grep -c '^sample cpustat_running_seconds_total ' <<<"$output")" \
	    $((3 * n)) "running seconds per CPU and event" || return 1
	expect_eq "$(grep '^sample cpustat_info ' <<<"$output" | sed 's/backend="[^"]*" //')" \
	    "sample cpustat_info events=\"$EV,task-clock,page-faults\" sets=\"$EV,task-clock;page-faults\" version=\"$("$CPUSTAT" --version | awk '{ print $NF }')\" 1" \
	    "the info metric" || return 1
	expect_match "$(grep '^sample cpustat_info ' <<<"$output")" 'backend="[^"]+"' \
	    "a backend named" || return 1
	expect_eq "$(value cpustat_interval_seconds '')" 0.2 "the interval"
	expect_frange "$(value cpustat_last_update_timestamp_seconds '')" \
	    "$t0" $((t1 + 1)) "the last update" || return 1
	expect_frange "$(value cpustat_start_time_seconds '')" \
	    "$t0" "$(value cpustat_last_update_timestamp_seconds '')" \
	    "the start, before the last update"
}

@test "cpustat prometheus: the getpid calls of a workload on CPU 1, exact; cpu-clock in seconds" {
	requires cpu:0 cpu:1
	needs_py prometheus_client
	machine_unlock
	machine_lock -x
	local f=$D/c.prom n=5000 try got ok=0
	# Others may call getpid too: n..n + 200 in one of five tries.
	for try in 1 2 3 4 5; do
		timeout $T "$CPUSTAT" --format=prometheus -o "$f" \
		    -c "$EV,cpu-clock" 0.2 4 &
		"$(workload getpid_n)" -c 1 -d 300 "$n" >/dev/null
		wait $! || fail_with "cpustat failed" || return 1
		parsed prom "$f" || return 1
		got=$(value cpustat_events_total "cpu=\"1\" event=\"$EV\"")
		expect_range "$got" "$n" 1000000000 "CPU 1's calls" || return 1
		[ "$got" -le $((n + 200)) ] && { ok=1; break; }
	done
	[ $ok = 1 ] || fail_with "CPU 1 counted $got, want $n..$((n + 200))" ||
	    return 1
	# 4 intervals of 0.2 s of CPU 1's clock
	expect_frange "$(value cpustat_clock_seconds_total \
	    'cpu="1" event="cpu-clock"')" 0.6 1.2 "CPU 1's cpu-clock seconds"
}

# track_names FORMAT FILE NAME...: cputrack -f -e of a shell running a
# copy of getpid_n under each NAME, the i-th making 100 * i calls.
track_names() {
	local fl=$1 f=$2 i=1 script=
	shift 2
	for name in "$@"; do
		cp "$(workload getpid_n)" "$D/$name"
		script+="\"\$$i\" $((100 * i)); "
		i=$((i + 1))
	done
	run --separate-stderr timeout $T "$CPUTRACK" -f -e --format=$fl \
	    -o "$f" -c "$EV" sh -c "cd '$D' && PATH=.:\$PATH && ${script}true" \
	    sh "$@"
	expect_status 0 || return 1
	expect_eq "$stderr" "" "stderr"
}

@test "cputrack prometheus and openmetrics: hostile command names keep their series, exact" {
	needs_py prometheus_client
	needs_promtool
	local fl f quote nl bad want
	quote='q"b\{} e'
	nl=$'nl\nx'
	bad=$'bad\xffname'
	want="q\\\"b\\\\{} e 100
nl\\nx 200
bad\\ufffdname 300"
	for fl in prometheus openmetrics; do
		f=$D/t.$fl
		track_names $fl "$f" "$quote" "$nl" "$bad" || return 1
		[ $fl = openmetrics ] || lint "$f" || return 1
		parsed $([ $fl = prometheus ] && echo prom || echo om) "$f" ||
		    return 1
		expect_eq "$(grep "^sample cputrack_events_total " <<<"$output" |
		    grep -v 'command="sh"' |
		    sed -E 's/.*command="(.*)" event=.* ([0-9]+)$/\1 \2/')" \
		    "$want" "$fl: a series per name, its calls" || return 1
		expect_eq "$(grep -c "^sample cputrack_running_seconds_total " <<<"$output")" \
		    "$(grep -c "^sample cputrack_events_total " <<<"$output")" \
		    "$fl: running seconds per series" || return 1
	done
}

@test "cputrack: the command label is the process's own name, spaces and prctl(PR_SET_NAME) kept" {
	needs_py prometheus_client
	local f=$D/t.prom
	cp "$(workload getpid_n)" "$D/sp ace"
	run --separate-stderr timeout $T "$CPUTRACK" --format=prometheus \
	    -o "$f" -c "$EV" "$D/sp ace" 300
	expect_status 0
	parsed prom "$f"
	expect_eq "$(grep '^sample cputrack_events_total ' <<<"$output" |
	    sed 's/ pid=.*//')" \
	    "sample cputrack_events_total command=\"sp ace\" event=\"$EV\"" \
	    "the name with its space" || return 1
	expect_eq "$(value cputrack_events_total "command=\"sp ace\" event=\"$EV\" pid=\"$(
	    grep -o 'pid="[0-9]*"' <<<"$output" | head -1 | tr -dc 0-9)\"")" \
	    300 "its calls"
	run --separate-stderr timeout $T "$CPUTRACK" --format=prometheus \
	    -o "$f" -c "$EV" "$(workload renamed)" 'my worker 1' 700
	expect_status 0
	parsed prom "$f"
	expect_eq "$(grep '^sample cputrack_events_total ' <<<"$output" |
	    sed -E 's/ pid="[0-9]+"//')" \
	    "sample cputrack_events_total command=\"my worker 1\" event=\"$EV\" 700" \
	    "the name prctl gave, its calls"
}

# grace_run SECONDS: the getpid_n series left in the last file of a
# shell whose first getpid_n (20 calls) ends 2.5 s before its second (5).
grace_run() {
	run --separate-stderr timeout $T "$CPUTRACK" -f -e --grace="$1" \
	    --format=prometheus -o "$D/g.prom" -c "$EV" -T 0.1 \
	    sh -c '"$0" 20; sleep 2.5; "$0" 5; true' "$(workload getpid_n)"
	expect_status 0 || return 1
	parsed prom "$D/g.prom" || return 1
	grep '^sample cputrack_events_total .*command="getpid_n"' <<<"$output" |
	    awk '{ print $NF }' | sort -n | tr '\n' ' '
}

@test "cputrack --grace: an ended process's series leaves after it, not before" {
	needs_py prometheus_client
	local got
	got=$(grace_run 1) || fail_with "$got" || return 1
	expect_eq "$got" "5 " "--grace=1: the process that ended 2.5 s ago left"
	got=$(grace_run 30) || fail_with "$got" || return 1
	expect_eq "$got" "5 20 " "--grace=30: both stay"
	got=$(grace_run 0) || fail_with "$got" || return 1
	expect_eq "$got" "" "--grace=0: every ended process left"
}

@test "cputrack --by-command: a series per command, exact sums, in both flavours" {
	needs_py prometheus_client
	needs_promtool
	local fl f
	for fl in prometheus openmetrics; do
		f=$D/b.$fl
		run --separate-stderr timeout $T "$CPUTRACK" -f -e --by-command \
		    --format=$fl -o "$f" -c "$EV" \
		    sh -c '"$0" 100; "$0" 200; "$0" 300; true' \
		    "$(workload getpid_n)"
		expect_status 0 || return 1
		[ $fl = openmetrics ] || lint "$f" || return 1
		parsed $([ $fl = prometheus ] && echo prom || echo om) "$f" ||
		    return 1
		expect_eq "$(grep -c 'pid=' <<<"$output")" 0 "$fl: no pid label" ||
		    return 1
		expect_eq "$(value cputrack_events_total "command=\"getpid_n\" event=\"$EV\"")" \
		    600 "$fl: the three processes summed" || return 1
		expect_eq "$(grep -c '^sample cputrack_events_total ' <<<"$output")" \
		    2 "$fl: two commands (sh, getpid_n)" || return 1
	done
}

@test "cputrack: enabled and running seconds of rotating sets, for PromQL's scaling" {
	needs_py prometheus_client
	local f=$D/r.prom ena run clk
	run --separate-stderr timeout $T "$CPUTRACK" --format=prometheus \
	    -o "$f" -c "$EV,task-clock" -c page-faults -T 0.02 \
	    "$(workload getpid_n)" 3000000
	expect_status 0
	parsed prom "$f"
	for ev in "$EV" page-faults; do
		ena=$(grep "^sample cputrack_enabled_seconds_total .*event=\"$ev\"" \
		    <<<"$output" | awk '{ print $NF }')
		run=$(grep "^sample cputrack_running_seconds_total .*event=\"$ev\"" \
		    <<<"$output" | awk '{ print $NF }')
		expect_frange "$run" 0.000001 "$ena" "$ev: 0 < running <= enabled" ||
		    return 1
	done
	# the first set ran while task-clock counted: its running seconds
	# are task-clock's, to the microsecond
	clk=$(value cputrack_clock_seconds_total "command=\"getpid_n\" event=\"task-clock\" $(
	    grep -o 'pid="[0-9]*"' <<<"$output" | head -1)")
	run=$(grep "^sample cputrack_running_seconds_total .*event=\"$EV\"" \
	    <<<"$output" | awk '{ print $NF }')
	expect_frange "$run" "$(awk -v c="$clk" 'BEGIN { print c - 0.001 }')" \
	    "$(awk -v c="$clk" 'BEGIN { print c + 0.001 }')" \
	    "the first set's running seconds, task-clock's"
}
