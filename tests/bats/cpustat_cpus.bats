#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# cpustat_cpus.bats - -C cpulist: only the listed CPUs are measured, in
# the lines and in the totals; lists in the kernel's syntax; a list that
# is malformed or names a CPU the machine lacks is a usage error, one
# outside the affinity mask a failure.  (A listed CPU offline at start,
# or going offline and back: cpustat_hotplug.bats.)

setup() {
	load helper
	machine_lock
}

teardown() {
	machine_unlock
}

# expect_cpus CPU...: every sample line is of one of CPU..., each CPU
# has 3 lines of about 0.2 s of cpu-clock, and one total line counts
# those CPUs and adds up their lines.
expect_cpus() {
	local i c want
	parse_output || return 1
	want=$(printf '%s\n' "$@" | sort -n | tr '\n' ' ')
	expect_eq "$(printf '%s\n' "${S_CPU[@]}" | sort -nu | tr '\n' ' ')" \
	    "$want" "the CPUs of the sample lines" || return 1
	for c in "$@"; do
		expect_eq "$(printf '%s\n' "${S_CPU[@]}" | grep -cx "$c")" 3 \
		    "sample lines of cpu $c" || return 1
	done
	for i in "${!S_VALS[@]}"; do
		expect_range "${S_VALS[i]}" 150000000 250000000 \
		    "cpu-clock ns of cpu ${S_CPU[i]}" || return 1
	done
	expect_eq "${#T_TIME[@]}" 1 "total lines" &&
	    expect_eq "${T_NCPU[0]}" "$#" "CPUs of the total line" &&
	    expect_eq "${T_VALS[0]}" "$(sum_samples 0)" "the total"
}

@test "-C 0: the lines and the total of cpu 0 alone" {
	requires root cpu:0
	run --separate-stderr "$CPUSTAT" -C 0 -c cpu-clock 0.2 3
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	expect_cpus 0
}

@test "-C 1: cpu 1 alone; -C 1,0 both, in CPU order" {
	requires root cpu:0 cpu:1
	run --separate-stderr "$CPUSTAT" -C 1 -c cpu-clock 0.2 3
	expect_status 0
	expect_cpus 1
	run --separate-stderr "$CPUSTAT" -C 1,0 -c cpu-clock 0.2 3
	expect_status 0
	expect_cpus 0 1
	expect_eq "${S_CPU[*]}" "0 1 0 1 0 1" "the order of the lines"
}

@test "-C in the kernel's syntax: ranges, strides, repeats; --cpus and perf's --cpu" {
	requires root cpu:0
	run --separate-stderr "$CPUSTAT" -C 0-0:1/2,0 -c cpu-clock 0.2 3
	expect_status 0
	expect_cpus 0
	run --separate-stderr "$CPUSTAT" --cpus=0 -c cpu-clock 0.2 3
	expect_status 0
	expect_cpus 0
	run --separate-stderr "$CPUSTAT" --cpu 0 -c cpu-clock 0.2 3
	expect_status 0
	expect_cpus 0
}

@test "-C with every usable CPU is the same as no -C" {
	requires root
	local list
	list=$(usable_cpus | paste -sd,)
	run --separate-stderr "$CPUSTAT" -C "$list" -c cpu-clock 0.2 3
	expect_status 0
	mapfile -t want < <(usable_cpus)
	expect_cpus "${want[@]}"
}

@test "-C: a malformed list is a usage error that quotes it" {
	run --separate-stderr "$CPUSTAT" -C '' -c cpu-clock 1 1
	expect_usage_error "invalid -C list '': empty list"
	run --separate-stderr "$CPUSTAT" -C 0,,1 -c cpu-clock 1 1
	expect_usage_error "invalid -C list '0,,1': empty element (two commas, or a comma at an end)"
	run --separate-stderr "$CPUSTAT" -C 3-1 -c cpu-clock 1 1
	expect_usage_error "invalid -C list '3-1': '3-1': a range goes up (N-M with N <= M)"
	run --separate-stderr "$CPUSTAT" -C 0,x -c cpu-clock 1 1
	expect_usage_error "invalid -C list '0,x': 'x' is not N, N-M or N-M:USED/GROUP"
	run --separate-stderr "$CPUSTAT" -C 0-3:3/2 -c cpu-clock 1 1
	expect_usage_error "invalid -C list '0-3:3/2': '0-3:3/2': a stride USED/GROUP needs 1 <= USED <= GROUP"
	run --separate-stderr "$CPUSTAT" -C 1024 -c cpu-clock 1 1
	expect_usage_error "invalid -C list '1024': '1024': CPU numbers go up to 1023"
	run --separate-stderr "$CPUSTAT" -C
	expect_usage_error "option '-C' needs an argument"
}

@test "-C: a CPU this machine does not have is a usage error naming what it has" {
	local present last
	present=$(cat /sys/devices/system/cpu/present)
	last=$(expand_list "$present" | tail -1)
	[ "$last" -lt 1020 ] || skip "this machine has CPUs up to $last"
	run --separate-stderr "$CPUSTAT" -C "0,$((last + 1))" -c cpu-clock 1 1
	expect_usage_error "-C '0,$((last + 1))': no cpu $((last + 1)) on this machine (it has $present)"
	run --separate-stderr "$CPUSTAT" -C "$((last + 1))-$((last + 3))" \
	    -c cpu-clock 1 1
	expect_usage_error "-C '$((last + 1))-$((last + 3))': no cpus $((last + 1))-$((last + 3)) on this machine (it has $present)"
}

@test "-C: a CPU outside the affinity mask fails with status 1" {
	requires root cpu:0 cpu:1
	command -v taskset >/dev/null || skip "needs taskset"
	run --separate-stderr taskset -c 0 "$CPUSTAT" -C 0,1 -c cpu-clock 1 1
	expect_runtime_error "-C '0,1': cpu 1 is outside the CPU affinity of cpustat (taskset, cpuset)"
}

@test "-h wins over a bad -C" {
	run --separate-stderr "$CPUSTAT" -h -C x
	expect_status 0
	expect_eq "${lines[0]}" "Usage:" "first line"
}
