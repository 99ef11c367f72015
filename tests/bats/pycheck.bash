# SPDX-License-Identifier: BSD-2-Clause
# pycheck.bash - Debian's python3 and fmtcheck.py, shared by the suites
# that parse the machine-readable outputs (load pycheck).

PY=/usr/bin/python3
CHECK=$TESTS_DIR/bats/fmtcheck.py

# needs_py MODULE...: skip without Debian's python3 and the modules.
needs_py() {
	local m
	[ -x "$PY" ] || skip "needs $PY (apt-get install python3)"
	for m in "$@"; do
		"$PY" -c "import $m" 2>/dev/null ||
		    skip "needs the Python module $m (install-deps)"
	done
}
