# SPDX-License-Identifier: BSD-2-Clause
# smp.sh - per-CPU behaviour on two CPUs without icount: cycles follow the
# host's time (1 GHz nominal), and QEMU counts INST_RETIRED only with
# icount (smpicount.sh has the exact counts), so values are asserted with
# wide, one-sided bounds.
. ./lib.sh
. ./percpu.sh

is "two CPUs online" "$(grep -c '^processor' /proc/cpuinfo)" 2

for busy in 1 0; do
	idle=$((1 - busy))
	spin $busy
	run cpustat -c cycles 1 2
	unspin
	is "cpustat -c cycles (spinner on cpu $busy): samples by CPU, total" \
	    "$(order)" "0 1 0 1 2"
	b=$(val $busy 2 4) i=$(val $idle 2 4)
	between "cpu $busy, busy: user cycles in 1 s" "$b" 200000000 \
	    2000000000
	between "cpu $idle, idle: user cycles under a tenth of the busy one" \
	    "$i" 0 $((b / 10))
done

# The spinner runs in user mode: its CPU's kernel-mode cycles are few.
spin 1
run cpustat -c cycles 1 1
u=$(val 1 1 4)
run cpustat -c cycles,nouser,sys 1 1
k=$(val 1 1 4)
unspin
between "cpu 1 (user spinner): kernel-only cycles under a fifth of user" \
    "$k" 0 $((u / 5))

# Without icount QEMU implements no INST_RETIRED: the refusal must say so.
run cpustat -c cycles,instructions 1 1
if [ $rc -eq 1 ] &&
    grep -q "cannot count 'instructions' on cpu 0: the kernel does not support this event" $ERR; then
	ok "cpustat: an event the PMU lacks is refused with the reason"
else
	not_ok "cpustat: an event the PMU lacks is refused with the reason" \
	    "want status 1 and the message; got status $rc"
fi

# cputrack -T 0 on threads ending one after the other and on two CPUs:
# a line for each thread's creation and end, with its own cycles, whether
# this kernel reports an inherited counter's thread at its end (no thread
# stopped) or not (Linux 5.13 to 6.17 without the fix: stopped; -D says).
run cputrack -D -T 0 -c cycles threads_getpid -k 1000 -s 4
is "cputrack -T 0: a line per new thread" \
    "$(awk '$3 == "lwp_create"' $OUT | wc -l)" 4
is "cputrack -T 0: a line per thread's end, with its cycles" \
    "$(awk '$3 == "lwp_exit" && $4 > 0' $OUT | wc -l)" 4
echo "# cputrack -T 0 on $(uname -r): $(grep -c 'threads are stopped' $ERR \
    ) fallback to stops; $(head -n 1 $ERR)"
run cputrack -D -T 0 -c cycles threads_getpid -k 1000 -h 200 8
is "cputrack -T 0, 8 threads at once: a line per thread's end" \
    "$(awk '$3 == "lwp_exit" && $4 > 0' $OUT | wc -l)" 8

# cpc_set_sample on cycles, read() against the user-space read: figures
bench_sample cycles

summary
