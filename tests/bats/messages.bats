#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# messages.bats - what a message quotes from the command line is printed
# safely: control bytes (ESC, BEL, ...) and bytes that are not UTF-8 as
# C escapes, never raw, and an argument longer than 131 bytes as its
# first 128 and "..."; on both tools, for their own messages and for
# libcpc's and libpctx's.

setup() {
	load helper
	machine_lock
	X500=$(printf 'x%.0s' {1..500})
	X128=${X500:0:128}
}

teardown() {
	machine_unlock
}

# expect_clean: stderr holds no control byte but its newlines and the
# usage line's tabs, and no line longer than 600 bytes.
expect_clean() {
	local line
	if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$stderr"; then
		fail_with "stderr holds control bytes:" \
		    "$(od -c <<<"$stderr" | head -20)"
		return 1
	fi
	for line in "${stderr_lines[@]}"; do
		[ "${#line}" -le 600 ] ||
		    fail_with "a stderr line of ${#line} bytes" || return 1
	done
}

@test "an event name with ESC and BEL: escaped in both tools' messages" {
	run --separate-stderr "$CPUSTAT" -c $'\e[31mX\a' 1 1
	expect_status 2
	expect_clean
	expect_eq "${stderr_lines[0]}" "cpustat: -c '\\e[31mX\\a': unknown event '\\e[31mX\\a'" "the message"
	run --separate-stderr "$CPUTRACK" -c $'\e[31mX\a' true
	expect_status 2
	expect_clean
	expect_eq "${stderr_lines[0]}" "cputrack: -c '\\e[31mX\\a': unknown event '\\e[31mX\\a'" "the message"
}

@test "controls in the -c grammar's messages, operands, options and -C" {
	run --separate-stderr "$CPUSTAT" -c $'cpu-clock,\e]0;t\a' 1 1
	expect_status 2
	expect_clean
	expect_match "${stderr_lines[0]}" "'\\\\e\\]0;t\\\\a'"
	run --separate-stderr "$CPUSTAT" -c cpu-clock $'1\e'
	expect_usage_error "invalid interval '1\\e': not a number of seconds"
	run --separate-stderr "$CPUSTAT" $'-\e'
	expect_usage_error "invalid option '-\\e'"
	run --separate-stderr "$CPUSTAT" $'--\e[2J'
	expect_usage_error "invalid option '--\\e[2J'"
	run --separate-stderr "$CPUSTAT" -T $'\x9b' 1
	expect_usage_error "invalid -T argument '\\x9b': use u or d"
	run --separate-stderr "$CPUSTAT" -C $'0\r1' 1
	expect_usage_error "invalid -C list '0\\r1': '0\\r1' is not N, N-M or N-M:USED/GROUP"
	run --separate-stderr "$CPUSTAT" --list-events=$'\e[5m'
	expect_status 1
	expect_eq "$stderr" "cpustat: no event name matches '\\e[5m'" "stderr"
}

@test "cputrack: a command, a file and a -p with controls are escaped" {
	run -127 --separate-stderr "$CPUTRACK" -c cpu-clock \
	    $'/nonexistent/\e[31mcmd'
	expect_status 127
	expect_clean
	expect_match "$stderr" "'/nonexistent/\\\\e\\[31mcmd'"
	run --separate-stderr "$CPUTRACK" -c cpu-clock -o $'/nonexistent/\a' true
	expect_status 125
	expect_clean
	expect_eq "$stderr" "cputrack: cannot open '/nonexistent/\\a' for writing: No such file or directory" "stderr"
	run --separate-stderr "$CPUTRACK" -c cpu-clock -p $'1\e'
	expect_status 2
	expect_clean
	expect_eq "${stderr_lines[0]}" "cputrack: invalid pid '1\\e': not a whole number" "the message"
}

@test "UTF-8 text passes as it is; bytes that are not UTF-8 are escaped" {
	run --separate-stderr "$CPUSTAT" -c 'café' 1 1
	expect_status 2
	expect_eq "${stderr_lines[0]}" "cpustat: -c 'café': unknown event 'café'" "the message"
	run --separate-stderr "$CPUSTAT" -c $'caf\xe9' 1 1
	expect_status 2
	expect_eq "${stderr_lines[0]}" "cpustat: -c 'caf\\xe9': unknown event 'caf\\xe9'" "the message"
}

@test "a long argument is cut to its first 128 bytes and ... in both tools" {
	run --separate-stderr "$CPUSTAT" -c "$X500" 1 1
	expect_status 2
	expect_clean
	expect_eq "${stderr_lines[0]}" "cpustat: -c '$X128...': unknown event '$X128...'" "the message"
	run --separate-stderr "$CPUTRACK" -c "$X500" true
	expect_status 2
	expect_clean
	expect_eq "${stderr_lines[0]}" "cputrack: -c '$X128...': unknown event '$X128...'" "the message"
	run --separate-stderr "$CPUSTAT" -c cpu-clock "$X500"
	expect_usage_error "invalid interval '$X128...': not a number of seconds"
	# 131 bytes are shown whole: a cut would save nothing
	run --separate-stderr "$CPUSTAT" -c cpu-clock "${X500:0:131}"
	expect_usage_error "invalid interval '${X500:0:131}': not a number of seconds"
}

@test "an argument of 100000 bytes: the message is cut, the tool answers at once" {
	local big
	# (the kernel takes arguments of up to 128 KiB)
	big=$(head -c 100000 /dev/zero | tr '\0' 'y')
	run --separate-stderr timeout 10 "$CPUSTAT" -c "$big" 1 1
	expect_status 2
	expect_clean
	expect_eq "${stderr_lines[0]}" "cpustat: -c '${big:0:128}...': event name too long (at most 511 characters)" "the message"
}

@test "a closed standard descriptor: messages still reach stderr, never -o" {
	local f=$BATS_TEST_TMPDIR/out.json
	# stderr closed: the message has nowhere to go, but must not land
	# in the -o file (opened where 2 was)
	run -127 timeout 20 bash -c 'exec "$@" 2>&-' _ "$CPUTRACK" -o "$f" \
	    --format=json -c page-faults /nonexistent/program
	expect_status 127
	expect_eq "$(cat "$f")" "" "the -o file"
	run timeout 20 bash -c 'exec "$@" 2>&-' _ "$CPUSTAT" -o "$f" \
	    --format=json -c page-faults -c 'no_such_event' 0.1 1
	expect_status 2
	expect_eq "$(cat "$f" 2>/dev/null)" "" "cpustat's -o file"
	# stdout closed: the output goes nowhere, quietly (a perf event
	# opened at 1 made it "write error: Invalid argument")
	run --separate-stderr timeout 20 bash -c 'exec "$@" >&-' _ \
	    "$CPUSTAT" -c page-faults 0.1 1
	expect_status 0
	expect_eq "$stderr" "" "cpustat's stderr with stdout closed"
	run --separate-stderr -127 timeout 20 bash -c 'exec "$@" >&-' _ \
	    "$CPUTRACK" -c page-faults /nonexistent/program
	expect_status 127
	expect_eq "$stderr" "cputrack: cannot find program '/nonexistent/program'" \
	    "cputrack's stderr with stdout closed"
	# stdin closed: a command started gets /dev/null, not a counter
	run --separate-stderr timeout 20 bash -c 'exec "$@" <&-' _ \
	    "$CPUTRACK" -T 0 -o "$f" -c page-faults sh -c 'cat; echo "rc $?"'
	expect_status 0
	expect_eq "$output" "rc 0" "the command's read of stdin"
}
