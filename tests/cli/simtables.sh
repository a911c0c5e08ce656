#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# scripts/sim-tables' gap to the best central scheduler (issue 17): per
# cell, (DARD - best) / best x 100 with best the least average of hedera,
# sdn-greedy and sdn-optimal, in tables.md and on stdout; and every
# scheduler's gap to the bound (issue 31), (avg - bound) / bound x 100.
#
# First against a fake dard-sim whose averages are chosen so the gaps are
# known by hand, with the paper's DARD (dard-paper) in one cell only, a
# cell with no central scheduler, and runs that fail or print nothing
# usable. Then one real dard-sim run on fattree:4 stride, whose gap must
# be what its own summary gives.
#
#   sim-tables --> dard-sim (fake: $tmp/fake-sim, or build/bin/dard-sim)
#                  --> runs/*.txt --> summary.tsv, gap.tsv --> tables.md

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DARD_BIN:-$top/build/bin}
st=$top/scripts/sim-tables
tmp=$(mktemp -d /tmp/simtables-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
suite=sim-tables
source "$top/tests/lib.sh"

# The fake: its summary depends on the tree; FAKE_MODE breaks it.
cat >"$tmp/fake-sim" <<'EOF'
#!/bin/bash
topo="" csv=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--topo) topo=$2; shift 2 ;;
	--csv) csv=$2; shift 2 ;;
	*) shift ;;
	esac
done
[[ -n $csv ]] && echo "sched,flow,src,dst,start,end,time,moves" >"$csv"
case ${FAKE_MODE:-}:$topo in
fail:*) echo "dard-sim: pretend failure" >&2; exit 1 ;;
empty:*) echo "nothing a table can use"; exit 0 ;;
:fattree:4)
	echo "fattree:4, stride, 40 flows of 512 MB, 0.2 per second per source for 20 s, seed 1"
	echo "sched              avg time s   p90 sw   max sw elephants  control B/s  last end"
	echo "ecmp                   30.000        0        0        29            0      39.2"
	echo "dard                   25.000        1        3        29         1972      39.2"
	echo "dard-paper             26.000        2        4        29         1900      39.2"
	echo "hedera                 24.000        2        2        24          760      39.5"
	echo "sdn-greedy             20.000        2        3        30          926      39.2"
	echo "sdn-optimal            22.000        2        3        29          935      39.2"
	echo "sdn-optimal-thesis     19.000        1        2        27          701      39.2"
	echo "bound                  12.500        0        0        20            0      38.0"
	;;
:clos:4,4)
	echo "clos:4,4, stride, 40 flows of 512 MB, 0.2 per second per source for 20 s, seed 1"
	echo "sched              avg time s   p90 sw   max sw elephants  control B/s  last end"
	echo "ecmp                   30.000        0        0        29            0      39.2"
	echo "dard                   27.000        1        3        29         1972      39.2"
	;;
*) echo "fake-sim: no tree $topo" >&2; exit 1 ;;
esac
EOF
chmod +x "$tmp/fake-sim"

fake=(env DARD_SIM="$tmp/fake-sim" "$st" --patterns stride --control-rates "")
ok "fake: two cells" 0 "${fake[@]}" --topos "fattree:4 clos:4,4" --out "$tmp/f" &&
	tables=$(cat "$tmp/f/tables.md") &&
	is "stdout: dard's gap, (25 - 20) / 20" "$(grep '^fattree:4 stride: dard ' <<<"$out")" \
		"fattree:4 stride: dard 25.000 s, best central sdn-greedy 20.000 s, gap 25.0%" &&
	is "stdout: the paper's DARD's, (26 - 20) / 20" "$(grep '^fattree:4 stride: dard-paper ' <<<"$out")" \
		"fattree:4 stride: dard-paper 26.000 s, best central sdn-greedy 20.000 s, gap 30.0%" &&
	has "stdout: no central scheduler on clos" "$out" '^clos:4,4 stride: no central scheduler ran, no gap$' &&
	is "stdout: three lines" "$(wc -l <<<"$out")" 3 &&
	has "table: the thesis's SDN-optimal is not a candidate" "$tables" \
		'^\| best central scheduler \(s\) \| sdn-greedy 20\.000 \| - \|$' &&
	has "table: DARD's gap row" "$tables" "^\| DARD's gap \(%\) \| 25\.0 \| - \|$" &&
	has "table: the paper's DARD's gap row" "$tables" "^\| the paper's DARD's gap \(%\) \| 30\.0 \| - \|$" &&
	has "table: the paper's DARD's average" "$tables" '^\| dard-paper \| 26\.000 \| - \|$' &&
	has "table: its path switches" "$tables" '^\| dard-paper \| 4 \| - \|$' &&
	has "table: the bound's average, none on clos" "$tables" \
		'^\| bound \(no routing does better\) \| 12\.500 \| - \|$' &&
	has "bound table: the bound" "$tables" '^\| bound \(s\) \| 12\.500 \| - \|$' &&
	has "bound table: dard's gap, (25 - 12.5) / 12.5" "$tables" '^\| dard \| 100\.0 \| - \|$' &&
	has "bound table: ecmp's, (30 - 12.5) / 12.5" "$tables" '^\| ecmp \| 140\.0 \| - \|$' &&
	has "bound table: sdn-greedy's" "$tables" '^\| sdn-greedy \| 60\.0 \| - \|$' &&
	is "bound.tsv: a line per scheduler and the bound's" "$(wc -l <"$tmp/f/bound.tsv")" 8

ok "fake: no dard-paper, no row" 0 "${fake[@]}" --topos "clos:4,4" --out "$tmp/g" &&
	is "no dard-paper anywhere" "$(grep -c 'dard-paper\|paper.s DARD' "$tmp/g/tables.md")" 0 &&
	has "gap table still there" "$(cat "$tmp/g/tables.md")" "^\| DARD's gap \(%\) \| - \|$"

ok "fake: a failing run" 1 env FAKE_MODE=fail "${fake[@]}" --topos fattree:4 --out "$tmp/h" &&
	has "failure named" "$err" '^sim-tables: dard-sim failed on fattree:4 stride$'
ok "fake: a run with no summary" 1 env FAKE_MODE=empty "${fake[@]}" --topos fattree:4 --out "$tmp/i" &&
	has "file named" "$err" "^sim-tables: no scheduler's summary in $tmp/i/runs/fattree-4-stride.txt$"
ok "bad seed" 2 "$st" --seed x && has "seed named" "$err" 'not .x.'

# scripts/sim-fig4 (the paper's Figure 4) against a fake that knows the
# paper's DARD: ECMP 40 s, DARD 30 s (25%), dard-paper 36 s (10%) at
# rate 0.01; 20, 15 and 20 s at 0.02 with seed 2 (25%, 0%) and 20, 19
# and 22 s with seed 1 (5%, -10%).
cat >"$tmp/fig4-sim" <<'EOF'
#!/bin/bash
[[ $1 == --help ]] && { echo "  dard-paper   the paper's DARD"; exit 0; }
rate="" seed="" sched=""
while [[ $# -gt 0 ]]; do
	case $1 in
	--rate) rate=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--sched) sched=$2; shift 2 ;;
	*) shift ;;
	esac
done
[[ $sched == ecmp,dard,dard-paper ]] || { echo "fig4-sim: --sched $sched" >&2; exit 2; }
case $rate:$seed in
0.01:*) e=40 d=30 q=36 ;;
0.02:1) e=20 d=19 q=22 ;;
0.02:2) e=20 d=15 q=20 ;;
*) exit 1 ;;
esac
echo "sched              avg time s   p90 sw   max sw elephants  control B/s  last end"
printf "%-18s %10.3f        0        0        29            0      39.2\n" ecmp $e dard $d dard-paper $q
EOF
chmod +x "$tmp/fig4-sim"
f4=(env DARD_SIM="$tmp/fig4-sim" "$top/scripts/sim-fig4" --patterns stride --size 128)
ok "sim-fig4: two rates, two seeds" 0 "${f4[@]}" --rates "0.01 0.02" --seeds "1 2" --out "$tmp/f4" &&
	is "sim-fig4: the means, least and largest, the load (x 1.074 s)" \
		"$(grep -v '^#' "$tmp/f4/fig4.dat" | grep .)" \
		"0.01 0.011 25.00 25.00 25.00 10.00 10.00 10.00
0.02 0.021 15.00 5.00 25.00 -5.00 -10.00 0.00" &&
	is "sim-fig4: a row per run" "$(grep -vc '^#' "$tmp/f4/runs.tsv")" 4
ok "sim-fig4: a failing run" 1 "${f4[@]}" --rates 0.03 --seeds 1 --out "$tmp/f5" &&
	has "sim-fig4: run named" "$err" 'dard-sim failed on fattree:8 stride rate 0.03 seed 1$'
ok "sim-fig4: a bad rate" 2 "${f4[@]}" --rates "0.01 x" && has "sim-fig4: rate named" "$err" "not .x'$"
ok "sim-fig4: a bad seed" 2 "${f4[@]}" --seeds "-1" && has "sim-fig4: seed named" "$err" "not .-1'$"

# The real simulator: the gap from its own summary, by hand.
if [[ -x $bin/dard-sim ]]; then
	ok "dard-sim fattree:4 stride" 0 env DARD_SIM="$bin/dard-sim" "$st" --topos fattree:4 \
		--patterns stride --control-rates "" --out "$tmp/r" -- --duration 20 &&
		want=$(awk '$1 ~ /^(hedera|sdn-greedy|sdn-optimal)$/ && NF == 7 && (b == "" || $2 < b) { b = $2 }
			$1 == "dard" && NF == 7 { d = $2 }
			END { printf "%.1f", (d - b) / b * 100 }' "$tmp/r/runs/fattree-4-stride.txt") &&
		has "stdout: the gap by hand" "$out" "^fattree:4 stride: dard [0-9.]+ s, best central [a-z-]+ [0-9.]+ s, gap $want%$" &&
		has "table: the gap by hand" "$(cat "$tmp/r/tables.md")" "^\| DARD's gap \(%\) \| $want \|$" &&
		bwant=$(awk '$1 == "bound" && NF == 7 { b = $2 } $1 == "dard" && NF == 7 { d = $2 }
			END { printf "%.1f", (d - b) / b * 100 }' "$tmp/r/runs/fattree-4-stride.txt") &&
		has "bound table: DARD's gap to the bound by hand" "$(cat "$tmp/r/tables.md")" "^\| dard \| $bwant \|$" &&
		if grep -q '^dard-paper ' "$tmp/r/runs/fattree-4-stride.txt"; then
			has "dard-sim has the paper's DARD: its gap row" "$(cat "$tmp/r/tables.md")" \
				"^\| the paper's DARD's gap \(%\) \| -?[0-9.]+ \|$"
		else
			is "dard-sim has no paper's DARD: no row" "$(grep -c 'paper.s DARD' "$tmp/r/tables.md")" 0
		fi
else
	failed=$((failed + 1))
	echo "FAIL no $bin/dard-sim: run make first"
fi

summary
