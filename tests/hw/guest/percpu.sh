# SPDX-License-Identifier: BSD-2-Clause
# percpu.sh - helpers for the two -smp 2 suites: a spinner pinned to one
# CPU, and the per-CPU values of a cpustat run.

# spin CPU: start spinloop on CPU, spinning in user mode until unspin
# kills it (a duration, not a number of instructions: how long a number of
# instructions lasts without icount depends on the host); its pid in
# $spinner.
spin() {
	taskset -c "$1" spinloop &
	spinner=$!
	sleep 1
}

# unspin: kill the spinner; a failure if it had ended before (the CPU was
# not busy for the whole run, and the run's values mean nothing).
unspin() {
	if kill "$spinner" 2>/dev/null; then
		wait "$spinner" 2>/dev/null || true
	else
		wait "$spinner" 2>/dev/null || true
		not_ok "the spinner ($spinner) was still spinning at the end"
	fi
}

# val CPU TICK COL: column COL of cpu CPU's TICK-th sample in $OUT.
val() {
	awk -v c="$1" -v t="$2" -v n="$3" \
	    '$2 == c && $3 == "tick" && ++k == t { print $n }' $OUT
}

# order: the cpu column of every sample line, in order, on one line.
order() {
	awk '$3 == "tick" || $3 == "total" { printf "%s%s", s, $2; s = " " }
	    END { print "" }' $OUT
}
