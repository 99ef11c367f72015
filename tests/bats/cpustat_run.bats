#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# cpustat_run.bats - cpustat while it runs: ending on a signal (the
# partial interval and the totals are printed), closed pipes, flushing
# per interval, -p rests, -s soakers.

setup() {
	load helper
	setup_root_cpus
	OUT=$BATS_TEST_TMPDIR/out
	ERR=$BATS_TEST_TMPDIR/err
}

teardown() {
	machine_unlock
	if [ -n "${BG_PID-}" ] && kill -0 "$BG_PID" 2>/dev/null; then
		kill -KILL "$BG_PID" 2>/dev/null || true
	fi
}

# stop_with SIG: cpustat -c cpu-clock 0.3 with no count; once two
# intervals are out, send SIG.  It must print the interrupted interval on
# every CPU, shorter than the others and stamped before its deadline, then
# the total of every line, and exit 0 with nothing on stderr.  (A slow
# machine may deliver the signal an interval later: the last interval is
# the partial one, whichever it is.)
stop_with() {
	local sig=$1 i k nb lo hi
	requires env_signals
	bg_start "$OUT" "$ERR" -c cpu-clock 0.3
	wait_lines "$OUT" $((1 + 2 * NCPU)) 10
	kill -"$sig" "$BG_PID"
	bg_end_clean "$OUT" "$ERR"
	parse_output
	nb=$((${#S_TIME[@]} / NCPU))
	expect_eq "${#S_TIME[@]}" $((nb * NCPU)) "sample lines: whole intervals"
	expect_range "$nb" 3 1000 "intervals: two full ones and a partial one"
	for i in "${!S_TIME[@]}"; do
		k=$((i / NCPU + 1))
		expect_eq "${S_CPU[i]}" "${CPUS[i % NCPU]}" \
		    "CPU of sample line $((i + 1))"
		if [ $k -lt "$nb" ]; then
			lo=$(awk -v k=$k 'BEGIN { print k * 0.3 }')
			hi=$(awk -v k=$k 'BEGIN { print k * 0.3 + 0.05 }')
			expect_range "${S_VALS[i]}" 200000000 400000000 \
			    "cpu-clock ns of full line $((i + 1))"
		else
			lo=$(awk -v k=$k 'BEGIN { print (k - 1) * 0.3 }')
			hi=$(awk -v k=$k 'BEGIN { print k * 0.3 - 0.001 }')
			expect_range "${S_VALS[i]}" 1 299000000 \
			    "cpu-clock ns of partial line $((i + 1))"
		fi
		expect_frange "${S_TIME[i]}" "$lo" "$hi" \
		    "time of sample line $((i + 1))"
	done
	expect_eq "${#T_TIME[@]}" 1 "total lines"
	expect_eq "${T_NCPU[0]}" "$NCPU" "cpu column of the total"
	expect_eq "${T_VALS[0]}" "$(sum_samples 0)" \
	    "total: every line, the partial ones too"
}

@test "SIGINT ends a run with no count: partial interval, totals, exit 0" {
	stop_with INT
}

@test "SIGTERM ends a run with no count: partial interval, totals, exit 0" {
	stop_with TERM
}

@test "SIGHUP ends a run with no count: partial interval, totals, exit 0" {
	stop_with HUP
}

@test "SIGTERM with two sets: a total line per set" {
	requires env_signals
	bg_start "$OUT" "$ERR" -c cpu-clock -c context-switches 0.2
	wait_lines "$OUT" $((1 + 3 * NCPU)) 10
	kill -TERM "$BG_PID"
	bg_wait 5
	load_files "$OUT" "$ERR"
	status=$BG_STATUS
	expect_status 0
	parse_output
	expect_eq "${T_NOTE[*]}" "cpu-clock context-switches" "total notes"
	expect_eq "${T_VALS[0]}" "$(sum_samples 0 "" cpu-clock)" \
	    "cpu-clock total"
	expect_eq "${T_VALS[1]}" "$(sum_samples 0 "" context-switches)" \
	    "context-switches total"
}

# lines_or_gone FILE N PID: FILE has N lines, or PID has ended.
lines_or_gone() {
	[ "$(wc -l <"$1")" -ge "$2" ] || proc_gone "$3"
}

# ignored_stays SIG: start cpustat with SIG ignored (and SIGTERM too),
# as nohup(1) or a script's background job would; SIG must leave it
# running, and SIGTERM, always honoured, must still end it cleanly.
ignored_stays() {
	local sig=$1 n
	requires env_signals
	rm -f "$OUT" "$ERR"
	env --ignore-signal="$sig,TERM" "$CPUSTAT" -c cpu-clock 0.2 \
	    >"$OUT" 2>"$ERR" &
	BG_PID=$!
	wait_lines "$OUT" $((1 + NCPU)) 10
	n=$(wc -l <"$OUT")
	kill -"$sig" "$BG_PID"
	# Two more intervals out after the signal was sent (so it has been
	# delivered), or cpustat ended on it.
	wait_until 10 lines_or_gone "$OUT" $((n + 2 * NCPU)) "$BG_PID"
	if proc_gone "$BG_PID"; then
		status=0
		wait "$BG_PID" || status=$?
		load_files "$OUT" "$ERR"
		fail_with "cpustat ended on a SIG$sig it inherited as ignored"
		return 1
	fi
	kill -TERM "$BG_PID"
	bg_end_clean "$OUT" "$ERR"
	parse_output
	expect_range "${#S_TIME[@]}" $((3 * NCPU)) 100000 \
	    "sample lines: it ran on after the SIG$sig"
	expect_eq "${#T_TIME[@]}" 1 "total lines"
	expect_eq "${T_VALS[0]}" "$(sum_samples 0)" "total"
}

@test "under nohup an ignored SIGHUP stays ignored; SIGTERM ends it" {
	ignored_stays HUP
}

@test "in a script's background job an ignored SIGINT stays ignored" {
	ignored_stays INT
}

@test "a stopped cpustat reports the intervals it missed and keeps their counts" {
	local cpu n skipped sum l
	rm -f "$OUT" "$ERR"
	"$CPUSTAT" -c cpu-clock 0.1 10 >"$OUT" 2>"$ERR" &
	BG_PID=$!
	wait_lines "$OUT" $((1 + NCPU)) 10
	kill -STOP "$BG_PID"
	sleep 0.5
	kill -CONT "$BG_PID"
	bg_end "$OUT" "$ERR" 10
	parse_output
	[ "${#stderr_lines[@]}" -gt 0 ] ||
	    fail_with "no interval was reported as skipped"
	for l in "${stderr_lines[@]}"; do
		expect_match "$l" \
		    "^cpustat: cpu [0-9]+: interval [0-9]+ skipped \\(cpustat ran more than an interval late\\); its counts are in the previous sample$" \
		    "stderr line"
	done
	for cpu in "${CPUS[@]}"; do
		# every interval is either printed or reported as skipped
		n=$(printf '%s\n' "${S_CPU[@]}" | grep -cx "$cpu")
		skipped=$(grep -c "^cpustat: cpu $cpu: interval " <<<"$stderr")
		expect_eq $((n + skipped)) 10 \
		    "CPU $cpu: printed ($n) + skipped ($skipped) intervals"
		# and nothing is lost: the lines add up to the whole second
		sum=$(sum_samples 0 "$cpu")
		expect_range "$sum" 950000000 1050000000 \
		    "CPU $cpu: cpu-clock ns over the 1 s run"
	done
	expect_eq "${T_VALS[0]}" "$(sum_samples 0)" "total"
}

@test "| head -3: cpustat ends at once, quietly" {
	local t0 t1
	t0=$EPOCHREALTIME
	run --separate-stderr bash -c \
	    'timeout -s KILL 20 "$CPUSTAT" -c cpu-clock 0.1 | head -3
	     echo "cpustat status ${PIPESTATUS[0]}"'
	t1=$EPOCHREALTIME
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_eq "${#lines[@]}" 4 "lines: three from head, one status"
	expect_eq "${lines[0]}" "   time cpu event      pic0 " "title"
	expect_eq "${lines[3]}" "cpustat status 0" "cpustat's exit status"
	# It notices the closed pipe at its next line, 0.1 s later.
	expect_frange "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
	    0 3 "seconds until cpustat ended"
}

@test "a pipe closed before the first line: cpustat ends quietly" {
	run --separate-stderr bash -c \
	    'timeout -s KILL 20 "$CPUSTAT" -c cpu-clock 0.2 | true
	     echo "cpustat status ${PIPESTATUS[0]}"'
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_eq "$output" "cpustat status 0" "cpustat's exit status"
}

@test "every interval is flushed as soon as it is complete" {
	requires env_signals
	bg_start "$OUT" "$ERR" -c cpu-clock 0.5 3
	# interval 1 (at 0.5 s) is out alone although stdout is a file;
	# buffered, all three would appear together at the exit
	wait_lines "$OUT" $((1 + NCPU)) 10
	expect_eq "$(wc -l <"$OUT")" $((1 + NCPU)) "lines at the first interval"
	bg_wait 5
	expect_eq "$BG_STATUS" 0 "exit status"
	expect_eq "$(wc -l <"$OUT")" $((1 + 3 * NCPU + 1)) "lines at the end"
}

@test "-p with two sets: each cycle starts a period after the last" {
	run --separate-stderr "$CPUSTAT" -p 1 -c cpu-clock \
	    -c context-switches 0.2 2
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	parse_output
	# count 2 means two cycles of both sets: samples at 0.2 and 0.4,
	# then (the period being 1 s) at 1.2 and 1.4
	expect_eq "${#S_TIME[@]}" $((4 * NCPU)) "sample lines"
	local i k want_t want_note
	for i in "${!S_TIME[@]}"; do
		k=$((i / NCPU))
		want_t=(0.2 0.4 1.2 1.4)
		want_note=(cpu-clock context-switches cpu-clock context-switches)
		expect_frange "${S_TIME[i]}" "${want_t[k]}" \
		    "$(awk -v t="${want_t[k]}" 'BEGIN { print t + 0.05 }')" \
		    "time of sample line $((i + 1))"
		expect_eq "${S_NOTE[i]}" "${want_note[k]}" \
		    "set of sample line $((i + 1))"
	done
	expect_eq "${T_NOTE[*]}" "cpu-clock context-switches" "total notes"
}

@test "-p: the counters rest too: every sample covers one interval" {
	run --separate-stderr "$CPUSTAT" -p 1 -c cpu-clock \
	    -c context-switches 0.2 2
	expect_status 0
	parse_output
	# A set counts for one interval per period; while cpustat rests
	# nothing is counted, so the cpu-clock of the second cycle (at
	# 1.2 s) is 0.2 s worth, not the 0.8 s since the last sample.
	local i
	for i in "${!S_TIME[@]}"; do
		[ "${S_NOTE[i]}" = cpu-clock ] || continue
		expect_range "${S_VALS[i]}" 140000000 260000000 \
		    "cpu-clock ns of the line at ${S_TIME[i]} s, CPU ${S_CPU[i]}"
	done
	expect_range "${T_VALS[0]}" $((NCPU * 280000000)) \
	    $((NCPU * 520000000)) "cpu-clock total (2 x 0.2 s per CPU)"
}

@test "-p with one set: one sample of an interval every period" {
	run --separate-stderr "$CPUSTAT" -p 0.5 -c cpu-clock 0.1 3
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	parse_output
	expect_eq "${#S_TIME[@]}" $((3 * NCPU)) "sample lines"
	local i k want_t=(0.1 0.6 1.1)
	for i in "${!S_TIME[@]}"; do
		k=$((i / NCPU))
		expect_frange "${S_TIME[i]}" "${want_t[k]}" \
		    "$(awk -v t="${want_t[k]}" 'BEGIN { print t + 0.05 }')" \
		    "time of sample line $((i + 1))"
		expect_range "${S_VALS[i]}" 70000000 130000000 \
		    "cpu-clock ns of sample line $((i + 1)): one interval"
	done
	expect_eq "${T_VALS[0]}" "$(sum_samples 0)" "total"
}

@test "-p: cpustat ends with the last cycle's sample, without a rest after it" {
	local t0 el
	t0=$EPOCHREALTIME
	run --separate-stderr "$CPUSTAT" -p 5 -c cs -c cpu-clock 0.2 1
	el=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }')
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	parse_output
	expect_eq "${#S_TIME[@]}" $((2 * NCPU)) "sample lines"
	expect_eq "${T_NOTE[*]}" "cs cpu-clock" "total notes"
	expect_frange "${T_TIME[1]}" 0.4 0.45 "time of the last total"
	# one cycle is 0.4 s; a rest after it would end the run at 5 s
	expect_frange "$el" 0 2 "seconds until cpustat ended"
}

# stop_over_interval2 ARG...: run cpustat ARG... (interval 0.5 s) in the
# background, stop it within its first interval and continue it 1.2 s
# later, after the deadline of interval 2: interval 2 is skipped on every
# CPU.  Loads the output (parse_output) and checks that interval 1 was
# sampled late, at FIRST_LO..FIRST_HI s; skips the test when the stop came
# too late for that (a very slow machine).
stop_over_interval2() {
	local i
	rm -f "$OUT" "$ERR"
	"$CPUSTAT" "$@" >"$OUT" 2>"$ERR" &
	BG_PID=$!
	wait_lines "$OUT" 1 10		# the title: interval 1 has begun
	kill -STOP "$BG_PID"
	sleep 1.2
	kill -CONT "$BG_PID"
	bg_end "$OUT" "$ERR" 10
	parse_output
	awk -v t="${S_TIME[0]}" -v lo="$FIRST_LO" -v hi="$FIRST_HI" \
	    'BEGIN { exit !(t >= lo && t < hi) }' ||
	    skip "cpustat was not stopped within its first interval" \
	    "(first sample at ${S_TIME[0]} s)"
	expect_eq "${#stderr_lines[@]}" "$NCPU" "stderr lines"
	for i in "${!CPUS[@]}"; do
		expect_eq "${stderr_lines[i]}" "cpustat: cpu ${CPUS[i]}: interval 2 skipped (cpustat ran more than an interval late); its counts are in the previous sample" \
		    "stderr line $((i + 1))"
	done
}

# expect_rows K TIME NOTE LO HI: the sample lines of interval K (the Kth
# printed on every CPU, 0 the first) are stamped TIME (to 50 ms), are of
# the set NOTE, and their first value is within LO..HI.
expect_rows() {
	local k=$1 t=$2 note=$3 lo=$4 hi=$5 j i
	for ((j = 0; j < NCPU; j++)); do
		i=$((k * NCPU + j))
		expect_eq "${S_CPU[i]}" "${CPUS[j]}" "CPU of line $((i + 1))"
		expect_frange "${S_TIME[i]}" "$t" \
		    "$(awk -v t="$t" 'BEGIN { print t + 0.05 }')" \
		    "time of line $((i + 1))"
		expect_eq "${S_NOTE[i]}" "$note" "set of line $((i + 1))"
		expect_range "$(field "${S_VALS[i]}" 0)" "$lo" "$hi" \
		    "value of line $((i + 1))"
	done
}

@test "two sets, interval 2 skipped: interval 3 still counts the first set, 4 the second" {
	FIRST_LO=1.0 FIRST_HI=1.5
	stop_over_interval2 -c cpu-clock -c cs 0.5 4
	expect_eq "${#S_TIME[@]}" $((3 * NCPU)) "sample lines"
	# interval 1's sample covers the stop; the first set counts on from
	# it to the end of interval 3, then the second set in interval 4
	local t1=${S_TIME[0]}
	expect_rows 1 1.5 cpu-clock \
	    "$(awk -v t="$t1" 'BEGIN { printf "%d", (1.5 - t - 0.05) * 1e9 }')" \
	    "$(awk -v t="$t1" 'BEGIN { printf "%d", (1.5 - t + 0.05) * 1e9 }')"
	expect_rows 2 2.0 cs 0 1000000000
	expect_eq "${T_VALS[0]}" "$(sum_samples 0 "" cpu-clock)" \
	    "cpu-clock total"
	expect_eq "${T_VALS[1]}" "$(sum_samples 0 "" cs)" "cs total"
}

@test "-p, two sets, interval 2 skipped: the rest is not counted, the next cycle starts with the first set" {
	FIRST_LO=1.0 FIRST_HI=2.5
	stop_over_interval2 -p 2.5 -c cpu-clock -c cs 0.5 2
	expect_eq "${#S_TIME[@]}" $((3 * NCPU)) "sample lines"
	# after the skip comes the rest (to 2.5 s), then cycle 2 as usual:
	# the cpu-clock sample covers its interval, not the rest
	expect_rows 1 3.0 cpu-clock 450000000 550000000
	expect_rows 2 3.5 cs 0 1000000000
	expect_eq "${T_VALS[0]}" "$(sum_samples 0 "" cpu-clock)" \
	    "cpu-clock total"
	expect_eq "${T_VALS[1]}" "$(sum_samples 0 "" cs)" "cs total"
}

# cpu_seconds ARG...: run cpustat ARG... (output to OUT) and print the
# CPU time, user + system, it used.
cpu_seconds() {
	local -a t
	mapfile -t t < <(
		"$CPUSTAT" "$@" >"$OUT" 2>"$ERR"
		echo "status $?"
		times
	)
	[ "${t[0]}" = "status 0" ] || {
		fail_with "cpustat $* ended with ${t[0]}"
		return 1
	}
	# times: line 2 is "<children user> <children system>", as 0m1.234s
	awk '{
		n = 0
		for (i = 1; i <= 2; i++) {
			split($i, p, "m"); sub("s", "", p[2]); n += p[1] * 60 + p[2]
		}
		printf "%.3f\n", n
	}' <<<"${t[2]}"
}

# idle_times: each usable CPU's idle (and iowait) seconds so far, from
# /proc/stat, one a line in the order of CPUS.
idle_times() {
	local c
	for c in "${CPUS[@]}"; do
		awk -v c="cpu$c" -v hz="$(getconf CLK_TCK)" \
		    '$1 == c { printf "%.3f\n", ($5 + $6) / hz }' /proc/stat
	done
}

# soaked ARG...: run cpustat ARG... (via cpu_seconds: output to OUT,
# USED its CPU seconds) and expect that no CPU was idle for as much as
# half of the run: a soaker spun on every one.  Soakers run at SCHED_IDLE,
# so on a busy machine other work takes the CPUs first and the soakers'
# own CPU seconds can be next to nothing; either way a CPU is kept out of
# idle, which is what a soaker is for.  Without one, a quiet CPU is idle
# for nearly the whole run.
soaked() {
	local t0 el i
	local -a i0 i1
	mapfile -t i0 < <(idle_times)
	t0=$EPOCHREALTIME
	USED=$(cpu_seconds "$@") || return 1
	el=$(since "$t0")
	mapfile -t i1 < <(idle_times)
	for i in "${!CPUS[@]}"; do
		expect_frange "$(awk -v a="${i0[i]}" -v b="${i1[i]}" \
		    'BEGIN { printf "%.3f", b - a }')" 0 \
		    "$(awk -v e="$el" 'BEGIN { printf "%.3f", e / 2 }')" \
		    "seconds CPU ${CPUS[i]} was idle in the ${el} s run of cpustat $*" ||
		    return 1
	done
}

@test "-s with a system-only set: a soaker spins on every CPU" {
	soaked -s -c cpu-clock,nouser 0.5 2
	load_files "$OUT" "$ERR"
	expect_eq "$stderr" "" "stderr"
	parse_output
	expect_eq "${#S_TIME[@]}" $((2 * NCPU)) "sample lines"
}

@test "-s without a system-only set: no soaker, cpustat stays idle" {
	local used
	used=$(cpu_seconds -s -c cpu-clock 0.5 2)
	load_files "$OUT" "$ERR"
	expect_eq "$stderr" "" "stderr"
	parse_output
	expect_eq "${#S_TIME[@]}" $((2 * NCPU)) "sample lines"
	# A soaker spinning on each idle CPU for the second would use
	# about a second per CPU; cpustat's own start-up under ASan, a tenth.
	expect_frange "$used" 0 0.25 "CPU seconds used"
}

@test "--soak is -s" {
	soaked --soak -c cpu-clock,nouser 0.5 1
}
