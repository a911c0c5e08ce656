# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What the command-line tests share: the pass and fail counts their
# summary line reports, and ok/is/has, which keep them. Source it after
# setting $tmp (a directory for a command's output).

passed=0
failed=0

# ok NAME WANT_STATUS CMD...: runs CMD, keeps its output in $out/$err.
ok() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
	if [[ $rc -eq $want ]]; then
		passed=$((passed + 1))
		echo "ok   $name"
		return 0
	fi
	failed=$((failed + 1))
	echo "FAIL $name: exit $rc, wanted $want: $err"
	return 1
}

# is NAME GOT WANT
is() {
	if [[ $2 == "$3" ]]; then
		passed=$((passed + 1))
		echo "ok   $1"
	else
		failed=$((failed + 1))
		echo "FAIL $1: got \`$2', wanted \`$3'"
	fi
}

# has NAME TEXT PATTERN (grep -E)
has() {
	if grep -qE -- "$3" <<<"$2"; then
		passed=$((passed + 1))
		echo "ok   $1"
	else
		failed=$((failed + 1))
		echo "FAIL $1: no /$3/ in: $2"
	fi
}
