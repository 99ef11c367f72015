# SPDX-License-Identifier: BSD-2-Clause
# smpicount.sh - per-CPU counts on two CPUs with -icount shift=0: the busy
# CPU retires one instruction per nanosecond of virtual time, so a 1 s
# interval of a user-mode spinner holds 1e9 user instructions (less the
# timer interrupts' kernel time), and the idle CPU next to none.
. ./lib.sh
. ./percpu.sh

for busy in 1 0; do
	idle=$((1 - busy))
	spin $busy
	run cpustat -c cycles,instructions 1 2
	unspin
	is "cpustat -c cycles,instructions (spinner on cpu $busy): order" \
	    "$(order)" "0 1 0 1 2"
	within "cpu $busy, busy: user instructions in 1 s" \
	    "$(val $busy 2 5)" 1000000000 20
	is "cpu $busy: cycles equal instructions" "$(val $busy 2 4)" \
	    "$(val $busy 2 5)"
	between "cpu $idle, idle: user instructions" "$(val $idle 2 5)" \
	    0 1000000
done

summary
