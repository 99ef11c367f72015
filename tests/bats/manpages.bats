#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# manpages.bats - the libcpc manual pages (man3/) cannot drift from the
# library: every exported symbol is named and declared in a page, every
# prototype of a SYNOPSIS is the header's, the pages are lint-clean, and
# the overflow example of cpc_bind_curlwp(3) compiles and runs.

load helper

ROOT=$(cd "$TESTS_DIR/.." && pwd)
MAN3=$ROOT/man3
MAPS=("$ROOT/libcpc/libcpc.map" "$ROOT/libcpc/pctx/libpctx.map")
HEADERS=("$ROOT/include/libcpc.h" "$ROOT/include/libpctx.h")

# exported: the global symbols of the version scripts, one a line.
exported() {
	awk '/global:/ { g = 1; sub(/.*global:/, "") }
	    /local:/ || /}/ { g = 0 }
	    g' "${MAPS[@]}" | tr -s ' \t;' '\n\n\n' | grep -E '^[a-z_][a-z0-9_]*$'
}

# mdoc_names SECTION PAGE...: "page name" for every .Nm, .Fn and .Fo
# in that section of the pages.
mdoc_names() {
	local sec=$1
	shift
	awk -v sec="$sec" '
	    FNR == 1 { in_sec = 0 }
	    /^\.Sh / { in_sec = (substr($0, 5) == sec); next }
	    in_sec && /^\.(Nm|Fn|Fo) [a-z_]/ {
		n = $2; sub(/[^a-z0-9_].*/, "", n)
		f = FILENAME; sub(/.*\//, "", f)
		print f, n
	    }' "$@"
}

# synopsis_protos PAGE...: "page|type name(args)" for every function of
# the SYNOPSIS sections, from .Ft with .Fn, or .Fo/.Fa/.Fc.
synopsis_protos() {
	awk '
	# args(s): the arguments of a macro line, quotes removed, "\t"-joined.
	function args(s,    out, a, i, c, q, n) {
		out = ""; a = ""; q = 0; n = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "\"") { q = !q; continue }
			if (c == " " && !q) {
				if (a != "") { out = out (n++ ? "\t" : "") a; a = "" }
				continue
			}
			a = a c
		}
		if (a != "") out = out (n++ ? "\t" : "") a
		return out
	}
	FNR == 1 { syn = 0 }
	/^\.Sh / { syn = ($0 == ".Sh SYNOPSIS"); next }
	!syn { next }
	/^\.Ft / { type = substr($0, 5); gsub(/"/, "", type); next }
	/^\.Fn / {
		split(args(substr($0, 5)), a, "\t")
		p = a[2]
		for (i = 3; i in a; i++) p = p ", " a[i]
		f = FILENAME; sub(/.*\//, "", f)
		print f "|" type " " a[1] "(" p ")"
		next
	}
	/^\.Fo / { fo = substr($0, 5); fa = ""; next }
	/^\.Fa / && fo != "" {
		# \: is a break point roff may break a long argument at.
		v = substr($0, 5); gsub(/"/, "", v); gsub(/\\:/, "", v)
		fa = fa (fa == "" ? "" : ", ") v
		next
	}
	/^\.Fc/ && fo != "" {
		f = FILENAME; sub(/.*\//, "", f)
		print f "|" type " " fo "(" fa ")"
		fo = ""
	}' "$@"
}

# norm: one C declaration a line, spacing made canonical.
norm() {
	tr -s ' \t' '  ' | sed -e 's/^ //' -e 's/ $//' \
	    -e 's/ *\([][*(),]\) */\1/g'
}

# header_protos: every declaration of the public headers, normalised.
header_protos() {
	cat "${HEADERS[@]}" |
	    sed -e '/^#/d' -e '/^extern "C"/d' -e '/^}$/d' |
	    awk '{ gsub(/\/\*[^*]*\*\//, "") } 1' |
	    awk 'BEGIN { c = 0 }
		{ line = $0
		  if (c) { if (index(line, "*/")) { sub(/.*\*\//, "", line); c = 0 } else next }
		  if (index(line, "/*")) { sub(/\/\*.*/, "", line); c = 1 }
		  printf "%s ", line }' |
	    tr ';' '\n' | sed 's/.*}//' | norm | grep '(' |
	    # The headers declare with libcpc's own names of the Solaris
	    # types (libcpc.h says why); the pages show the Solaris names.
	    sed -E 's/\bcpc_(uint_t|hrtime_t|processorid_t)\b/\1/g'
}

@test "manpages: every exported symbol is named and declared in a man3 page" {
	local sym missing=() names synopsis
	names=$(mdoc_names NAME "$MAN3"/*.3 | awk '{ print $2 }' | sort -u)
	synopsis=$(mdoc_names SYNOPSIS "$MAN3"/*.3 | awk '{ print $2 }' |
	    sort -u)
	[ "$(exported | wc -l)" -ge 45 ] ||
	    fail_with "only $(exported | wc -l) symbols read from ${MAPS[*]}"
	for sym in $(exported); do
		grep -qx "$sym" <<<"$names" && grep -qx "$sym" <<<"$synopsis" ||
		    missing+=("$sym")
	done
	[ ${#missing[@]} -eq 0 ] ||
	    fail_with "not in the NAME and SYNOPSIS of a man3 page:" \
	    "${missing[@]}"
}

@test "manpages: each SYNOPSIS function is in the page's NAME" {
	local page name bad=()
	while read -r page name; do
		mdoc_names NAME "$MAN3/$page" | grep -qx "$page $name" ||
		    bad+=("$page:$name")
	done < <(mdoc_names SYNOPSIS "$MAN3"/*.3)
	[ ${#bad[@]} -eq 0 ] ||
	    fail_with "in a SYNOPSIS but not in its page's NAME:" "${bad[@]}"
}

@test "manpages: every SYNOPSIS prototype is the header's declaration" {
	local decls line page proto n=0 bad=()
	decls=$(header_protos)
	grep -qxF 'cpc_t*cpc_open(int ver)' <<<"$decls" ||
	    fail_with "the header parser found no cpc_open: $decls" ||
	    return 1
	while IFS='|' read -r page proto; do
		n=$((n + 1))
		line=$(norm <<<"$proto")
		grep -qxF "$line" <<<"$decls" || bad+=("$page: $proto")
	done < <(synopsis_protos "$MAN3"/*.3)
	[ "$n" -ge 45 ] || fail_with "only $n prototypes in the pages" ||
	    return 1
	[ ${#bad[@]} -eq 0 ] ||
	    fail_with "prototypes that libcpc.h/libpctx.h do not declare:" \
	    "${bad[@]}"
}

@test "manpages: each page's .Dt is its file name, section 3" {
	local f want got bad=()
	for f in "$MAN3"/*.3; do
		want=$(basename "$f" .3 | tr '[:lower:]' '[:upper:]')
		got=$(sed -n 's/^\.Dt //p' "$f")
		[ "$got" = "$want 3" ] || bad+=("${f##*/}: .Dt $got")
	done
	[ ${#bad[@]} -eq 0 ] || fail_with "${bad[@]}"
}

@test "manpages: mandoc -T lint finds nothing but missing cross-references" {
	command -v mandoc >/dev/null ||
	    skip "mandoc is not installed (apt-get install mandoc)"
	local out err
	out=$(mktemp) err=$(mktemp)
	mandoc -T lint "$MAN3"/*.3 >"$out" 2>"$err" || true
	run bash -c 'cat "$1" "$2" | grep -v -e "referenced manual not found" \
	    -e "outdated mandoc.db"' _ "$out" "$err"
	rm -f "$out" "$err"
	[ -z "$output" ] || fail_with "mandoc -T lint:"
}

@test "manpages: the overflow example of cpc_bind_curlwp(3) runs" {
	local dir
	dir=$(mktemp -d)
	awk '/^\.Sh EXAMPLES/ { ex = 1 }
	    ex && /^\.Bd -literal/ && !done { lit = 1; next }
	    lit && /^\.Ed/ { lit = 0; done = 1 }
	    lit' "$MAN3/cpc_bind_curlwp.3" | sed 's/\\e/\\/g' >"$dir/ovf.c"
	grep -q 'cpc_set_restart' "$dir/ovf.c" ||
	    fail_with "no example program in cpc_bind_curlwp.3" || return 1
	cc_libcpc "$dir/ovf" "$dir/ovf.c"
	[ "$status" -eq 0 ] || { rm -rf "$dir"; fail_with "compile failed"; }
	run "$dir/ovf"
	rm -rf "$dir"
	expect_status 0 || return 1
	# 1000 fresh pages, a signal per 100 faults (a sanitizer's shadow
	# memory may fault a few more times).
	[[ $output =~ ^page-faults:\ ([0-9]+)\ overflows,\ ([0-9]+)\ more$ ]] ||
	    fail_with "unexpected output" || return 1
	local nsig=${BASH_REMATCH[1]} more=${BASH_REMATCH[2]}
	expect_range "$nsig" 10 13 "overflow signals" &&
	    expect_range "$more" 0 99 "events after the last"
}

@test "manpages: make install-man gives every function of a NAME a page or a link to its page" {
	local dest=$BATS_TEST_TMPDIR/inst page name n=0
	command -v make >/dev/null || skip "needs make"
	run make -C "$ROOT" -s DESTDIR="$dest" prefix=/usr install-man
	expect_status 0
	while read -r page name; do
		[ -e "$dest/usr/share/man/man3/$name.3" ] ||
		    fail_with "$name (of $page) was not installed" || return 1
		[ "$name.3" = "$page" ] && continue
		expect_eq "$(cat "$dest/usr/share/man/man3/$name.3")" \
		    ".so man3/$page" "the link page of $name" || return 1
		n=$((n + 1))
	done < <(mdoc_names NAME "$MAN3"/*.3)
	expect_range "$n" 20 500 "link pages"
}

# help_options TOOL: every option of TOOL's --help: the letters of its
# option lines ("-c events ..."), and the long options (--name), one a
# line.
help_options() {
	"$1" --help | sed -n -e 's/^\t\(-[A-Za-z]\)[ \t].*/\1/p' \
	    -e 's/^\t\(-[A-Za-z]\)$/\1/p'
	"$1" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u
}

@test "manpages: cpustat(1) and cputrack(1) describe every option of --help, and their SYNOPSIS has the usage's" {
	local tool bin page opt syn use bad=()
	for tool in cpustat cputrack; do
		bin=$CPUSTAT
		[ "$tool" = cpustat ] || bin=$CPUTRACK
		page=$ROOT/man1/$tool.1
		[ "$(help_options "$bin" | grep -c '^-[A-Za-z]$')" -ge 8 ] ||
		    fail_with "few options read from $tool --help" || return 1
		while read -r opt; do
			# an item of OPTIONS: ".It Fl c" or ", Fl \-events"
			grep -qE "^\.It (.*, )?Fl \\\\?${opt#-}( |$)|Fl \\\\-${opt#--}( |$|Ns)" \
			    "$page" || bad+=("$tool $opt")
		done < <(help_options "$bin")
		# the usage's synopsis and the page's, as words
		syn=$(mandoc -Tutf8 "$page" | col -b |
		    awk '/^SYNOPSIS/ { s = 1; next } /^[A-Z]/ { s = 0 } s' |
		    tr -s ' \n\t' '   ' | sed 's/^ //; s/ $//')
		use=$("$bin" --help | awk 'NR > 1 && /^$/ { exit } NR > 1' |
		    tr -s ' \n\t' '   ' | sed 's/^ //; s/ $//')
		if [ "$tool" = cpustat ]; then
			expect_eq "$use" "$syn" "the synopsis of $tool --help" ||
			    return 1
		else
			# cputrack(1) splits its synopsis in three forms
			# (as words, without the brackets)
			syn=$(tr -d '[]|' <<<"$syn")
			for opt in $(tr -d '[]|' <<<"$use"); do
				[[ " $syn " == *" $opt "* ]] ||
				    bad+=("$tool synopsis: $opt")
			done
		fi
	done
	[ ${#bad[@]} -eq 0 ] ||
	    fail_with "options of --help without an item in the man page:" \
	    "${bad[@]}"
}
