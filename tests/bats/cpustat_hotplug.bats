#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
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
	mapfile -t CPUS < <(usable_cpus)
	NCPU=${#CPUS[@]}
	OUT=$BATS_TEST_TMPDIR/out
	ERR=$BATS_TEST_TMPDIR/err
}

teardown() {
	[ ! -w "$ONLINE" ] || echo 1 >"$ONLINE" 2>/dev/null || true
	if [ -n "${BG_PID-}" ] && kill -0 "$BG_PID" 2>/dev/null; then
		kill -KILL "$BG_PID" 2>/dev/null || true
	fi
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
	# its last sample is the last interval's, at 2.4 s (the time is the
	# read's, after the wake-up: a loaded machine wakes it late, so up to
	# 50 ms, as the other tests of the intervals allow)
	last1=$(awk '$2 == 1 && $3 == "tick" { t = $1 } END { print t }' "$out")
	awk -v t="$last1" 'BEGIN { exit !(t >= 2.4 && t < 2.45) }'
	# The total sums every printed sample of both CPUs.
	sum=$(awk '$3 == "tick" { s += $4 } END { printf "%.0f", s }' "$out")
	total=$(awk '$3 == "total" { print $4 }' "$out")
	[ "$(awk '$3 == "total" { print $2 }' "$out")" -eq 2 ]
	[ "$total" = "$sum" ]
}

# ---- the CPU's return: when, with which set, and its soaker -------------

# offline: take cpu 1 offline; skip (ending the background cpustat) when
# the kernel refuses.
offline() {
	echo 0 >"$ONLINE" && return 0
	kill "$BG_PID" 2>/dev/null
	wait "$BG_PID" || true
	skip "the kernel refused to take cpu 1 offline"
}

online() {
	echo 1 >"$ONLINE"
}

# cpu_lines FILE CPU: how many sample lines of CPU are in FILE.
cpu_lines() {
	awk -v c="$2" '$2 == c && $3 == "tick"' "$1" | wc -l
}

# has_lines FILE CPU N: CPU has at least N sample lines in FILE.
has_lines() {
	[ "$(cpu_lines "$1" "$2")" -ge "$3" ]
}

# cpu_times CPU: the times of CPU's sample lines (after parse_output),
# to a tenth of a second, space-separated.
cpu_times() {
	local i t=
	for i in "${!S_TIME[@]}"; do
		[ "${S_CPU[i]}" = "$1" ] || continue
		t+=${t:+ }$(awk -v t="${S_TIME[i]}" 'BEGIN { printf "%.1f", t }')
	done
	echo "$t"
}

# expect_back_once: the run ended with status 0, and stderr says once that
# cpu 1 went offline and once that it came back, and nothing else.
# blip ARG...: cpustat ARG... 1.5 3 in the background, cpu 1 offline
# 0.3 s into interval 1 and back 0.3 s later.
blip() {
	bg_start "$OUT" "$ERR" "$@" 1.5 3
	wait_lines "$OUT" 1 10		# the title: interval 1 has begun
	sleep 0.3
	offline
	sleep 0.3
	online
}

# expect_times CPU1 OTHERS: the sample times of cpu 1, and of every other.
expect_times() {
	local c
	for c in "${CPUS[@]}"; do
		if [ "$c" = 1 ]; then
			expect_eq "$(cpu_times 1)" "$1" "times of cpu 1"
		else
			expect_eq "$(cpu_times "$c")" "$2" "times of cpu $c"
		fi
	done
}

expect_back_once() {
	bg_end "$OUT" "$ERR" 15
	expect_eq "$stderr" "cpustat: cpu 1: offline; skipping it until it returns
cpustat: cpu 1: online again; counting from zero" "stderr"
	parse_output
}

# expect_totals_add_up: one total line per set, counting every CPU, that
# adds up the sample lines of its set.
expect_totals_add_up() {
	local s
	for s in "${!T_TIME[@]}"; do
		expect_eq "${T_NCPU[s]}" "$NCPU" "CPUs of total line $((s + 1))"
		expect_eq "${T_VALS[s]}" "$(sum_samples 0 "" "${T_NOTE[s]}")" \
		    "total of set $((s + 1))"
	done
}

# thread_stat PID TID N: field N (3 = state, 39 = CPU, 41 = policy) of
# the thread's /proc stat line.
thread_stat() {
	local -a f
	read -r -a f < <(sed 's/.*) //' "/proc/$1/task/$2/stat")
	echo "${f[$3 - 3]}"
}

thread_allowed() {
	sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$1/task/$2/status"
}

# soaker_of PID CPU: the SCHED_IDLE thread pinned to CPU alone.
soaker_of() {
	local t
	for t in /proc/"$1"/task/*; do
		t=${t##*/}
		[ "$(thread_stat "$1" "$t" 41)" = 5 ] &&
		    [ "$(thread_allowed "$1" "$t")" = "$2" ] && echo "$t"
	done
	true
}

thread_sleeps() {
	[ "$(thread_stat "$1" "$2" 3)" = S ]
}

# thread_spins_on PID TID CPU: running, on CPU.
thread_spins_on() {
	[ "$(thread_stat "$1" "$2" 3)" = R ] &&
	    [ "$(thread_stat "$1" "$2" 39)" = "$3" ]
}

@test "a CPU offline and back within one interval: reported both ways, counted from the next interval" {
	local i
	blip -c cs,cpu-clock
	# The groups of cpu 1 died with it (the next read fails although it
	# is back): interval 1 is lost, 2 and 3 are counted in full.
	expect_back_once
	expect_times "3.0 4.5" "1.5 3.0 4.5"
	for i in "${!S_TIME[@]}"; do
		expect_range "$(field "${S_VALS[i]}" 1)" 1400000000 1600000000 \
		    "cpu-clock ns of cpu ${S_CPU[i]} at ${S_TIME[i]}"
	done
	expect_eq "${T_NCPU[0]}" "$NCPU" "CPUs of the total line"
	expect_eq "${T_VALS[0]}" \
	    "$(sum_samples 0) $(sum_samples 1)" "total line"
}

@test "a one-event set, its CPU offline and back within one interval: the same, not zeros from then on" {
	local i
	# A lone event's group reads on after the kernel detached it, its
	# count frozen: only its enabled time, no longer growing, tells.
	blip -c cpu-clock
	expect_back_once
	expect_times "3.0 4.5" "1.5 3.0 4.5"
	for i in "${!S_TIME[@]}"; do
		expect_range "${S_VALS[i]}" 1400000000 1600000000 \
		    "cpu-clock ns of cpu ${S_CPU[i]} at ${S_TIME[i]}"
	done
	expect_eq "${T_VALS[0]}" "$(sum_samples 0)" "total line"
}

@test "-p: a CPU that goes offline during a rest is reported, and counts the first cycle after it is back" {
	bg_start "$OUT" "$ERR" -p 2 -c cs 0.3 3
	wait_lines "$OUT" $((1 + NCPU)) 10	# cycle 1 is out: the rest
	offline
	# Cycle 2 (2.0 s) finds cpu 1 away; back during the second rest.
	wait_until 10 grep -q . "$ERR"
	online
	expect_back_once
	expect_times "0.3 4.3" "0.3 2.3 4.3"
	expect_totals_add_up
}

@test "two sets: a CPU back from offline counts the set the other CPUs count" {
	local i k want
	bg_start "$OUT" "$ERR" -c cpu-clock -c cs 0.5 8
	wait_lines "$OUT" $((1 + NCPU)) 10
	offline
	# Back during interval 5: cpu 1 counts again from interval 6, whose
	# set is the second (cs), as on every CPU.
	wait_until 10 has_lines "$OUT" 0 4
	online
	expect_back_once
	expect_eq "$(cpu_times 1)" "0.5 3.0 3.5 4.0" "times of cpu 1"
	for i in "${!S_TIME[@]}"; do
		k=$(awk -v t="${S_TIME[i]}" 'BEGIN { printf "%d", t / 0.5 + 0.5 }')
		want=cpu-clock
		[ $((k % 2)) = 1 ] || want=cs
		expect_eq "${S_NOTE[i]}" "$want" \
		    "set of cpu ${S_CPU[i]} in interval $k"
		[ "$want" = cs ] ||
		    expect_range "$(field "${S_VALS[i]}" 0)" 450000000 \
		    550000000 "cpu-clock ns of cpu ${S_CPU[i]} in interval $k"
	done
	expect_totals_add_up
}

@test "a CPU back from offline has its line printed with its interval, not one later" {
	local n0 t1 k
	bg_start "$OUT" "$ERR" -c cpu-clock 0.5 8
	wait_lines "$OUT" $((1 + NCPU)) 10
	offline
	wait_until 10 has_lines "$OUT" 0 3
	online
	# The first line of cpu 1 after its return is written with the other
	# CPUs' lines of the same interval: when it appears, cpu 0 has printed
	# that interval, and not the next.
	wait_until 10 has_lines "$OUT" 1 2
	n0=$(cpu_lines "$OUT" 0)
	t1=$(awk '$2 == 1 && $3 == "tick" && ++n == 2 { print $1 }' "$OUT")
	k=$(awk -v t="$t1" 'BEGIN { printf "%d", t / 0.5 + 0.5 }')
	expect_eq "$k" 5 "interval of cpu 1's first line after its return"
	expect_eq "$n0" "$k" "lines of cpu 0 when it appeared"
	expect_back_once
	expect_totals_add_up
}

@test "-s: a CPU's soaker stops while the CPU is offline and is pinned to it again on return" {
	local sk
	bg_start "$OUT" "$ERR" -s -c cpu-clock,nouser 0.5 8
	wait_lines "$OUT" $((1 + NCPU)) 10
	sk=$(soaker_of "$BG_PID" 1)
	[ -n "$sk" ] || fail_with "no SCHED_IDLE thread pinned to cpu 1"
	wait_until 2 thread_spins_on "$BG_PID" "$sk" 1
	offline
	# The kernel moves it to another CPU: it must not spin there.
	wait_until 2 thread_sleeps "$BG_PID" "$sk"
	wait_until 10 grep -q offline "$ERR"
	thread_sleeps "$BG_PID" "$sk" ||
	    fail_with "the soaker of cpu 1 runs while cpu 1 is offline"
	online
	wait_until 10 grep -q 'online again' "$ERR"
	expect_eq "$(thread_allowed "$BG_PID" "$sk")" 1 \
	    "CPUs the soaker of cpu 1 may run on after its return"
	wait_until 2 thread_spins_on "$BG_PID" "$sk" 1
	expect_back_once
}

# ---- -C: the listed CPUs only ---------------------------------------------

@test "-C: a listed CPU offline at start fails with status 1; an unlisted one is no matter" {
	offline_now() {
		echo 0 >"$ONLINE" || skip "the kernel refused to take cpu 1 offline"
	}
	offline_now
	run --separate-stderr "$CPUSTAT" -C 1 -c cpu-clock 0.2 1
	expect_runtime_error "-C '1': cpu 1 is offline"
	run --separate-stderr "$CPUSTAT" -C 0-1 -c cpu-clock 0.2 1
	expect_runtime_error "-C '0-1': cpu 1 is offline"
	run --separate-stderr "$CPUSTAT" -C 0 -c cpu-clock 0.2 1
	online
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	parse_output
	expect_eq "${S_CPU[*]}" 0 "the CPUs of the sample lines"
}

@test "-C 1: the listed CPU offline and back is reported once and counted again, as without -C" {
	blip -C 1 -c cpu-clock
	expect_back_once
	expect_eq "${S_CPU[*]}" "1 1" "the CPUs of the sample lines"
	expect_eq "$(cpu_times 1)" "3.0 4.5" "times of cpu 1"
	expect_eq "${T_NCPU[0]}" 1 "CPUs of the total line"
	expect_eq "${T_VALS[0]}" "$(sum_samples 0)" "the total"
}

@test "-C 0: cpu 1 offline and back is not reported, nor measured" {
	blip -C 0 -c cpu-clock
	bg_end_clean "$OUT" "$ERR"
	parse_output
	expect_eq "$(cpu_times 0)" "1.5 3.0 4.5" "times of cpu 0"
	expect_eq "${S_CPU[*]}" "0 0 0" "the CPUs of the sample lines"
	expect_eq "${T_NCPU[0]}" 1 "CPUs of the total line"
}
