#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# metrics.bats - -M (--metrics) of both tools: a user metric over the
# getpid tracepoint, whose counts are exact, checked on every interval
# and total line of every format (text, csv, json); a rate of a paced
# workload within 1%; no value (text "-", csv empty, json null) for a
# division by zero or a set without the metric's events; where the
# events are counted; and every error, with its position.

setup() {
	load helper
	requires root tracepoint:syscalls:sys_enter_getpid
	machine_lock
	EV=syscalls:sys_enter_getpid
	TWICE="twice=2*\"$EV\""
	D=$BATS_TEST_TMPDIR
	PY=/usr/bin/python3
	CHECK=$TESTS_DIR/bats/fmtcheck.py
	SCHEMA=$TESTS_DIR/../share/output.schema.json
	T=30	# seconds any one run may take
}

teardown() {
	machine_unlock
}

needs_py() {
	[ -x "$PY" ] || skip "needs $PY (apt-get install python3)"
	"$PY" -c "import $1" 2>/dev/null ||
	    skip "needs the Python module $1 (install-deps)"
}

# twice_pairs FORMAT FILE KINDS: the lines of kinds KINDS (a regex),
# each "count twice" (twice "-" where it has none), text or facts.
twice_pairs() {
	if [ "$1" = text ]; then
		# time where kind pic0 twice (cputrack: time lwp kind ...)
		awk -v k="^($3)\$" 'NR > 1 && $3 ~ k { print $4, $5 }' "$2"
		return
	fi
	local args=(csv "$2")
	[ "$1" = csv ] || args=(json "$SCHEMA" "$2")
	"$PY" "$CHECK" "${args[@]}" >"$D/facts" ||
	    fail_with "fmtcheck refused $2" || return 1
	awk -v k="^($3)\$" -v ev="$EV" '
	$1 == "row" && $2 ~ k {
		c = "-"
		for (i = 5; i <= NF; i++)
			if (index($i, ev "=") == 1)
				c = substr($i, length(ev) + 2)
		want = 1
		next
	}
	$1 == "met" && want {
		for (i = 5; i <= NF; i++)
			if (index($i, "twice=") == 1)
				print c, substr($i, 7)
		want = 0
	}' "$D/facts"
}

# check_twice PAIRS MIN WHAT: at least MIN pairs, each twice = 2 count.
check_twice() {
	local n bad
	n=$(grep -c . <<<"$1" || true)
	bad=$(awk '$2 == "-" || $2 + 0 != 2 * $1 { print }' <<<"$1")
	[ "$n" -ge "$2" ] || fail_with "$3: $n lines, want $2 or more" ||
	    return 1
	[ -z "$bad" ] || fail_with "$3: twice is not 2 x the count:" "$bad"
}

# out_of FORMAT: -o's file name for FORMAT.
out_of() {
	echo "$D/out.$1"
}

@test "cputrack -M twice=2*EV: every interval and the total, every format" {
	needs_py jsonschema
	local wl fmt f pairs n frac
	wl=$(workload slowloop)
	for fmt in text csv json; do
		f=$(out_of $fmt)
		run --separate-stderr timeout $T "$CPUTRACK" -T 0.25 \
		    --format=$fmt -o "$f" -c "$EV" -M "$TWICE" "$wl" -i 2 1200
		expect_status 0
		n=${output##* }
		expect_match "$n" '^[0-9]+$' "slowloop's count"
		pairs=$(twice_pairs $fmt "$f" tick)
		check_twice "$pairs" 3 "$fmt: tick lines"
		pairs=$(twice_pairs $fmt "$f" exit)
		check_twice "$pairs" 1 "$fmt: the exit line"
		frac=.0
		[ $fmt != text ] || frac=.000
		expect_eq "$pairs" "$n $((2 * n))$frac" \
		    "$fmt: the exit line's count and twice"
	done
	# the text title names the metric after the counts
	run head -1 "$(out_of text)"
	expect_match "$output" ' pic0     twice $' "the title"
}

@test "cpustat -M twice=2*EV: every interval and the total, every format" {
	needs_py jsonschema
	local wl fmt f pairs n=3000
	wl=$(workload getpid_n)
	for fmt in text csv json; do
		f=$(out_of $fmt)
		timeout $T "$CPUSTAT" --format=$fmt -o "$f" -c "$EV" \
		    --metrics="$TWICE" 0.25 4 &
		"$wl" -d 200 "$n"
		wait $!
		pairs=$(twice_pairs $fmt "$f" tick)
		check_twice "$pairs" 4 "$fmt: tick lines"
		pairs=$(twice_pairs $fmt "$f" total)
		check_twice "$pairs" 1 "$fmt: the total line"
		# the total counts the workload's calls (and the machine's)
		[ "${pairs%% *}" -ge "$n" ] ||
		    fail_with "$fmt: total ${pairs%% *} < the $n calls made"
	done
}

@test "a rate of a paced workload: within 1% per interval and over the run" {
	local wl out rates n
	wl=$(workload slowloop)
	# 500 getpid calls a second for 4 seconds, to a fixed schedule
	run --separate-stderr timeout $T "$CPUTRACK" -T 1 -c "$EV" \
	    -M "rate:$EV" "$wl" -P -i 2 4000
	expect_status 0
	out=$output
	# the middle intervals (the first holds the start of the command)
	rates=$(awk '$3 == "tick" { print $5 }' <<<"$out" | sed '1d;$d')
	[ "$(grep -c . <<<"$rates")" -ge 2 ] ||
	    fail_with "fewer than 2 middle intervals" || return 1
	for r in $rates; do
		expect_frange "$r" 495 505 "a tick's rate (500 a second)"
	done
	n=$(awk '$1 == "slowloop" { print $3 }' <<<"$out")
	expect_range "$n" 1980 2020 "the calls made"
	expect_frange "$(awk '$3 == "exit" { print $5 }' <<<"$out")" \
	    495 505 "the exit line's rate"
}

@test "cpustat rate:EVENT: the count over the line's length" {
	local out
	run --separate-stderr timeout $T "$CPUSTAT" --format=csv \
	    -c page-faults -M rate:page-faults,s=secs 0.5 3
	expect_status 0
	out=$output
	# time,cpu,kind,set,page-faults,metric:rate:page-faults,metric:s,...
	# each line lasts its interval, 0.5 s (the total: the run, 1.5 s),
	# and its rate times that is its count (full precision in CSV)
	run awk -F, 'NR > 1 {
		n++
		want = $3 == "total" ? 1.5 : 0.5
		if ($7 < want * 0.95 || $7 > want * 1.05)
			print "secs", $0
		d = $6 * $7 - $5
		if (d > 1e-6 * $5 + 1e-6 || -d > 1e-6 * $5 + 1e-6)
			print "rate", $0
	} END { if (n < 4) print "lines:", n }' <<<"$out"
	expect_eq "$output" "" "lines off"
}

@test "no value: a division by zero is - in text, empty in csv, null in json" {
	needs_py jsonschema
	local fmt
	for fmt in text csv json; do
		run --separate-stderr timeout $T "$CPUTRACK" --format=$fmt \
		    -c page-faults -M 'z="page-faults"/0,one=1' true
		expect_status 0
		case $fmt in
		text)	expect_match "${lines[1]}" ' exit +[0-9]+ +- +1\.000 $' \
			    "text" ;;
		csv)	expect_match "${lines[0]}" ',metric:z,metric:one,' "header"
			expect_match "${lines[1]}" ',exit,page-faults,[0-9]+,,1,' \
			    "csv" ;;
		json)	expect_match "$output" '"metrics":\{"z":null,"one":1\}' \
			    "json"
			echo "$output" >"$D/z.json"
			run "$PY" "$CHECK" json "$SCHEMA" "$D/z.json"
			expect_status 0 ;;
		esac
	done
}

@test "the events: added to sets that lack them, or used where a set has them" {
	local out
	# no set has EV: it joins the -c set, and the set is named so
	run --separate-stderr timeout $T "$CPUSTAT" -c page-faults -M "$TWICE" \
	    0.1 1
	expect_status 0
	expect_match "${lines[0]}" ' pic0      pic1     twice $' "the title"
	run awk 'NR > 1 && $6 + 0 != 2 * $5' <<<"$output"
	expect_eq "$output" "" "lines where twice is not 2 x pic1"
	run --separate-stderr timeout $T "$CPUSTAT" --format=csv \
	    -c page-faults -M "$TWICE" 0.1 1
	expect_match "${lines[1]}" "^[0-9.]+,0,tick,\"page-faults,$EV\"," \
	    "the set, named with the event added"
	# a set has it: the other set keeps its events and has no value
	run --separate-stderr timeout $T "$CPUSTAT" -c page-faults -c "$EV" \
	    -M "$TWICE" 0.1 2
	expect_status 0
	out=$output
	run awk '$3 == "tick" && $NF == "page-faults" && $5 != "-" ||
	    $3 == "tick" && $NF == "'"$EV"'" && $5 + 0 != 2 * $4' <<<"$out"
	expect_eq "$output" "" "lines of the wrong value"
	expect_match "$out" "tick +[0-9]+ +- +# page-faults" "set 1's line"
	# no -c at all: the metric's events are the set
	run --separate-stderr timeout $T "$CPUTRACK" -M "rate:$EV" true
	expect_status 0
	expect_match "${lines[0]}" "pic0 rate:$EV \$" "cputrack -M alone"
}

@test "errors: one line naming the position, a usage error (status 2)" {
	local tool msg m last
	for tool in "$CPUSTAT" "$CPUTRACK"; do
		last=true
		[ "$tool" = "$CPUTRACK" ] || last=1
		while IFS='|' read -r m msg; do
			run --separate-stderr timeout $T "$tool" -c page-faults \
			    -M "$m" $last
			expect_status 2
			expect_eq "$output" "" "stdout"
			expect_eq "${stderr_lines[0]}" \
			    "${tool##*/}: -M '$m': $msg" "the message"
			expect_match "${stderr_lines[1]}" '^usage: '
		done <<-'EOF'
		x=nosuchevent+1|position 3: unknown event 'nosuchevent'
		x=2*)|position 5: expected a number, an event or '(', found ')'
		x=(1+2|position 3: '(' not closed
		x=1 2|position 5: expected an operator, found '2'
		x="page-faults|position 3: '"' not closed
		|position 1: no metric named
		x=|position 3: empty expression
		ipc,,cpi|position 5: empty metric
		ipcx|position 1: unknown metric 'ipcx': the built-ins are ipc, cpi, ghz, branch-miss%, cache-miss%, ec-hit%, rate:EVENT; or NAME=EXPR
		x=1,x=2|position 5: metric 'x' given twice
		x=1/"a,b"|position 6: event 'a,b' cannot be named in a -c set
		EOF
	done
}

@test "errors: a set the metric's events would grow past its slots" {
	local n spec ev
	n=$(npic)
	[ "$n" -ge 1 ] || skip "no counter slots found in cpustat -h"
	spec=page-faults
	for ev in cpu-clock task-clock context-switches cpu-migrations \
	    minor-faults major-faults alignment-faults emulation-faults \
	    dummy bpf-output; do
		[ "$(awk -F, '{ print NF }' <<<"$spec")" -lt "$n" ] || break
		spec+=,$ev
	done
	[ "$(awk -F, '{ print NF }' <<<"$spec")" -eq "$n" ] ||
	    skip "fewer software events than the $n slots"
	run --separate-stderr timeout $T "$CPUSTAT" -c "$spec" -M "$TWICE" 1 1
	expect_usage_error "-M: the metrics' events added to -c '$spec': too many events at '$EV': a set holds at most $n (pic0-pic$((n - 1)))"
}

@test "errors: a metric whose events this machine cannot count" {
	requires no_hw_pmu
	run --separate-stderr timeout $T "$CPUSTAT" -M ipc 1 1
	expect_status 1
	expect_match "$stderr" "^cpustat: -M 'ipc': metric 'ipc': cannot count 'instructions': no hardware PMU" \
	    "the message"
	run --separate-stderr timeout $T "$CPUTRACK" -c page-faults \
	    -M 'x=1/cycles' true
	expect_status 125
	expect_match "$stderr" "^cputrack: -M 'x=1/cycles': position 5: cannot count 'cycles'" \
	    "the message"
}

@test "--help names -M; the man pages have a METRICS section" {
	local tool
	for tool in "$CPUSTAT" "$CPUTRACK"; do
		run "$tool" --help
		expect_status 0
		expect_match "$output" $'\t-M metrics\tderived metrics' "--help"
		expect_match "$output" '--metrics=METRICS' "--help's long options"
	done
	run grep -c '^\.Sh METRICS$' "$TESTS_DIR/../man1/cpustat.1" \
	    "$TESTS_DIR/../man1/cputrack.1"
	expect_eq "$output" "$TESTS_DIR/../man1/cpustat.1:1
$TESTS_DIR/../man1/cputrack.1:1" "METRICS sections"
}
