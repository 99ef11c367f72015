#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# packaging.bats - what a packager does with the tree (mk/packaging.mk):
# the .pc files follow the prefix and libdir make install is given after a
# plain make, make install adds /usr/sbin/cpustat and the completion, make
# uninstall removes exactly what install put, and make dist gives a
# tarball named with the version that builds and passes a quick check;
# and, without building them, that debian/'s .install files split what
# make install puts among the Debian packages, and debian/mksymbols
# lists what the libraries export (make deb builds them: tests/deb).

load helper

ROOT=$(cd "$TESTS_DIR/.." && pwd)
BUILD=$(cd "$(dirname "$CPUSTAT")/.." 2>/dev/null && pwd)

setup() {
	command -v make >/dev/null || skip "needs make"
	[ -n "$BUILD" ] && [ -e "$BUILD/libcpc/libcpc.so.1" ] ||
	    skip "libcpc.so.1 is not built (make)"
	# A sanitized build (make check-asan) installs as one.
	SAN=
	if readelf -d "$BUILD/libcpc/libpctx.so.1" | grep -q 'NEEDED.*libasan'
	then
		SAN=1
	fi
	VERSION=$(timeout 20 "$CPUSTAT" --version | sed 's/.* //')
}

# inst DESTDIR TARGET VAR=VAL...: make TARGET of the build under test
# into DESTDIR.
inst() {
	local dest=$1 target=$2
	shift 2
	run timeout 600 make -C "$ROOT" -s B="$BUILD" ${SAN:+SAN=1} \
	    DESTDIR="$dest" "$@" "$target"
	expect_status 0
}

# pcvars FILE: its prefix, libdir and includedir lines, on one line.
pcvars() {
	grep -E '^(prefix|libdir|includedir)=' "$1" | tr '\n' ' ' |
	    sed 's/ $//'
}

# files DIR: the files and links under DIR, relative, sorted.
files() {
	(cd "$1" && find . ! -type d | sed 's|^\./||' | LC_ALL=C sort)
}

@test "packaging: the .pc files say the prefix and libdir make install was given" {
	local d=$BATS_TEST_TMPDIR p flags
	command -v pkg-config >/dev/null || skip "needs pkg-config"
	# A plain make wrote /usr/local (configure's default); install says.
	inst "$d/usr" install prefix=/usr || return 1
	for p in libcpc libpctx; do
		expect_eq "$(pcvars "$d/usr/usr/lib/pkgconfig/$p.pc")" \
		    "prefix=/usr libdir=/usr/lib includedir=/usr/include" \
		    "$p.pc installed with prefix=/usr" || return 1
	done
	run env PKG_CONFIG_SYSROOT_DIR="$d/usr" PKG_CONFIG_PATH= \
	    PKG_CONFIG_LIBDIR="$d/usr/usr/lib/pkgconfig" timeout 20 \
	    pkg-config --cflags --libs libcpc
	expect_status 0 || return 1
	flags=($output)
	expect_eq "${flags[*]}" \
	    "-I$d/usr/usr/include -L$d/usr/usr/lib -lcpc -lpctx" \
	    "pkg-config --cflags --libs libcpc" || return 1
	# Where the flags point, the header and the library are.
	[ -f "${flags[0]#-I}/libcpc.h" ] && [ -e "${flags[1]#-L}/libcpc.so" ] ||
	    fail_with "no libcpc.h or libcpc.so where pkg-config points" ||
	    return 1
	# Another prefix, and a multiarch libdir, the next time.
	inst "$d/opt" install prefix=/opt/cpc || return 1
	expect_eq "$(pcvars "$d/opt/opt/cpc/lib/pkgconfig/libcpc.pc")" \
	    "prefix=/opt/cpc libdir=/opt/cpc/lib includedir=/opt/cpc/include" \
	    "libcpc.pc installed with prefix=/opt/cpc" || return 1
	inst "$d/ma" install prefix=/usr libdir=/usr/lib/x86_64-linux-gnu ||
	    return 1
	expect_eq "$(pcvars "$d/ma/usr/lib/x86_64-linux-gnu/pkgconfig/libpctx.pc")" \
	    "prefix=/usr libdir=/usr/lib/x86_64-linux-gnu includedir=/usr/include" \
	    "libpctx.pc installed with a multiarch libdir"
}

@test "packaging: install adds /usr/sbin/cpustat and the completion of both tools" {
	local d=$BATS_TEST_TMPDIR/st
	inst "$d" install prefix=/usr || return 1
	expect_eq "$(readlink "$d/usr/sbin/cpustat")" ../bin/cpustat \
	    "the /usr/sbin/cpustat link" || return 1
	run timeout 20 "$d/usr/sbin/cpustat" --version
	expect_eq "$output" "cpustat (cpc-tools) $VERSION" \
	    "/usr/sbin/cpustat --version" || return 1
	cmp "$ROOT/completion/cpc-tools.bash" \
	    "$d/usr/share/bash-completion/completions/cpustat" &&
	    cmp "$ROOT/completion/cpc-tools.bash" \
	    "$d/usr/share/bash-completion/completions/cputrack" ||
	    fail_with "the completion is not installed for both tools"
}

@test "packaging: uninstall removes exactly what install put, and again does nothing" {
	local d=$BATS_TEST_TMPDIR/st n
	# Someone else's files in the same directories stay.
	mkdir -p "$d/usr/bin" "$d/usr/lib/pkgconfig" \
	    "$d/usr/share/bash-completion/completions"
	echo other >"$d/usr/bin/other"
	echo other >"$d/usr/lib/pkgconfig/other.pc"
	echo other >"$d/usr/share/bash-completion/completions/other"
	inst "$d" install prefix=/usr || return 1
	n=$(files "$d" | wc -l)
	# A full install: tools, link, libraries and links, headers, .pc,
	# pages and their links, completion.
	[ "$n" -gt 40 ] || fail_with "only $n files installed" || return 1
	inst "$d" uninstall prefix=/usr || return 1
	# One rm line for each file install put (the three others stay).
	expect_eq "$(grep -c '^rm -f ' <<<"$output")" "$((n - 3))" \
	    "files removed" || return 1
	expect_eq "$(files "$d")" "usr/bin/other
usr/lib/pkgconfig/other.pc
usr/share/bash-completion/completions/other" "what is left" || return 1
	[ -d "$d/usr/share/man/man3" ] ||
	    fail_with "a shared directory was removed" || return 1
	inst "$d" uninstall prefix=/usr || return 1
	expect_eq "$(files "$d" | wc -l)" 3 "files after a second uninstall"
}

@test "packaging: make dist gives cpc-tools-VERSION.tar.gz, the same twice, that builds and passes a quick check" {
	local d=$BATS_TEST_TMPDIR tar src t
	command -v git >/dev/null && git -C "$ROOT" rev-parse \
	    --is-inside-work-tree >/dev/null 2>&1 ||
	    skip "not a git checkout (make dist packs what git tracks)"
	command -v autoreconf >/dev/null || skip "needs autoconf"
	run timeout 120 make -C "$ROOT" -s B="$BUILD" DISTDIR="$d/a" dist
	expect_status 0 || return 1
	tar=$d/a/cpc-tools-$VERSION.tar.gz
	[ -s "$tar" ] || fail_with "no $tar" || return 1
	# Reproducible: the same tree gives the same bytes.
	run timeout 120 make -C "$ROOT" -s B="$BUILD" DISTDIR="$d/b" dist
	expect_status 0 || return 1
	cmp "$tar" "$d/b/cpc-tools-$VERSION.tar.gz" ||
	    fail_with "two make dist differ" || return 1
	# Every file git tracks, under cpc-tools-VERSION/, and nothing else.
	expect_eq "$(tar -tzf "$tar" | grep -v '/$' | LC_ALL=C sort)" \
	    "$(git -C "$ROOT" ls-files | sed "s|^|cpc-tools-$VERSION/|" |
	    LC_ALL=C sort)" "the tarball's files" || return 1
	tar -xzf "$tar" -C "$d"
	src=$d/cpc-tools-$VERSION
	# It builds from scratch (autoreconf, configure), warning-free, as a
	# plain make: not with the B= and SAN= a make check-asan around
	# exports.
	run env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u B -u SAN -u CONFIG \
	    timeout 600 make -C "$src" -j2 all build/tests/unit/t_strtoset \
	    build/tests/unit/t_args
	expect_status 0 || return 1
	! grep -q 'warning:' <<<"$output" ||
	    fail_with "warnings building the tarball" || return 1
	run timeout 20 "$src/build/cpustat/cpustat" --version
	expect_eq "$output" "cpustat (cpc-tools) $VERSION" "its cpustat" ||
	    return 1
	# The quick check: two table-driven unit tests pass.
	for t in t_strtoset t_args; do
		run timeout 60 "$src/build/tests/unit/$t"
		expect_status 0 || return 1
		! grep -q '^not ok' <<<"$output" ||
		    fail_with "$t fails in the tarball's build" || return 1
		expect_match "$output" $'(^|\n)ok ' "$t ran tests" || return 1
	done
}

# The Debian packaging (debian/), without building the packages (make deb
# does, and tests/deb checks them): quick enough for every make check.

@test "packaging: each file make install puts is in exactly one Debian package's .install" {
	local d=$BATS_TEST_TMPDIR/st ma f p e hits bad=
	ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null) || ma=x86_64-linux-gnu
	inst "$d" install prefix=/usr libdir=/usr/lib/$ma || return 1
	# dh expands ${DEB_HOST_MULTIARCH}; an entry is a file or a folder.
	while IFS= read -r f; do
		hits=
		for p in "$ROOT"/debian/*.install; do
			while IFS= read -r e; do
				e=${e//\$\{DEB_HOST_MULTIARCH\}/$ma}
				case /$f in
				"/$e" | "/$e"/*) hits+="${p##*/} " ;;
				esac
			done < <(grep -v '^#' "$p")
		done
		[ "$(wc -w <<<"$hits")" -eq 1 ] || bad+="$f: ${hits:-none}"$'\n'
	done < <(files "$d")
	[ -z "$bad" ] || fail_with "files in no package or in two:
$bad"
}

@test "packaging: debian/mksymbols lists what the built libraries export, under their versions" {
	local l map so pkg
	command -v objdump >/dev/null || skip "needs objdump (binutils)"
	for l in libcpc/libcpc.map:libcpc.so.1:libcpc1 \
	    libcpc/pctx/libpctx.map:libpctx.so.1:libpctx1; do
		IFS=: read -r map so pkg <<<"$l"
		run sh "$ROOT/debian/mksymbols" "$ROOT/$map" "$so" "$pkg" "$VERSION"
		expect_status 0 || return 1
		expect_eq "$(head -2 <<<"$output")" "$so $pkg #MINVER#
* Build-Depends-Package: libcpc-dev" "$so's header lines" || return 1
		expect_eq "$(awk '/^ / { print $1 }' <<<"$output" | LC_ALL=C sort)" \
		    "$(objdump -T "$BUILD/libcpc/$so" | awk '$2 == "g" &&
		    $4 != "*UND*" { print $NF "@" $(NF - 1) }' | LC_ALL=C sort)" \
		    "$so: the symbols of its map, as it exports them" || return 1
	done
	# A version node the first package did not have gets this version.
	printf 'NEW_1.0 {\n\tglobal:\n\t\tf_new;\n} CPCTOOLS_1.3;\n' \
	    >"$BATS_TEST_TMPDIR/new.map"
	run sh "$ROOT/debian/mksymbols" "$BATS_TEST_TMPDIR/new.map" x.so.1 x1 9.9
	expect_eq "$(sed 1,2d <<<"$output")" " NEW_1.0@NEW_1.0 9.9
 f_new@NEW_1.0 9.9" "a new node's symbols"
}
