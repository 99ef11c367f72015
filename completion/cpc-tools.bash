# SPDX-License-Identifier: BSD-2-Clause
# cpc-tools.bash - bash completion for cpustat(1) and cputrack(1).
#
# Installed as bash-completion/completions/cpustat and .../cputrack (the
# file is looked up by the command's name), or sourced by hand.  Needs
# nothing of the bash-completion package.
#
# The options come from the tool's own --help, so they follow the tool:
# a line "<TAB>-x arg<TAB>..." is a short option and its argument, and
# every --long[=ARG] or --long[=ARG] in the text a long one.  ARG says what
# to offer: events (or a --list-events pattern) the event names of
# `TOOL --list-events`, metrics the built-in metrics (and after rate: the
# event names), a file the file names, a pid the running pids,
# cgroup (or cgroups) the cgroups of the cgroup v2 hierarchy, addr:port
# (--listen) the loopback examples of the manual, a|b|c those
# words; anything else nothing.  After the options, cputrack
# completes its command like any command.

# _cpc_help TOOL: fill _cpc_short (option -> ARG) and _cpc_long (--name or
# --name= -> ARG, "" for none) from TOOL --help.
_cpc_help() {
	local line re_short re_long tok
	_cpc_short=() _cpc_long=()
	re_short=$'^\t-([A-Za-z0-9])( ([^[:space:]]+))?\t'
	re_long='--[a-z][a-z-]*(\[?=[^][:space:]]+\]?)?'
	while IFS= read -r line; do
		if [[ $line =~ $re_short ]]; then
			_cpc_short[-${BASH_REMATCH[1]}]=${BASH_REMATCH[3]}
		fi
		while [[ $line =~ $re_long ]]; do
			tok=${BASH_REMATCH[0]}
			line=${line#*"$tok"}
			case $tok in
			*'[='*)	# --name[=ARG]: both forms
				_cpc_long[${tok%%\[*}]=
				tok=${tok%]}
				_cpc_long[${tok%%\[*}=]=${tok#*\[=} ;;
			*=*)	_cpc_long[${tok%%=*}=]=${tok#*=} ;;
			*)	_cpc_long[$tok]= ;;
			esac
		done
	done < <(_cpc_run "$1" --help)
}

# _cpc_run TOOL ARG...: TOOL's output, never waiting long for it.
_cpc_run() {
	if command -v timeout >/dev/null 2>&1; then
		timeout 5 "$@" 2>/dev/null
	else
		"$@" 2>/dev/null
	fi
}

# _cpc_values KIND PREFIX CUR: print PREFIX followed by each value of KIND
# (an ARG of the help) that starts with CUR.
_cpc_values() {
	local kind=$1 pre=$2 cur=$3 name w spec
	case ${kind,,} in
	events|pattern)
		# The -c grammar: complete the name after the last , or =
		# ([picN=]event[,attr[=val]]...).
		spec=${cur%"${cur##*[,=]}"}
		cur=${cur##*[,=]}
		while read -r name _; do
			[[ $name == "$cur"* ]] && printf '%s\n' "$pre$spec$name"
		done < <(_cpc_run "$_cpc_tool" --list-events="$cur*")
		;;
	metrics)
		# -M: a built-in after the last comma; after rate:, an event
		spec=${cur%"${cur##*,}"}
		cur=${cur##*,}
		if [[ $cur == rate:* ]]; then
			while read -r name _; do
				[[ rate:$name == "$cur"* ]] &&
				    printf '%s\n' "$pre${spec}rate:$name"
			done < <(_cpc_run "$_cpc_tool" \
			    --list-events="${cur#rate:}*")
			return
		fi
		for w in ipc cpi ghz branch-miss% cache-miss% ec-hit% rate:; do
			[[ $w == "$cur"* ]] && printf '%s\n' "$pre$spec$w"
		done
		;;
	file)
		compgen -f -- "$cur" | while IFS= read -r w; do
			printf '%s\n' "$pre$w"
		done
		;;
	pid)
		for w in /proc/[0-9]*; do
			w=${w#/proc/}
			[[ $w == "$cur"* ]] && printf '%s\n' "$pre$w"
		done
		;;
	cgroup*)
		# -G's comma list: the cgroups under the cgroup v2 hierarchy,
		# wherever it is mounted, a level at a time.
		spec=${cur%"${cur##*,}"}
		cur=${cur##*,}
		name=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") {
		    if ($(i + 1) == "cgroup2") { print $5; exit } break } }' \
		    /proc/self/mountinfo 2>/dev/null)
		[[ -n $name ]] || return 0
		for w in "$name/${cur#/}"*/; do
			[[ -d $w ]] || continue
			w=${w#"$name/"}
			[[ $cur == /* ]] && w=/$w
			printf '%s\n' "$pre$spec${w%/}"
		done
		;;
	addr:port)
		for w in 127.0.0.1:9464 '[::1]:9464'; do
			[[ $w == "$cur"* ]] && printf '%s\n' "$pre$w"
		done
		;;
	*'|'*)
		for w in ${kind//|/ }; do
			[[ $w == "$cur"* ]] && printf '%s\n' "$pre$w"
		done
		;;
	esac
}

# _cpc_tools: the completion function of both tools (COMP_WORDS,
# COMP_CWORD in, COMPREPLY out).
_cpc_tools() {
	local -A _cpc_short _cpc_long
	local _cpc_tool=${COMP_WORDS[0]} words=() at=() i w cur rl trim arg o
	local cmd=0
	COMPREPLY=()
	# bash splits at : and = (COMP_WORDBREAKS): glue those pieces back,
	# so that sched:sched_switch and --events=x are one word here.
	# at[j]: the index in COMP_WORDS where words[j] starts.
	for ((i = 0; i <= COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((i > 1)) && [[ $w == [:=] || ${COMP_WORDS[i-1]} == [:=] ]]
		then
			words[-1]+=$w
		else
			words+=("$w")
			at+=("$i")
		fi
	done
	cur=${words[-1]}
	# What readline replaces is the last piece alone: trim the rest.
	rl=${COMP_WORDS[COMP_CWORD]}
	if [[ $rl == [:=] ]]; then
		trim=$cur
	else
		trim=${cur%"$rl"}
	fi
	_cpc_help "$_cpc_tool"

	# Where the options end: cputrack's command (or after --).
	for ((i = 1; i < ${#words[@]}; i++)); do
		w=${words[i]}
		if [[ $w == -- ]]; then
			cmd=$((i + 1))
			break
		elif [[ $w == --*=* ]]; then
			continue
		elif [[ $w == --* ]]; then
			# --name VALUE, when --name must have one.
			[[ -n ${_cpc_long[$w=]+x} && -z ${_cpc_long[$w]+x} ]] &&
			    ((i++))
		elif [[ $w == -* ]]; then
			# A bundle (-nt) takes the argument of its last letter;
			# an argument attached (-cfoo) ends it.
			o=-${w:${#w}-1}
			if [[ ${#w} -eq 2 && -n ${_cpc_short[$o]-} ]]; then
				((i++))
			fi
		elif [[ ${_cpc_tool##*/} == cputrack* ]]; then
			cmd=$i
			break
		fi
	done
	if ((cmd > 0 && cmd < ${#words[@]})); then
		if ((cmd == ${#words[@]} - 1)); then
			mapfile -t COMPREPLY < <(compgen -c -- "$cur" |
			    LC_ALL=C sort -u)
		elif declare -F _command_offset >/dev/null; then
			_command_offset "${at[cmd]}"
		else
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
		return 0
	fi

	# The argument of the option before.
	w=${words[-2]-}
	if ((${#words[@]} > 2)) && [[ $w == -? && -n ${_cpc_short[$w]-} ]]
	then
		arg=${_cpc_short[$w]}
		mapfile -t COMPREPLY < <(_cpc_values "$arg" "" "$cur")
	elif ((${#words[@]} > 2)) && [[ $w == --* &&
	    -n ${_cpc_long[$w=]+x} && -z ${_cpc_long[$w]+x} ]]; then
		arg=${_cpc_long[$w=]}
		mapfile -t COMPREPLY < <(_cpc_values "$arg" "" "$cur")
	elif [[ $cur == --*=* && -n ${_cpc_long[${cur%%=*}=]+x} ]]; then
		arg=${_cpc_long[${cur%%=*}=]}
		mapfile -t COMPREPLY < <(_cpc_values "$arg" "${cur%%=*}=" \
		    "${cur#*=}")
	elif [[ $cur == -* ]]; then
		for o in "${!_cpc_short[@]}" "${!_cpc_long[@]}"; do
			[[ $o == "$cur"* ]] && COMPREPLY+=("$o")
		done
	fi
	((${#COMPREPLY[@]})) || return 0
	mapfile -t COMPREPLY < <(printf '%s\n' "${COMPREPLY[@]}" |
	    LC_ALL=C sort -u)
	if [[ -n $trim ]]; then
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=${COMPREPLY[i]#"$trim"}
		done
	fi
	# An option that wants its value (--events=) or a -c spec going on.
	# (compopt fails outside a completion, as in a test: no matter.)
	if ((${#COMPREPLY[@]} == 1)) && [[ ${COMPREPLY[0]} == *[=:,] ]]; then
		compopt -o nospace 2>/dev/null || :
	fi
	return 0
}

complete -F _cpc_tools cpustat cputrack
