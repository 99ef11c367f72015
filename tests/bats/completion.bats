#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# completion.bats - the bash completion (completion/cpc-tools.bash): the
# options of each tool's --help, the values of -T, the event names of
# --list-events inside a -c spec (bash splits sched:x at the colon), files
# for -o, pids for -p, and cputrack's command after its options.

load helper

ROOT=$(cd "$TESTS_DIR/.." && pwd)
CPUTRACK=${CPUTRACK:-$TESTS_DIR/../build/cputrack/cputrack}

setup() {
	[ -x "$CPUSTAT" ] && [ -x "$CPUTRACK" ] || skip "not built (make)"
	# shellcheck source=../../completion/cpc-tools.bash
	source "$ROOT/completion/cpc-tools.bash"
}

# comp WORD...: complete the last WORD of the command line WORD... (split
# as bash splits it, at : and =); REPLY gets COMPREPLY, one a line.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*" COMP_POINT=${#COMP_LINE}
	_cpc_tools
	REPLY=$(printf '%s\n' "${COMPREPLY[@]}")
}

# events PREFIX: the names --list-events gives that start with PREFIX,
# sorted.
events() {
	timeout 20 "$1" --list-events | awk -v p="$2" \
	    'index($1, p) == 1 { print $1 }' | LC_ALL=C sort -u
}

@test "completion: is registered for both tools" {
	run complete -p cpustat cputrack
	expect_eq "$output" "complete -F _cpc_tools cpustat
complete -F _cpc_tools cputrack" "complete -p"
}

@test "completion: cpustat - offers every option of --help, once" {
	local want o
	comp "$CPUSTAT" -
	# Each long option the help names, and the short ones it describes.
	for o in $(timeout 20 "$CPUSTAT" --help |
	    grep -oE -- '--[a-z][a-z-]*' | sort -u) -c -n -p -s -t -T -D -h
	do
		grep -qE -- "^$o=?\$" <<<"$REPLY" ||
		    fail_with "'$o' not offered: $REPLY" || return 1
	done
	want=$(sort -u <<<"$REPLY")
	expect_eq "$(sort <<<"$REPLY")" "$want" "no option twice" || return 1
	comp "$CPUSTAT" --ti
	expect_eq "$REPLY" "--timestamp=" "--ti" || return 1
	comp "$CPUSTAT" --no
	expect_eq "$REPLY" "--no-header" "--no"
}

@test "completion: -T and --timestamp= offer u and d" {
	comp "$CPUSTAT" -T ""
	expect_eq "$REPLY" $'d\nu' "-T" || return 1
	comp "$CPUSTAT" -n --timestamp = ""
	expect_eq "$REPLY" $'d\nu' "--timestamp=" || return 1
	comp "$CPUSTAT" --timestamp = u
	expect_eq "$REPLY" "u" "--timestamp=u"
}

@test "completion: --listen= offers the loopback addresses of the manual" {
	local t
	for t in "$CPUSTAT" "$CPUTRACK"; do
		comp "$t" --listen = ""
		expect_eq "$REPLY" $'127.0.0.1:9464\n[::1]:9464' "$t --listen=" ||
		    return 1
		comp "$t" --listen = 127
		expect_eq "$REPLY" "127.0.0.1:9464" "$t --listen=127" ||
		    return 1
		# bash splits at the colon: only what follows it is replaced
		comp "$t" --listen = 127.0.0.1 : ""
		expect_eq "$REPLY" "9464" "$t --listen=127.0.0.1:" || return 1
		comp "$t" --listen 127.0
		expect_eq "$REPLY" "127.0.0.1:9464" "$t --listen 127.0" ||
		    return 1
	done
}

@test "completion: -c offers the names of --list-events, whole or after , and =" {
	local want
	want=$(events "$CPUSTAT" cpu-c)
	[ -n "$want" ] || skip "no cpu-c* event listed"
	comp "$CPUSTAT" -c cpu-c
	expect_eq "$REPLY" "$want" "-c cpu-c" || return 1
	# Inside a spec: the name after the last , (bash keeps , in the word).
	comp "$CPUSTAT" -c task-clock,sys,cpu-c
	expect_eq "$REPLY" "$(sed 's/^/task-clock,sys,/' <<<"$want")" \
	    "-c task-clock,sys,cpu-c" || return 1
	# picN=name: bash splits at =; the reply is the piece after it.
	comp "$CPUSTAT" -c pic1 = cpu-c
	expect_eq "$REPLY" "$want" "-c pic1=cpu-c" || return 1
	comp "$CPUSTAT" --events = cpu-c
	expect_eq "$REPLY" "$want" "--events=cpu-c" || return 1
	comp "$CPUTRACK" --events cpu-c
	expect_eq "$REPLY" "$(events "$CPUTRACK" cpu-c)" "--events cpu-c"
}

@test "completion: a tracepoint's name after the colon bash splits at" {
	local want
	want=$(events "$CPUSTAT" sched:sched_sw | sed 's/^sched://')
	[ -n "$want" ] || skip "no sched:sched_sw* tracepoint (tracefs)"
	comp "$CPUSTAT" -c sched : sched_sw
	expect_eq "$REPLY" "$want" "-c sched:sched_sw" || return 1
	# Right after the colon: every sched: event.
	comp "$CPUSTAT" -c sched :
	expect_eq "$REPLY" "$(events "$CPUSTAT" sched: | sed 's/^sched://')" \
	    "-c sched:" || return 1
	comp "$CPUSTAT" --list-events = sched : sched_sw
	expect_eq "$REPLY" "$want" "--list-events=sched:sched_sw"
}

@test "completion: cputrack -o offers files, -p pids" {
	local d=$BATS_TEST_TMPDIR
	touch "$d/out.a" "$d/out.b" "$d/other"
	comp "$CPUTRACK" -c cpu-clock -o "$d/out"
	expect_eq "$REPLY" "$d/out.a
$d/out.b" "-o $d/out" || return 1
	comp "$CPUTRACK" --output = "$d/ot"
	expect_eq "$REPLY" "$d/other" "--output=$d/ot" || return 1
	comp "$CPUTRACK" -c cpu-clock -p "$$"
	grep -qx "$$" <<<"$REPLY" || fail_with "pid $$ not offered: $REPLY"
}

@test "completion: cputrack completes its command after the options, not as options" {
	local d=$BATS_TEST_TMPDIR
	mkdir -p "$d/bin"
	printf '#!/bin/sh\n' >"$d/bin/cpcfakecmd1"
	printf '#!/bin/sh\n' >"$d/bin/cpcfakecmd2"
	chmod +x "$d/bin"/cpcfakecmd*
	PATH=$d/bin:$PATH
	comp "$CPUTRACK" -T 1 -c cpu-clock cpcfakecm
	expect_eq "$REPLY" $'cpcfakecmd1\ncpcfakecmd2' "the command" ||
	    return 1
	comp "$CPUTRACK" -c cpu-clock -- cpcfakecmd2
	expect_eq "$REPLY" "cpcfakecmd2" "the command after --" || return 1
	# An option after the command is the command's: no cputrack option.
	comp "$CPUTRACK" -c cpu-clock cpcfakecmd1 --int
	! grep -qx -- '--interval=' <<<"$REPLY" ||
	    fail_with "cputrack's --interval= offered to the command" ||
	    return 1
	# Before the command, the same word is cputrack's.
	comp "$CPUTRACK" -c cpu-clock --int
	expect_eq "$REPLY" "--interval=" "cputrack --int"
}

@test "completion: -G and --cgroup= offer the cgroups of the cgroup v2 hierarchy" {
	local root
	root=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") {
	    if ($(i + 1) == "cgroup2") { print $5; exit } break } }' \
	    /proc/self/mountinfo)
	[ -n "$root" ] || skip "cgroup2 is not mounted"
	[ "$(id -u)" -eq 0 ] || skip "needs root (makes cgroups)"
	mkdir -p "$root/cpc-comp-$$/inner" "$root/cpc-comp-$$x" ||
	    skip "cannot make a cgroup under $root"
	comp "$CPUSTAT" -G "cpc-comp-$$"
	local r1=$REPLY
	comp "$CPUSTAT" -G "a,/cpc-comp-$$/"
	local r2=$REPLY
	comp "$CPUSTAT" --cgroup = "cpc-comp-$$"
	local r3=$REPLY
	rmdir "$root/cpc-comp-$$/inner" "$root/cpc-comp-$$" "$root/cpc-comp-$$x"
	expect_eq "$r1" "cpc-comp-$$
cpc-comp-${$}x" "-G cpc-comp-" || return 1
	expect_eq "$r2" "a,/cpc-comp-$$/inner" "-G a,/cpc-comp-N/" || return 1
	expect_eq "$r3" "cpc-comp-$$
cpc-comp-${$}x" "--cgroup=cpc-comp-"
}

@test "completion: -M and --metrics= offer the built-ins, and events after rate:" {
	local tool
	for tool in "$CPUSTAT" "$CPUTRACK"; do
		comp "$tool" -M ''
		expect_eq "$REPLY" "branch-miss%
cache-miss%
cpi
ec-hit%
ghz
ipc
rate:" "-M" || return 1
		comp "$tool" --metrics = ipc,c
		expect_eq "$REPLY" "ipc,cache-miss%
ipc,cpi" "--metrics=ipc,c" || return 1
		# bash splits rate:page at the colon
		comp "$tool" -M ipc,rate : page-fa
		expect_eq "$REPLY" "page-faults" "-M ipc,rate:page-fa" || return 1
	done
}
