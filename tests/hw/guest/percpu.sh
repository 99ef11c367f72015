# percpu.sh - helpers for the two -smp 2 suites: a spinner pinned to one
# CPU, and the per-CPU values of a cpustat run.

# spin CPU: start insnloop on CPU, long enough to outlast a cpustat run;
# its pid in $spinner.
spin() {
	taskset -c "$1" insnloop $(seq 5000) &
	spinner=$!
	sleep 1
}

unspin() {
	kill "$spinner" 2>/dev/null
	wait "$spinner" 2>/dev/null || true
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
