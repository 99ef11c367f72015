#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# msr.bats - the msr backend (the kernel-module fallback) end to end:
# cpustat over tests/msrsim, a FUSE simulator of /dev/cpu/N/msr and
# /dev/cpu/N/cpuid, whose counters advance on each read of an enabled
# counter by
#
#	base * ((USR ? 1000 : 0) + (OS ? 1 : 0)) * mult
#
# (base: the event code plus the unit mask; 0xc0, 0x3c, 0x03 for Intel's
# fixed counters 0, 1, 2), so every count is known.  cpustat reads each
# counter once an interval.  The simulator logs every register write
# ("cpuN wrmsr 0xREG 0xVALUE"), which says which bits were programmed.
# Skips (saying why) only where FUSE is missing.

setup() {
	load helper
	MSRSIM=${MSRSIM:-$(dirname "$CPUSTAT")/../tests/msrsim/msrsim}
	CPUTRACK=${CPUTRACK:-$(dirname "$CPUSTAT")/../cputrack/cputrack}
	MNT=$BATS_TEST_TMPDIR/dev
	SIM_PID=
	unset CPC_BACKEND CPC_MSR_ROOT LIBPFM_FORCE_PMU
}

teardown() {
	if [ -n "$SIM_PID" ]; then
		fusermount3 -u "$MNT" 2>/dev/null || umount -l "$MNT" \
		    2>/dev/null || true
		kill "$SIM_PID" 2>/dev/null || true
		wait "$SIM_PID" 2>/dev/null || true
	fi
}

# sim_start PMU [ARGS...]: mount the simulator (two CPUs) on $MNT, point
# the msr backend at it and force it (CPC_BACKEND=msr).
sim_start() {
	requires root
	[ -c /dev/fuse ] || skip "needs FUSE (/dev/fuse)"
	command -v fusermount3 >/dev/null ||
	    skip "needs fusermount3 (the fuse3 package)"
	[ -x "$MSRSIM" ] ||
	    skip "tests/msrsim is not built (libfuse3-dev missing: install-deps)"
	machine_lock
	mkdir -p "$MNT"
	timeout 300 "$MSRSIM" --pmu "$@" "$MNT" \
	    2>"$BATS_TEST_TMPDIR/msrsim.err" &
	SIM_PID=$!
	wait_until 5 test -e "$MNT/cpu/1/cpuid" ||
	    fail_with "msrsim did not mount: $(cat "$BATS_TEST_TMPDIR/msrsim.err")" ||
	    return 1
	export CPC_MSR_ROOT=$MNT/cpu CPC_BACKEND=msr
}

sim_ctl() {
	echo "$*" >"$MNT/ctl"
}

# The register writes to cpu 0, one a line.
cpu0_writes() {
	sed -n 's/^cpu0 wrmsr //p' "$MNT/log"
}

# counts: stdout without its time column (cpu, word, values, note).
counts() {
	awk 'NR > 1 { $1 = ""; sub(/^ /, ""); print }' <<<"$output"
}

# cpustat_on CPUS ARGS...: cpustat on those CPUs only, time-limited.
cpustat_on() {
	local cpus=$1
	shift
	run --separate-stderr timeout 30 taskset -c "$cpus" "$CPUSTAT" "$@"
}

@test "msr: cpustat -h and --list-events name the msr backend and the device's processor" {
	sim_start intel
	run --separate-stderr timeout 30 "$CPUSTAT" -h
	expect_status 0
	expect_match "$output" $'\n\tCPU performance counter interface: Intel Arch PerfMon v4 on Family 6 Model 85 \\(msr backend: '"$MNT"$'/cpu/N/msr\\)\n' \
	    "interface line"
	expect_match "$output" $'\tevent\\[0-6\\]:' "7 counters (4 + 3 fixed)"
	run --separate-stderr timeout 30 "$CPUSTAT" --list-events='[i]nstructions'
	expect_status 0
	printf -v want '%-40s %-10s %-4s %s' instructions hardware yes \
	    "[msr] instructions retired"
	expect_eq "$output" "$want" "--list-events=instructions"
	# A software event is still perf's, and says nothing of msr.
	run --separate-stderr timeout 30 "$CPUSTAT" --list-events=task-clock
	[[ $output != *"[msr]"* ]] || fail_with "task-clock is not msr's"
}

@test "msr: Intel fixed counters for cycles and instructions: bits, counts, totals" {
	sim_start intel
	sim_ctl clearlog
	cpustat_on 0 -c cycles,instructions 0.1 3
	expect_status 0
	expect_eq "$(counts)" "0 tick 60000 192000
0 tick 60000 192000
0 tick 60000 192000
1 total 180000 576000" "counts (cycles 0x3c*1000, instructions 0xc0*1000)"
	# Fixed 0 instructions, fixed 1 cycles, user only (bit 1 of each
	# field); GLOBAL_CTRL bits 32 and 33 beside the reset gp bits.
	expect_eq "$(cpu0_writes | head -8)" "0x38f 0xf
0x38d 0x0
0x30a 0x0
0x309 0x0
0x390 0x300000000
0x38d 0x22
0x38f 0x30000000f
0x38f 0xf" "register writes of the bind"
}

@test "msr: user and system bits follow nouser and sys (raw codes, unit masks)" {
	sim_start intel
	for modes in "" ",sys" ",nouser,sys"; do
		sim_ctl clearlog
		cpustat_on 0 -c "pic0=0xc4,pic1=0x2e,umask1=0x41$modes" 0.1 2
		expect_status 0
		case $modes in
		"")		sel=41 c0=196000 c1=111000 ;;
		,sys)		sel=43 c0=196196 c1=111111 ;;
		*)		sel=42 c0=196 c1=111 ;;
		esac
		expect_eq "$(counts)" "0 tick $c0 $c1
0 tick $c0 $c1
1 total $((2 * c0)) $((2 * c1))" "counts with '$modes'"
		expect_eq "$(cpu0_writes | grep -E '^0x18[67] 0x4' | head -2)" \
		    "0x186 0x${sel}00c4
0x187 0x${sel}412e" "event selects with '$modes'"
	done
}

@test "msr: libpfm4 native names of the simulated model (LIBPFM_FORCE_PMU=skl)" {
	sim_start intel
	sim_ctl clearlog
	LIBPFM_FORCE_PMU=skl cpustat_on 0 \
	    -c INST_RETIRED:ANY_P,BR_INST_RETIRED:ALL_BRANCHES,sys 0.1 2
	expect_status 0
	expect_eq "$(counts)" "0 tick 192192 196196
0 tick 192192 196196
1 total 384384 392392" "counts"
	# INST_RETIRED:ANY_P (0xc0) on fixed counter 0, the branches on pmc0.
	cpu0_writes | grep -qx '0x38d 0x3' ||
	    fail_with "fixed counter 0 not set to user+system: $(cpu0_writes)"
	cpu0_writes | grep -qx '0x186 0x4300c4' ||
	    fail_with "pmc0 not programmed 0x4300c4: $(cpu0_writes)"
}

@test "msr: a counter someone else enabled is left alone" {
	sim_start intel
	sim_ctl wrmsr 0 0x186 0x400000
	sim_ctl clearlog
	cpustat_on 0 -c 0xc4 0.1 1
	expect_status 0
	expect_eq "$(counts)" "0 tick 196000
1 total 196000" "counts"
	cpu0_writes | grep -qx '0x187 0x4100c4' ||
	    fail_with "not on pmc1: $(cpu0_writes)"
	! cpu0_writes | grep -q '^0x186 ' ||
	    fail_with "pmc0's select was written: $(cpu0_writes)"
}

@test "msr: counts go on across the 48-bit wrap (widened to 64 bits)" {
	sim_start intel --mult 4294967296
	# 60000 * 2^32 = 257698037760000 an interval: a wrap every 1.09 reads.
	cpustat_on 0 -c 0x3c,umask=0x0 0.1 4
	expect_status 0
	expect_eq "$(counts)" "0 tick 257698037760000
0 tick 257698037760000
0 tick 257698037760000
0 tick 257698037760000
1 total 1030792151040000" "counts across the wrap"
}

@test "msr: set rotation reprograms the counters each interval" {
	sim_start intel
	sim_ctl clearlog
	cpustat_on 0 -c pic0=0xc4,pic1=0x2e,umask1=0x41 -c 0x3c 0.1 4
	expect_status 0
	expect_eq "$(counts)" "0 tick 196000 111000 # pic0=0xc4,pic1=0x2e,umask1=0x41
0 tick 60000 # 0x3c
0 tick 196000 111000 # pic0=0xc4,pic1=0x2e,umask1=0x41
0 tick 60000 # 0x3c
1 total 392000 222000 # pic0=0xc4,pic1=0x2e,umask1=0x41
1 total 120000 # 0x3c" "counts of the two sets"
	expect_eq "$(cpu0_writes | grep -c '^0x186 0x4100c4$')" 2 \
	    "the first set enabled twice"
	# 0x3c alone is what fixed counter 1 counts.
	expect_eq "$(cpu0_writes | grep -c '^0x38d 0x20$')" 2 \
	    "the second set enabled twice"
}

@test "msr: AMD core extension bank (Family 17h)" {
	sim_start amd
	sim_ctl clearlog
	cpustat_on 0 -c cycles,instructions,pic2=0xc2,umask2=0x1,sys 0.1 2
	expect_status 0
	expect_eq "$(counts)" "0 tick 118118 192192 195195
0 tick 118118 192192 195195
1 total 236236 384384 390390" "counts (0x76, 0xc0, 0xc2+1)"
	expect_eq "$(cpu0_writes | head -9)" "0xc0010200 0x30076
0xc0010202 0x300c0
0xc0010204 0x301c2
0xc0010201 0x0
0xc0010203 0x0
0xc0010205 0x0
0xc0010200 0x430076
0xc0010202 0x4300c0
0xc0010204 0x4301c2" "PERF_CTL/PERF_CTR writes"
}

@test "msr: AMD PerfMonV2 (Family 19h): the global control enables the counters" {
	sim_start amd-v2
	run --separate-stderr timeout 30 "$CPUSTAT" -h
	expect_match "$output" $'\tCPU performance counter interface: AMD Family 19h Model 11h, core extension counters, PerfMonV2 \\(msr backend: ' \
	    "interface line"
	sim_ctl clearlog
	cpustat_on 0 -c cycles,cache-misses 0.1 2
	expect_status 0
	# Zen's cache-misses: 0x0964, base 0x64 + 0x09.
	expect_eq "$(counts)" "0 tick 118000 109000
0 tick 118000 109000
1 total 236000 218000" "counts"
	expect_eq "$(cpu0_writes | head -8)" "0xc0000301 0x0
0xc0010200 0x10076
0xc0010202 0x10964
0xc0010201 0x0
0xc0010203 0x0
0xc0010200 0x410076
0xc0010202 0x410964
0xc0000301 0x3" "PerfCntrGlobalCtl and PERF_CTL writes"
}

@test "msr: AMD legacy K7 bank (Family 10h), event bits 35:32" {
	sim_start amd-k7
	sim_ctl clearlog
	cpustat_on 0 -c pic0=cycles,pic1=0x1d4 0.1 1
	expect_status 0
	# 0x1d4: event 0xd4 with unit mask 1: base 0xd5.
	expect_eq "$(counts)" "0 tick 118000 213000
1 total 118000 213000" "counts"
	expect_eq "$(cpu0_writes | sed -n 5,6p)" "0xc0010000 0x410076
0xc0010001 0x4101d4" "EVNTSEL writes"
	# Event 0x1c0 (bits 35:32 = 1) with unit mask 2: base 0x1c2.
	sim_ctl clearlog
	cpustat_on 0 -c 0x1000002c0 0.1 1
	expect_status 0
	expect_eq "$(counts)" "0 tick 450000
1 total 450000" "counts of an extended event"
	cpu0_writes | grep -qx '0xc0010000 0x1004102c0' ||
	    fail_with "EVNTSEL0 not 0x1004102c0: $(cpu0_writes)"
}

@test "msr: a simulated CPU going away is reported, and counted again when back" {
	requires cpu:0 cpu:1
	sim_start intel
	out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err
	timeout 30 taskset -c 0,1 "$CPUSTAT" -c cycles 0.3 7 >"$out" 2>"$err" &
	pid=$!
	wait_lines "$out" 3 10
	sim_ctl offline 1
	sleep 0.9
	sim_ctl online 1
	wait "$pid"
	status=$?
	output=$(cat "$out") stderr=$(cat "$err")
	expect_status 0
	expect_eq "$stderr" "cpustat: cpu 1: offline; skipping it until it returns
cpustat: cpu 1: online again; counting from zero" "stderr"
	n0=$(awk '$2 == 0 && $3 == "tick" && $4 == 60000' <<<"$output" | wc -l)
	n1=$(awk '$2 == 1 && $3 == "tick" && $4 == 60000' <<<"$output" | wc -l)
	expect_eq "$n0" 7 "cpu 0's samples, all 60000"
	expect_range "$n1" 2 5 "cpu 1's samples, all 60000"
	expect_eq "$(grep -c tick <<<"$output")" $((n0 + n1)) "no other sample"
	expect_eq "$(awk '$3 == "total" { print $2, $4 }' <<<"$output")" \
	    "2 $(((n0 + n1) * 60000))" "total"
}

@test "msr: errors: a mixed set, a per-thread bind (cputrack)" {
	sim_start intel
	cpustat_on 0 -c cycles,cpu-clock 0.1 1
	expect_status 1
	expect_stderr_line "^cpustat: cpu 0: event 'cpu-clock' is not one of the processor's counters: the msr backend counts hardware events only"
	run --separate-stderr timeout 30 "$CPUTRACK" -c cycles true
	[ "$status" -ne 0 ] || fail_with "cputrack counted through msr"
	expect_stderr_line "the msr backend counts whole CPUs only \\(cpc_bind_cpu, cpustat\\): a thread's counts \\(cpc_bind_curlwp, cpc_bind_pctx, cputrack\\) need perf_event"
}

@test "msr: no architectural perfmon (CPUID leaf 0xa version 0)" {
	sim_start intel-v0
	cpustat_on 0 -c 0xc0 0.1 1
	expect_status 1
	expect_eq "$(grep -c . <<<"$stderr")" 1 "one line"
	expect_eq "$stderr" "cpustat: cpu 0: the processor behind $MNT/cpu/0/cpuid has no architectural performance monitoring (CPUID leaf 0xa version 0)" "stderr"
}

@test "msr: no permission on the device" {
	sim_start intel
	command -v setpriv >/dev/null || skip "needs setpriv"
	sim_ctl chmod 0400
	run --separate-stderr timeout 30 taskset -c 0 setpriv \
	    --bounding-set=-dac_override,-dac_read_search -- "$CPUSTAT" \
	    -c cycles 0.1 1
	expect_status 1
	expect_eq "$stderr" "cpustat: cpu 0: no permission to open $MNT/cpu/0/msr: the msr backend needs root (read and write access, and CAP_SYS_RAWIO)" "stderr"
}

@test "msr: without the device, CPC_BACKEND=msr says so in one line" {
	requires root
	machine_lock
	CPC_BACKEND=msr CPC_MSR_ROOT=$BATS_TEST_TMPDIR/none \
	    run --separate-stderr timeout 30 taskset -c 0 "$CPUSTAT" \
	    -c cycles 0.1 1
	expect_status 1
	expect_eq "$stderr" "cpustat: cpu 0: no msr device $BATS_TEST_TMPDIR/none/0/msr: load the msr module (modprobe msr), or set CPC_MSR_ROOT to where the devices are" "stderr"
	CPC_BACKEND=msr run --separate-stderr timeout 30 "$CPUSTAT" -h
	expect_match "$output" $'\tCPU performance counter interface: msr backend, unusable: no msr device /dev/cpu/0/msr: load the msr module \\(modprobe msr\\)' \
	    "interface line"
	CPC_BACKEND=bogus run --separate-stderr timeout 30 "$CPUSTAT" -h
	expect_status 1
	expect_stderr_line "^libcpc: cpc_open: CPC_BACKEND=bogus: the backends are perf \\(perf_event, the default\\) and msr"
}

@test "msr: chosen by itself only where the kernel has no PMU driver" {
	sim_start intel
	unset CPC_BACKEND
	if have_hw_pmu; then
		# perf counts: the device is there but not used.
		run --separate-stderr timeout 30 "$CPUSTAT" -h
		expect_status 0
		[[ $output != *"msr backend"* ]] ||
		    fail_with "msr chosen although the kernel has a PMU driver"
		return
	fi
	cpustat_on 0 -c cycles 0.1 1
	expect_status 0
	expect_eq "$(counts)" "0 tick 60000
1 total 60000" "cycles through msr, unasked"
	CPC_BACKEND=perf cpustat_on 0 -c cycles 0.1 1
	expect_status 1
	expect_stderr_line "no hardware PMU"
	# Software events stay perf's: cpu-clock counts with the device there.
	cpustat_on 0 -c cpu-clock 0.1 1
	expect_status 0
}
