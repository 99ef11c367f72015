#!/usr/bin/env bats
# SPDX-License-Identifier: BSD-2-Clause
# licence.bats - the licence a distribution needs: LICENSE is the
# BSD-2-Clause text, and every source file git tracks names it with an
# SPDX-License-Identifier line at its top (line 1, or line 2 after #!).

load helper

ROOT=$(cd "$TESTS_DIR/.." && pwd)
SPDX='SPDX-License-Identifier: BSD-2-Clause'

# Files that are not source and cannot or need not carry the line: prose
# (README, LICENSE), fuzzing inputs, data a format forbids comments in
# (JSON, CSV, SVG), and Debian's files whose syntax has no comments. A new
# kind of data file goes here; a new source file gets the line instead.
EXEMPT=(README LICENSE '*.md' 'tests/fuzz/corpus/*' '*.json' '*.csv'
    '*.svg' 'debian/changelog' 'debian/copyright' 'debian/source/format'
    'debian/README.Debian')

# exempt FILE: FILE matches a pattern of EXEMPT.
exempt() {
	local p
	for p in "${EXEMPT[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == $p ]] && return 0
	done
	return 1
}

# spdx_ok FILE: the SPDX line is line 1, or line 2 after a #! line, in
# any comment syntax (the text after the comment leader is exact).
spdx_ok() {
	local top
	top=$(head -2 "$1")
	if [[ $top == '#!'* ]]; then
		top=$(sed -n 2p "$1")
	else
		top=$(head -1 "$1")
	fi
	[[ $top =~ ^(/\*|#|dnl|\.\\\")\ $SPDX( \*/)?$ ]]
}

# missing FILE...: print each FILE that is neither exempt nor carries the
# line.
missing() {
	local f
	for f in "$@"; do
		exempt "$f" && continue
		spdx_ok "$f" || echo "$f"
	done
}

@test "licence: LICENSE is BSD-2-Clause, The cpc-tools authors, 2026" {
	local lic=$ROOT/LICENSE
	[ -f "$lic" ] || fail_with "no LICENSE" || return 1
	expect_eq "$(head -1 "$lic")" "BSD 2-Clause License" "its title" ||
	    return 1
	grep -qx 'Copyright (c) 2026, The cpc-tools authors' "$lic" ||
	    fail_with "no copyright line for The cpc-tools authors" ||
	    return 1
	# Two numbered conditions, no third (BSD-3's endorsement clause).
	expect_eq "$(grep -cE '^[0-9]\. ' "$lic")" 2 "numbered conditions" ||
	    return 1
	! grep -qi 'endorse' "$lic" || fail_with "a BSD-3 endorsement clause"
}

@test "licence: every tracked source file starts with the SPDX line" {
	command -v git >/dev/null || skip "needs git"
	git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	    skip "not a git checkout (a release tarball): git names the sources"
	local files bad
	mapfile -t files < <(cd "$ROOT" && git ls-files)
	# A tree this size has well over a hundred; fewer means a broken list.
	[ "${#files[@]}" -gt 150 ] ||
	    fail_with "git ls-files gave only ${#files[@]} files" || return 1
	bad=$(cd "$ROOT" && missing "${files[@]}")
	[ -z "$bad" ] ||
	    fail_with "without '$SPDX' at the top (add it; data files go in EXEMPT in tests/bats/licence.bats):" \
	    $bad
}

@test "licence: the check refuses a file without the line or with another licence" {
	local d=$BATS_TEST_TMPDIR
	printf '/* %s */\n/*\n * x.c - a file.\n */\n' "$SPDX" >"$d/good.c"
	printf '#!/bin/sh\n# %s\necho\n' "$SPDX" >"$d/good.sh"
	printf '.\\" %s\n.Dd x\n' "$SPDX" >"$d/good.1"
	printf '/*\n * y.c - no line.\n */\n' >"$d/none.c"
	printf '# SPDX-License-Identifier: GPL-2.0\n' >"$d/gpl.mk"
	# The line too far down: below the header comment.
	printf '#!/bin/sh\n# z - a script.\n# %s\n' "$SPDX" >"$d/late.sh"
	run missing "$d/good.c" "$d/good.sh" "$d/good.1" "$d/none.c" \
	    "$d/gpl.mk" "$d/late.sh"
	expect_eq "$output" "$d/none.c
$d/gpl.mk
$d/late.sh" "the files refused"
}
