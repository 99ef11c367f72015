# SPDX-License-Identifier: BSD-2-Clause
# helper.bash - shared by the cpustat bats suites (load helper).
#
# Environment (tests/run exports all three; defaults fit a plain `make`):
#	CPUSTAT		the cpustat binary under test
#	WORKLOADS	the directory of compiled tests/workloads/*.c
#	TESTS_DIR	the tests/ directory
#
# What is here:
#	requires WHAT...	skip the test, with the reason, unless every
#				condition holds (root, tracefs, cpu:N, ...)
#	parse_output [-n] [-t] [-T u|d]
#				check every line of $output against the
#				cpustat grammar, re-printing each line with
#				the documented formats and comparing byte for
#				byte; fill the S_* (sample) and T_* (total)
#				arrays
#	expect_* / fail_with	assertions that say what they saw
#	bg_start / bg_wait	a cpustat in the background, for signals

bats_require_minimum_version 1.5.0

export LC_ALL=C TZ=UTC

TESTS_DIR=${TESTS_DIR:-$(cd "$BATS_TEST_DIRNAME/.." && pwd)}
CPUSTAT=${CPUSTAT:-$TESTS_DIR/../build/cpustat/cpustat}
WORKLOADS=${WORKLOADS:-$TESTS_DIR/../build/tests/workloads}
export TESTS_DIR CPUSTAT WORKLOADS

# The usage line every usage error ends with (its first line).
USAGE_RE='^usage: cpustat '

# ---- assertions ---------------------------------------------------------

# fail_with MSG...: report MSG and what the last `run` saw; fail.
fail_with() {
	{
		printf '# %s\n' "$@"
		printf '# --- status: %s\n' "${status-}"
		printf '# --- stdout:\n'
		printf '%s\n' "${output-}" | sed 's/^/#   |/'
		printf '# --- stderr:\n'
		printf '%s\n' "${stderr-}" | sed 's/^/#   |/'
	} >&2
	return 1
}

# expect_eq GOT WANT WHAT
expect_eq() {
	[ "$1" = "$2" ] ||
	    fail_with "$3: got '$1', want '$2'"
}

# expect_range GOT LO HI WHAT: LO <= GOT <= HI, integers.
expect_range() {
	[[ $1 =~ ^-?[0-9]+$ ]] || fail_with "$4: '$1' is not a number" ||
	    return 1
	[ "$1" -ge "$2" ] && [ "$1" -le "$3" ] ||
	    fail_with "$4: got $1, want $2..$3"
}

# expect_frange GOT LO HI WHAT: LO <= GOT <= HI, decimals.
expect_frange() {
	[[ $1 =~ ^-?[0-9]+(\.[0-9]+)?$ ]] ||
	    fail_with "$4: '$1' is not a number" || return 1
	awk -v g="$1" -v lo="$2" -v hi="$3" \
	    'BEGIN { exit !(g + 0 >= lo + 0 && g + 0 <= hi + 0) }' ||
	    fail_with "$4: got $1, want $2..$3"
}

# expect_match STRING REGEX WHAT
expect_match() {
	[[ $1 =~ $2 ]] || fail_with "$3: '$1' does not match /$2/"
}

# expect_status N: the last `run` ended with status N.
expect_status() {
	[ "$status" -eq "$1" ] ||
	    fail_with "exit status: got $status, want $1"
}

# expect_stderr_line REGEX: some line of $stderr matches.
expect_stderr_line() {
	local l
	for l in "${stderr_lines[@]}"; do
		[[ $l =~ $1 ]] && return 0
	done
	fail_with "no stderr line matches /$1/"
}

# expect_usage_error MESSAGE: the last `run` was a usage error that said
# exactly "cpustat: MESSAGE" once, then the usage text, and printed
# nothing on stdout.
expect_usage_error() {
	expect_status 2 || return 1
	[ -z "$output" ] || fail_with "a usage error printed on stdout" ||
	    return 1
	expect_eq "${stderr_lines[0]-}" "cpustat: $1" "first stderr line" ||
	    return 1
	[[ ${stderr_lines[1]-} =~ $USAGE_RE ]] ||
	    fail_with "the message is not followed by the usage line" ||
	    return 1
	expect_eq "$(grep -c '^cpustat: ' <<<"$stderr")" 1 \
	    "number of diagnostics"
}

# expect_runtime_error MESSAGE: the last `run` failed at run time (exit
# 1) saying exactly "cpustat: MESSAGE" and nothing else, with nothing on
# stdout.
expect_runtime_error() {
	expect_status 1 || return 1
	[ -z "$output" ] || fail_with "stdout is not empty" || return 1
	expect_eq "$stderr" "cpustat: $1" "stderr"
}

# ---- what this machine has ----------------------------------------------

# expand_list "0-2,5": print 0 1 2 5, one a line.
expand_list() {
	local part i
	local -a parts
	IFS=, read -r -a parts <<<"$1"
	for part in "${parts[@]}"; do
		if [[ $part == *-* ]]; then
			for ((i = ${part%-*}; i <= ${part#*-}; i++)); do
				echo "$i"
			done
		elif [ -n "$part" ]; then
			echo "$part"
		fi
	done
}

# usable_cpus: the CPUs cpustat measures (online and in our affinity
# mask), ascending, one a line.
usable_cpus() {
	local allowed online
	allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' \
	    /proc/self/status)
	if [ -r /sys/devices/system/cpu/online ]; then
		online=$(cat /sys/devices/system/cpu/online)
	else
		online=$allowed
	fi
	comm -12 <(expand_list "$allowed" | sort) \
	    <(expand_list "$online" | sort) | sort -n
}

# tracefs_dir: print where tracefs is mounted; false when it is not.
tracefs_dir() {
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		if [ "$(stat -f -c %T "$d" 2>/dev/null)" = tracefs ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

# have_hw_pmu: the kernel has a CPU PMU driver (x86 "cpu", hybrid
# "cpu_core"/"cpu_atom", or an Arm PMU).
have_hw_pmu() {
	local d=/sys/bus/event_source/devices
	[ -e "$d/cpu" ] || [ -e "$d/cpu_core" ] || [ -e "$d/cpu_atom" ] ||
	    compgen -G "$d/armv[78]_*" >/dev/null ||
	    compgen -G "$d/arm_cortex*" >/dev/null
}

# tick_name: the -t column title (the TSC on x86).
tick_name() {
	case $(uname -m) in
	x86_64 | i?86) echo tsc ;;
	*) echo tick ;;
	esac
}

# npic: how many pic slots a set has, from the -h listing.
npic() {
	"$CPUSTAT" -h | sed -n 's/^[[:space:]]*event\[0-\([0-9]*\)\]:.*/\1/p' |
	    head -1 | awk '{ print $1 + 1 }'
}

# requires WHAT...: skip, saying why, unless all of these hold:
#	root			running as root
#	nonroot			not running as root
#	tracefs			tracefs is mounted
#	tracepoint:SYS:EV	that tracepoint exists
#	cpu:N			CPU N is online and usable by us
#	hw_pmu / no_hw_pmu	a hardware PMU is (not) present
#	paranoid		perf_event_paranoid forbids unprivileged
#				per-CPU counting (>= 1)
#	unpriv_user		an unprivileged user can be made (root,
#				useradd, userdel, setpriv)
#	env_signals		env(1) can set signal dispositions
requires() {
	local what v
	for what in "$@"; do
		case $what in
		root)
			[ "$(id -u)" -eq 0 ] ||
			    skip "needs root (per-CPU counting, tracepoints)"
			;;
		nonroot)
			[ "$(id -u)" -ne 0 ] || skip "needs a non-root user"
			;;
		tracefs)
			tracefs_dir >/dev/null ||
			    skip "needs tracefs mounted (mount -t tracefs" \
			    "nodev /sys/kernel/tracing)"
			;;
		tracepoint:*)
			v=${what#tracepoint:}
			requires tracefs
			[ -e "$(tracefs_dir)/events/${v%%:*}/${v#*:}/id" ] ||
			    skip "needs the tracepoint $v"
			;;
		cpu:*)
			v=${what#cpu:}
			usable_cpus | grep -qx "$v" ||
			    skip "needs CPU $v online and in our affinity mask"
			;;
		hw_pmu)
			have_hw_pmu ||
			    skip "needs a hardware PMU (none here: a VM?)"
			;;
		no_hw_pmu)
			! have_hw_pmu ||
			    skip "needs a machine without a hardware PMU"
			;;
		paranoid | paranoid2)
			# 1: a user may not count per CPU; 2: nor kernel mode
			local lvl=1 what_not=per-CPU
			[ "$what" = paranoid ] || lvl=2 what_not=kernel-mode
			v=$(cat /proc/sys/kernel/perf_event_paranoid \
			    2>/dev/null || echo 2)
			[ "$v" -ge "$lvl" ] || skip "perf_event_paranoid is $v:$(
			    ) unprivileged $what_not counting is allowed"
			;;
		unpriv_user)
			requires root
			command -v useradd >/dev/null &&
			    command -v userdel >/dev/null &&
			    command -v setpriv >/dev/null ||
			    skip "needs useradd, userdel and setpriv"
			;;
		env_signals)
			env --default-signal=INT true 2>/dev/null ||
			    skip "needs env --default-signal (coreutils 8.31)"
			;;
		*)
			fail_with "requires: unknown condition '$what'"
			return 1
			;;
		esac
	done
}

# machine_lock [-x]: take the lock that keeps two runs of the suite at
# once (two checkouts) out of each other's way.  Every test that runs
# cpustat holds it shared; a test that needs the CPUs to itself (exact
# counts, which another run's workloads would add to, or taking a CPU
# offline, which would break every other run) holds it exclusive (-x).
# Held until machine_unlock or the end of the test; skips after 300 s.
machine_lock() {
	local mode=-s
	[ "${1-}" != -x ] || mode=-x
	command -v flock >/dev/null || return 0
	exec {MACHINE_LOCK_FD}>"${TMPDIR:-/tmp}/cpc-tools-bats-machine.lock"
	flock "$mode" -w 300 "$MACHINE_LOCK_FD" ||
	    skip "another run of the tests held the machine lock for 300 s"
}

machine_unlock() {
	if [ -n "${MACHINE_LOCK_FD-}" ]; then
		exec {MACHINE_LOCK_FD}>&-
		MACHINE_LOCK_FD=
	fi
}

# workload NAME: the path of a compiled workload; fails when missing.
workload() {
	[ -x "$WORKLOADS/$1" ] ||
	    fail_with "workload $WORKLOADS/$1 is not built (make)" || return 1
	echo "$WORKLOADS/$1"
}

# ---- the output grammar -------------------------------------------------

# fmt_row VAR TIME CPU WORD NOTE VALUE...: the line cpustat must print,
# into VAR: "%7.3f %3d %5s ", "%9u " per value, " # NOTE" if any.
fmt_row() {
	local -n _row=$1
	local note=$5 v
	printf -v _row '%7.3f %3d %5s ' "$2" "$3" "$4"
	shift 5
	for v in "$@"; do
		printf -v v '%9s ' "$v"
		_row+=$v
	done
	[ -z "$note" ] || _row+=" # $note"
}

# fmt_title VAR TICK CELL...: the title line: "%7s %3s %5s ", the tick
# register cell when TICK is 1, one "%9s " cell per pic name.
fmt_title() {
	local -n _title=$1
	local tick=$2 c
	printf -v _title '%7s %3s %5s ' time cpu event
	if [ "$tick" = 1 ]; then
		printf -v c '%9s ' "$(tick_name)"
		_title+=$c
	fi
	shift 2
	for c in "$@"; do
		printf -v c '%9s ' "$c"
		_title+=$c
	done
}

# split_row LINE: set R_TIME R_CPU R_WORD R_NOTE and the array R_VALS from
# a sample or total line; false when its fields have the wrong shape.
split_row() {
	local line=$1 head
	local -a f
	R_NOTE=
	head=$line
	if [[ $line == *" # "* ]]; then
		R_NOTE=${line#* # }
		head=${line%% # *}
	fi
	read -r -a f <<<"$head"
	[ "${#f[@]}" -ge 4 ] || return 1
	R_TIME=${f[0]} R_CPU=${f[1]} R_WORD=${f[2]}
	R_VALS=("${f[@]:3}")
	[[ $R_TIME =~ ^[0-9]+\.[0-9]{3}$ ]] && [[ $R_CPU =~ ^[0-9]+$ ]] ||
	    return 1
	local v
	for v in "${R_VALS[@]}"; do
		[[ $v =~ ^[0-9]+$ ]] || return 1
	done
}

# parse_output [-n] [-t] [-T u|d]: check every line of $output.  Without
# -n the first line must be a title (kept in TITLE, checked against the
# title grammar; the tests compare it exactly).  With -T a timestamp line
# comes before the first sample line of each interval (never before a
# total); every sample line gets the last one in S_TS, and S_NEW is 1 for
# a sample line right after a stamp, else 0.  Each sample and total line
# is re-printed with the documented formats and must come out byte for
# byte the same.  Fills:
#	S_TIME S_CPU S_VALS S_NOTE S_TICK S_TS S_NEW
#						one entry per sample line
#	T_TIME T_NCPU T_VALS T_NOTE T_TICK	one entry per total line
# (S_VALS/T_VALS entries are space-separated values, without the tick.)
parse_output() {
	local header=1 tick=0 ts= opt OPTIND=1 line want i=0 stamp= fresh=0
	local tswant=
	local -a all
	while getopts ntT: opt; do
		case $opt in
		n) header=0 ;;
		t) tick=1 ;;
		T) ts=$OPTARG ;;
		*) return 2 ;;
		esac
	done
	TITLE=
	S_TIME=() S_CPU=() S_VALS=() S_NOTE=() S_TICK=() S_TS=() S_NEW=()
	T_TIME=() T_NCPU=() T_VALS=() T_NOTE=() T_TICK=()
	mapfile -t all <<<"$output"
	[ -n "$output" ] || all=()
	if [ "$header" = 1 ]; then
		TITLE=${all[0]-}
		want='^   time cpu event '
		[ "$tick" = 1 ] && want+=" {6}$(tick_name) "
		want+='( {4,5}pic[0-9]{1,2} )+$'
		[[ $TITLE =~ $want ]] ||
		    fail_with "line 1 is not a title: '$TITLE'" || return 1
		i=1
	fi
	case $ts in
	u) tswant='^[0-9]{9,}$' ;;
	d) tswant='^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 1-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-6][0-9] [A-Z]+ [0-9]{4}$' ;;
	esac
	for ((; i < ${#all[@]}; i++)); do
		line=${all[i]}
		if [ -n "$ts" ] && [[ $line =~ $tswant ]]; then
			[ "$fresh" = 0 ] ||
			    fail_with "line $((i + 1)): two -T lines in a row" ||
			    return 1
			stamp=$line fresh=1
			continue
		fi
		split_row "$line" ||
		    fail_with "line $((i + 1)) is not a sample or total" \
		    "line: '$line'" || return 1
		local -a vals=("${R_VALS[@]}")
		local tk=
		if [ "$tick" = 1 ]; then
			tk=${vals[0]}
			vals=("${vals[@]:1}")
		fi
		fmt_row want "$R_TIME" "$R_CPU" "$R_WORD" "$R_NOTE" \
		    ${tk:+"$tk"} "${vals[@]}"
		[ "$line" = "$want" ] ||
		    fail_with "line $((i + 1)) is not in the documented" \
		    "format:" "  got: '$line'" " want: '$want'" || return 1
		case $R_WORD in
		tick)
			S_TIME+=("$R_TIME") S_CPU+=("$R_CPU")
			S_VALS+=("${vals[*]}") S_NOTE+=("$R_NOTE")
			S_TICK+=("$tk") S_TS+=("$stamp") S_NEW+=("$fresh")
			[ -z "$ts" ] || [ -n "$stamp" ] ||
			    fail_with "line $((i + 1)): a sample line before" \
			    "any -T line" || return 1
			fresh=0
			;;
		total)
			[ "$fresh" = 0 ] ||
			    fail_with "a -T line before a total line" ||
			    return 1
			T_TIME+=("$R_TIME") T_NCPU+=("$R_CPU")
			T_VALS+=("${vals[*]}") T_NOTE+=("$R_NOTE")
			T_TICK+=("$tk")
			;;
		*)
			fail_with "line $((i + 1)): the third column is" \
			    "'$R_WORD', not tick or total" || return 1
			;;
		esac
	done
	[ "$fresh" = 0 ] ||
	    fail_with "a -T line is not followed by a sample line" ||
	    return 1
	# Totals come last: the last ${#T_TIME[@]} lines are the totals.
	for ((i = ${#all[@]} - ${#T_TIME[@]}; i < ${#all[@]}; i++)); do
		[[ ${all[i]} =~ \ total\  ]] ||
		    fail_with "a sample line after a total line:" \
		    "'${all[i]}'" || return 1
	done
}

# sum_samples COL [CPU [NOTE]]: the sum of value column COL (0 = pic of
# the first request) over the sample lines, optionally of one CPU ("" =
# all) and of one set (by its note).
sum_samples() {
	local col=$1 cpu=${2-} note=${3-} i s=0
	local -a v
	for i in "${!S_TIME[@]}"; do
		[ -z "$cpu" ] || [ "${S_CPU[i]}" = "$cpu" ] || continue
		[ -z "$note" ] || [ "${S_NOTE[i]}" = "$note" ] || continue
		read -r -a v <<<"${S_VALS[i]}"
		s=$((s + ${v[col]:-0}))
	done
	echo "$s"
}

# field WORDS N: word N (0-based) of WORDS.
field() {
	local -a w
	read -r -a w <<<"$1"
	echo "${w[$2]-}"
}

# ---- background runs ------------------------------------------------------

# bg_start OUT ERR ARG...: start cpustat ARG... in the background with
# SIGINT, SIGTERM and SIGHUP at their defaults (a non-interactive shell
# would have it ignore SIGINT), output to files; sets BG_PID.
bg_start() {
	local out=$1 err=$2
	shift 2
	rm -f "$out" "$err"
	env --default-signal=INT,TERM,HUP "$CPUSTAT" "$@" >"$out" 2>"$err" &
	BG_PID=$!
}

# wait_lines FILE N SECONDS: wait until FILE has at least N lines.  (The
# file may not exist yet: the background shell creates it.)
wait_lines() {
	local i
	for ((i = 0; i < $3 * 20; i++)); do
		[ -e "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ] && return 0
		sleep 0.05
	done
	fail_with "$1 did not reach $2 lines in $3 s"
}

# bg_wait SECONDS: wait for BG_PID to end, at most SECONDS; sets
# BG_STATUS.  Kills it and fails when it does not end in time.
bg_wait() {
	wait_exit "$BG_PID" "$1" || return 1
	BG_STATUS=$WAIT_STATUS
}

# load_files OUT ERR: put the files into output/stderr/stderr_lines as
# `run --separate-stderr` would, so parse_output and the expect_* work.
load_files() {
	output=$(cat "$1")
	stderr=$(cat "$2")
	mapfile -t stderr_lines <<<"$stderr"
	[ -n "$stderr" ] || stderr_lines=()
}

# setup_root_cpus: what every suite that runs cpustat per CPU needs first:
# root, the shared machine lock, and CPUS/NCPU (the CPUs it will measure).
setup_root_cpus() {
	requires root
	machine_lock
	mapfile -t CPUS < <(usable_cpus)
	NCPU=${#CPUS[@]}
}

# bg_end_clean OUT ERR: wait for the background cpustat, load its output,
# and expect it ended with status 0 and nothing on stderr.
bg_end_clean() {
	bg_end "$1" "$2" 5
	expect_eq "$stderr" "" "stderr"
}

# bg_end OUT ERR SECONDS: wait at most SECONDS for the background cpustat,
# load its output and expect it ended with status 0.
bg_end() {
	bg_wait "$3"
	load_files "$1" "$2"
	status=$BG_STATUS
	expect_status 0
}

# ---- an unprivileged user -------------------------------------------------

# make_user: create an unprivileged user (TEST_USER) and copies of the
# tools and workloads it may run (TEST_BIN = cpustat, TEST_CPUTRACK,
# TEST_WORKLOADS), removed by user_cleanup (call it from teardown).
make_user() {
	local i
	TEST_USER=cpcb$$x$RANDOM
	for i in 1 2 3 4 5; do
		useradd -M -N -r -s /bin/false "$TEST_USER" 2>/dev/null && break
		sleep 0.5	# /etc/passwd may be locked by a parallel run
	done
	id "$TEST_USER" >/dev/null 2>&1 || {
		TEST_USER=
		skip "useradd could not create a user"
	}
	TEST_BINDIR=$(mktemp -d /tmp/cpc-bats.XXXXXX)
	chmod 755 "$TEST_BINDIR"
	cp "$CPUSTAT" "$TEST_BINDIR/cpustat"
	TEST_BIN=$TEST_BINDIR/cpustat
	if [ -n "${CPUTRACK-}" ] && [ -x "$CPUTRACK" ]; then
		cp "$CPUTRACK" "$TEST_BINDIR/cputrack"
		TEST_CPUTRACK=$TEST_BINDIR/cputrack
	fi
	cp -r "$WORKLOADS" "$TEST_BINDIR/workloads"
	TEST_WORKLOADS=$TEST_BINDIR/workloads
	chmod -R a+rX "$TEST_BINDIR"
}

user_cleanup() {
	if [ -n "${TEST_USER-}" ]; then
		userdel "$TEST_USER" 2>/dev/null || true
	fi
	if [ -n "${TEST_BINDIR-}" ]; then
		rm -rf "$TEST_BINDIR"
	fi
}

# as_user_cmd CMD ARG...: run CMD as TEST_USER, no groups.
as_user_cmd() {
	setpriv --reuid="$TEST_USER" --regid="$(id -g "$TEST_USER")" \
	    --clear-groups -- "$@"
}

# as_user ARG...: run the copy of cpustat as TEST_USER.
as_user() {
	as_user_cmd "$TEST_BIN" "$@"
}

# as_user_can_read DIR: TEST_USER may list DIR.
as_user_can_read() {
	as_user_cmd ls "$1" >/dev/null 2>&1
}

# ---- programs built against libcpc.so.1 ---------------------------------

# cc_libcpc OUT SRC: compile the C program SRC as a user would, against
# the libcpc.so.1 built next to $CPUSTAT (run sets $status and $output).
# A sanitized library needs a sanitized program.  Skips without a
# compiler or the library.
cc_libcpc() {
	local cc=${CC:-cc} san=() lib
	lib=$(cd "$(dirname "$CPUSTAT")/.." 2>/dev/null && pwd)/libcpc
	command -v "$cc" >/dev/null || skip "no C compiler ($cc)"
	[ -e "$lib/libcpc.so.1" ] || skip "libcpc.so.1 is not built (make)"
	if objdump -p "$lib/libcpc.so.1" 2>/dev/null |
	    grep -q 'NEEDED.*libasan'; then
		san=(-fsanitize=address,undefined)
	fi
	run "$cc" -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror \
	    "${san[@]}" -I"$TESTS_DIR/../include" \
	    -o "$1" "$2" "$lib/libcpc.so.1" "$lib/libpctx.so.1" \
	    -Wl,-rpath,"$lib"
}

# ---- waiting for a condition --------------------------------------------

# wait_until SECONDS CMD...: run CMD every 0.05 s until it succeeds; fail,
# naming CMD, when it did not within SECONDS.
wait_until() {
	local i secs=$1
	shift
	for ((i = 0; i < secs * 20; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	"$@" || fail_with "not true after $secs s: $*"
}

# wait_exit PID SECONDS: wait for the background job PID to end, at most
# SECONDS; sets WAIT_STATUS.  Kills it (SIGKILL) and fails when it does
# not end in time.
wait_exit() {
	local i
	for ((i = 0; i < $2 * 20; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -KILL "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		fail_with "pid $1 still ran after $2 s"
		return 1
	fi
	WAIT_STATUS=0
	wait "$1" || WAIT_STATUS=$?
}

# proc_gone PID: PID has ended: it no longer exists, or is a zombie.
proc_gone() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ -z "$st" ] || [ "$st" = Z ]
}

# since START: the seconds elapsed since START, an $EPOCHREALTIME.
since() {
	awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }'
}

# proc_exe_is PID PROG: PID runs PROG (it has exec'd it: a background
# job's pid is first a copy of this shell).
proc_exe_is() {
	[ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$2" ]
}

# proc_nanosleeps PID: PID (a single-threaded workload) is blocked in
# nanosleep(2): a workload's -a sleep, so its calls are all made.  Not
# merely stopped (t) by a tracer, nor running.  When the kernel does not
# name wait channels (wchan "0"), the state alone decides.
proc_nanosleeps() {
	local st wchan
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)
	[ "$st" = S ] || return 1
	wchan=$(cat "/proc/$1/wchan" 2>/dev/null) || wchan=0
	[ "$wchan" = 0 ] || [ -z "$wchan" ] || [[ $wchan == *nanosleep* ]]
}

# traced_by PID TRACER: PID is being traced (ptrace) by TRACER.
traced_by() {
	[ "$(sed -n 's/^TracerPid:[[:space:]]*//p' "/proc/$1/status" \
	    2>/dev/null)" = "$2" ]
}

# has_threads PID N: process PID has N threads.
has_threads() {
	[ "$(ls "/proc/$1/task" 2>/dev/null | wc -l)" -eq "$2" ]
}
