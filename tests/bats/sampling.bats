#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# sampling.bats - -S and its reports, end to end, with exact oracles where
# the truth is known: page-faults sampled with period 1 give one record
# per page touched, at its address; syscalls:sys_enter_getpid sampled
# with period 1 gives one record per getpid(2) call, in the thread and
# process that made it; a workload that spends 3/4 of its time in one
# function shows it in --profile.  Every tool run has a time limit.

setup() {
	load helper
	requires root
	machine_lock
	GP=syscalls:sys_enter_getpid
	OUT=$BATS_TEST_TMPDIR/out
	CSV=$BATS_TEST_TMPDIR/samples.csv
	FOLD=$BATS_TEST_TMPDIR/stacks.folded
}

teardown() {
	machine_unlock
}

# ct ARGS...: cputrack with a time limit, stderr apart.
ct() {
	run --separate-stderr timeout -s KILL 120 "$CPUTRACK" "$@"
}

# cs ARGS...: cpustat likewise.
cs() {
	run --separate-stderr timeout -s KILL 120 "$CPUSTAT" "$@"
}

# csv_check FILE: the header, and 8 fields on every record line (the
# symbol may be quoted); prints nothing, fails with the bad line.
csv_check() {
	local bad
	expect_eq "$(head -n 1 "$1")" "time,cpu,pid,tid,event,ip,addr,symbol" \
	    "CSV header" || return 1
	bad=$(tail -n +2 "$1" | grep -Ev '^-?[0-9]+\.[0-9]{9},[0-9]+,[0-9]+,[0-9]+,[^,]+,(0x[0-9a-f]+|0),(0x[0-9a-f]+|0),.+$' |
	    head -n 1)
	[ -z "$bad" ] || fail_with "CSV line out of shape: $bad"
}

# csv_count FILE AWK-CONDITION: the records (after the header) that meet
# the condition ($3 pid, $4 tid, $5 event).
csv_count() {
	awk -F, "NR > 1 && ($2) { n++ } END { print n + 0 }" "$1"
}

@test "page-faults, period=1: one record per touched page, its address in the region" {
	local n=300 start end inreg pages
	ct -T 0 -S page-faults,period=1 --samples="$CSV" \
	    "$WORKLOADS/touch_region" $n
	expect_status 0
	csv_check "$CSV"
	start=$(awk '/^region/ { print $2 }' <<<"$output")
	end=$(awk '/^region/ { print $3 }' <<<"$output")
	[ -n "$start" ] || fail_with "touch_region printed no region"
	# Records whose data address lies in [start, end): exactly n, one
	# per page.
	local -A seen=()
	local s=$((start)) e=$((end)) a t c p tid ev ip addr sym
	inreg=0
	while IFS=, read -r t c p tid ev ip addr sym; do
		a=$((addr))
		if [ $a -ge $s ] && [ $a -lt $e ]; then
			inreg=$((inreg + 1))
			seen[$(((a - s) / 4096))]=1
		fi
	done < <(tail -n +2 "$CSV")
	pages=${#seen[@]}
	expect_eq "$inreg" "$n" "records with an address in the region"
	expect_eq "$pages" "$n" "distinct pages among them"
	expect_eq "$(csv_count "$CSV" '$5 != "page-faults"')" 0 \
	    "records of another event"
}

@test "-S columns: smplN counts the samples; period=10 takes one in ten" {
	ct -T 0 -c $GP -S $GP,period=1 "$WORKLOADS/getpid_n" 1000
	expect_status 0
	expect_match "${lines[0]}" ' pic0 +smpl0 *$' "the title's columns"
	set -- $(awk '$3 == "exit"' <<<"$output")
	expect_eq "$4 $5" "1000 1000" "counted and sampled getpid calls"
	ct -T 0 -S $GP,period=10 "$WORKLOADS/getpid_n" 1000
	expect_status 0
	expect_match "${lines[0]}" ' smpl0 *$' "-S alone: the sample column"
	set -- $(awk '$3 == "exit"' <<<"$output")
	expect_eq "$4" 100 "samples at period 10"
}

@test "--profile: a function with 3/4 of the CPU time shows 75% (within 5)" {
	local hot cold
	ct -T 0 -S task-clock,period=1000000 --profile \
	    "$WORKLOADS/split_work" 200
	expect_status 0
	expect_match "$output" $'\n# profile: pid [0-9]+, task-clock, [0-9]+ samples\n#    pct   samples symbol object\n' \
	    "the profile's title lines"
	hot=$(awk '$3 == "split_hot" && $4 == "split_work" { print $1 }' \
	    <<<"$output")
	cold=$(awk '$3 == "split_cold" && $4 == "split_work" { print $1 }' \
	    <<<"$output")
	expect_frange "$hot" 70 80 "split_hot's share"
	expect_frange "$cold" 20 30 "split_cold's share"
	# The hottest first.
	expect_eq "$(awk '/^# +pct/ { getline; print $3; exit }' <<<"$output")" \
	    split_hot "the first line"
	# --profile=1: one function only.
	ct -T 0 -S task-clock,period=1000000 --profile=1 \
	    "$WORKLOADS/split_work" 50
	expect_status 0
	expect_eq "$(grep -c '^ *[0-9.]* *[0-9]* split_' <<<"$output")" 1 \
	    "--profile=1 lines"
}

@test "--samples: every record, with the tracked thread's tid and the event" {
	local tid
	ct -T 0 -S task-clock,period=1000000 --samples="$CSV" \
	    "$WORKLOADS/split_work" -t 50
	expect_status 0
	csv_check "$CSV"
	tid=$(awk '/^done/ { print $2 }' <<<"$output")
	expect_range "$(csv_count "$CSV" "\$4 == $tid")" 100 100000 \
	    "records of the worker thread $tid"
	expect_eq "$(csv_count "$CSV" '$5 != "task-clock"')" 0 \
	    "records of another event"
	expect_range "$(csv_count "$CSV" '$8 == "split_hot"')" 50 100000 \
	    "records named split_hot"
}

@test "10 kHz of task-clock: a ring holds two seconds of records, none lost" {
	local n
	# Read once, at the end (-T 0): the records of 0.75 s of work (the
	# kernel's interrupts at 10 kHz add up to as much again in a VM)
	# must all wait in the ring.  An smpl_nrecs ring (4096 asked, 5461
	# held) lost the rest; a clock's holds two seconds (21845 here).
	ct -T 0 -S task-clock,period=100000 --samples="$CSV" \
	    "$WORKLOADS/split_work" 150
	expect_status 0
	csv_check "$CSV"
	[[ "$stderr" != *lost* ]] || fail_with "records lost: $stderr"
	n=$(awk '$3 == "exit" { print $4 }' <<<"$output")
	expect_range "$n" 5462 21845 "samples, more than 5461"
	expect_eq "$(csv_count "$CSV" 1)" "$n" \
	    "CSV records against the exit line's smpl0 (lost ones included)"
}

@test "-g --folded: folded stacks, root first, the hot function a leaf" {
	local total hot
	ct -T 0 -g -S task-clock,period=1000000 --folded="$FOLD" \
	    "$WORKLOADS/split_work" 100
	expect_status 0
	[ -s "$FOLD" ] || fail_with "no folded stacks"
	bad=$(grep -Ev '^[^ ]+ [0-9]+$' "$FOLD" | head -1)
	[ -z "$bad" ] || fail_with "folded line out of shape: $bad"
	total=$(awk '{ n += $NF } END { print n }' "$FOLD")
	hot=$(awk '$1 ~ /(^|;)split_work`split_hot$/ { n += $NF }
	    END { print n + 0 }' "$FOLD")
	expect_range $((hot * 100 / total)) 70 80 "split_hot's share as leaf"
	# Each frame names its object: the program, libc, the kernel.
	grep -Eq '(^|;)split_work`main;split_work`split_hot ' "$FOLD" ||
	    fail_with "no stack from main to split_hot, named for split_work"
	grep -q '^libc\.so\.[0-9]*`' "$FOLD" ||
	    fail_with "no root frame in libc"
}

@test "threads: each thread's records under its own tid" {
	local tid calls
	ct -T 0 -S $GP,period=1 --samples="$CSV" \
	    "$WORKLOADS/threads_getpid" -k 100 3
	expect_status 0
	csv_check "$CSV"
	while read -r _ tid calls; do
		expect_eq "$(csv_count "$CSV" "\$4 == $tid")" "$calls" \
		    "records of thread $tid"
	done < <(grep '^thread ' <<<"$output")
	expect_eq "$(csv_count "$CSV" 1)" 600 "all records"
}

@test "-f: children are sampled with their pids; without -f they are not" {
	local parent
	ct -T 0 -f -S $GP,period=1 --samples="$CSV" \
	    "$WORKLOADS/forker" -p 100 -q 200 -n 2
	expect_status 0
	parent=$(awk '/^parent/ { print $2 }' <<<"$output")
	expect_eq "$(csv_count "$CSV" "\$3 == $parent")" 100 \
	    "the parent's records"
	for c in $(awk '/^child/ { print $2 }' <<<"$output"); do
		expect_eq "$(csv_count "$CSV" "\$3 == $c")" 200 \
		    "child $c's records"
	done
	ct -T 0 -S $GP,period=1 --samples="$CSV" \
	    "$WORKLOADS/forker" -p 100 -q 200 -n 2
	expect_status 0
	expect_eq "$(csv_count "$CSV" 1)" 100 "without -f: the parent's only"
}

@test "-e: the new image is sampled too; without -e, not" {
	ct -T 0 -e -S $GP,period=1 --samples="$CSV" \
	    "$WORKLOADS/execer" 100 "$WORKLOADS/getpid_n" 300
	expect_status 0
	expect_eq "$(csv_count "$CSV" 1)" 400 "records before and after exec"
	ct -T 0 -S $GP,period=1 --samples="$CSV" \
	    "$WORKLOADS/execer" 100 "$WORKLOADS/getpid_n" 300
	expect_status 0
	expect_eq "$(csv_count "$CSV" 1)" 100 "without -e: before exec only"
}

@test "cpustat -S: the sample column per CPU and a system profile" {
	requires cpu:0
	"$WORKLOADS/split_work" 300 >/dev/null &
	local wl=$!
	cs -S cpu-clock,period=1000000 --profile=5 0.5 2
	kill $wl 2>/dev/null || true
	wait $wl 2>/dev/null || true
	expect_status 0
	expect_match "${lines[0]}" ' smpl0 *$' "the title's sample column"
	expect_match "$output" $'\n# profile: system, cpu-clock, [0-9]+ samples\n' \
	    "the system profile"
	grep -Eq '^ +[0-9.]+ +[0-9]+ split_hot split_work$' <<<"$output" ||
	    fail_with "split_hot is not in the system profile"
	cs -S cpu-clock,period=1000000 --profile --per-cpu 0.2 1
	expect_status 0
	expect_match "$output" $'\n# profile: cpu [0-9]+, cpu-clock, [0-9]+ samples\n' \
	    "--per-cpu: a profile per CPU"
}

@test "sampling options: every bad combination is a usage error" {
	local t
	for t in cputrack cpustat; do
		if [ $t = cputrack ]; then
			set -- "$CPUTRACK" -c page-faults
			tail=true
		else
			set -- "$CPUSTAT"
			tail=0.1
		fi
		run --separate-stderr timeout 20 "$@" --profile $tail
		expect_status 2
		expect_eq "${stderr_lines[0]}" "$t: --profile needs -S: it reports on the samples of a sampling set" "$t --profile alone"
		run --separate-stderr timeout 20 "$@" -g $tail
		expect_eq "${stderr_lines[0]}" "$t: -g needs -S: it reports on the samples of a sampling set" "$t -g alone"
		run --separate-stderr timeout 20 "$@" -S page-faults --folded=x $tail
		expect_eq "${stderr_lines[0]}" "$t: --folded needs -g: folded stacks are made of call chains" "$t --folded without -g"
		run --separate-stderr timeout 20 "$@" -S page-faults -S task-clock $tail
		expect_eq "${stderr_lines[0]}" "$t: -S given twice: one sampling set ('page-faults', then 'task-clock')" "$t -S twice"
		run --separate-stderr timeout 20 "$@" -S page-faults --profile=0 $tail
		expect_eq "${stderr_lines[0]}" "$t: invalid --profile '0': must be from 1 to 1000000" "$t --profile=0"
		run --separate-stderr timeout 20 "$@" -S page-faults --profile=x $tail
		expect_eq "${stderr_lines[0]}" "$t: invalid --profile 'x': not a whole number" "$t --profile=x"
		run --separate-stderr timeout 20 "$@" -S page-faults -g --samples=a --folded=a $tail
		expect_eq "${stderr_lines[0]}" "$t: --samples and --folded name the same file 'a'" "$t same file"
		run --separate-stderr timeout 20 "$@" -S page-faults --samples=x --samples-format=xml $tail
		expect_status 2
		expect_eq "${stderr_lines[0]}" "$t: invalid --samples-format 'xml': use csv or perf" "$t --samples-format=xml"
		run --separate-stderr timeout 20 "$@" -S page-faults --samples-format=perf $tail
		expect_status 2
		expect_eq "${stderr_lines[0]}" "$t: --samples-format needs --samples: it is the format of that file" "$t --samples-format alone"
		run --separate-stderr timeout 20 "$@" -S nosuchevent_xyz $tail
		expect_status 2
		expect_match "${stderr_lines[0]}" "^$t: -S 'nosuchevent_xyz': " "$t unknown event"
		run --separate-stderr timeout 20 "$@" -S task-clock,period=1000 $tail
		expect_status 2
		expect_match "${stderr_lines[0]}" "^$t: -S 'task-clock,period=1000': " "$t clock period below the minimum"
		run --separate-stderr timeout 20 "$@" -S 'page-faults,bogus=1' $tail
		expect_status 2
		expect_match "${stderr_lines[0]}" "^$t: -S 'page-faults,bogus=1': bad token" "$t bad token"
	done
	run --separate-stderr timeout 20 "$CPUSTAT" -S page-faults --per-cpu 0.1
	expect_status 2
	expect_eq "${stderr_lines[0]}" "cpustat: --per-cpu needs --profile: it splits the profile by CPU" "--per-cpu alone"
	run --separate-stderr timeout 20 "$CPUTRACK" -S page-faults --per-cpu true
	expect_status 2
	expect_eq "${stderr_lines[0]}" "cputrack: invalid option '--per-cpu'" "cputrack --per-cpu"
	run --separate-stderr timeout 20 "$CPUTRACK" -S page-faults \
	    --samples=/nonexistent/dir/x true
	expect_status 125
	expect_match "$stderr" "cannot open '/nonexistent/dir/x' for writing" \
	    "an unwritable --samples file"
}
