# SPDX-License-Identifier: BSD-2-Clause
# sampling.sh - sampling on the emulated PMU, sourced by icount.sh (one
# CPU, -icount shift=0: every count is exact).  insnloop with argc 10
# retires 3 * 1000000 * 10 + 7 user-mode instructions, and as many
# cycles; the cycle counter sampled every P of them gives exactly
# floor(that / P) samples, each with its PC in the loop.  P is 2000000 (2 ms of virtual time): the guest's
# perf_event_max_sample_rate of 1000 a second throttles shorter periods.

SP=2000000
SN=$((($(insns 10)) / SP))
SCSV=/tmp/samples.csv

# entry FILE: the ELF entry point of a 64-bit little-endian FILE, in
# decimal (bytes 24 to 31 of the header).
entry() {
	set -- $(od -An -tx1 -j24 -N8 "$1")
	echo $((0x$8$7$6$5$4$3$2$1))
}

# The loop is the three instructions at entry + 16 (sub, nop, cbnz).
E=$(entry /cpc/wl/insnloop)
LO=$((E + 16))
HI=$((E + 24))

# smpl_check EV: the samples of the last run are SN, every PC in the loop.
smpl_check() {
	is "-S $1,period=$SP: the exit line's smpl0 is instructions / period" \
	    "$(col 4)" "$SN"
	is "-S $1: as many records in --samples" \
	    "$(($(wc -l <$SCSV) - 1))" "$SN"
	bad=0 nrec=0
	while IFS=, read -r t c p tid ev ip addr sym; do
		[ "$t" = time ] && continue
		nrec=$((nrec + 1))
		a=$((ip))
		if [ $a -lt $LO ] || [ $a -gt $HI ]; then
			bad=$((bad + 1))
			echo "# $1: pc $ip outside the loop [$LO, $HI]"
		fi
	done <$SCSV
	is "-S $1: every PC in insnloop's loop" "$bad of $nrec" "0 of $SN"
}

# The cycle counter (one cycle per instruction under icount) overflows
# exactly on time.  QEMU 7.2 delivers the general counters' overflows
# late, at the next kernel entry (research/emulated-pmu.md): sampled
# instructions come out fewer, some with a kernel PC; only a range holds.
run cputrack -T 0 -S "cycles,period=$SP" --samples=$SCSV insnloop \
    1 2 3 4 5 6 7 8 9
if [ $rc -ne 0 ]; then
	not_ok "cputrack -S cycles,period=$SP insnloop" "status $rc"
else
	smpl_check cycles
fi
run cputrack -T 0 -S "instructions,period=$SP" insnloop 1 2 3 4 5 6 7 8 9
between "-S instructions,period=$SP: at most instructions / period samples (QEMU: late)" \
    "$(col 4)" 1 "$SN"

# Counting and sampling in one set: the count stays exact beside the
# samples, which stay exact too.
run cputrack -T 0 -c instructions -S "cycles,period=$SP" \
    --samples=$SCSV insnloop 1 2 3 4 5 6 7 8 9
is "-c instructions beside -S cycles: exact count, exact samples" \
    "$(col 4) $(col 5)" "$(insns 10) $SN"
