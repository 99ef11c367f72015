#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# cpustat_errors.bats - every error path: the message on stderr (quoting
# the bad input), nothing on stdout, and the exit status: 2 for a usage
# error (the message once, then the usage text), 1 for a runtime failure.

setup() {
	load helper
	machine_lock
}

teardown() {
	machine_unlock
	user_cleanup
}

# ---- operands -------------------------------------------------------------

@test "interval 0 is out of range" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 0
	expect_usage_error "invalid interval '0': must be from 0.001 to 1000000 seconds"
}

@test "interval 0.0001 is below a millisecond" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 0.0001 1
	expect_usage_error "invalid interval '0.0001': must be from 0.001 to 1000000 seconds"
}

@test "interval -1 after -- is out of range" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock -- -1
	expect_usage_error "invalid interval '-1': must be from 0.001 to 1000000 seconds"
}

@test "interval -1 without -- is an unknown option" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock -1
	expect_usage_error "invalid option '-1'"
}

@test "interval abc is not a number" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock abc
	expect_usage_error "invalid interval 'abc': not a number of seconds"
}

@test "interval 1e999 overflows" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 1e999
	expect_usage_error "invalid interval '1e999': must be from 0.001 to 1000000 seconds"
}

@test "interval nan and inf are not numbers of seconds" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock nan
	expect_usage_error "invalid interval 'nan': not a number of seconds"
	run --separate-stderr "$CPUSTAT" -c cpu-clock inf 1
	expect_usage_error "invalid interval 'inf': not a number of seconds"
}

@test "interval with trailing garbage" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 1s 1
	expect_usage_error "invalid interval '1s': not a number of seconds"
}

@test "count 0 is out of range" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 1 0
	expect_usage_error "invalid count '0': must be from 1 to 1000000000"
}

@test "count -1 is out of range" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 1 -1
	expect_usage_error "invalid count '-1': must be from 1 to 1000000000"
}

@test "count abc and 1.5 are not whole numbers" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 1 abc
	expect_usage_error "invalid count 'abc': not a whole number"
	run --separate-stderr "$CPUSTAT" -c cpu-clock 1 1.5
	expect_usage_error "invalid count '1.5': not a whole number"
}

@test "too many operands" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 1 2 3
	expect_usage_error "too many operands (from '3' on)"
}

# ---- options --------------------------------------------------------------

@test "-T x is neither u nor d" {
	run --separate-stderr "$CPUSTAT" -T x -c cpu-clock 1 1
	expect_usage_error "invalid -T argument 'x': use u or d"
	run --separate-stderr "$CPUSTAT" --timestamp=ud -c cpu-clock 1 1
	expect_usage_error "invalid -T argument 'ud': use u or d"
}

@test "-p abc is not a period" {
	run --separate-stderr "$CPUSTAT" -p abc -c cpu-clock 1 1
	expect_usage_error "invalid period 'abc': not a number of seconds"
}

@test "an unknown option" {
	run --separate-stderr "$CPUSTAT" -Z -c cpu-clock 1 1
	expect_usage_error "invalid option '-Z'"
	run --separate-stderr "$CPUSTAT" --bogus -c cpu-clock 1 1
	expect_usage_error "invalid option '--bogus'"
	run --separate-stderr "$CPUSTAT" --bogus=3 -c cpu-clock 1 1
	expect_usage_error "invalid option '--bogus'"
}

@test "a long option given an argument it does not take is named as typed" {
	local opt
	for opt in help version tsc soak; do
		run --separate-stderr "$CPUSTAT" "--$opt=1" -c cpu-clock 1 1
		expect_usage_error "option '--$opt' takes no argument"
	done
}

@test "an option without its argument" {
	run --separate-stderr "$CPUSTAT" -c
	expect_usage_error "option '-c' needs an argument"
	run --separate-stderr "$CPUSTAT" --events
	expect_usage_error "option '--events' needs an argument"
	run --separate-stderr "$CPUSTAT" -c cpu-clock -T
	expect_usage_error "option '-T' needs an argument"
	# the option at fault, not the cluster it ends
	run --separate-stderr "$CPUSTAT" -nc
	expect_usage_error "option '-c' needs an argument"
}

@test "options end at the first operand" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock 1 -n
	expect_usage_error "invalid count '-n': not a whole number"
}

@test "-h wins over bad operands and -c arguments, not over a bad option" {
	run --separate-stderr "$CPUSTAT" -h -c task-clok 0
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_eq "${lines[0]}" "Usage:" "first line"
	expect_match "$output" "CPU performance counter interface" "listing"
	run --separate-stderr "$CPUSTAT" -h -T x
	expect_usage_error "invalid -T argument 'x': use u or d"
}

# ---- event specifications: syntax -----------------------------------------

@test "-c '' is an empty specification" {
	run --separate-stderr "$CPUSTAT" -c '' 1 1
	expect_usage_error "-c '': empty event specification"
}

@test "an empty token between commas" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock,,task-clock 1 1
	expect_usage_error "-c 'cpu-clock,,task-clock': empty token (two commas, or a comma at an end)"
}

@test "a repeated pic0" {
	run --separate-stderr "$CPUSTAT" -c pic0=cpu-clock,pic0=task-clock 1 1
	expect_usage_error "-c 'pic0=cpu-clock,pic0=task-clock': repeated 'pic0' token"
}

@test "pic0= without an event" {
	run --separate-stderr "$CPUSTAT" -c pic0= 1 1
	expect_usage_error "-c 'pic0=': missing 'pic0' value"
}

@test "a pic beyond the last slot" {
	local n
	n=$(npic)
	expect_range "$n" 1 64 "pic slots"
	if ! have_hw_pmu; then
		expect_eq "$n" 8 "pic slots without a hardware PMU"
	fi
	run --separate-stderr "$CPUSTAT" -c "pic$n=cpu-clock" 1 1
	expect_usage_error "-c 'pic$n=cpu-clock': 'pic$n': no counter pic$n (this machine has pic0-pic$((n - 1)))"
}

@test "more events than pic slots" {
	local n spec i
	n=$(npic)
	spec=cpu-clock
	for ((i = 1; i <= n; i++)); do
		spec+=,task-clock
	done
	run --separate-stderr "$CPUSTAT" -c "$spec" 1 1
	expect_usage_error "-c '$spec': too many events at 'task-clock': a set holds at most $n (pic0-pic$((n - 1)))"
}

@test "nine different events when a set holds eight" {
	requires no_hw_pmu
	local spec=cpu-clock,task-clock,page-faults,minor-faults,major-faults
	spec+=,context-switches,cpu-migrations,alignment-faults
	spec+=,emulation-faults
	run --separate-stderr "$CPUSTAT" -c "$spec" 1 1
	expect_usage_error "-c '$spec': too many events at 'emulation-faults': a set holds at most 8 (pic0-pic7)"
}

@test "umask=zz is not a number" {
	run --separate-stderr "$CPUSTAT" -c 0xc0,umask=zz 1 1
	expect_usage_error "-c '0xc0,umask=zz': invalid value 'zz' for attribute 'umask'"
}

@test "sys=2 is neither 0 nor 1" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock,sys=2 1 1
	expect_usage_error "-c 'cpu-clock,sys=2': invalid value '2' for 'sys' (0 or 1)"
}

@test "a keyword for a slot without an event" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock,sys3 1 1
	expect_usage_error "-c 'cpu-clock,sys3': 'sys3' applies to pic3, which has no event"
}

@test "a keyword or attribute given twice" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock,sys,sys 1 1
	expect_usage_error "-c 'cpu-clock,sys,sys': repeated 'sys' token"
	run --separate-stderr "$CPUSTAT" -c cpu-clock,nouser0,nouser0 1 1
	expect_usage_error "-c 'cpu-clock,nouser0,nouser0': repeated 'nouser0' token"
	run --separate-stderr "$CPUSTAT" -c 0xc0,umask=1,umask=2 1 1
	expect_usage_error "-c '0xc0,umask=1,umask=2': repeated 'umask' token"
}

@test "an implicit event after the last slot is taken by picN=" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock,task-clock,pic0=cs 1 1
	expect_usage_error "-c 'cpu-clock,task-clock,pic0=cs': repeated 'pic0' token"
}

@test "name=value that is no keyword" {
	run --separate-stderr "$CPUSTAT" -c foo=bar 1 1
	expect_usage_error "-c 'foo=bar': bad token 'foo=bar' (not pic<N>=, sys, nouser or an attribute)"
}

@test "every -c is checked: a bad second set" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock -c pic0= 1 1
	expect_usage_error "-c 'pic0=': missing 'pic0' value"
}

# ---- event specifications: names (checked before anything runs) -----------

@test "unknown event, with a suggestion for a near miss" {
	run --separate-stderr "$CPUSTAT" -c task-clok 0.1 1
	expect_usage_error "-c 'task-clok': unknown event 'task-clok'; did you mean 'task-clock'?"
}

@test "an unknown event far from any name: no suggestion" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock,bogus 1 1
	expect_usage_error "-c 'cpu-clock,bogus': unknown event 'bogus'"
}

@test "a sysfs PMU event with an unknown term" {
	[ -d /sys/bus/event_source/devices/msr ] || skip "needs the msr PMU"
	run --separate-stderr "$CPUSTAT" -c msr/bogus/ 1 1
	expect_usage_error "-c 'msr/bogus/': PMU 'msr' has no event or format term 'bogus' (see /sys/bus/event_source/devices/msr/events and format)"
}

@test "an attribute value out of range" {
	requires hw_pmu
	run --separate-stderr "$CPUSTAT" -c 0xc0,umask=256 1 1
	expect_status 2
	expect_eq "$output" "" "stdout"
	expect_match "${stderr_lines[0]-}" \
	    "^cpustat: -c '0xc0,umask=256': attribute 'umask' value 0x100 out of range" \
	    "first stderr line"
}

@test "-D names the failing library function; -D again changes nothing" {
	run --separate-stderr "$CPUSTAT" -D -c task-clok 1
	expect_usage_error "-c 'task-clok': cpc_set_add_request: unknown event 'task-clok'; did you mean 'task-clock'?"
	run --separate-stderr "$CPUSTAT" --debug -D -c task-clok 1
	expect_usage_error "-c 'task-clok': cpc_set_add_request: unknown event 'task-clok'; did you mean 'task-clock'?"
	# the grammar's errors are cpc_strtoset's, -D before -c or after
	run --separate-stderr "$CPUSTAT" -c pic0=cs,pic0=cs -D 1
	expect_usage_error "-c 'pic0=cs,pic0=cs': cpc_strtoset: repeated 'pic0' token"
	run --separate-stderr "$CPUSTAT" -c pic0=cs,pic0=cs 1
	expect_usage_error "-c 'pic0=cs,pic0=cs': repeated 'pic0' token"
}

@test "unknown tracepoint, with a suggestion" {
	requires root tracepoint:sched:sched_switch
	run --separate-stderr "$CPUSTAT" -c sched:sched_swich 0.1 1
	expect_status 2
	expect_eq "$output" "" "stdout"
	expect_match "${stderr_lines[0]-}" \
	    "^cpustat: -c 'sched:sched_swich': unknown event 'sched:sched_swich': system 'sched' has no tracepoint 'sched_swich'; did you mean 'sched:sched_switch'" \
	    "first stderr line"
	expect_eq "$(grep -c '^cpustat: ' <<<"$stderr")" 1 \
	    "number of diagnostics"
}

@test "unknown tracepoint system, with a suggestion" {
	requires root tracepoint:sched:sched_switch
	run --separate-stderr "$CPUSTAT" -c schedx:sched_switch 0.1 1
	expect_status 2
	expect_eq "$output" "" "stdout"
	expect_match "${stderr_lines[0]-}" \
	    "^cpustat: -c 'schedx:sched_switch': unknown event 'schedx:sched_switch': no tracepoint system 'schedx'; did you mean 'sched'" \
	    "first stderr line"
}

@test "umask on an event that is not a raw code" {
	run --separate-stderr "$CPUSTAT" -c cpu-clock,umask=1 0.1 1
	expect_usage_error "-c 'cpu-clock,umask=1': attribute 'umask' applies only to raw event codes and x86 native events, not to 'cpu-clock'"
}

@test "a hardware event on a machine without a hardware PMU" {
	requires no_hw_pmu
	local ev
	# not a usage error: the machine cannot, exit 1, and no usage text
	for ev in cycles PAPI_tot_cyc 0xc0; do
		run --separate-stderr "$CPUSTAT" -c "$ev" 0.1 1
		expect_runtime_error "-c '$ev': cannot count '$ev': no hardware PMU (virtual machine without a virtual PMU?); software events and tracepoints can be counted instead, such as cpu-clock, task-clock, context-switches, page-faults or sched:sched_switch"
	done
}

@test "the Solaris example EC_ref,EC_hit without a hardware PMU, also under a forced libpfm4 table" {
	requires no_hw_pmu
	local msg="-c 'EC_ref,EC_hit': cannot count 'EC_ref': no hardware PMU (virtual machine without a virtual PMU?); software events and tracepoints can be counted instead, such as cpu-clock, task-clock, context-switches, page-faults or sched:sched_switch"
	run --separate-stderr "$CPUSTAT" -c EC_ref,EC_hit 1 10
	expect_runtime_error "$msg"
	# a forced table changes the names known, not what the kernel counts
	run --separate-stderr env LIBPFM_FORCE_PMU=skl "$CPUSTAT" \
	    -c EC_ref,EC_hit 1 10
	expect_runtime_error "$msg"
	# a native name: when libpfm4 does not know this processor, the
	# message says which tables have it (the newest five)
	run --separate-stderr "$CPUSTAT" -c INST_RETIRED:ANY_P 1 1
	expect_status 1
	expect_match "$stderr" "^cpustat: -c 'INST_RETIRED:ANY_P': cannot count 'INST_RETIRED:ANY_P': no hardware PMU \(virtual machine without a virtual PMU\?\); (it is a libpfm4 event of [a-z_0-9, ]*(skl|spr)[a-z_0-9, ]*( \(and [0-9]+ older\))?|software events and tracepoints can be counted instead, .*)\$"
}

@test "an output that cannot be written: exit 1 with the reason" {
	requires root
	[ -w /dev/full ] || skip "needs /dev/full"
	run --separate-stderr bash -c '"$CPUSTAT" -c cpu-clock 0.1 1 >/dev/full'
	expect_runtime_error "write error: No space left on device"
}

# fd_starved LIMIT ARG...: run cpustat ARG... with nothing open but
# stdin, stdout and stderr and at most LIMIT open files (so that it cannot
# raise the limit either), as `run --separate-stderr`.
fd_starved() {
	local limit=$1
	shift
	run --separate-stderr bash -c '
		for fd in /proc/$$/fd/*; do
			fd=${fd##*/}
			[ "$fd" -le 2 ] || eval "exec $fd>&-"
		done
		ulimit -n "$0" && exec "$CPUSTAT" "$@"' "$limit" "$@"
}

# expect_cpu_failures: some CPU could not count (the messages name it),
# exit 1; sets NFAIL.
expect_cpu_failures() {
	local l
	expect_status 1
	NFAIL=0
	for l in "${stderr_lines[@]}"; do
		expect_match "$l" "^cpustat: cpu [0-9]+: .*Too many open files" \
		    "stderr line"
		NFAIL=$((NFAIL + 1))
	done
	expect_range "$NFAIL" 1 "$NCPU" "CPUs that failed"
}

@test "a CPU that cannot count from the start is not counted in the total line" {
	requires root
	mapfile -t CPUS < <(usable_cpus)
	NCPU=${#CPUS[@]}
	# Open are 0-2 (cpustat sleeps on no descriptor); a set of eight
	# events needs eight more per CPU: 9 per CPU leaves one short.
	fd_starved $((9 * NCPU)) -c cs,cs,cs,cs,cs,cs,cs,cs 0.3 2
	expect_cpu_failures
	parse_output
	expect_eq "${#S_TIME[@]}" $((2 * (NCPU - NFAIL))) "sample lines"
	expect_eq "${T_NCPU[0]}" $((NCPU - NFAIL)) \
	    "CPUs of the total line: those measured"
	expect_eq "$(field "${T_VALS[0]}" 0)" "$(sum_samples 0)" "total"
}

@test "a CPU that fails after its first sample is counted in the total lines" {
	requires root
	mapfile -t CPUS < <(usable_cpus)
	NCPU=${#CPUS[@]}
	# The first set (one event per CPU) fits; the second (eight more per
	# CPU, the first staying open) does not fit on every CPU.
	fd_starved $((10 * NCPU)) -c cs -c cs,cs,cs,cs,cs,cs,cs,cs 0.3 2
	expect_cpu_failures
	parse_output
	expect_eq "${#S_TIME[@]}" $((2 * NCPU - NFAIL)) "sample lines"
	expect_eq "${T_NCPU[*]}" "$NCPU $NCPU" "CPUs of the total lines"
}

# ---- privileges -------------------------------------------------------------

@test "unprivileged: per-CPU counting is refused with advice, exit 1" {
	requires unpriv_user paranoid
	make_user
	local paranoid
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	run --separate-stderr as_user -c cpu-clock 0.1 1
	# one message before anything is printed, naming what to change
	expect_runtime_error "cannot count on cpu $(usable_cpus | head -1): Permission denied (per-CPU counting needs root, CAP_PERFMON, or kernel.perf_event_paranoid <= 0; it is $paranoid)"
	# the default set too
	run --separate-stderr as_user 0.1 1
	expect_status 1
	expect_eq "$output" "" "stdout"
	expect_match "$stderr" "Permission denied.*CAP_PERFMON.*perf_event_paranoid" \
	    "advice"
}

@test "unprivileged: a tracepoint needs root" {
	requires unpriv_user tracepoint:syscalls:sys_enter_getpid
	make_user
	as_user_can_read "$(tracefs_dir)/events/syscalls" &&
	    skip "tracefs is readable by other users here"
	run --separate-stderr as_user -c syscalls:sys_enter_getpid 0.1 1
	expect_runtime_error "-c 'syscalls:sys_enter_getpid': cannot look up tracepoint 'syscalls:sys_enter_getpid': $(tracefs_dir)/events/syscalls: Permission denied (tracepoints need root)"
}

@test "unprivileged: usage errors are still usage errors" {
	requires unpriv_user
	make_user
	run --separate-stderr as_user -c cpu-clock 0
	expect_usage_error "invalid interval '0': must be from 0.001 to 1000000 seconds"
	run --separate-stderr as_user -h
	expect_status 0
	expect_eq "${lines[0]}" "Usage:" "-h as an unprivileged user"
}

@test "no CPU could count: each CPU's reason, no title, no total, exit 1" {
	local d=$BATS_TEST_TMPDIR/nomsr c n
	mkdir "$d"
	# The msr backend on an empty device root: no CPU has a device.
	CPC_BACKEND=msr CPC_MSR_ROOT=$d run --separate-stderr \
	    timeout 20 "$CPUSTAT" -o "$BATS_TEST_TMPDIR/out.csv" --format=csv \
	    -c instructions 0.1 2
	expect_status 1
	expect_eq "$output" "" "stdout"
	expect_eq "$(cat "$BATS_TEST_TMPDIR/out.csv")" "" "the CSV file"
	n=0
	for c in $(usable_cpus); do
		grep -Fxq "cpustat: cpu $c: no msr device $d/$c/msr: load the msr module (modprobe msr), or set CPC_MSR_ROOT to where the devices are" <<<"$stderr" ||
		    fail_with "no message for cpu $c: $stderr"
		n=$((n + 1))
	done
	expect_eq "$(wc -l <<<"$stderr")" "$n" "one message a CPU"
}
