#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# listen.bats - the exporter mode, --listen=ADDR:PORT, of both tools on
# loopback: /metrics serves the counts (exactly: getpid workloads) in the
# text format 0.0.4, or OpenMetrics 1.0 when Accept asks, while the tool
# prints its usual output; HEAD, 404, 405; a silent client blocks
# nothing; every error said before counting starts (the port in use,
# not this machine's address, a name that does not resolve, a malformed
# argument), with the tools' statuses; and once the tool has ended (its
# count, a signal, SIGKILL) the port refuses, so that Prometheus's up
# falls to 0.
#
# Ports are picked at random from 20000 to 29999; one in use is picked
# again.  Every fetch has a time limit (curl --max-time).

EV=syscalls:sys_enter_getpid
CT_PROM="text/plain; version=0.0.4; charset=utf-8"
CT_OM="application/openmetrics-text; version=1.0.0; charset=utf-8"
ACCEPT_OM="Accept: application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.2"

setup() {
	load helper
	requires root
	command -v curl >/dev/null || skip "needs curl"
	OUT=$BATS_TEST_TMPDIR/out
	ERR=$BATS_TEST_TMPDIR/err
}

teardown() {
	machine_unlock
	local p
	for p in "${BG_PID-}" "${HOLDER-}"; do
		if [ -n "$p" ] && kill -0 "$p" 2>/dev/null; then
			kill -KILL "$p" 2>/dev/null || true
			wait "$p" 2>/dev/null || true
		fi
	done
}

# fetch [CURLARG...]: GET http://127.0.0.1:$PORT/metrics (or the URL
# given last); the response's head in HEAD_OUT, its body in BODY, the
# status in CODE ("000" when nothing answered).
fetch() {
	local url=http://127.0.0.1:$PORT/metrics
	HEAD_OUT=$BATS_TEST_TMPDIR/head
	BODY=$(curl -s --max-time 5 -D "$HEAD_OUT" -o - "$@" "$url" 2>/dev/null) || true
	CODE=$(sed -n '1s/^HTTP\/1\.1 \([0-9]*\).*/\1/p' "$HEAD_OUT" 2>/dev/null)
	CODE=${CODE:-000}
}

# header NAME: the value of a header of the last fetch.
header() {
	sed -n "s/^$1: \\(.*\\)\\r\$/\\1/Ip" "$HEAD_OUT"
}

# refused: nothing listens on PORT any more (curl: could not connect).
refused() {
	local rc=0
	curl -s --max-time 5 -o /dev/null "http://127.0.0.1:$PORT/metrics" ||
	    rc=$?
	[ "$rc" -eq 7 ]
}

# serving: the tool answers on PORT (any status).
serving() {
	fetch
	[ "$CODE" != 000 ]
}

# listen_start TOOL ARG...: TOOL (cpustat or cputrack) --listen on
# 127.0.0.1 at a random free PORT, the signals at their defaults, output
# to OUT and ERR; BG_PID.  Returns once it answers.  A port another
# program took meanwhile is picked again.
listen_start() {
	local tool=$1 try
	shift
	for ((try = 0; try < 10; try++)); do
		PORT=$((20000 + RANDOM % 10000))
		env --default-signal=INT,TERM,HUP "$tool" \
		    --listen="127.0.0.1:$PORT" "$@" >"$OUT" 2>"$ERR" &
		BG_PID=$!
		while kill -0 "$BG_PID" 2>/dev/null && ! serving; do
			sleep 0.05
		done
		kill -0 "$BG_PID" 2>/dev/null && return 0
		wait "$BG_PID" || true
		grep -q EADDRINUSE "$ERR" ||
		    fail_with "$tool --listen did not start: $(cat "$ERR")" ||
		    return 1
	done
	fail_with "no free port in 10 tries"
}

# hold_port: a python listener on a random free PORT (HOLDER its pid).
hold_port() {
	local ready=$BATS_TEST_TMPDIR/ready try
	for ((try = 0; try < 10; try++)); do
		PORT=$((20000 + RANDOM % 10000))
		rm -f "$ready"
		/usr/bin/python3 -c '
import socket, sys, time
s = socket.socket()
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(3)
s.listen()
open(sys.argv[2], "w").close()
time.sleep(60)' "$PORT" "$ready" &
		HOLDER=$!
		wait_until 10 eval '[ -e "$ready" ] || ! kill -0 $HOLDER 2>/dev/null'
		[ -e "$ready" ] && return 0
	done
	fail_with "no free port to hold in 10 tries"
}

# metric NAME LABELS: the value of the sample NAME{LABELS...} in BODY
# (LABELS a regex matched within the braces).
metric() {
	grep -E "^$1\\{[^}]*$2[^}]*\\} " <<<"$BODY" | awk '{ print $NF }'
}

# prefix_sum V: V is the sum of the first k tick lines of CPU 0 in OUT,
# for some k (the counts served are the counts printed, up to an
# interval).
prefix_sum() {
	awk -v v="$1" '$2 == 0 && $3 == "tick" { s += $4; if (s == v) f = 1 }
	    END { exit !f }' "$OUT"
}

@test "cpustat --listen: /metrics counts a getpid workload, in both formats by Accept, beside the usual output" {
	requires tracepoint:$EV cpu:0 env_signals
	machine_lock -x
	local n=20000 wl v vom
	wl=$(workload getpid_n)
	listen_start "$CPUSTAT" -c "$EV" 0.2
	wait_lines "$OUT" 2 10
	taskset -c 0 "$wl" -c 0 "$n"
	# two more intervals: the workload's is published
	sleep 0.5
	fetch
	expect_eq "$CODE" 200 "status"
	expect_eq "$(header Content-Type)" "$CT_PROM" "Content-Type without Accept"
	v=$(metric cpustat_events_total "cpu=\"0\",event=\"$EV\"")
	expect_match "$BODY" "# TYPE cpustat_events_total counter" "the TYPE line"
	[[ $BODY != *"# EOF"* ]] || fail_with "0.0.4 has no # EOF"
	fetch -H "$ACCEPT_OM"
	expect_eq "$CODE" 200 "status"
	expect_eq "$(header Content-Type)" "$CT_OM" "Content-Type for Prometheus's Accept"
	vom=$(metric cpustat_events_total "cpu=\"0\",event=\"$EV\"")
	expect_eq "$(tail -n 1 <<<"$BODY")" "# EOF" "OpenMetrics ends with # EOF"
	fetch -I
	expect_eq "$CODE" 200 "HEAD's status"
	# (curl -I prints the head as its output: nothing may follow it)
	expect_eq "$(sed '1,/^\r$/d' <<<"$BODY")" "" "HEAD: no body"
	[ "$(header Content-Length)" -gt 100 ] || fail_with "HEAD's length"
	kill -TERM "$BG_PID"
	bg_end "$OUT" "$ERR" 5
	expect_eq "$stderr" "" "stderr"
	# Every getpid call of the workload, and (other processes may call
	# getpid on CPU 0 too) exactly what cpustat printed up to an interval.
	expect_range "$v" "$n" $((n + 5000)) "CPU 0's getpid calls (text 0.0.4)"
	prefix_sum "$v" || fail_with "$v (text 0.0.4) is no sum of CPU 0's ticks"
	expect_range "$vom" "$n" $((n + 5000)) "CPU 0's getpid calls (OpenMetrics)"
	prefix_sum "$vom" || fail_with "$vom (OpenMetrics) is no sum of CPU 0's ticks"
	# the usual text: the title, tick lines, the totals
	expect_match "${output%%$'\n'*}" '^ +time cpu event +pic0 *$' "the title"
	expect_match "$output" $'\n''[ 0-9.]+ +[0-9]+ +total +[0-9]+' "a total line"
	refused || fail_with "port $PORT still open after cpustat ended"
}

@test "cputrack --listen: the command's exact count, both Content-Types; a SIGTERM closes the port" {
	requires tracepoint:$EV env_signals
	machine_lock
	local wl v
	wl=$(workload getpid_n)
	listen_start "$CPUTRACK" -T 0.2 -c "$EV" "$wl" -a 10000 5000
	wait_until 10 eval 'fetch; [ "$(metric cputrack_events_total "event=\"$EV\"")" = 5000 ]'
	expect_eq "$(header Content-Type)" "$CT_PROM" "Content-Type without Accept"
	v=$(metric cputrack_events_total "pid=\"[0-9]+\"")
	expect_eq "$v" 5000 "the command's getpid calls (text 0.0.4)"
	fetch -H "Accept: application/openmetrics-text; version=1.0.0"
	expect_eq "$(header Content-Type)" "$CT_OM" "Content-Type for OpenMetrics"
	expect_eq "$(metric cputrack_events_total "event=\"$EV\"")" 5000 \
	    "the command's getpid calls (OpenMetrics)"
	kill -TERM "$BG_PID"
	bg_wait 10
	# the SIGTERM forwarded to the command: 128 + 15, as time(1)
	expect_eq "$BG_STATUS" 143 "cputrack's status"
	grep -qE '^ +[0-9.]+ +[0-9]+ +tick +[0-9]+ *$' "$OUT" ||
	    fail_with "no tick line in the usual output: $(cat "$OUT")"
	refused || fail_with "port $PORT still open after cputrack ended"
}

@test "--listen: HEAD, 404 for another path, 405 for another method, 400 for garbage; a silent client blocks nothing" {
	requires env_signals
	machine_lock
	listen_start "$CPUSTAT" -c page-faults 0.2
	fetch -I
	expect_eq "$CODE" 200 "HEAD /metrics"
	fetch http://127.0.0.1:$PORT/
	expect_eq "$CODE" 404 "GET /"
	fetch -X POST
	expect_eq "$CODE" 405 "POST /metrics"
	expect_eq "$(header Allow)" "GET, HEAD" "405's Allow"
	v=$(printf 'hello\r\n\r\n' | timeout 5 /usr/bin/python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(sys.stdin.buffer.read())
print(s.makefile("rb").readline().decode().strip())' "$PORT")
	expect_eq "$v" "HTTP/1.1 400 Bad Request" "garbage"
	# connected, silent: the tool and other scrapers go on
	exec {silent}<>"/dev/tcp/127.0.0.1/$PORT"
	local t0=$EPOCHREALTIME
	fetch
	expect_eq "$CODE" 200 "a scrape beside a silent client"
	expect_frange "$(since "$t0")" 0 2 "its seconds"
	wait_lines "$OUT" 8 5
	exec {silent}>&-
	kill -TERM "$BG_PID"
	bg_end "$OUT" "$ERR" 5
	refused || fail_with "port $PORT still open"
}

@test "--listen: the port closes when the tool ends by its count, and after SIGKILL" {
	requires env_signals
	machine_lock
	listen_start "$CPUSTAT" -c page-faults 0.3 3
	bg_end "$OUT" "$ERR" 10
	refused || fail_with "port $PORT open after cpustat's count"
	listen_start "$CPUTRACK" -T 0.2 -c page-faults "$(workload getpid_n)" \
	    -a 3000 1
	kill -KILL "$BG_PID"
	bg_wait 5
	expect_eq "$BG_STATUS" 137 "killed"
	refused || fail_with "port $PORT open after a SIGKILL"
}

@test "--listen: [::1] (IPv6)" {
	requires env_signals
	[ -e /proc/net/if_inet6 ] && grep -q '^0\{31\}1 ' /proc/net/if_inet6 ||
	    skip "needs IPv6 on loopback"
	machine_lock
	local try
	for ((try = 0; try < 10; try++)); do
		PORT=$((20000 + RANDOM % 10000))
		env --default-signal=TERM "$CPUSTAT" --listen="[::1]:$PORT" \
		    -c page-faults 0.2 >"$OUT" 2>"$ERR" &
		BG_PID=$!
		wait_until 10 eval 'curl -s -o /dev/null --max-time 5 "http://[::1]:$PORT/metrics" || ! kill -0 $BG_PID 2>/dev/null'
		kill -0 "$BG_PID" 2>/dev/null && break
		wait "$BG_PID" || true
	done
	expect_match "$(curl -s --max-time 5 "http://[::1]:$PORT/metrics")" \
	    "cpustat_info[{]version=" "served over IPv6"
	kill -TERM "$BG_PID"
	bg_end "$OUT" "$ERR" 5
}

@test "--listen: the port in use, EADDRINUSE named, before counting: cpustat 1, cputrack 125 (1 with -p), the command never run" {
	machine_lock
	hold_port
	local msg="--listen '127.0.0.1:$PORT': cannot listen on 127.0.0.1:$PORT: address in use (EADDRINUSE): another program listens on that port"
	echo kept >"$BATS_TEST_TMPDIR/o"
	run --separate-stderr timeout 10 "$CPUSTAT" --listen=127.0.0.1:$PORT \
	    -o "$BATS_TEST_TMPDIR/o" -c page-faults 0.1 1
	expect_runtime_error "$msg"
	expect_eq "$(cat "$BATS_TEST_TMPDIR/o")" kept "the -o file, untouched"
	run --separate-stderr timeout 10 "$CPUTRACK" --listen=127.0.0.1:$PORT \
	    -c page-faults touch "$BATS_TEST_TMPDIR/ran"
	expect_status 125
	expect_eq "$output" "" "stdout"
	expect_eq "$stderr" "cputrack: $msg" "stderr"
	[ ! -e "$BATS_TEST_TMPDIR/ran" ] || fail_with "the command ran"
	run --separate-stderr timeout 10 "$CPUTRACK" --listen=127.0.0.1:$PORT \
	    -o "$BATS_TEST_TMPDIR/o" -c page-faults true
	expect_status 125
	expect_eq "$(cat "$BATS_TEST_TMPDIR/o")" kept "the -o file, untouched"
	run --separate-stderr timeout 10 "$CPUTRACK" --listen=127.0.0.1:$PORT \
	    -c page-faults -p "$HOLDER"
	expect_status 1
	expect_eq "$stderr" "cputrack: $msg" "stderr with -p"
}

@test "--listen: not this machine's address, a name that does not resolve (runtime errors)" {
	machine_lock
	run --separate-stderr timeout 10 "$CPUSTAT" --listen=192.0.2.1:9464 -c page-faults 0.1 1
	expect_runtime_error "--listen '192.0.2.1:9464': cannot listen on 192.0.2.1:9464: cannot assign the address (EADDRNOTAVAIL): it is not one of this machine's"
	run --separate-stderr timeout 30 "$CPUSTAT" --listen=no-such-host.invalid:9464 -c page-faults 0.1 1
	expect_status 1
	expect_match "$stderr" "^cpustat: --listen 'no-such-host.invalid:9464': cannot resolve 'no-such-host.invalid': " "stderr"
	run --separate-stderr timeout 30 "$CPUTRACK" --listen=no-such-host.invalid:9464 -c page-faults true
	expect_status 125
	expect_match "$stderr" "^cputrack: --listen 'no-such-host.invalid:9464': cannot resolve " "stderr"
}

@test "--listen: a malformed argument is a usage error (status 2) of both tools" {
	local a
	declare -A why=(
		[127.0.0.1]="no port: give ADDR:PORT (127.0.0.1:9464, [::1]:9464)"
		[127.0.0.1:]="no port after ':' (127.0.0.1:9464, [::1]:9464)"
		[:9464]="no address before ':' (127.0.0.1 listens on loopback only, 0.0.0.0 everywhere)"
		[127.0.0.1:0]="port 0 out of range: 1 to 65535"
		[127.0.0.1:65536]="port 65536 out of range: 1 to 65535"
		[127.0.0.1:http]="port 'http' is not a number"
		[::1:9464]="an IPv6 address goes in brackets ([::1]:9464)"
		[[::1]]="no ':PORT' after ']' (127.0.0.1:9464, [::1]:9464)"
	)
	for a in "${!why[@]}"; do
		run --separate-stderr "$CPUSTAT" --listen="$a" -c page-faults 0.1 1
		expect_usage_error "invalid --listen '$a': ${why[$a]}"
		run --separate-stderr "$CPUTRACK" --listen="$a" -c page-faults true
		expect_status 2
		expect_eq "${stderr_lines[0]}" "cputrack: invalid --listen '$a': ${why[$a]}" "cputrack's message"
	done
	run --separate-stderr "$CPUSTAT" --listen
	expect_usage_error "option '--listen' needs an argument"
}
