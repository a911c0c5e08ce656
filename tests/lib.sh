# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What every shell test shares (tests/cli, tests/netns, tests/kmod,
# tests/pkg): the pass and fail counts behind the summary line
# `SUITE: N passed, N failed', the ways to check (t, ok, is, has), waits
# bounded in time instead of fixed sleeps (within), the root rule, and a
# time limit on every command that could hang (bounded). Source it with
# $suite set; tests/netns/lib.sh and tests/kmod/lib.sh add the testbed's
# look-ups on top.
#
# The bounds are liveness bounds: how long to wait before calling a
# thing that never happens a failure. They are generous (tens of
# seconds) so that a busy machine only makes a test slower, never red;
# a test that needs to know how fast something happened prints it.

passed=0
failed=0

# Seconds a single command may take (bounded, the testbed's on); a wait
# for a condition (within) takes its own bound.
: "${DARD_TEST_CMD_TIMEOUT:=60}"

# Microseconds since the epoch, and since the test started (the result
# lines' [N.Ns]).
now_us() { echo "${EPOCHREALTIME/[.,]/}"; }
test_t0=$(now_us)
elapsed() {
	local us=$(($(now_us) - test_t0))
	printf '%d.%d' $((us / 1000000)) $((us / 100000 % 10))
}

pass() { echo "ok   [$(elapsed)s] $*"; passed=$((passed + 1)); }
fail() { echo "FAIL [$(elapsed)s] $*"; failed=$((failed + 1)); }

# t NAME CMD...: runs CMD (echoed), and passes or fails NAME by its
# status, which it returns: `t ... || return' skips what depends on it.
t() {
	local what=$1
	shift
	echo "+ $*"
	if "$@"; then pass "$what"; else fail "$what"; return 1; fi
}

# ok NAME WANT_STATUS CMD...: runs CMD, keeping its output in $out and
# $err, and passes NAME when it exits WANT_STATUS.
ok() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
	if [[ $rc -eq $want ]]; then
		pass "$name"
		return 0
	fi
	fail "$name: exit $rc, wanted $want: $err"
	return 1
}

# is NAME GOT WANT
is() {
	if [[ $2 == "$3" ]]; then
		pass "$1"
	else
		fail "$1: got \`$2', wanted \`$3'"
		return 1
	fi
}

# has NAME TEXT PATTERN (grep -E)
has() {
	if grep -qE -- "$3" <<<"$2"; then
		pass "$1"
	else
		fail "$1: no /$3/ in: $2"
		return 1
	fi
}

# within SECONDS CMD...: runs CMD until it succeeds, every 0.1 s, and
# fails once SECONDS have passed (real time, with decimals). CMD is run
# again each time: a condition must be a command or a function, never a
# $(...) that bash would expand once before the first try. A single try
# is bounded by what it runs (bounded, on), not by within.
within() {
	local end
	end=$(($(now_us) + $(awk -v s="$1" 'BEGIN { printf "%d", s * 1e6 }')))
	shift
	until "$@"; do
		(($(now_us) < end)) || return 1
		sleep 0.1
	done
}

# bounded CMD...: CMD, killed after $DARD_TEST_CMD_TIMEOUT seconds (exit
# 124, as timeout says), so that a hung command fails its test instead of
# the whole run.
bounded() { timeout -k 5 "$DARD_TEST_CMD_TIMEOUT" "$@"; }

# The background processes a test starts and must end: bg_pids+=($!)
# after each, bg_kill [SIGNAL] (TERM by default) in its cleanup.
bg_pids=()
bg_kill() {
	local p
	for p in "${bg_pids[@]}"; do
		kill -"${1:-TERM}" "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
	bg_pids=()
}

# after T0 S: true once S seconds have passed since epoch time T0 (as
# $EPOCHREALTIME): `within 5 after "$t0" 1' waits for that moment.
after() { awk -v a="$1" -v s="$2" -v b="$EPOCHREALTIME" 'BEGIN { exit !(b - a >= s) }'; }

# since T0: the seconds from epoch time T0 (as $EPOCHREALTIME) to now.
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'; }

# figure NAME VALUE UNIT [WHAT]: a figure the test measured, printed
# and never judged (a rate, a time, a ratio: what the machine's load
# decides as much as the code). `make bench' runs the tests that print
# them several times on an idle machine and gives each figure's mean
# and interval (scripts/bench-figures, Documentation/benchmarks.md).
# VALUE nan: not measured (counted apart by dard-exp bench). Any other
# VALUE that is no number, or a UNIT that is not one word (ratio for a
# ratio), is the test's own defect, and fails.
figure() {
	if [[ ! $2 =~ ^(-?[0-9]+(\.[0-9]+)?|nan)$ ]]; then
		fail "figure $suite.$1: value \`$2' is no number"
		return 1
	fi
	if [[ ! $3 =~ ^[^[:space:]]+$ ]]; then
		fail "figure $suite.$1: unit \`$3' is not one word"
		return 1
	fi
	echo "figure $suite.$1 $2 $3${4:+ $4}"
}

# need_root: tests that need root (namespaces, BPF, mounts) skip without
# it, or fail when CI is set, so that CI never passes having run nothing.
need_root() {
	[[ $EUID -eq 0 ]] && return 0
	if [[ -n ${CI:-} ]]; then
		echo "${BASH_SOURCE[1]##*/}: needs root, and CI is set"
		echo "$suite: 0 passed, 1 failed"
		exit 1
	fi
	echo "${BASH_SOURCE[1]##*/}: SKIP: needs root"
	echo "$suite: 0 passed, 0 failed, 1 skipped"
	exit 0
}

# The summary line, and the status: 0 when nothing failed.
summary() {
	echo "$suite: $passed passed, $failed failed"
	[[ $failed -eq 0 ]]
}
