# SPDX-License-Identifier: BSD-2-Clause
# icount.sh - the exact suite: -smp 1 -icount shift=0, where QEMU retires
# one instruction per nanosecond of virtual time, so instruction and cycle
# counts are deterministic and known.
#
# The oracle is insnloop (insnloop.S): from its first instruction to its
# exit it retires exactly 3 * 1000000 * argc + 7 user-mode instructions.
# cputrack binds at the exec stop, before the first of them.
. ./lib.sh

# insns ARGC: the true user-mode instruction count of insnloop.
insns() {
	echo $((3 * 1000000 * $1 + 7))
}

# args N: N arguments for insnloop (argc N + 1).
args() {
	seq "$1" | tr '\n' ' '
}

# col N: field N of the exit line of the last cputrack run.
col() {
	awk -v n="$1" '$3 == "exit" { v = $n } END { print v }' $OUT
}

I1=$(insns 1)
I3=$(insns 3)

if [ -d /sys/bus/event_source/devices/armv8_pmuv3 ]; then
	ok "the kernel drives the emulated PMU (armv8_pmuv3)"
else
	not_ok "the kernel drives the emulated PMU (armv8_pmuv3)" \
	    "$(ls /sys/bus/event_source/devices | tr '\n' ' ')"
fi

# -- exact user-mode instruction counts, every name for the event --------
for ev in instructions PAPI_tot_ins INST_RETIRED 0x08 \
    arm_ac57::INST_RETIRED; do
	run cputrack -T 0 -c "$ev" insnloop
	is "cputrack -c $ev: exact count of insnloop" "$(col 4)" "$I1"
	run cputrack -T 0 -c "$ev" insnloop a b
	is "cputrack -c $ev: exact count of insnloop, argc 3" "$(col 4)" "$I3"
done

run cputrack -T 0 -c instructions,PAPI_tot_ins,INST_RETIRED,0x08 insnloop
got="$(col 4) $(col 5) $(col 6) $(col 7)"
is "one set of four names for the event: four exact counts" "$got" \
    "$I1 $I1 $I1 $I1"

# -- cycles: one per instruction under icount ----------------------------
run cputrack -T 0 -c cycles,instructions insnloop a b
is "cycles equals instructions under icount" "$(col 4) $(col 5)" "$I3 $I3"
run cputrack -T 0 -c PAPI_tot_cyc,CPU_CYCLES insnloop
is "PAPI_tot_cyc and CPU_CYCLES: exact" "$(col 4) $(col 5)" "$I1 $I1"

# -- the tick column: the generic timer (62.5 MHz on QEMU's virt board) --
# insnloop lasts I1 ns of virtual time at least, so I1/16 ticks at least;
# exec, ptrace stops and exit add a little.
run cputrack -t -T 0 -c instructions insnloop
if head -n 1 $OUT | grep -q ' tick '; then
	between "cputrack -t: the tick column spans the run" "$(col 4)" \
	    $((I1 / 16)) $((I1 / 16 * 5 / 4))
	is "cputrack -t: the counts stay exact beside it" "$(col 5)" "$I1"
else
	not_ok "cputrack -t: a tick column in the title"
fi

# -- user mode against system mode ----------------------------------------
# The kernel's share is not exact: exec, faults and exit, and every
# interrupt taken while insnloop runs (24 to 58 thousand instructions
# seen); a twentieth of the loop bounds it far below a second count of
# the loop.
run cputrack -T 0 -c instructions,sys insnloop
usys=$(col 4)
between "instructions,sys: user plus kernel, more than the user count" \
    "$usys" $((I1 + 1000)) $((I1 + I1 / 20))
run cputrack -T 0 -c instructions,nouser,sys insnloop
between "instructions,nouser,sys: kernel only, none of the loop" \
    "$(col 4)" 1000 $((I1 / 20))
# Each getpid(2) retires hundreds of kernel instructions and a few user
# ones: 20000 more calls must show in the kernel count, hardly in the user.
run cputrack -T 0 -c instructions,nouser,sys getpid_n 0
k0=$(col 4)
run cputrack -T 0 -c instructions,nouser,sys getpid_n 20000
k1=$(col 4)
run cputrack -T 0 -c instructions getpid_n 0
u0=$(col 4)
run cputrack -T 0 -c instructions getpid_n 20000
u1=$(col 4)
between "kernel instructions per getpid(2) (20000 calls)" \
    $(((k1 - k0) / 20000)) 100 5000
between "user instructions per getpid(2) (20000 calls)" \
    $(((u1 - u0) / 20000)) 3 100

# -- a set must fit the counters: 6 event counters + the cycle counter ---
run cputrack -T 0 -c 0x08,0x08,0x08,0x08,0x08,0x08,cycles insnloop
got="$(col 4) $(col 5) $(col 6) $(col 7) $(col 8) $(col 9) $(col 10)"
is "seven requests on seven counters: all exact" "$got" \
    "$I1 $I1 $I1 $I1 $I1 $I1 $I1"
run cputrack -T 0 -c 0x08,0x08,0x08,0x08,0x08,0x08,0x08 insnloop
if [ $rc -eq 125 ] && grep -q 'Hardware resource unavailable' $ERR &&
    ! grep -q ' exit ' $OUT; then
	ok "cputrack: seven INST_RETIRED on six event counters fail at bind"
else
	not_ok "cputrack: seven INST_RETIRED on six event counters fail at bind" \
	    "want status 125, 'Hardware resource unavailable', no counts;" \
	    "got status $rc"
fi
run cpustat -c 0x08,0x08,0x08,0x08,0x08,0x08,0x08 1 1
if [ $rc -eq 1 ] && grep -q 'Hardware resource unavailable' $ERR &&
    ! grep -q ' tick ' $OUT; then
	ok "cpustat: seven INST_RETIRED on six event counters fail at bind"
else
	not_ok "cpustat: seven INST_RETIRED on six event counters fail at bind" \
	    "want status 1, 'Hardware resource unavailable', no samples;" \
	    "got status $rc"
fi

# -- two cpustat runs competing for the counters --------------------------
# Each wants four event counters of six: the kernel time-shares the two
# groups.  Both count every user instruction on the CPU, nearly all of
# them insnloop's (1.5e9; the rest, the tools and the shell, is ~0.3%), so
# each scaled total must be within 1% of insnloop's and flagged.
IBIG=$(insns 500)
big=$(args 499)
four=0x08,0x08,0x08,0x08
cpustat -c $four 1 4 >/tmp/cs1 2>&1 &
c1=$!
cpustat -c $four 1 4 >/tmp/cs2 2>&1 &
c2=$!
sleep 1
insnloop $big
wait $c1 || true
wait $c2 || true
for f in /tmp/cs1 /tmp/cs2; do
	t=$(awk '$3 == "total" { print $4 }' $f)
	within "competing cpustat ($f): scaled total near the truth" "$t" \
	    "$IBIG" 10
	if grep ' total ' $f | grep -q '(scaled)'; then
		ok "competing cpustat ($f): the total is flagged scaled"
	else
		cp $f $OUT; : >$ERR
		not_ok "competing cpustat ($f): the total is flagged scaled"
	fi
done

# -- cputrack while cpustat holds every event counter --------------------
# The kernel puts cpustat's per-CPU group on the counters first; cputrack's
# per-thread group never gets one, and its values are no counts: it must
# say so rather than print 0 as if counted.
six=0x08,0x08,0x08,0x08,0x08,0x08
cpustat -c $six 1 3 >/tmp/cs3 2>&1 &
c3=$!
sleep 1
run cputrack -T 0 -c 0x08 insnloop
wait $c3 || true
if grep ' exit ' $OUT | grep -q '(not counted: no counter was free)'; then
	ok "cputrack starved of counters says 'not counted', not a zero count"
else
	not_ok "cputrack starved of counters says 'not counted', not a zero count"
fi

# -- overflow: the libcpc API's own test, with its cycle-counter case ----
run t_ovf
if [ $rc -eq 0 ] && grep -q '^ok .* cycles: the second overflow' $OUT &&
    ! grep -q '^not ok' $OUT; then
	ok "t_ovf: presets, overflow signals and restarts, on the cycle counter too ($(grep -c '^ok' $OUT) checks)"
else
	not_ok "t_ovf: presets, overflow signals and restarts, on the cycle counter too" \
	    "$(grep -A3 '^not ok' $OUT | head -n 12)"
fi

# -- cpc_set_sample in user space: PMEVCNTR<n>_EL0 / PMCCNTR_EL0 ----------
# The kernel gives EL0 the counters only with kernel.perf_user_access=1.
if [ -w /proc/sys/kernel/perf_user_access ]; then
	echo 1 >/proc/sys/kernel/perf_user_access
	run t_userread
	echo 0 >/proc/sys/kernel/perf_user_access
	sed "s/^/#   t_userread: /" $OUT
	if [ $rc -eq 0 ] && grep -q '^ok .*reads instructions in user space' $OUT &&
	    grep -q '^ok .*user-space read: exactly 2' $OUT &&
	    ! grep -q '^not ok' $OUT; then
		ok "t_userread: the user-space read is taken and counts as read() does ($(grep -c '^ok' $OUT) checks)"
	else
		not_ok "t_userread: the user-space read is taken and counts as read() does" \
		    "$(grep -v '^ok' $OUT | head -n 12)"
	fi
	bench_sample instructions
else
	not_ok "t_userread: the kernel has kernel.perf_user_access" \
	    "$(uname -r)"
fi

# -- libpfm4 names of the Cortex-A57 PMU and the listings ----------------
run cputrack -T 0 -c arm_ac57::CPU_CYCLES,arm_ac57::INST_RETIRED insnloop
is "arm_ac57:: native names encode and count" "$(col 4) $(col 5)" \
    "$I1 $I1"
run cputrack -h
has "cputrack -h names the Cortex-A57 PMU" 'Cortex-A57|arm_ac57' $OUT
has "cputrack -h lists INST_RETIRED as available" 'INST_RETIRED' $OUT
has "cputrack -h lists CPU_CYCLES as available" 'CPU_CYCLES' $OUT
run cpustat -h
has "cpustat -h lists INST_RETIRED as available" 'INST_RETIRED' $OUT
run cputrack --list-events
has "cputrack --list-events lists INST_RETIRED" 'INST_RETIRED' $OUT
# QEMU's PMU has no cache events: the kernel refuses the generic ones.
for want in "INST_RETIRED native yes" "CPU_CYCLES native yes" \
    "cycles hardware yes" "instructions hardware yes" \
    "PAPI_tot_ins generic yes" "Cycle_cnt classic yes" \
    "cache-references hardware no" "EC_ref classic no"; do
	got=$(awk -v n="${want%% *}" '$1 == n { print $1, $2, $3 }' $OUT)
	is "cputrack --list-events marks $want" "$got" "$want"
done
run cpustat --list-events=INST
if grep -q 'INST_RETIRED' $OUT && ! grep -q 'CPU_CYCLES' $OUT; then
	ok "cpustat --list-events=INST: INST_RETIRED, not CPU_CYCLES"
else
	not_ok "cpustat --list-events=INST: INST_RETIRED, not CPU_CYCLES"
fi


# -- derived metrics (-M) over the exact counts ----------------------------
run cputrack -T 0 -c cycles,instructions -M ipc,cpi insnloop a b
is "-M ipc,cpi: exactly 1 under icount, after the counts" \
    "$(col 4) $(col 5) $(col 6) $(col 7)" "$I3 $I3 1.000 1.000"
run cputrack -T 0 -c instructions -M ipc insnloop
is "-M ipc: cycles joins the set that lacks it, exact" \
    "$(col 4) $(col 5) $(col 6)" "$I1 $I1 1.000"
run cputrack -T 0 --format=json -c instructions \
    -M 'k=instructions/1000,cpi' insnloop a b
has "-M k=instructions/1000,cpi in json: $I3 / 1000 to full precision" \
    '"kind":"exit".*"metrics":\{"k":9000\.007,"cpi":1\}' $OUT
# task-clock is the thread's time on the CPU, which holds its user-mode
# cycles (one a nanosecond) and a little kernel time besides
run cputrack -T 0 -c cycles,task-clock -M ghz insnloop a b
between "-M ghz: cycles over the thread's busy time, 1 GHz (x 1000)" \
    "$(col 6 | awk '{ printf "%d", $1 * 1000 }')" 900 1000
# per CPU the cycles go on in idle, the instructions do not: each line's
# ipc and cpi are its own counts' quotients
run cpustat -c cycles,instructions -M ipc,cpi 0.2 3
is "cpustat -M ipc,cpi: each line's instructions/cycles, cycles/instructions" \
    "$(awk 'NR > 1 && ($6 != sprintf("%.3f", $5 / $4) ||
    $7 != sprintf("%.3f", $4 / $5)) { bad++ }
    NR > 1 { n++ } END { print n + 0, bad + 0 }' $OUT)" "4 0"

# -- sampling (tests/hw/guest/sampling.sh) --------------------------------
. ./sampling.sh

summary
