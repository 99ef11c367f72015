# SPDX-License-Identifier: BSD-2-Clause
# cputrack_lines.bash - the check of cputrack's text lines, shared by the
# cputrack suites (load cputrack_lines).

# ct_check [-f] [-t] FILE: every line of FILE (after the title) must be
# exactly what cputrack's formats print: "%7.3f ", "%7d " pid with -f,
# "%7d %10s " lwp and kind, "%9s " tick with -t, "%9u " per value, and
# " # note" (or a fork/exec line: blank values, "# note").
ct_check() {
	local pid=0 tick=0 line want i n t
	local -a f
	while [ $# -gt 1 ]; do
		case $1 in -f) pid=1 ;; -t) tick=1 ;; esac
		shift
	done
	while IFS= read -r line; do
		case $line in *'  time '*|'   time '*) continue ;; esac
		read -r -a f <<<"${line%% # *}"
		printf -v want '%7.3f ' "${f[0]}"
		i=1
		if [ $pid = 1 ]; then
			printf -v t '%7d ' "${f[1]}"
			want+=$t
			i=2
		fi
		printf -v t '%7d %10s ' "${f[i]}" "${f[i+1]}"
		want+=$t
		i=$((i + 2))
		n=${#f[@]}
		if [ $i -eq $n ] && [[ $line == *' # '* ]]; then
			# fork and exec-name lines: blank value fields
			[ $tick = 1 ] && want+=$(printf '%9s ' '')
			want+=$(printf '%9s %9s # ' '' '')
			want+=${line#* # }
		else
			for ((; i < n; i++)); do
				printf -v t '%9u ' "${f[i]}"
				want+=$t
			done
			[[ $line != *' # '* ]] || want+=" # ${line#* # }"
		fi
		[ "$line" = "$want" ] ||
		    fail_with "line not in cputrack's format:" \
		    "got  '$line'" "want '$want'" || return 1
	done <"$1"
}
