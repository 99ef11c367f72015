# SPDX-License-Identifier: BSD-2-Clause
# lib.sh - assertions for the guest suites, sourced by them.  POSIX sh as
# busybox runs it.  Every check prints one TAP line; summary prints the
# line the host harness reads:  cpc-hw: N passed, N failed, N skipped
n=0 pass=0 fail=0 skip=0
OUT=/tmp/out ERR=/tmp/err

ok() {
	n=$((n + 1)) pass=$((pass + 1))
	echo "ok $n - $1"
}

# not_ok DESC [NOTE...]: a failure, with notes and the last command's
# output as TAP comments.
not_ok() {
	n=$((n + 1)) fail=$((fail + 1))
	echo "not ok $n - $1"
	shift
	for l in "$@"; do
		echo "#   $l"
	done
	if [ -s $OUT ] || [ -s $ERR ]; then
		sed 's/^/#   out: /' $OUT | head -n 15
		sed 's/^/#   err: /' $ERR | head -n 15
	fi
}

skip() {
	n=$((n + 1)) skip=$((skip + 1))
	echo "ok $n - $1 # SKIP $2"
}

# run CMD...: run a command, its stdout in $OUT, stderr in $ERR, status in
# $rc.
run() {
	rc=0
	"$@" >$OUT 2>$ERR || rc=$?
}

# is DESC GOT WANT: the exact value.
is() {
	if [ "$2" = "$3" ]; then
		ok "$1 ($2)"
	else
		not_ok "$1" "got '$2', want '$3'"
	fi
}

# within DESC GOT WANT PERMILLE: |GOT - WANT| <= WANT * PERMILLE / 1000.
within() {
	case $2 in
	''|*[!0-9]*) not_ok "$1" "got '$2', not a count"; return ;;
	esac
	d=$(($2 - $3))
	[ $d -ge 0 ] || d=$((-d))
	if [ $((d * 1000)) -le $(($3 * $4)) ]; then
		ok "$1 ($2, want $3 within $4 permille)"
	else
		not_ok "$1" "got $2, want $3 within $4 permille (off by $d)"
	fi
}

# between DESC GOT LO HI: LO <= GOT <= HI.
between() {
	case $2 in
	''|*[!0-9]*) not_ok "$1" "got '$2', not a count"; return ;;
	esac
	if [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then
		ok "$1 ($2 in [$3, $4])"
	else
		not_ok "$1" "got $2, want it in [$3, $4]"
	fi
}

# has DESC PATTERN FILE: FILE has a line matching the extended regex.
has() {
	if grep -Eq -- "$2" "$3"; then
		ok "$1"
	else
		not_ok "$1" "no line matches /$2/"
	fi
}

summary() {
	echo "cpc-hw: $pass passed, $fail failed, $skip skipped"
}

# bench_sample EVENTS: cpc_set_sample's cost beside a raw read() of the
# same group (bench/summary-setsample.c), with the user-space read refused and allowed
# (kernel.perf_user_access 0 and 1).  Figures, printed, never asserted:
# under -icount, ns of virtual time are instructions retired.
bench_sample() {
	local a

	for a in 0 1; do
		echo $a >/proc/sys/kernel/perf_user_access
		run summary-setsample -n 20000 -r 5 "$1"
		echo "# bench/summary-setsample $1, perf_user_access=$a: $(cat $OUT $ERR | tr '\n' ' ')"
	done
	echo 0 >/proc/sys/kernel/perf_user_access
}
