#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# event_names.bats - how the tools take event names they cannot resolve:
# the suggestions for a near miss (letter case, a tracepoint's event part,
# a PMU's own events, a table prefix), the reasons given for a raw code,
# a PMU term or a name that is not right, and the man pages' examples.
# Every refusal here is checked before anything runs: exit 2 for a name
# that is wrong, 1 for a name this machine cannot count.

setup() {
	load helper
	machine_lock
}

teardown() {
	machine_unlock
}

# refused SPEC MESSAGE: cpustat -c SPEC is a usage error with MESSAGE
# (SPEC shown as messages show it: over 131 bytes, its first 128 and ...).
refused() {
	local shown=$1
	[ "${#shown}" -le 131 ] || shown=${shown:0:128}...
	run --separate-stderr "$CPUSTAT" -c "$1" 1 1
	expect_usage_error "-c '$shown': $2"
}

# suggests SPEC NAME: cpustat -c SPEC is refused, NAME the first suggestion.
suggests() {
	run --separate-stderr "$CPUSTAT" -c "$1" 1 1
	expect_status 2 || return 1
	expect_match "${stderr_lines[0]-}" \
	    "^cpustat: -c '$1': unknown event '$1'; did you mean '$2'" \
	    "the first suggestion for $1"
}

# ---- suggestions ------------------------------------------------------------

@test "a name in the wrong letter case: its right spelling comes first" {
	suggests Cycles cycles
	suggests CS cs
	suggests TASK-CLOCK task-clock
	suggests ec_hit EC_hit
	suggests l1-dcache-loads L1-dcache-loads
	suggests Task-Clok task-clock
	# the exact name is never suggested back, nor is a right one refused
	run --separate-stderr "$CPUTRACK" -T 0 -c task-clock true
	expect_status 0
}

@test "a tracepoint in the wrong case, or without its system" {
	requires root tracepoint:sched:sched_switch
	suggests sched_switch sched:sched_switch
	suggests sched_swtch sched:sched_switch
	suggests SCHED:sched_switch sched:sched_switch
	run --separate-stderr "$CPUSTAT" -c sched:SCHED_SWITCH 1 1
	expect_status 2
	expect_match "${stderr_lines[0]-}" \
	    "^cpustat: -c 'sched:SCHED_SWITCH': unknown event 'sched:SCHED_SWITCH': system 'sched' has no tracepoint 'SCHED_SWITCH'; did you mean 'sched:sched_switch'" \
	    "first stderr line"
}

@test "a near miss of a PMU's event or field: the PMU's own names" {
	[ -e /sys/bus/event_source/devices/msr/events/tsc ] ||
	    skip "needs the msr PMU"
	refused msr/tsx/ "PMU 'msr' has no event or format term 'tsx' (see /sys/bus/event_source/devices/msr/events and format); did you mean 'msr/tsc/'?"
	refused msr/evnt=0/ "PMU 'msr' has no event or format term 'evnt' (see /sys/bus/event_source/devices/msr/events and format); did you mean 'msr/event=0/'?"
}

@test "a table prefix is kept in the suggestion, and perf:: gets perf's name" {
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$CPUSTAT" \
	    -c skl::INST_RETIRD:ANY_P 1 1
	expect_status 2
	expect_match "${stderr_lines[0]-}" \
	    "^cpustat: -c 'skl::INST_RETIRD:ANY_P': unknown event 'skl::INST_RETIRD:ANY_P'; did you mean 'skl::INST_RETIRED'" \
	    "first stderr line"
	# libpfm4's perf table is not a form of its own: perf's names are
	suggests perf::cycles cycles
	suggests perf::CYCLES cycles
}

@test "-h's 'Also accepted': the processor's own table as pmu::, not another's" {
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$CPUSTAT" -h
	expect_status 0
	local text
	text=$(sed -n '/^\tAlso accepted/,$p' <<<"$output" | tr -d '\t\n')
	[[ $text == *"with the name of their libpfm4 table in front as pmu::EVENT:UMASK (skl::INST_RETIRED:ANY_P), for the tables libpfm4 uses on this processor;"* ]] ||
	    fail_with "the pmu:: form is not described as accepted: $text" ||
	    return 1
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$CPUTRACK" -T 0 \
	    -c skl::INST_RETIRED:ANY_P true
	[ "$status" -ne 2 ] || fail_with "skl::INST_RETIRED:ANY_P is refused"
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$CPUSTAT" \
	    -c hsw::INST_RETIRED:ANY_P 1 1
	expect_usage_error "-c 'hsw::INST_RETIRED:ANY_P': 'hsw::INST_RETIRED:ANY_P' is not an event of this processor (Intel Skylake): libpfm4 has it for hsw"
}

# ---- reasons ----------------------------------------------------------------

@test "a digit first but no number: why it is not a raw code" {
	refused 08 "invalid raw event code '08': not a decimal, 0x hexadecimal or 0 octal number"
	refused 09 "invalid raw event code '09': not a decimal, 0x hexadecimal or 0 octal number"
	refused 0x "invalid raw event code '0x': not a decimal, 0x hexadecimal or 0 octal number"
	refused 0x1ffffffffffffffff "invalid raw event code '0x1ffffffffffffffff': out of range (at most 0xffffffffffffffff)"
	refused 18446744073709551616 "invalid raw event code '18446744073709551616': out of range (at most 0xffffffffffffffff)"
}

@test "the core PMU's syntax without a hardware PMU: cannot count, as 0xc0 (both tools)" {
	requires no_hw_pmu
	local spec tail="no hardware PMU (virtual machine without a virtual PMU?); software events and tracepoints can be counted instead, such as cpu-clock, task-clock, context-switches, page-faults or sched:sched_switch"
	for spec in cpu/event=0x3c/ 'cpu/event=0xc0,umask=0x00/'; do
		run --separate-stderr "$CPUSTAT" -c "$spec" 1 1
		expect_status 1
		expect_eq "$output" "" "stdout"
		expect_eq "$stderr" "cpustat: -c '$spec': cannot count '$spec': $tail" \
		    "stderr"
		# as for the raw code 0xc0: cputrack itself failed
		run --separate-stderr "$CPUTRACK" -c "$spec" true
		expect_status 125
		expect_eq "$stderr" "cputrack: -c '$spec': cannot count '$spec': $tail" \
		    "stderr"
	done
}

@test "PMU terms: no paths, each once, one event, not cut short" {
	[ -e /sys/bus/event_source/devices/msr/events/smi ] ||
	    skip "needs the msr PMU with tsc and smi"
	# ../ climbs out of sysfs: refused before any file is read
	refused msr/../../../../../etc/hostname/ \
	    "PMU 'msr' has no term '../../../../../etc/hostname'"
	refused msr/./ "PMU 'msr' has no term '.'"
	refused 'msr/tsc,smi/' "'tsc' and 'smi' are two events of PMU 'msr': give one"
	refused 'msr/event=0,event=4/' "term 'event' of PMU 'msr' given twice"
	refused 'msr/tsc,,/' "empty term in 'tsc,,' of PMU 'msr'"
	local zeros
	printf -v zeros '%0130d' 0
	refused "msr/event=0x${zeros}4/" \
	    "PMU term 'event=0x00000000...' too long (at most 127 characters)"
}

@test "names too long, a system too long, empty parts of system:event" {
	local long sys
	printf -v long '%0512d' 0
	long=a${long:1}
	refused "$long" "event name too long (at most 511 characters)"
	printf -v sys '%0300d' 0
	sys=s${sys:1}
	refused "$sys:x" "unknown event: tracepoint system name too long (at most 255 characters)"
	refused :x "unknown event ':x'"
}

# ---- the man pages ------------------------------------------------------------

@test "cpustat(1): each 'PAPI_x for name' example stands for that name" {
	# without a hardware PMU no native event is used: the perf name is
	# what each stands for, as the example says
	requires no_hw_pmu
	local pairs papi name line
	pairs=$(mandoc -Tutf8 "$TESTS_DIR/../man1/cpustat.1" | col -b |
	    tr -s ' \n' '  ' | grep -o 'PAPI_[a-z0-9_]* for [A-Za-z0-9-]*')
	[ -n "$pairs" ] || fail_with "no 'PAPI_x for name' example found" ||
	    return 1
	while read -r papi _ name; do
		line=$("$CPUSTAT" --list-events="$papi" | awk -v n="$papi" '$1 == n')
		[ -n "$line" ] || fail_with "$papi is not listed" || return 1
		[[ $line == *"($name)" ]] ||
		    fail_with "$papi does not stand for $name: '$line'" ||
		    return 1
	done <<<"$pairs"
}
