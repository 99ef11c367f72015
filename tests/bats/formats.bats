#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# formats.bats - --format=csv|json|openmetrics of both tools, checked with
# real parsers (Python's csv, jsonschema against share/output.schema.json,
# prometheus_client's OpenMetrics parser), exact getpid counts where the
# truth is known, the -o symbolic link rule, cputrack -f's tree total and
# cpcplot's SVG and terminal pictures.

setup() {
	load helper
	load pycheck
	requires root tracepoint:syscalls:sys_enter_getpid
	machine_lock
	EV=syscalls:sys_enter_getpid
	D=$BATS_TEST_TMPDIR
	SCHEMA=$TESTS_DIR/../share/output.schema.json
	CPCPLOT=${CPCPLOT:-$TESTS_DIR/../cpcplot/cpcplot}
	T=30	# seconds any one run may take
}

teardown() {
	machine_unlock
	user_cleanup
	[ -z "${STICKY-}" ] || rm -rf "$STICKY"
}

# facts FORMAT FILE: fmtcheck's facts of a csv or json file into $output.
facts() {
	if [ "$1" = csv ]; then
		run "$PY" "$CHECK" csv "$2"
	else
		run "$PY" "$CHECK" json "$SCHEMA" "$2"
	fi
	expect_status 0 || return 1
	FACTS=$output
}

# fact REGEX: the facts lines matching REGEX.
fact() {
	grep -E "$1" <<<"$FACTS" || true
}

@test "--format: an unknown name, and openmetrics without -o, are usage errors" {
	run --separate-stderr timeout $T "$CPUSTAT" --format=xml 1 1
	expect_usage_error "invalid --format 'xml': use text, csv, json, openmetrics or prometheus"
	run --separate-stderr timeout $T "$CPUSTAT" --format=openmetrics 1 1
	expect_usage_error "--format=openmetrics needs -o file"
	run --separate-stderr timeout $T "$CPUTRACK" --format=CSV -c "$EV" true
	expect_status 2
	expect_eq "${stderr_lines[0]}" "cputrack: invalid --format 'CSV': use text, csv, json, openmetrics or prometheus" "message"
	run --separate-stderr timeout $T "$CPUTRACK" --format=openmetrics -c "$EV" true
	expect_status 2
	expect_eq "${stderr_lines[0]}" "cputrack: --format=openmetrics needs -o file" "message"
}

@test "cpustat csv and json: a column per event as written, rotating sets, totals = ticks" {
	needs_py jsonschema
	local fmt f ncpu
	ncpu=$(usable_cpus | wc -l)
	for fmt in csv json; do
		f=$D/out.$fmt
		run --separate-stderr timeout $T "$CPUSTAT" --format=$fmt \
		    -o "$f" -c cpu-clock -c context-switches,cpu-clock,sys 0.1 4
		expect_status 0
		expect_eq "$output$stderr" "" "stdout and stderr with -o"
		facts $fmt "$f"
		[ $fmt = json ] || expect_eq "$(fact '^header')" \
		    "header time,cpu,kind,set,cpu-clock,context-switches,enabled_ns,running_ns,scaled" \
		    "the CSV header"
		# intervals 1 and 3 count set 1, 2 and 4 set 2
		expect_eq "$(fact '^row tick [0-9]+ cpu-clock ' | wc -l)" \
		    $((2 * ncpu)) "$fmt: tick rows of set 1"
		expect_eq "$(fact '^row tick [0-9]+ context-switches,cpu-clock,sys ' |
		    wc -l)" $((2 * ncpu)) "$fmt: tick rows of set 2"
		# a row has exactly its set's events
		expect_eq "$(fact '^row tick [0-9]+ cpu-clock ' |
		    grep -vcE ' cpu-clock=[0-9]+$')" 0 "$fmt: set 1's columns"
		expect_eq "$(fact '^row tick [0-9]+ context' |
		    grep -vcE ' context-switches=[0-9]+ cpu-clock=[0-9]+$')" 0 \
		    "$fmt: set 2's columns"
		# the totals are the sums of the ticks, over every CPU
		expect_eq "$(fact '^row total' | awk '{ print $3 }')" \
		    "cpus=$ncpu
cpus=$ncpu" "$fmt: total rows"
		expect_eq "$(fact '^row total cpus=[0-9]+ cpu-clock ' |
		    sed 's/.* cpu-clock=//')" \
		    "$(fact '^sum cpu-clock cpu-clock ' | awk '{ print $4 }')" \
		    "$fmt: set 1's total"
		expect_eq "$(fact '^row total cpus=[0-9]+ context' |
		    sed 's/.* context-switches=\([0-9]*\).*/\1/')" \
		    "$(fact '^sum context-switches ' | awk '{ print $4 }')" \
		    "$fmt: set 2's total"
	done
	# fmtcheck refused running > enabled; the clocks ran all along
	run "$PY" -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    e, u = int(r["enabled_ns"]), int(r["running_ns"])
    assert e == u and e > 50000000 * (1 if r["kind"] == "tick" else 2), r
    assert r["scaled"] == "0", r' "$D/out.csv"
	expect_status 0
}

@test "json: every line valid against the schema, which refuses broken objects" {
	needs_py jsonschema
	local wl
	wl=$(workload forker)
	run "$PY" "$CHECK" badjson "$SCHEMA"
	expect_status 0
	expect_eq "$output" "refused 19" "broken objects refused"
	# every cputrack kind: -v, -f, -e, -t, two sets
	run --separate-stderr timeout $T "$CPUTRACK" -v -f -e -t -T 0.01 \
	    --format=json -o "$D/t.json" -c "$EV" -c page-faults \
	    "$wl" -p 3 -q 4 -n 2 -- "$(workload getpid_n)" 5
	expect_status 0
	facts json "$D/t.json"
	local k
	for k in init_lwp fini_lwp exit exec total; do
		[ -n "$(fact "^row $k ")" ] || fail_with "no $k row"
	done
	expect_eq "$(fact '^note fork' | wc -l)" 2 "fork objects"
	expect_eq "$(fact '^note exec' | wc -l)" 2 "exec-name objects"
	run --separate-stderr timeout $T "$CPUSTAT" -t -T d --format=json \
	    -o "$D/c.json" -c cpu-clock 0.1 2
	expect_status 0
	facts json "$D/c.json"
}

@test "cputrack csv, json and text: getpid counted exactly; -f ends with the tree's total" {
	needs_py jsonschema
	local fmt f wl parent kids
	wl=$(workload forker)
	for fmt in csv json text; do
		f=$D/t.$fmt
		run --separate-stderr timeout $T "$CPUTRACK" -f --format=$fmt \
		    -o "$f" -c "$EV" "$wl" -p 10 -q 20 -n 3
		expect_status 0
		expect_eq "$stderr" "" "$fmt: stderr"
		parent=$(awk '/^parent / { print $2 }' <<<"$output")
		kids=$(awk '/^child / { print $2 }' <<<"$output" | sort)
		if [ $fmt = text ]; then
			expect_eq "$(tail -1 "$f")" "$(printf '%7.3f %7d %7d %10s %9d  # tree' \
			    "$(tail -1 "$f" | awk '{ print $1 }')" "$parent" 4 total 70)" \
			    "text: the tree's total line"
			expect_eq "$(grep -c ' total ' "$f")" 1 "text: total lines"
			continue
		fi
		facts $fmt "$f"
		expect_eq "$(fact "^row exit $parent/$parent ")" \
		    "row exit $parent/$parent $EV $EV=10" "$fmt: the parent's exit"
		expect_eq "$(fact '^row exit ' | grep -v " $parent/" |
		    awk '{ split($3, a, "/"); print a[1], $5 }' | sort)" \
		    "$(sed "s/\$/ $EV=20/" <<<"$kids")" "$fmt: the children's exits"
		expect_eq "$(fact '^note fork' | awk '{ print $3, $4, $5 }' | sort)" \
		    "$(sed "s/^/$parent $parent /" <<<"$kids")" "$fmt: fork rows"
		expect_eq "$(fact '^row total')" \
		    "row total $parent/4 $EV note=tree $EV=70" \
		    "$fmt: the tree's total: 10 + 3 x 20 over 4 processes"
		expect_eq "$(fact '^row' | tail -1)" "$(fact '^row total')" \
		    "$fmt: the tree's total comes last"
	done
}

@test "cpustat csv and json: the getpid calls of a workload on CPU 1, and -T's epoch column" {
	requires cpu:0 cpu:1
	needs_py jsonschema
	machine_unlock
	machine_lock -x
	local fmt f n=5000 got before after try ok
	for fmt in csv json; do
		f=$D/c.$fmt
		ok=0
		# Others may call getpid too: at least n, at most n + 200 in
		# one of five tries.
		for try in 1 2 3 4 5; do
			before=$(date +%s)
			timeout $T "$CPUSTAT" -T u --format=$fmt -o "$f" -c "$EV" \
			    0.2 4 &
			"$(workload getpid_n)" -c 1 -d 300 "$n" >/dev/null
			wait $! || fail_with "cpustat failed"
			after=$(date +%s)
			facts $fmt "$f"
			got=$(fact "^sum $EV " | awk '{ print $4 }')
			expect_range "$(fact "^row total " | sed 's/.*=//')" \
			    "$n" 1000000000 "$fmt: the total"
			expect_eq "$(fact "^row total " | sed 's/.*=//')" "$got" \
			    "$fmt: the total is the sum of the ticks"
			fact '^row tick ' | awk -v lo="$before" -v hi="$after" '
			    { split($5, a, "="); if (a[2] < lo || a[2] > hi) exit 1 }' ||
			    fail_with "$fmt: an epoch outside $before..$after"
			got=$(fact "^row tick 1 " | sed 's/.*=//' |
			    awk '{ s += $1 } END { print s + 0 }')
			expect_range "$got" "$n" 1000000000 "$fmt: CPU 1's calls"
			[ "$got" -le $((n + 200)) ] && { ok=1; break; }
		done
		[ $ok = 1 ] || fail_with "$fmt: CPU 1 counted $got, want $n..$((n + 200))"
	done
}

@test "cputrack openmetrics: a counter per process, exact, escaped labels, parsed" {
	needs_py prometheus_client
	local wl f=$D/t.prom parent kids k name
	# A command name that needs escaping in a label value.
	name='wl"q\x'
	cp "$(workload forker)" "$D/$name"
	run --separate-stderr timeout $T "$CPUTRACK" -f --format=openmetrics \
	    -o "$f" -c "$EV",page-faults -T 0.05 "$D/$name" -p 10 -q 20 -n 2
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	parent=$(awk '/^parent / { print $2 }' <<<"$output")
	kids=$(awk '/^child / { print $2 }' <<<"$output")
	run "$PY" "$CHECK" om "$f"
	expect_status 0
	expect_eq "$(grep '^family cputrack_events ' <<<"$output")" \
	    "family cputrack_events counter" "the family"
	output=$(grep '^sample cputrack_events_total ' <<<"$output")
	for k in $parent $kids; do
		grep -qF "sample cputrack_events_total command=\"wl\\\"q\\\\x\" event=\"$EV\" pid=\"$k\" " <<<"$output" ||
		    fail_with "no getpid sample of $k with the command's name"
	done
	expect_eq "$(grep -F "event=\"$EV\"" <<<"$output" | awk '{ print $NF }' |
	    sort -n | tr '\n' ' ')" "10 20 20 " "the getpid counters"
	expect_eq "$(grep -cF 'event="page-faults"' <<<"$output")" 3 \
	    "a page-faults counter per process"
	expect_eq "$(grep -c '^sample ' <<<"$output")" 6 "samples"
	expect_eq "$(ls -A "$D" | grep -c prom)" 1 "files left beside it"
}

@test "openmetrics -o: a device or a FIFO is refused, never replaced" {
	local f what
	local f
	mknod "$D/null" c 1 3
	mkfifo "$D/fifo"
	for f in null fifo; do
		run --separate-stderr timeout $T "$CPUSTAT" --format=openmetrics \
		    -o "$D/$f" -c "$EV" 0.1 1
		expect_status 1
		expect_eq "$output" "" "cpustat's stdout ($f)"
		[ "$f" = null ] && what="a device" || what="a FIFO"
		expect_eq "$stderr" "cpustat: cannot write '$D/$f': $what, not a regular file: not replaced" "cpustat's message"
		run --separate-stderr timeout $T "$CPUTRACK" --format=openmetrics \
		    -o "$D/$f" -c "$EV" true
		expect_status 125
		expect_eq "$stderr" "cputrack: cannot write '$D/$f': $what, not a regular file: not replaced" "cputrack's message"
	done
	[ -c "$D/null" ] || fail_with "the device node was replaced"
	[ -p "$D/fifo" ] || fail_with "the FIFO was replaced"
}

@test "openmetrics -o: a stale temporary file is replaced, and a signal removes it" {
	local tool
	mkdir "$D/om"
	# what a run killed mid-write left beside the name
	echo stale >"$D/om/.c.prom.tmp"
	run --separate-stderr timeout $T "$CPUSTAT" --format=openmetrics \
	    -o "$D/om/c.prom" -c "$EV" 0.1 2
	expect_status 0
	expect_eq "$(ls -A "$D/om")" "c.prom" "files left after a run"
	# A file size limit of 0: the first write of the temporary file
	# raises SIGXFSZ, which ends the tool in the middle of its output.
	rm "$D/om/c.prom"
	for tool in "$CPUSTAT" "$CPUTRACK"; do
		if [ "$tool" = "$CPUSTAT" ]; then
			set -- 0.1 2
		else
			set -- -T 0.1 "$(workload getpid_n)" -a 300 10
		fi
		run --separate-stderr timeout $T bash -c \
		    'ulimit -f 0; exec "$@"' _ "$tool" --format=openmetrics \
		    -o "$D/om/c.prom" -c "$EV" "$@"
		expect_status $((128 + $(kill -l XFSZ)))
		expect_eq "$(ls -A "$D/om")" "" "files left after SIGXFSZ (${tool##*/})"
	done
}

@test "cpustat openmetrics: rewritten by rename each interval, never half a file" {
	needs_py prometheus_client
	local f=$D/om/c.prom pid i prev=0 v n=3000 omfd midfd
	mkdir "$D/om"
	# 3 s: the file of the middle (opened after about 1 s of checks, more
	# on a slow machine) is rewritten well before the end
	timeout $T "$CPUSTAT" --format=openmetrics -o "$f" -c "$EV" \
	    -c page-faults 0.1 30 &
	pid=$!
	wait_until 5 test -e "$f" || fail_with "no file after 5 s"
	# the file as first written, held open: a rename over it unlinks it
	exec {omfd}<"$f"
	"$(workload getpid_n)" "$n" >/dev/null
	for i in 1 2 3 4 5 6 7 8; do
		cp "$f" "$D/copy"
		run "$PY" "$CHECK" om "$D/copy"
		expect_status 0 || return 1
		v=$(grep -F "event=\"$EV\"" <<<"$output" |
		    grep '^sample cpustat_events_total ' | awk '{ s += $NF }
		    END { print s + 0 }')
		[ "$v" -ge "$prev" ] || fail_with "the counters went back"
		prev=$v
		# the file of the middle of the run, held open too
		[ "$i" != 4 ] || exec {midfd}<"$f"
		sleep 0.07
	done
	wait "$pid" || fail_with "cpustat failed"
	run "$PY" "$CHECK" om "$f"
	expect_status 0
	output=$(grep '^sample cpustat_events_total ' <<<"$output")
	expect_eq "$(grep -c '^sample ' <<<"$output")" \
	    $((2 * $(usable_cpus | wc -l))) "a sample per CPU and event"
	v=$(grep -F "event=\"$EV\"" <<<"$output" | awk '{ s += $NF }
	    END { print s + 0 }')
	expect_range "$v" "$n" $((n + 2000)) "getpid calls over the CPUs"
	expect_eq "$(ls -A "$D/om")" "c.prom" "files left in the directory"
	# a new file at the rewrites: the first one and the one of the
	# middle of the run, both held open (so their inodes cannot be given
	# again), are unlinked, and are two files: replaced twice at least
	[ "$(stat -L -c %h /proc/$BASHPID/fd/$omfd)" = 0 ] ||
	    fail_with "the first file was rewritten in place, not replaced"
	[ "$(stat -L -c %h /proc/$BASHPID/fd/$midfd)" = 0 ] ||
	    fail_with "the file of the middle was not replaced"
	[ "$(stat -L -c %i /proc/$BASHPID/fd/$omfd)" != \
	    "$(stat -L -c %i /proc/$BASHPID/fd/$midfd)" ] ||
	    fail_with "the first file was still the file in the middle"
	exec {omfd}<&- {midfd}<&-
}

@test "-o as root: no symbolic link of another user in a sticky world-writable directory" {
	requires unpriv_user
	make_user
	local dir victim=$D/victim msg
	# where the user may go: a sticky directory of root's, like /tmp
	dir=$(mktemp -d /tmp/cpc-sticky.XXXXXX)
	STICKY=$dir
	chmod 1777 "$dir"
	echo keep >"$victim"
	as_user_cmd ln -s "$victim" "$dir/link"
	msg="cannot open '$dir/link' for writing: not following the symbolic link of uid $(id -u "$TEST_USER") in the sticky, world-writable directory '$dir' (the kernel's protected_symlinks rule)"
	run --separate-stderr timeout $T "$CPUTRACK" -o "$dir/link" -c "$EV" true
	expect_status 125
	expect_eq "$stderr" "cputrack: $msg" "cputrack's message"
	run --separate-stderr timeout $T "$CPUSTAT" -o "$dir/link" -c "$EV" 0.1 1
	expect_runtime_error "$msg"
	expect_eq "$(cat "$victim")" keep "the link's target"
	# The links the rule allows are followed: root's own in that
	# directory, the user's in a directory that is not sticky.
	ln -s "$victim" "$dir/rootlink"
	run --separate-stderr timeout $T "$CPUTRACK" -o "$dir/rootlink" -c "$EV" \
	    "$(workload getpid_n)" 7
	expect_status 0
	expect_eq "$(awk '$3 == "exit" { print $4 }' "$victim")" 7 \
	    "written through root's link"
	mkdir "$D/plain"
	ln -s "$victim" "$D/plain/link"
	chown -h "$TEST_USER" "$D/plain/link"
	run --separate-stderr timeout $T "$CPUSTAT" -o "$D/plain/link" -c "$EV" 0.1 1
	expect_status 0
	expect_match "$(head -1 "$victim")" '^   time cpu event ' \
	    "written through the user's link outside a sticky directory"
	# openmetrics replaces the link itself, never its target
	echo keep >"$victim"
	run --separate-stderr timeout $T "$CPUSTAT" --format=openmetrics \
	    -o "$dir/link" -c "$EV" 0.1 1
	expect_status 0
	expect_eq "$(cat "$victim")" keep "the target after openmetrics"
	[ -f "$dir/link" ] && [ ! -L "$dir/link" ] ||
	    fail_with "the link was not replaced by a file"
}

@test "cpcplot: an SVG with a panel per event and a line per CPU or thread" {
	needs_py
	command -v gnuplot >/dev/null || skip "needs gnuplot (gnuplot-nox)"
	local ncpu tids
	ncpu=$(usable_cpus | wc -l)
	run --separate-stderr timeout $T "$CPUSTAT" --format=csv -o "$D/c.csv" \
	    -c cpu-clock,context-switches -c page-faults 0.1 6
	expect_status 0
	run --separate-stderr timeout $T "$CPCPLOT" "$D/c.csv"
	expect_status 0
	expect_eq "$output$stderr" "" "cpcplot's output"
	run "$PY" "$CHECK" svg "$D/c.svg"
	expect_status 0
	SVG=$output
	# panels a, b, c in column order; in each, one series per CPU with
	# as many points as the CSV has rows of that CPU for the event
	local p e c want panels=(a b c)
	facts csv "$D/c.csv"
	p=0
	for e in cpu-clock context-switches page-faults; do
		p=$((p + 1))
		grep -qx "text $e" <<<"$SVG" || fail_with "no panel title $e"
		for c in $(usable_cpus); do
			want=$(fact "^row tick $c .* $e=" | wc -l)
			expect_eq "$(grep -c "^series ${panels[p - 1]} $want cpu $c\$" <<<"$SVG")" \
			    1 "panel $e: cpu $c with $want points"
		done
	done
	expect_eq "$(grep -c '^series ' <<<"$SVG")" $((3 * ncpu)) "series"
	# cputrack: a line per thread
	run --separate-stderr timeout $T "$CPUTRACK" --format=csv -o "$D/t.csv" \
	    -T 0.05 -c "$EV" "$(workload threads_getpid)" -k 1000 -h 300 2
	expect_status 0
	tids=$(awk '$1 == "thread" { print $2 }' <<<"$output")
	run --separate-stderr timeout $T "$CPCPLOT" -o "$D/t.svg" "$D/t.csv"
	expect_status 0
	run "$PY" "$CHECK" svg "$D/t.svg"
	local t
	for t in $tids; do
		grep -qE "^series a [0-9]+ pid [0-9]+ lwp $t\$" <<<"$output" ||
		    fail_with "no line for thread $t"
	done
}

@test "cpcplot --term: the panels on the terminal; clear errors" {
	needs_py
	command -v gnuplot >/dev/null || skip "needs gnuplot (gnuplot-nox)"
	run --separate-stderr timeout $T "$CPUSTAT" --format=csv -o "$D/c.csv" \
	    -c cpu-clock,context-switches 0.1 3
	expect_status 0
	run --separate-stderr timeout $T "$CPCPLOT" --term "$D/c.csv"
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	[ "${#lines[@]}" -ge 40 ] || fail_with "only ${#lines[@]} lines"
	grep -q '^ *cpu-clock *$' <<<"$output" || fail_with "no cpu-clock panel"
	grep -q '^ *context-switches *$' <<<"$output" ||
	    fail_with "no context-switches panel"
	grep -q 'cpu 0' <<<"$output" || fail_with "no key for cpu 0"
	# standard input, and the same picture
	run --separate-stderr timeout $T "$CPCPLOT" --term <"$D/c.csv"
	expect_status 0
	grep -q '^ *cpu-clock *$' <<<"$output" || fail_with "stdin: no panel"
	# not a CSV run
	run --separate-stderr timeout $T "$CPUSTAT" --format=json -o "$D/c.json" \
	    -c cpu-clock 0.1 1
	run --separate-stderr timeout $T "$CPCPLOT" "$D/c.json"
	expect_status 1
	expect_eq "$stderr" "cpcplot: '$D/c.json': not the CSV of cpustat or cputrack --format=csv (its first line does not begin with 'time,cpu,kind,set' or 'time,pid,lwp,kind,set')" \
	    "a JSON file"
	[ ! -e "$D/c.svg" ] || fail_with "an SVG was written"
	run --separate-stderr timeout $T "$CPCPLOT" "$D/none.csv"
	expect_status 1
	expect_eq "$stderr" "cpcplot: '$D/none.csv': No such file or directory" \
	    "a missing file"
	GNUPLOT=/nonexistent/gnuplot run --separate-stderr timeout $T \
	    "$CPCPLOT" "$D/c.csv"
	expect_status 1
	expect_eq "$stderr" \
	    "cpcplot: gnuplot is not installed (Debian: apt-get install gnuplot-nox)" \
	    "gnuplot missing"
	run --separate-stderr timeout $T "$CPCPLOT" --term -o x.svg "$D/c.csv"
	expect_status 2
}

# The samples of -S in the machine-readable formats: getpid(2) sampled
# with period 1 takes exactly one sample per call, with period 10 one in
# ten; the JSON is valid against the schema, CSV and JSON give the same
# facts.
@test "cputrack -S in csv and json: each request's samples, exact; -S alone; the -f tree" {
	needs_py jsonschema
	local fmt f pid kids wl
	wl=$(workload forker)
	for fmt in csv json; do
		f=$D/s.$fmt
		run --separate-stderr timeout $T "$CPUTRACK" --format=$fmt \
		    -o "$f" -c "$EV" -S "$EV,$EV,period1=10" \
		    "$(workload getpid_n)" 1000
		expect_status 0
		expect_eq "$stderr" "" "$fmt: stderr"
		facts $fmt "$f"
		[ $fmt = json ] || expect_eq "$(fact '^header')" \
		    "header time,pid,lwp,kind,set,$EV,samples:$EV,samples:$EV#2,enabled_ns,running_ns,scaled,note" \
		    "the CSV header: a column per sampling request"
		expect_eq "$(fact '^row ' | cut -d' ' -f2,4-)" \
		    "exit $EV samples:$EV=1000 samples:$EV#2=100 $EV=1000" \
		    "$fmt: 1000 calls counted, sampled at periods 1 and 10"
		# -S alone: samples, no set, no counts
		run --separate-stderr timeout $T "$CPUTRACK" --format=$fmt \
		    -o "$f" -S "$EV,period=10" "$(workload getpid_n)" 1000
		expect_status 0
		facts $fmt "$f"
		expect_eq "$(fact '^row ' | cut -d' ' -f2,4-)" \
		    "exit  samples:$EV=100" "$fmt: -S alone"
		# -f: every process's samples, and the tree's
		run --separate-stderr timeout $T "$CPUTRACK" -f --format=$fmt \
		    -o "$f" -c "$EV" -S "$EV" "$wl" -p 10 -q 20 -n 3
		expect_status 0
		pid=$(awk '/^parent / { print $2 }' <<<"$output")
		kids=$(awk '/^child / { print $2 }' <<<"$output" | sort)
		facts $fmt "$f"
		expect_eq "$(fact "^row exit $pid/$pid ")" \
		    "row exit $pid/$pid $EV samples:$EV=10 $EV=10" \
		    "$fmt: the parent's exit"
		expect_eq "$(fact '^row exit ' | grep -v " $pid/" |
		    awk '{ split($3, a, "/"); print a[1], $5, $6 }' | sort)" \
		    "$(sed "s/\$/ samples:$EV=20 $EV=20/" <<<"$kids")" \
		    "$fmt: the children's exits"
		expect_eq "$(fact '^row total')" \
		    "row total $pid/4 $EV note=tree samples:$EV=70 $EV=70" \
		    "$fmt: the tree's total: 10 + 3 x 20 samples"
	done
}

@test "cputrack -S openmetrics: a samples counter per process and request, exact" {
	needs_py prometheus_client
	local f=$D/s.prom pid
	run --separate-stderr timeout $T "$CPUTRACK" --format=openmetrics \
	    -o "$f" -c "$EV" -S "$EV,$EV,period1=10" "$(workload getpid_n)" 1000
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	run "$PY" "$CHECK" om "$f"
	expect_status 0
	pid=$(awk -F'"' '/^sample cputrack_events_total/ { print $6 }' \
	    <<<"$output")
	expect_eq "$(grep -E '^family cputrack_(events|samples) ' <<<"$output")" \
	    "family cputrack_events counter
family cputrack_samples counter" "the two families"
	expect_eq "$(grep -E '^sample cputrack_(events|samples)_total ' <<<"$output")" \
	    "sample cputrack_events_total command=\"getpid_n\" event=\"$EV\" pid=\"$pid\" 1000
sample cputrack_samples_total command=\"getpid_n\" event=\"$EV\" pid=\"$pid\" 1000
sample cputrack_samples_total command=\"getpid_n\" event=\"$EV#2\" pid=\"$pid\" 100" \
	    "1000 calls counted, sampled at periods 1 and 10"
}

@test "cpustat -S in csv, json and openmetrics: the getpid calls of a workload on CPU 1 sampled" {
	requires cpu:0 cpu:1
	needs_py jsonschema prometheus_client
	machine_unlock
	machine_lock -x
	local fmt f n=5000 got tot try ok v
	for fmt in csv json openmetrics; do
		f=$D/c.$fmt
		ok=0
		# Others may call getpid too: at least n, at most n + 200 in
		# one of five tries.  csv counts and samples, json and
		# openmetrics only sample (-S alone).
		for try in 1 2 3 4 5; do
			if [ $fmt = csv ]; then
				set -- -c "$EV"
			else
				set --
			fi
			timeout $T "$CPUSTAT" --format=$fmt -o "$f" "$@" \
			    -S "$EV" 0.2 4 &
			"$(workload getpid_n)" -c 1 -d 300 "$n" >/dev/null
			wait $! || fail_with "cpustat failed"
			if [ $fmt = openmetrics ]; then
				run "$PY" "$CHECK" om "$f"
				expect_status 0
				expect_eq "$(grep -c '^sample cpustat_events' <<<"$output")" \
				    0 "no counts with -S alone"
				got=$(grep -F "sample cpustat_samples_total cpu=\"1\" event=\"$EV\" " \
				    <<<"$output" | awk '{ print $NF }')
			else
				facts $fmt "$f"
				tot=$(fact "^row total " | sed 's/.*samples:[^=]*=//;s/ .*//')
				expect_eq "$tot" \
				    "$(fact "^sum samples:$EV " | awk '{ print $NF }')" \
				    "$fmt: the total is the sum of the ticks"
				got=$(fact "^row tick 1 " |
				    sed 's/.*samples:[^=]*=//;s/ .*//' |
				    awk '{ s += $1 } END { print s + 0 }')
				[ $fmt = json ] || expect_eq "$(fact '^row tick ' |
				    grep -vcE " samples:$EV=[0-9]+ $EV=[0-9]+\$")" 0 \
				    "csv: every tick row has counts and samples"
			fi
			expect_range "$got" "$n" 1000000000 "$fmt: CPU 1's samples"
			[ "$got" -le $((n + 200)) ] && { ok=1; break; }
		done
		[ $ok = 1 ] || fail_with "$fmt: CPU 1 sampled $got, want $n..$((n + 200))"
	done
}
