#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# scripts/sim-workloads (issue 31) on a tiny grid: the real dard-sim on
# fattree:4, one load, a second of web-search arrivals, every case, so
# that each table has its header, a row per scheduler (switch-ecmp added
# with the link failed) and a DARD-against-ECMP line per DARD; a
# --tuned row; the goal's verdict worked by hand from the table; and the
# exit codes of a bad usage (2) and a failing run (1).
#
#   sim-workloads --> dard-sim (build/bin, or a fake that fails)
#                 --> runs/*.txt --> summary.tsv --> tables.md, stdout

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${DARD_BIN:-$top/build/bin}
sw=$top/scripts/sim-workloads
tmp=$(mktemp -d /tmp/simworkloads-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
suite=sim-workloads
source "$top/tests/lib.sh"

ok "bad load" 2 "$sw" --loads "0.5 1.5" && has "load named" "$err" "not .1\.5'$"
ok "bad workload" 2 "$sw" --workloads "websearch web" && has "workload named" "$err" "no workload .web'$"
ok "bad case" 2 "$sw" --cases "symmetric broken" && has "case named" "$err" "no case .broken'$"
ok "bound refused" 2 "$sw" --scheds "ecmp bound" && has "bound said" "$err" "bound has no flow-level path"
ok "bad seed" 2 "$sw" --seeds x && has "seed named" "$err" "not .x'$"
ok "bad duration" 2 "$sw" --duration hadoop=3 && has "duration named" "$err" "not .hadoop=3'$"
ok "unknown option" 2 "$sw" --frobnicate

cat >"$tmp/fake-sim" <<'EOF'
#!/bin/sh
echo "fake-sim: pretend failure" >&2
exit 1
EOF
chmod +x "$tmp/fake-sim"
ok "a failing run" 1 env DARD_SIM="$tmp/fake-sim" "$sw" --loads 0.5 --out "$tmp/f" &&
	has "run named" "$err" "dard-sim failed on websearch-symmetric-0.5-s1$"
cat >"$tmp/empty-sim" <<'EOF'
#!/bin/sh
echo "nothing a table can use"
EOF
chmod +x "$tmp/empty-sim"
ok "a run with no slowdowns" 1 env DARD_SIM="$tmp/empty-sim" "$sw" --loads 0.5 --out "$tmp/e" &&
	has "file named" "$err" "no slowdowns in $tmp/e/runs/websearch-symmetric-0.5-s1.txt$"

if [[ ! -x $bin/dard-sim ]]; then
	fail "no $bin/dard-sim: run make first"
	summary
	exit
fi

ok "tiny grid" 0 env DARD_SIM="$bin/dard-sim" "$sw" --topo fattree:4 --loads 0.5 \
	--workloads websearch --duration websearch=1 --scheds "ecmp dard hedera" \
	--tuned "--elephant-age 0.1" --out "$tmp/r" &&
	tables=$(cat "$tmp/r/tables.md") &&
	is "stdout is tables.md" "$out" "$tables" &&
	is "a table per case" "$(grep -c '^| load | scheduler | small flows | small p99 | medium mean | large flows | large mean | unfinished |$' <<<"$tables")" 3 &&
	is "symmetric: a row per scheduler and dard-tuned" \
		"$(sed -n '/^## websearch, symmetric$/,/^## /p' <<<"$tables" | grep -c '^| 0\.5 | ')" 4 &&
	is "failed: switch-ecmp added" \
		"$(sed -n '/^## websearch, core:1 failed/,/^## /p' <<<"$tables" | grep -c '^| 0\.5 | switch-ecmp | ')" 1 &&
	is "two lines against ECMP per case" "$(grep -c '^- load 0\.5, dard\(-tuned\)\? vs ecmp: ' <<<"$tables")" 4 &&
	is "against switch-ecmp with the link failed" \
		"$(grep -c '^- load 0\.5, dard\(-tuned\)\? vs switch-ecmp: ' <<<"$tables")" 2 &&
	is "a run and a tuned run per case" "$(ls "$tmp/r/runs" | wc -l)" 6 &&
	is "summary.tsv: header and a line per row" "$(wc -l <"$tmp/r/summary.tsv")" 14

# The verdict by hand from the symmetric table's figures.
if [[ -s $tmp/r/tables.md ]]; then
	want=$(sed -n '/^## websearch, symmetric$/,/^## /p' "$tmp/r/tables.md" | awk -F' *[|] *' '
		$3 == "ecmp" { ep = $5; el = $8 } $3 == "dard" { dp = $5; dl = $8 }
		END {
			g = (el - dl) / el * 100; c = (dp - ep) / ep * 100
			printf "large mean gain %+.1f%%, small p99 change %+.1f%%: goal %s", g, c,
				((g > 0 && c <= 5) ? "holds" : "fails")
		}')
	if [[ -z $want ]]; then
		fail "the verdict by hand: no figures in the symmetric table"
	else
		has "the verdict by hand" "$(grep '^- load 0\.5, dard vs ecmp: ' "$tmp/r/tables.md" | head -1)" \
			"^- load 0\.5, dard vs ecmp: ${want//+/\\+}"
	fi
fi

summary
