#!/usr/bin/env bats
# A CPU that goes offline mid-run: reported once, the others continue,
# measured again when it returns.  Needs root and a CPU 1 that can be
# taken offline; always puts it back.

ONLINE=/sys/devices/system/cpu/cpu1/online

setup() {
	load helper
	[ "$(id -u)" -eq 0 ] || skip "needs root to take a CPU offline"
	# No other run of the suite may be measuring while cpu 1 is away.
	machine_lock -x
	[ -w "$ONLINE" ] || skip "cpu 1 cannot be taken offline here"
	[ "$(cat "$ONLINE")" = 1 ] || skip "cpu 1 is not online"
}

teardown() {
	[ ! -w "$ONLINE" ] || echo 1 >"$ONLINE" 2>/dev/null || true
}

@test "a CPU going offline is reported once and measured again when back" {
	out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err
	env --default-signal=INT,TERM,HUP \
	    "$CPUSTAT" -c cpu-clock 0.3 8 >"$out" 2>"$err" &
	pid=$!
	# offline 0.75 s in: the first interval (0.3 s) is out, then 0.45 s
	wait_lines "$out" $((1 + $(usable_cpus | wc -l))) 10
	sleep 0.45
	if ! echo 0 >"$ONLINE"; then
		kill "$pid"; wait "$pid" || true
		skip "the kernel refused to take cpu 1 offline"
	fi
	sleep 0.9
	echo 1 >"$ONLINE"
	status=0
	wait "$pid" || status=$?
	if [ "$status" -ne 0 ]; then
		cat "$err" "$out"
		echo "exit status $status"
		false
	fi
	# One report each way, nothing else on stderr.
	[ "$(grep -c '^cpustat: cpu 1: offline; skipping it until it returns$' "$err")" -eq 1 ]
	[ "$(grep -c '^cpustat: cpu 1: online again; counting from zero$' "$err")" -eq 1 ]
	[ "$(wc -l <"$err")" -eq 2 ]
	# CPU 0 never missed an interval; CPU 1 missed some and came back.
	n0=$(awk '$2 == 0 && $3 == "tick"' "$out" | wc -l)
	n1=$(awk '$2 == 1 && $3 == "tick"' "$out" | wc -l)
	[ "$n0" -eq 8 ]
	[ "$n1" -ge 3 ] && [ "$n1" -le 6 ]
	last1=$(awk '$2 == 1 && $3 == "tick" { t = $1 } END { print t }' "$out")
	[ "$last1" = 2.400 ]
	# The total sums every printed sample of both CPUs.
	sum=$(awk '$3 == "tick" { s += $4 } END { printf "%.0f", s }' "$out")
	total=$(awk '$3 == "total" { print $4 }' "$out")
	[ "$(awk '$3 == "total" { print $2 }' "$out")" -eq 2 ]
	[ "$total" = "$sum" ]
}
