# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What the namespace tests share: the root check (a failure under CI, a
# skip elsewhere), and pass/fail/t, which keep the counts the summary line
# `NAME: N passed, N failed' reports. Source it with $suite set.

passed=0
failed=0

if [[ $EUID -ne 0 ]]; then
	# CI must run these tests; elsewhere, say why they did not.
	if [[ -n ${CI:-} ]]; then
		echo "${BASH_SOURCE[1]##*/}: needs root for namespaces and BPF, and CI is set"
		echo "$suite: 0 passed, 1 failed"
		exit 1
	fi
	echo "${BASH_SOURCE[1]##*/}: SKIP: needs root for namespaces and BPF"
	echo "$suite: 0 passed, 0 failed, 1 skipped"
	exit 0
fi

pass() { echo "ok   [${SECONDS}s] $*"; passed=$((passed + 1)); }
fail() { echo "FAIL [${SECONDS}s] $*"; failed=$((failed + 1)); }
# t NAME CMD...: runs CMD (echoed), and passes or fails NAME by its status.
t() {
	local what=$1
	shift
	echo "+ $*"
	if "$@"; then pass "$what"; else fail "$what"; fi
}
summary() {
	echo "$suite: $passed passed, $failed failed"
	[[ $failed -eq 0 ]]
}
