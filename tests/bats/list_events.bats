#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# list_events.bats - --list-events (the catalogue: names, kinds, test-open
# marks, patterns, exit statuses) and the -h capabilities listing (the
# structure of illumos' listing, its wrapping, and that what it names can
# be counted) of both tools.

setup() {
	load helper
	machine_lock
	KINDS=(hardware cache software generic classic native pmu tracepoint)
}

teardown() {
	machine_unlock
	user_cleanup
}

# le_line VAR NAME KIND AVAIL DESC: the line --list-events prints.
le_line() {
	local -n _l=$1
	printf -v _l '%-40s %-10s %-4s %s' "$2" "$3" "$4" "$5"
}

# le_find NAME: the line of NAME in $output (empty when absent).
le_find() {
	local l
	for l in "${lines[@]}"; do
		[ "${l%% *}" = "$1" ] && { echo "$l"; return 0; }
	done
	return 1
}

# le_expect NAME KIND AVAIL [DESC]: $output has NAME of KIND marked AVAIL
# (and that description, when given).
le_expect() {
	local got f
	got=$(le_find "$1") || fail_with "$1 is not listed" || return 1
	read -r -a f <<<"$got"
	expect_eq "${f[1]}" "$2" "kind of $1" || return 1
	expect_eq "${f[2]}" "$3" "availability of $1" || return 1
	if [ $# -ge 4 ]; then
		local want
		le_line want "$1" "$2" "$3" "$4"
		expect_eq "$got" "$want" "the line of $1"
	fi
}

# kind_rank KIND: the position of KIND in the documented order.
kind_rank() {
	local i
	for i in "${!KINDS[@]}"; do
		[ "${KINDS[i]}" = "$1" ] && { echo "$i"; return 0; }
	done
	echo -1
}

# caps_part: the capabilities listing of $output (after the usage text).
caps_part() {
	sed -n '/^\tCPU performance counter interface: /,$p' <<<"$output"
}

# ---- --list-events: search ------------------------------------------------

# all_taken PMU WHY NAME...: under LIBPFM_FORCE_PMU=PMU, -c takes each NAME
# (no usage error: it may still fail for want of a hardware PMU); a NAME
# refused fails the test with "PMU: NAME WHY".
all_taken() {
	local pmu=$1 why=$2 name
	shift 2
	for name; do
		LIBPFM_FORCE_PMU=$pmu run --separate-stderr \
		    "$CPUTRACK" -T 0 -c "$name" true
		[ "$status" -ne 2 ] || fail_with "$pmu: $name $why" || return 1
	done
}

@test "--list-events getpid: the getpid tracepoints, available (both tools)" {
	requires root tracepoint:syscalls:sys_enter_getpid
	local tool
	for tool in "$CPUSTAT" "$CPUTRACK"; do
		run --separate-stderr "$tool" --list-events=getpid
		expect_status 0
		expect_eq "$stderr" "" "stderr"
		le_expect syscalls:sys_enter_getpid tracepoint yes \
		    "fields: __syscall_nr"
		le_expect syscalls:sys_exit_getpid tracepoint yes \
		    "fields: __syscall_nr ret"
		local l
		for l in "${lines[@]}"; do
			[[ ${l%% *} == *[gG][eE][tT][pP][iI][dD]* ]] ||
			    fail_with "'${l%% *}' does not contain getpid"
		done
	done
}

@test "--list-events task-clock: software, available; exactly one line" {
	requires root
	run --separate-stderr "$CPUSTAT" --list-events=task-clock
	expect_status 0
	expect_eq "${#lines[@]}" 1 "lines"
	le_expect task-clock software yes "time the task ran, in ns"
	run --separate-stderr "$CPUTRACK" --list-events=task-clock
	expect_status 0
	le_expect task-clock software yes "time the task ran, in ns"
}

@test "without a hardware PMU: cycles, cache names, PAPI_tot_cyc, EC_ref are listed, not available" {
	requires no_hw_pmu
	run --separate-stderr "$CPUSTAT" --list-events=cycles
	expect_status 0
	le_expect cycles hardware no "CPU cycles"
	le_expect ref-cycles hardware no
	run --separate-stderr "$CPUTRACK" --list-events=L1-dcache-load-misses
	expect_status 0
	le_expect L1-dcache-load-misses cache no \
	    "level 1 data cache load misses"
	run --separate-stderr "$CPUSTAT" --list-events=PAPI_tot_cyc
	expect_status 0
	expect_eq "${#lines[@]}" 1 "lines"
	le_expect PAPI_tot_cyc generic no
	expect_match "${lines[0]}" ' total cycles \(cycles\)$' "description"
	run --separate-stderr "$CPUSTAT" --list-events='EC_*'
	expect_status 0
	le_expect EC_ref classic no
	le_expect EC_hit classic no
	expect_match "$(le_find EC_hit)" '\(cache-references - cache-misses\)$' \
	    "EC_hit is the difference of two counters"
}

@test "a pattern that matches nothing: exit 1, a message, empty stdout" {
	run --separate-stderr "$CPUSTAT" --list-events=no-such-event-xyzzy
	expect_status 1
	expect_eq "$output" "" "stdout"
	expect_eq "$stderr" "cpustat: no event name matches 'no-such-event-xyzzy'" \
	    "stderr"
	run --separate-stderr "$CPUTRACK" --list-events 'zz*qq'
	expect_status 1
	expect_eq "$output" "" "stdout"
	expect_eq "$stderr" "cputrack: no event name matches 'zz*qq'" "stderr"
}

@test "patterns: substring in any case, shell patterns for the whole name, operand or =" {
	requires root tracepoint:sched:sched_switch
	run --separate-stderr "$CPUSTAT" --list-events=TASK-CLOCK
	expect_status 0
	le_expect task-clock software yes
	run --separate-stderr "$CPUSTAT" --list-events=papi_TOT_cyc
	expect_status 0
	expect_eq "${lines[0]%% *}" PAPI_tot_cyc "any case"
	# A shell pattern matches the whole name: 'sched_switch' alone does not.
	run --separate-stderr "$CPUSTAT" --list-events='sched_switch*'
	expect_status 1
	run --separate-stderr "$CPUSTAT" --list-events='SCHED:SCHED_SWI*'
	expect_status 0
	expect_eq "${#lines[@]}" 1 "lines"
	le_expect sched:sched_switch tracepoint yes
	run --separate-stderr "$CPUSTAT" --list-events='cpu-c?ock'
	expect_status 0
	expect_eq "${lines[*]%% *}" cpu-clock "? matches one character"
	run --separate-stderr "$CPUSTAT" --list-events='[ct]*-clock'
	expect_status 0
	expect_eq "$(printf '%s\n' "${lines[@]}" | awk '{ print $1 }' |
	    tr '\n' ' ')" "cpu-clock task-clock " "a bracket expression"
	# The pattern as the only operand is the same as --list-events=.
	local eq=$output
	run --separate-stderr "$CPUSTAT" --list-events '[ct]*-clock'
	expect_status 0
	expect_eq "$output" "$eq" "operand and = give the same list"
}

@test "--list-events: a second operand, or an operand after =, is a usage error" {
	run --separate-stderr "$CPUSTAT" --list-events a b
	expect_usage_error "--list-events: one pattern at most (from 'b' on)"
	run --separate-stderr "$CPUTRACK" --list-events=a b
	expect_status 2
	expect_eq "$output" "" "stdout"
	expect_eq "${stderr_lines[0]}" \
	    "cputrack: --list-events=a: unexpected operand 'b'" "message"
}

# ---- --list-events: the whole listing -------------------------------------

@test "the whole listing: documented columns, kinds in order, marks, no duplicates" {
	requires root
	run --separate-stderr "$CPUSTAT" --list-events
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	local l want rank last=0 n=0 name kind avail desc
	local -A seen=() perkind=()
	for l in "${lines[@]}"; do
		n=$((n + 1))
		[[ $l =~ ^([^ ]+)\ +([a-z]+)\ +(yes|no|priv)\ +(.+)$ ]] ||
		    fail_with "line $n has not the documented fields: '$l'" ||
		    return 1
		name=${BASH_REMATCH[1]} kind=${BASH_REMATCH[2]}
		avail=${BASH_REMATCH[3]} desc=${BASH_REMATCH[4]}
		le_line want "$name" "$kind" "$avail" "$desc"
		[ "$l" = "$want" ] ||
		    fail_with "line $n is not in the fixed columns:" \
		    "  got: '$l'" " want: '$want'" || return 1
		rank=$(kind_rank "$kind")
		[ "$rank" -ge 0 ] ||
		    fail_with "line $n: unknown kind '$kind'" || return 1
		[ "$rank" -ge "$last" ] ||
		    fail_with "line $n: kind $kind after ${KINDS[last]}" ||
		    return 1
		last=$rank
		[ -z "${seen[$name]-}" ] ||
		    fail_with "line $n: $name listed twice" || return 1
		seen[$name]=1
		perkind[$kind]=$((${perkind[$kind]:-0} + 1))
	done
	expect_range "${perkind[hardware]:-0}" 10 100 "hardware names"
	expect_range "${perkind[cache]:-0}" 42 42 "cache names"
	expect_range "${perkind[software]:-0}" 10 100 "software names"
	expect_range "${perkind[generic]:-0}" 22 200 "generic names"
	expect_range "${perkind[classic]:-0}" 5 200 "classic names"
	if tracefs_dir >/dev/null; then
		expect_range "${perkind[tracepoint]:-0}" 1 100000 "tracepoints"
	fi
	if [ -e /sys/bus/event_source/devices/msr/events/tsc ]; then
		le_expect msr/tsc/ pmu yes
	fi
	# Tracepoints are sorted by system, then by event.
	local diffs
	diffs=$("$CPUSTAT" --list-events |
	    awk '$2 == "tracepoint" { print $1 }' > "$BATS_TEST_TMPDIR/tp"
	    LC_ALL=C sort -t: -k1,1 -k2 "$BATS_TEST_TMPDIR/tp" |
	    diff "$BATS_TEST_TMPDIR/tp" - | head -20)
	expect_eq "$diffs" "" "tracepoints out of order (diff)"
}

@test "both tools list the same names and kinds; twice the same" {
	requires root
	local a b
	a=$("$CPUSTAT" --list-events | awk '{ print $1, $2 }')
	b=$("$CPUTRACK" --list-events | awk '{ print $1, $2 }')
	expect_eq "$b" "$a" "cputrack's names and kinds"
	b=$("$CPUSTAT" --list-events | awk '{ print $1, $2 }')
	expect_eq "$b" "$a" "a second run"
}

@test "the marks tell the truth: yes counts, no is refused (cputrack)" {
	requires root
	local name kind avail rest
	local -a yes=() no=()
	while read -r name kind avail rest; do
		case $kind/$avail in
		software/yes | pmu/yes) yes+=("$name") ;;
		hardware/no | cache/no | generic/no | classic/no | native/no)
			[ "${#no[@]}" -lt 12 ] && no+=("$name") ;;
		esac
	done < <("$CPUTRACK" --list-events)
	expect_range "${#yes[@]}" 10 1000 "names marked yes"
	for name in "${yes[@]}"; do
		run --separate-stderr "$CPUTRACK" -T 0 -c "$name" true
		[ "$status" -eq 0 ] ||
		    fail_with "$name is marked yes but cannot be counted" ||
		    return 1
	done
	for name in "${no[@]}"; do
		run --separate-stderr "$CPUTRACK" -T 0 -c "$name" true
		[ "$status" -ne 0 ] ||
		    fail_with "$name is marked no but was counted" || return 1
	done
}

@test "a tracepoint marked yes counts exactly" {
	requires root tracepoint:syscalls:sys_enter_getpid
	run --separate-stderr "$CPUTRACK" --list-events=sys_enter_getpid
	le_expect syscalls:sys_enter_getpid tracepoint yes
	local wl
	wl=$(workload getpid_n) || return 1
	run --separate-stderr "$CPUTRACK" -T 0 -c syscalls:sys_enter_getpid \
	    "$wl" 321
	expect_status 0
	expect_match "${lines[-1]}" ' exit +321 $' "the exit line"
}

@test "LIBPFM_FORCE_PMU=skl: Skylake's native names, not available here" {
	requires no_hw_pmu
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$CPUSTAT" \
	    --list-events=INST_RETIRED
	expect_status 0
	le_expect INST_RETIRED native no
	le_expect MEM_INST_RETIRED native no
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$CPUTRACK" \
	    --list-events='UNHALTED_*'
	expect_status 0
	le_expect UNHALTED_CORE_CYCLES native no
	# Without the forced table the Intel names are not native here
	# (unless this processor happens to be one).
	run bash -c "LIBPFM_FORCE_PMU=skl '$CPUSTAT' --list-events |
	    awk '\$2 == \"native\"' | wc -l"
	expect_range "$output" 50 1000 "native names of skl"
}

@test "LIBPFM_FORCE_PMU=skl: each native event's unit masks, as EVENT:UMASK, each a name -c takes" {
	requires no_hw_pmu
	local name
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$CPUSTAT" \
	    --list-events='INST_RETIRED:*'
	expect_status 0
	expect_eq "$(awk '{ print $1 }' <<<"$output" | tr '\n' ' ')" \
	    "INST_RETIRED:ANY_P INST_RETIRED:ALL INST_RETIRED:TOTAL_CYCLES INST_RETIRED:PREC_DIST " \
	    "the unit masks of INST_RETIRED, in libpfm4's order"
	le_expect INST_RETIRED:ANY_P native no
	expect_match "$(le_find INST_RETIRED:ANY_P)" '\(the default\)$' \
	    "the default unit mask is marked"
	# every one listed is a name: refused for the machine, not unknown
	for name in $(awk '{ print $1 }' <<<"$output"); do
		LIBPFM_FORCE_PMU=skl run --separate-stderr "$CPUSTAT" \
		    -c "$name" 1 1
		expect_status 1
		expect_match "$stderr" "cannot count '$name': no hardware PMU"
	done
}

@test "a native name -c refuses for want of a unit mask says so; every other one is taken" {
	local pmu name kind avail desc mark=" (needs a unit mask: one of the EVENT:UMASK lines below)"
	for pmu in skl amd64_fam19h_zen3; do
		run bash -c "LIBPFM_FORCE_PMU=$pmu '$CPUSTAT' --list-events |
		    awk '\$2 == \"native\"'"
		expect_status 0
		local -a marked=() plain=()
		while read -r name kind avail desc; do
			[ "$kind" = native ] && [[ $name != *:* ]] || continue
			if [[ $desc == *"$mark" ]]; then
				marked+=("$name")
			else
				plain+=("$name")
			fi
		done <<<"$output"
		expect_range "${#marked[@]}" 5 200 "$pmu: names marked" ||
		    return 1
		expect_range "${#plain[@]}" 20 1000 "$pmu: names not marked" ||
		    return 1
		# the unit masks follow the marked name
		expect_match "$output" $'\n'"${marked[0]}:[A-Z0-9_]+ " \
		    "$pmu: ${marked[0]}'s EVENT:UMASK lines" || return 1
		for name in "${marked[@]}"; do
			LIBPFM_FORCE_PMU=$pmu run --separate-stderr \
			    "$CPUSTAT" -c "$name" 1 1
			expect_status 2 || return 1
			expect_match "${stderr_lines[0]-}" \
			    "^cpustat: -c '$name': event '$name': a unit mask is required" \
			    "$pmu: $name" || return 1
		done
		all_taken "$pmu" "is not marked but refused" "${plain[@]}" ||
		    return 1
	done
}

@test "an unprivileged user: marks per tool, tracepoints left out with a message" {
	requires unpriv_user paranoid2
	make_user
	run --separate-stderr as_user_cmd "$TEST_CPUTRACK" --list-events=clock
	expect_status 0
	le_expect task-clock software yes
	le_expect cpu-clock software yes
	run --separate-stderr as_user_cmd "$TEST_CPUTRACK" \
	    --list-events=context-switches
	expect_status 0
	le_expect context-switches software priv
	run --separate-stderr as_user --list-events=task-clock
	expect_status 0
	le_expect task-clock software priv
	if tracefs_dir >/dev/null && ! as_user_can_read "$(tracefs_dir)/events"
	then
		run --separate-stderr as_user --list-events=sched_switch
		expect_status 1
		expect_eq "$output" "" "stdout"
		expect_eq "${stderr_lines[0]}" "cpustat: tracepoints not listed: $(tracefs_dir)/events: Permission denied (tracepoints need root)" \
		    "the message"
		expect_eq "${stderr_lines[1]}" \
		    "cpustat: no event name matches 'sched_switch'" "then"
	fi
}

# ---- -h -------------------------------------------------------------------

# check_caps: $output's capabilities listing has the structure of illumos'
# (spec section 6) and wraps as it does.  Sets GENERIC, PLATFORM, ATTRS
# (the names of each list) and NPIC.
check_caps() {
	local -a c
	mapfile -t c < <(caps_part)
	local i=0 what
	expect_match "${c[0]}" $'^\tCPU performance counter interface: .+$' \
	    "line 1" || return 1
	expect_eq "${c[1]}" "" "line 2" || return 1
	expect_eq "${c[2]}" $'\tevent specification syntax:' "line 3" ||
	    return 1
	expect_eq "${c[3]}" $'\t[picn=]<eventn>[,attr[n][=<val>]][,[picn=]<eventn>[,attr[n][=<val>]],...]' \
	    "line 4" || return 1
	expect_eq "${c[4]}" "" "line 5" || return 1
	expect_eq "${c[5]}" $'\tGeneric Events:' "line 6" || return 1
	expect_eq "${c[6]}" "" "line 7" || return 1
	i=7
	# block VAR MARGIN: an event or attribute list from line i on.
	block() {
		local -n _names=$1
		local margin=$2 line head pad prev=
		_names=()
		line=${c[i]}
		if [ "$margin" = 17 ]; then
			[[ $line =~ ^$'\t'event\[0-([0-9]+)\]:\ (.*)$ ]] ||
			    fail_with "line $((i + 1)) is not an event list:" \
			    "'$line'" || return 1
			NPIC=$((BASH_REMATCH[1] + 1))
			# the names start after the title as printed
			head=$((8 + ${#line} - 1 - ${#BASH_REMATCH[2]}))
		else
			[[ $line =~ ^$'\t'attributes:\ (.*)$ ]] ||
			    fail_with "line $((i + 1)) is not the attributes:" \
			    "'$line'" || return 1
			head=$((8 + ${#line} - 1 - ${#BASH_REMATCH[1]}))
		fi
		printf -v pad '%*s' "$margin" ""
		while :; do
			local body w col
			if [ -z "$prev" ]; then
				body=${line#*: }
				col=$head
			else
				[[ $line == "$pad"[^\ ]* ]] ||
				    fail_with "line $((i + 1)) does not start at" \
				    "column $margin: '$line'" || return 1
				body=${line#"$pad"}
				col=$margin
				# Greedy: its first name did not fit before.
				w=${body%% *}
				[ $((prev + ${#w} + 1)) -gt 76 ] ||
				    fail_with "line $((i + 1)): '$w' fitted on" \
				    "the line before" || return 1
			fi
			[ -z "$body" ] || [[ $body == *" " ]] ||
			    fail_with "line $((i + 1)): a name not followed" \
			    "by a space" || return 1
			col=$((col + ${#body}))
			[ "$col" -le 76 ] ||
			    fail_with "line $((i + 1)) passes column 76" ||
			    return 1
			read -r -a w <<<"$body"
			_names+=("${w[@]}")
			prev=$col
			i=$((i + 1))
			line=${c[i]-}
			[[ $line == " "* ]] || break
		done
	}
	block GENERIC 17 || return 1
	for what in "" $'\tSee generic_events(3) for descriptions of these events' \
	    "" $'\tPlatform Specific Events:' ""; do
		expect_eq "${c[i]-}" "$what" "line $((i + 1))" || return 1
		i=$((i + 1))
	done
	block PLATFORM 17 || return 1
	expect_eq "${c[i]-}" "" "line $((i + 1))" || return 1
	i=$((i + 1))
	block ATTRS 20 || return 1
	expect_eq "${ATTRS[*]: -2}" "nouser sys" "the last attributes" ||
	    return 1
	expect_eq "${c[i]-}" "" "line $((i + 1))" || return 1
	i=$((i + 1))
	# The reference, then our paragraph: tab-started, wrapped at 76.
	local para=0 l
	for ((; i < ${#c[@]}; i++)); do
		l=${c[i]}
		if [ -z "$l" ]; then
			para=$((para + 1))
			continue
		fi
		[[ $l == $'\t'[^\ $'\t']* ]] ||
		    fail_with "line $((i + 1)) does not start with a tab" \
		    "and a word: '$l'" || return 1
		[ $((8 + ${#l} - 1)) -le 76 ] ||
		    fail_with "line $((i + 1)) passes column 76: '$l'" ||
		    return 1
	done
	expect_eq "$para" 1 "paragraphs after the attributes, less one" ||
	    return 1
	expect_match "${c[-1]}${c[-2]}${c[-3]}" "--list-events" \
	    "the last paragraph names --list-events"
}

@test "-h: the structure of illumos' listing, wrapped at column 76" {
	run --separate-stderr "$CPUSTAT" -h
	expect_status 0
	expect_eq "$stderr" "" "stderr"
	check_caps
	local lastline
	lastline=$(caps_part | tail -n 1)
	expect_match "$lastline" '^	.* $' "the last line ends with a space"
	local cs=$(caps_part)
	run --separate-stderr "$CPUTRACK" -h
	expect_status 0
	expect_eq "$(caps_part)" "$cs" "cputrack's listing"
}

@test "-h without a hardware PMU: no generic names; the platform names are the software ones" {
	requires no_hw_pmu
	run --separate-stderr "$CPUSTAT" -h
	expect_status 0
	check_caps
	expect_eq "${#GENERIC[@]}" 0 "generic names"
	expect_eq "${PLATFORM[*]}" \
	    "$("$CPUSTAT" --list-events | awk '$2 == "software" { printf "%s ", $1 }' | sed 's/ $//')" \
	    "platform names"
	expect_match "$output" $'\tCPU performance counter interface: software events only' \
	    "the interface"
}

@test "-h under LIBPFM_FORCE_PMU=skl: every generic name shown has an equivalent" {
	LIBPFM_FORCE_PMU=skl run --separate-stderr "$CPUSTAT" -h
	expect_status 0
	check_caps
	expect_range "${#GENERIC[@]}" 5 200 "generic names shown"
	local g=" ${GENERIC[*]} " p=" ${PLATFORM[*]} "
	[[ $g == *" PAPI_tot_cyc "* ]] ||
	    fail_with "PAPI_tot_cyc is not among the generic events"
	[[ $g == *" PAPI_tot_ins "* ]] ||
	    fail_with "PAPI_tot_ins is not among the generic events"
	[[ $p == *" INST_RETIRED "* ]] ||
	    fail_with "INST_RETIRED is not among the platform events"
	[[ $p == *" cycles "* ]] ||
	    fail_with "cycles is not among the platform events"
	[[ $p == *" EC_ref "* ]] ||
	    fail_with "EC_ref is not among the platform events"
	local name kind avail desc
	local -A listed=()
	while read -r name kind avail desc; do
		[ "$kind" = generic ] || continue
		listed[$name]=$desc
	done < <(LIBPFM_FORCE_PMU=skl "$CPUSTAT" --list-events=PAPI_)
	for name in "${GENERIC[@]}"; do
		[ -n "${listed[$name]-}" ] ||
		    fail_with "$name is not listed as generic" || return 1
		[[ ${listed[$name]} != *"no equivalent"* ]] ||
		    fail_with "$name is shown but has no equivalent" ||
		    return 1
	done
	# And every generic name with an equivalent is shown.
	for name in "${!listed[@]}"; do
		[[ ${listed[$name]} == *"no equivalent"* ]] && continue
		[[ $g == *" $name "* ]] ||
		    fail_with "$name has an equivalent but is not shown" ||
		    return 1
	done
}

@test "-h under skl and zen3: only names -c takes, lists within column 76" {
	local pmu name
	for pmu in skl amd64_fam19h_zen3; do
		LIBPFM_FORCE_PMU=$pmu run --separate-stderr "$CPUSTAT" -h
		expect_status 0
		check_caps || return 1
		expect_eq "$NPIC" "$(LIBPFM_FORCE_PMU=$pmu "$CPUSTAT" -h |
		    sed -n 's/^\tevent\[0-\([0-9]*\)\]: .*/\1/p' | head -1 |
		    awk '{ print $1 + 1 }')" "$pmu: counters" || return 1
		# Only the interface line and illumos' syntax line may be
		# longer: every list line fits.
		expect_eq "$(caps_part | expand | awk 'length > 76' |
		    grep -v -e '^        CPU performance counter interface: ' \
		    -e '^        \[picn=\]<eventn>')" "" \
		    "$pmu: lines past column 76" || return 1
		all_taken "$pmu" "is listed by -h but refused" \
		    "${PLATFORM[@]}" || return 1
	done
	run --separate-stderr "$CPUSTAT" -h
	expect_eq "$(caps_part | expand | awk 'length > 76' |
	    grep -v -e '^        CPU performance counter interface: ' \
	    -e '^        \[picn=\]<eventn>')" "" "here: lines past column 76"
}

@test "LIBPFM_FORCE_PMU set but empty: libpfm4's first table, said so" {
	LIBPFM_FORCE_PMU= run --separate-stderr "$CPUSTAT" -h
	expect_status 0
	check_caps || return 1
	expect_match "$output" $'\tCPU performance counter interface: [^\n]* \\(libpfm4 table [a-z0-9_]+, chosen by LIBPFM_FORCE_PMU, set but empty: libpfm4\'s first table\\)\n' \
	    "the interface line" || return 1
	# the names -h and --list-events show are that table's
	local table n
	table=$(sed -n 's/.*(libpfm4 table \([a-z0-9_]*\), chosen.*/\1/p' \
	    <<<"$output")
	n=$(LIBPFM_FORCE_PMU= "$CPUSTAT" --list-events |
	    awk '$2 == "native"' | wc -l)
	expect_range "$n" 10 100000 "native names of $table"
}

@test "--help: the forms of event names in the order they are tried" {
	local tool want got
	want="pmu/term=val,.../ system:event generic Solaris libpfm4 raw"
	for tool in "$CPUSTAT" "$CPUTRACK"; do
		run --separate-stderr "$tool" --help
		expect_status 0
		expect_match "$output" $'\n\t[a-z]+ --list-events\\[=pattern\\]\n' \
		    "the --list-events synopsis"
		expect_match "$output" $'\n\t--list-events\\[=pattern\\]\n' \
		    "--list-events in the option list"
		got=$(sed -n '/^\tEvent names, tried in this order/,/^$/p' \
		    <<<"$output" | awk 'NR > 1 && $1 != "and" &&
		    $1 !~ /^skl::/ && NF { print $1 }' | tr '\n' ' ')
		expect_eq "$got" "$want " "the forms, in order"
	done
}
