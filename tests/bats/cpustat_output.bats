#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# cpustat_output.bats - the output grammar: title, sample, total and
# timestamp lines, column layout, totals, set rotation, the default set,
# the informational options.  Every line is re-printed with the documented
# formats by parse_output (helper.bash) and must match byte for byte.

setup() {
	load helper
	setup_root_cpus
}

teardown() {
	machine_unlock
}

# check_intervals N IVAL: the samples are N intervals of NCPU lines each,
# CPUs ascending inside an interval, every line of interval k stamped
# between k*IVAL and k*IVAL + 50 ms.
check_intervals() {
	local n=$1 ival=$2 k j idx
	expect_eq "${#S_TIME[@]}" $((n * NCPU)) "number of sample lines" ||
	    return 1
	for ((k = 1; k <= n; k++)); do
		for ((j = 0; j < NCPU; j++)); do
			idx=$(((k - 1) * NCPU + j))
			expect_eq "${S_CPU[idx]}" "${CPUS[j]}" \
			    "cpu of sample line $((idx + 1))" || return 1
			expect_frange "${S_TIME[idx]}" \
			    "$(awk -v k=$k -v i=$ival 'BEGIN{print k*i}')" \
			    "$(awk -v k=$k -v i=$ival 'BEGIN{print k*i+0.05}')" \
			    "time of sample line $((idx + 1))" || return 1
		done
	done
}

# max_time: the latest sample time.
max_time() {
	printf '%s\n' "${S_TIME[@]}" | sort -n | tail -1
}

@test "one event: title, one line per CPU per interval, a total line" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 0.1 3
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	parse_output
	expect_eq "$TITLE" "   time cpu event      pic0 " "title"
	check_intervals 3 0.1
	expect_eq "${#T_TIME[@]}" 1 "number of total lines"
	# cpu column of the total = number of CPUs measured; no " # " note
	expect_eq "${T_NCPU[0]}" "$NCPU" "cpu column of the total"
	expect_eq "$(printf '%s' "${T_NOTE[@]}" "${S_NOTE[@]}")" "" \
	    "' # ' notes with one set"
	# The total is the sum of every line: nothing lost, nothing added.
	expect_eq "${T_VALS[0]}" "$(sum_samples 0)" "total"
	# ...stamped with the latest sample that went into it.
	expect_eq "${T_TIME[0]}" "$(max_time)" "time of the total"
	# cpu-clock counts the CPU's wall time: about 0.1 s per line.
	local v
	for v in "${S_VALS[@]}"; do
		expect_range "$v" 70000000 130000000 "cpu-clock ns in 0.1 s"
	done
}

@test "two events: a column per request in pic order, totals per column" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock,context-switches 0.1 2
	expect_status 0
	parse_output
	expect_eq "$TITLE" "   time cpu event      pic0      pic1 " "title"
	check_intervals 2 0.1
	local i
	for i in "${!S_VALS[@]}"; do
		expect_eq "$(wc -w <<<"${S_VALS[i]}")" 2 "values on a line"
		expect_range "$(field "${S_VALS[i]}" 0)" 70000000 130000000 \
		    "pic0 (cpu-clock)"
		expect_range "$(field "${S_VALS[i]}" 1)" 0 50000 \
		    "pic1 (context-switches)"
	done
	expect_eq "${T_VALS[0]}" "$(sum_samples 0) $(sum_samples 1)" "totals"
}

@test "picN= places events: columns follow the pic numbers, ascending" {
	run --separate-stderr "$CPUSTAT" \
	    -c pic3=context-switches,pic1=cpu-clock 0.1 1
	expect_status 0
	parse_output
	expect_eq "$TITLE" "   time cpu event      pic1      pic3 " "title"
	local v
	for v in "${S_VALS[@]}"; do
		expect_range "$(field "$v" 0)" 70000000 130000000 \
		    "pic1 (cpu-clock) is the first column"
		expect_range "$(field "$v" 1)" 0 50000 \
		    "pic3 (context-switches) is the second column"
	done
}

@test "a set may fill every pic slot" {
	local n spec title i
	n=$(npic)
	expect_range "$n" 1 64 "pic slots in the -h listing"
	if ! have_hw_pmu; then
		expect_eq "$n" 8 "pic slots without a hardware PMU"
	fi
	spec=cpu-clock
	for ((i = 1; i < n; i++)); do
		spec+=,cpu-clock
	done
	run --separate-stderr "$CPUSTAT" -c "$spec" 0.1 1
	expect_status 0
	parse_output
	local -a cells=()
	for ((i = 0; i < n; i++)); do
		cells+=("pic$i")
	done
	fmt_title title 0 "${cells[@]}"
	expect_eq "$TITLE" "$title" "title"
	expect_eq "$(wc -w <<<"${T_VALS[0]}")" "$n" "values on the total line"
}

@test "-n and --no-header suppress the title" {
	local opt
	for opt in -n --no-header; do
		run --separate-stderr "$CPUSTAT" $opt -c cpu-clock 0.1 2
		expect_status 0
		parse_output -n
		check_intervals 2 0.1
		expect_eq "${#T_TIME[@]}" 1 "total lines with $opt"
		[[ $output != *"time cpu event"* ]] ||
		    fail_with "$opt printed a title"
	done
}

@test "-t adds the tsc column: a positive delta per line, summed in the total" {
	local tick i prev=
	tick=$(tick_name)
	run --separate-stderr "$CPUSTAT" -t -c cpu-clock 0.1 3
	expect_status 0
	parse_output -t
	expect_eq "$TITLE" "   time cpu event $(printf '%9s' "$tick")      pic0 " \
	    "title"
	check_intervals 3 0.1
	local sum=0
	for i in "${!S_TICK[@]}"; do
		expect_range "${S_TICK[i]}" 1 999999999999 "$tick delta"
		sum=$((sum + S_TICK[i]))
	done
	expect_eq "${T_TICK[0]}" "$sum" "$tick on the total line"
	expect_eq "${T_VALS[0]}" "$(sum_samples 0)" "pic0 on the total line"
	# The counter ticks at a fixed rate: every 0.1 s line is within a
	# factor of 1.5 of the first one.
	local first=${S_TICK[0]}
	for i in "${!S_TICK[@]}"; do
		expect_range "${S_TICK[i]}" $((first * 2 / 3)) \
		    $((first * 3 / 2)) "$tick per 0.1 s, line $((i + 1))"
	done
	# --tsc is the long spelling.
	run --separate-stderr "$CPUSTAT" --tsc -c cpu-clock 0.1 1
	expect_status 0
	parse_output -t
}

# check_stamps: one -T line per interval, before its first CPU's line.
check_stamps() {
	local i
	for i in "${!S_NEW[@]}"; do
		expect_eq "${S_NEW[i]}" "$((i % NCPU == 0 ? 1 : 0))" \
		    "a -T line right before sample line $((i + 1))" || return 1
	done
}

@test "-T u: an epoch-seconds line before every interval, none before totals" {
	local before after i
	before=$(date +%s)
	run --separate-stderr "$CPUSTAT" -T u -c cpu-clock 0.3 3
	after=$(date +%s)
	expect_status 0
	parse_output -T u
	check_intervals 3 0.3
	check_stamps
	expect_eq "$(grep -cE '^[0-9]+$' <<<"$output")" 3 "-T u lines"
	for i in "${!S_TS[@]}"; do
		expect_range "${S_TS[i]}" "$before" "$after" \
		    "-T u stamp $((i + 1))"
	done
	# The stamps never go back.
	for ((i = 1; i < ${#S_TS[@]}; i++)); do
		[ "${S_TS[i]}" -ge "${S_TS[i - 1]}" ] ||
		    fail_with "-T u stamps go back in time"
	done
	run --separate-stderr "$CPUSTAT" --timestamp=u -c cpu-clock 0.1 1
	expect_status 0
	parse_output -T u
	expect_eq "${#S_TS[@]}" "$NCPU" "sample lines with --timestamp=u"
	expect_eq "$(grep -cE '^[0-9]+$' <<<"$output")" 1 \
	    "stamps with --timestamp=u"
}

@test "-T d: a date(1)-style line before every interval" {
	local before after i when
	before=$(date +%s)
	run --separate-stderr "$CPUSTAT" -T d -c cpu-clock 0.2 2
	after=$(date +%s)
	expect_status 0
	parse_output -T d
	check_intervals 2 0.2
	check_stamps
	expect_eq "$(grep -c ' UTC ' <<<"$output")" 2 "-T d lines"
	for i in "${!S_TS[@]}"; do
		when=$(date -d "${S_TS[i]}" +%s) ||
		    fail_with "date(1) cannot read '${S_TS[i]}'"
		expect_range "$when" "$before" "$after" "-T d stamp $((i + 1))"
		# the same text date(1) prints for that second
		expect_eq "${S_TS[i]}" "$(date -d "@$when")" "-T d format"
	done
}

@test "two -c sets rotate: lines alternate sets, end with ' # spec', a total per set" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock -c context-switches 0.2 4
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	parse_output
	expect_eq "$TITLE" "   time cpu event      pic0 " "title"
	check_intervals 4 0.2
	local i k want
	for i in "${!S_TIME[@]}"; do
		k=$((i / NCPU + 1))
		if ((k % 2)); then want=cpu-clock; else want=context-switches; fi
		expect_eq "${S_NOTE[i]}" "$want" "set of sample line $((i + 1))"
		if [ "$want" = cpu-clock ]; then
			expect_range "${S_VALS[i]}" 140000000 260000000 \
			    "cpu-clock ns in 0.2 s"
		else
			expect_range "${S_VALS[i]}" 0 50000 "context-switches"
		fi
	done
	expect_eq "${#T_TIME[@]}" 2 "total lines"
	expect_eq "${T_NOTE[*]}" "cpu-clock context-switches" "total notes"
	expect_eq "${T_NCPU[*]}" "$NCPU $NCPU" "cpu column of the totals"
	expect_eq "${T_VALS[0]}" "$(sum_samples 0 "" cpu-clock)" \
	    "cpu-clock total"
	expect_eq "${T_VALS[1]}" "$(sum_samples 0 "" context-switches)" \
	    "context-switches total"
}

@test "rotating sets of different sizes: the title is the first set's" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock,context-switches \
	    -c page-faults 0.1 2
	expect_status 0
	parse_output
	expect_eq "$TITLE" "   time cpu event      pic0      pic1 " "title"
	local i
	for i in "${!S_TIME[@]}"; do
		case ${S_NOTE[i]} in
		cpu-clock,context-switches)
			expect_eq "$(wc -w <<<"${S_VALS[i]}")" 2 "values" ;;
		page-faults)
			expect_eq "$(wc -w <<<"${S_VALS[i]}")" 1 "values" ;;
		*)
			fail_with "unexpected note '${S_NOTE[i]}'" ;;
		esac
	done
	expect_eq "${T_NOTE[*]}" "cpu-clock,context-switches page-faults" \
	    "total notes"
	expect_eq "${T_VALS[1]}" "$(sum_samples 0 "" page-faults)" \
	    "page-faults total"
}

@test "no -c: the default set, named by a ' # spec' note" {
	local spec title
	if have_hw_pmu; then
		spec=PAPI_tot_cyc,PAPI_tot_ins
		fmt_title title 0 pic0 pic1
	else
		spec=cpu-clock,context-switches,cpu-migrations,page-faults,sys
		fmt_title title 0 pic0 pic1 pic2 pic3
	fi
	run --separate-stderr "$CPUSTAT" 0.1 2
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	parse_output
	expect_eq "$TITLE" "$title" "title"
	check_intervals 2 0.1
	local n
	for n in "${S_NOTE[@]}" "${T_NOTE[@]}"; do
		expect_eq "$n" "$spec" "note"
	done
	expect_eq "${#T_TIME[@]}" 1 "total lines"
}

@test "timestamps stay on k*interval: no drift over 50 intervals" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 0.1 50
	expect_status 0
	parse_output
	expect_eq "${#S_TIME[@]}" $((50 * NCPU)) "sample lines"
	# Offsets from k*0.1 in microseconds.  A late wake-up may delay one
	# line, but never makes a line early; with absolute deadlines the
	# offsets of the last ten intervals are as small as those of the
	# first ten (sleeping "interval" each time would add up).
	local i k off min_first=999999 min_last=999999
	for i in "${!S_TIME[@]}"; do
		k=$((i / NCPU + 1))
		off=$(awk -v t="${S_TIME[i]}" -v k=$k \
		    'BEGIN { printf "%d", (t - k * 0.1) * 1e6 + (t >= k * 0.1 ? 0.5 : -0.5) }')
		expect_range "$off" 0 50000 \
		    "offset (us) of line $((i + 1)) from $k * 0.1 s" ||
		    return 1
		if [ $k -le 10 ] && [ "$off" -lt "$min_first" ]; then
			min_first=$off
		fi
		if [ $k -gt 40 ] && [ "$off" -lt "$min_last" ]; then
			min_last=$off
		fi
	done
	expect_range "$min_first" 0 2000 "smallest offset (us), intervals 1-10"
	expect_range "$min_last" 0 2000 "smallest offset (us), intervals 41-50"
	expect_frange "$(max_time)" 5.000 5.050 "the last sample's time"
}

@test "interval forms: a fraction, a leading +, an exponent" {
	local iv
	for iv in 0.1 +0.1 1e-1 .1; do
		run --separate-stderr "$CPUSTAT" -c cpu-clock "$iv" 2
		expect_status 0
		parse_output
		check_intervals 2 0.1
	done
}

@test "long options: --events (both spellings) and --period" {
	run --separate-stderr "$CPUSTAT" --events cpu-clock 0.1 1
	expect_status 0
	parse_output
	expect_eq "$TITLE" "   time cpu event      pic0 " "title"
	run --separate-stderr "$CPUSTAT" --events=cpu-clock \
	    --events=context-switches --period=0.4 0.1 1
	expect_status 0
	parse_output
	# --period multiplies the count by the number of sets: one cycle.
	local want=() c
	for c in "${CPUS[@]}"; do want+=(cpu-clock); done
	for c in "${CPUS[@]}"; do want+=(context-switches); done
	expect_eq "${S_NOTE[*]}" "${want[*]}" "notes of the sample lines"
	expect_eq "${T_NOTE[*]}" "cpu-clock context-switches" "total notes"
}

@test "-h: usage and the capabilities listing on stdout, exit 0" {
	run --separate-stderr "$CPUSTAT" -h
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_eq "${lines[0]}" "Usage:" "first line"
	expect_match "$output" $'\n\tcpustat \\[-c events' "synopsis"
	expect_match "$output" $'\n\t-c events\t' "-c in the option list"
	expect_match "$output" \
	    $'\n\tCPU performance counter interface: [^\n]+\n' "interface"
	expect_match "$output" $'\n\t\\[picn=\\]<eventn>\\[,attr\\[n\\]\\[=<val>\\]\\]\\[,\\[picn=\\]<eventn>\\[,attr\\[n\\]\\[=<val>\\]\\],\\.\\.\\.\\]\n' \
	    "event specification syntax"
	expect_match "$output" $'\n\tevent\\[0-[0-9]+\\]: ' "event list"
	local ev
	for ev in cpu-clock task-clock page-faults context-switches \
	    cpu-migrations; do
		expect_match "$output" "[ :]$ev " "$ev listed"
	done
	if ! have_hw_pmu; then
		expect_match "$output" "no hardware PMU" "the interface says so"
	fi
	expect_match "$output" $'\n\tattributes: [^\n]*nouser sys' \
	    "attributes"
}

@test "--help: the usage on stdout, exit 0; --version: the version" {
	run --separate-stderr "$CPUSTAT" --help
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_eq "${lines[0]}" "Usage:" "first line"
	expect_match "$output" "--events" "long options listed"
	local want
	want=$(sed -n 's/^VERSION[[:space:]]*=[[:space:]]*//p' \
	    "$TESTS_DIR/../config.mk" 2>/dev/null)
	run --separate-stderr "$CPUSTAT" --version
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_match "$output" '^cpustat \(cpc-tools\) [0-9]+\.[0-9]+\.[0-9]+$' \
	    "--version"
	if [ -n "$want" ]; then
		expect_eq "$output" "cpustat (cpc-tools) $want" "--version"
	fi
}
