#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# The shell tests' own library (tests/lib.sh): each check passes what it
# should and fails what it should, the waits end by their bounds on real
# time, and a figure that is no number fails. Every case runs the library
# in a child bash and reads back its counts and lines, so that a check of
# the library never counts in its own totals.
set -u
suite=testlib
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$top/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# child CODE: CODE run after sourcing the library in a fresh bash; its
# output, then `counts P F' (the child's passed and failed).
child() {
	DARD_TEST_CMD_TIMEOUT=${DARD_TEST_CMD_TIMEOUT_CHILD:-60} \
		bash -c "suite=c; tmp=\$(mktemp -d); source '$top/tests/lib.sh'
$1
echo counts \$passed \$failed; rm -rf \"\$tmp\"" 2>&1
}
counts() { grep '^counts ' <<<"$1" | cut -d' ' -f2-; }

out=$(child 't yes true; t no false; echo "t status $?"')
is "t: passes by the status, fails and returns 1" "$(counts "$out")" "1 1"
has "t: echoes the command" "$out" '^\+ true$'
has "t: a failure returns 1" "$out" '^t status 1$'

out=$(child 'ok exit3 3 sh -c "echo o; echo e >&2; exit 3"; echo "[$out|$err]"
ok want0 0 sh -c "echo why >&2; exit 2"')
is "ok: the wanted status passes, another fails" "$(counts "$out")" "1 1"
has "ok: the output is kept" "$out" '^\[o\|e\]$'
has "ok: a failure says the status and stderr" "$out" 'want0: exit 2, wanted 0: why'

out=$(child 'is same a a; is differ a b; has found "x 12 y" "[0-9]+"; has missing abc "^b"')
is "is and has: one pass and one failure each" "$(counts "$out")" "2 2"
has "is: a failure shows both" "$out" "differ: got \`a', wanted \`b'"
has "has: a failure shows the pattern" "$out" 'missing: no /\^b/ in: abc'

# within: a condition that turns true is waited for; one that never does
# fails after its bound, on real time, not after a count of tries.
out=$(child 'f=$tmp/flag; (sleep 0.3; touch "$f") & within 10 test -e "$f" && echo "within ok"
t0=$EPOCHREALTIME; within 0.5 false; echo "within rc $? $(since "$t0")"')
has "within: waits for a condition that turns true" "$out" '^within ok$'
has "within: fails when its bound runs out" "$out" '^within rc 1 '
took=$(sed -n 's/^within rc 1 //p' <<<"$out")
t "within: its bound is 0.5 s of real time (took ${took:-?} s)" \
	awk -v s="${took:-0}" 'BEGIN { exit !(s >= 0.5 && s < 30) }'

# bounded: a hung command is killed after the time limit, exit 124.
out=$(DARD_TEST_CMD_TIMEOUT_CHILD=1 child 'bounded sleep 30; echo "bounded rc $?"
bounded true; echo "bounded true $?"')
has "bounded: a hung command ends with 124" "$out" '^bounded rc 124$'
has "bounded: a quick one keeps its status" "$out" '^bounded true 0$'

out=$(child 'figure rate 41.5 Mbit/s "what it is"; figure none nan s; figure neg -2 s
figure empty "" s; figure word x s; figure exp 1e3 s; figure nounit 1 "" what')
is "figure: a value that is no number, or no unit, fails" "$(counts "$out")" "0 4"
has "figure: prints the suite, name, value, unit and what" "$out" \
	'^figure c\.rate 41\.5 Mbit/s what it is$'
has "figure: nan is not measured, printed" "$out" '^figure c\.none nan s$'
has "figure: says which value" "$out" "figure c.word: value \`x' is no number"
has "figure: says the unit is missing" "$out" "figure c.nounit: unit \`' is not one word"

out=$(child 'sleep 30 & bg_pids+=($!); sleep 30 & bg_pids+=($!); p="${bg_pids[*]}"
bg_kill; for q in $p; do kill -0 $q 2>/dev/null && echo "alive $q"; done
echo "left ${#bg_pids[@]}"')
has "bg_kill: the background processes are gone" "$out" '^left 0$'
t "bg_kill: none is left alive" bash -c '! grep -q "^alive" <<<"$1"' _ "$out"

out=$(child 'pass a; summary; echo "summary rc $?"; fail b; summary; echo "summary rc $?"')
has "summary: the line, 0 when nothing failed" "$out" '^c: 1 passed, 0 failed$'
has "summary: status 0 when nothing failed" "$out" '^summary rc 0$'
has "summary: status 1 after a failure" "$out" '^summary rc 1$'

# need_root as a user would meet it (EUID is read-only: a copy of the
# function that reads 1000 for it).
nonroot=$(declare -f need_root | sed 's/\$EUID/1000/')
out=$(CI=true bash -c "source '$top/tests/lib.sh'; suite=c
$nonroot
need_root; echo reached" 2>&1)
has "need_root: without root under CI is a failure" "$out" '^c: 0 passed, 1 failed$'
t "need_root: and the test stops there" bash -c '! grep -q "^reached" <<<"$1"' _ "$out"
out=$(env -u CI bash -c "source '$top/tests/lib.sh'; suite=c
$nonroot
need_root; echo reached" 2>&1)
has "need_root: without root and CI, a skip" "$out" '^c: 0 passed, 0 failed, 1 skipped$'

summary
