#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# A shortened experiment end to end (scripts/experiment compare): the
# calibration, stride traffic under switch ECMP, ECMP, pVLB, DARD and
# SDN-optimal (dard-controller placing the elephants) on fattree:4 (small
# files, one run), the machine sampled during each run, the run's flows
# replayed in dard-sim, and dard-exp report's summary; then what each
# produced is checked: the CSV, the calibration, the samples, the model,
# the report's sections and JSON, the daemons' counters and the figures,
# and that every host's dardd ran pVLB in its pvlb mode.
# Then ECMP and the paper's mode of DARD in two paired runs on one
# traffic (--repeat 2), and on two (--seeds): the runs, their model, and
# the statistics that combine them.
#
#   fattree:4 of namespaces, brought up and down by scripts/experiment
#   for each scheduler of each run (scripts/testbed), and once for the
#   calibration (scripts/calibrate)

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
suite=experiment
source "$top/tests/netns/lib.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

png() { [[ $(head -c 8 "$1" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]]; }

scheds="switch-ecmp ecmp pvlb dard sdn-optimal"
t "compare switch-ecmp, ecmp, pvlb, dard and sdn-optimal on stride" \
	"$top/scripts/experiment" compare --schedulers "${scheds// /,}" \
	--pattern stride --link 100 --size 4 --rate 0.2 --duration 6 --seed 3 \
	--pvlb-interval 0.3 --calibrate-seconds 4 --out "$out/run"
run=$out/run/run1
csv=$run/results.csv
n=$(($(wc -l <"$run/ecmp/plan.csv") - 1))
echo "$n flows per scheduler"
t "flows were planned" test "$n" -gt 5
t "the same seed gave both schedulers the same flows" \
	cmp -s "$run/ecmp/plan.csv" "$run/dard/plan.csv"
t "results.csv has its header" bash -c \
	"head -1 '$csv' | grep -qx 'pattern,rate,scheduler,id,src,dst,start,seconds,bytes,moves,path'"
for s in $scheds; do
	t "$s: a row per flow" test "$(grep -c ",$s," "$csv")" -eq "$n"
	# Exactly 4 MiB: what the receiver counted (dard-exp send and recv).
	t "$s: every flow finished and delivered its 4 MiB" bash -c \
		"awk -F, '\$3 == \"$s\" && (\$8 == \"\" || \$9 != 4194304) { print; bad = 1 } END { exit bad }' '$csv'"
	t "$s: the machine sampled (the CPU, every link)" bash -c \
		"[[ \$(wc -l <'$run/$s/cpu.csv') -gt 1 && \$(wc -l <'$run/$s/links.csv') -gt 1 ]] && [[ -s '$run/$s/t0' ]]"
	[[ $s == switch-ecmp ]] && continue
	t "$s: every flow's path was seen" bash -c \
		"awk -F, '\$3 == \"$s\" && \$11 !~ /^tor[0-9_]+ aggr/ { bad = 1 } END { exit bad }' '$csv'"
done

# The calibration: one flow per host, each on a path of its own.
cal=$out/run/calibration/flows.csv
t "the calibration ran a flow from every host" test "$(($(wc -l <"$cal") - 1))" -eq 16
t "each to another pod, each with a goodput" bash -c \
	"awk -F, 'NR > 1 && (substr(\$2, 2, 1) == substr(\$3, 2, 1) || \$7 == \"\" || \$7 <= 0) { bad = 1 } END { exit bad }' '$cal'"
t "on sixteen paths that share no link" bash -c \
	"awk -F, 'NR > 1 { n = split(\$4, s, \" \"); for (i = 1; i < n; i++) if (l[s[i] \">\" s[i + 1]]++) bad = 1 } END { exit bad }' '$cal'"

# The model: dard-sim replayed the run's own flows.
model=$run/model.csv
for s in switch-ecmp ecmp pvlb dard sdn-optimal bound; do
	t "the model has $s's $n flows" test "$(grep -c "^$s," "$model")" -eq "$n"
done
t "the model's flows are the plan's" bash -c \
	"diff <(awk -F, '\$1 == \"dard\" { print \$2, \$3, \$4 }' '$model' | sort) \
	      <(awk -F, 'NR > 1 { print \$1, \$3, \$4 }' '$run/dard/plan.csv' | sort)"

# The report, its text and JSON.
sum=$out/run/summary.txt
json=$out/run/summary.json
for sec in experiment load calibration runs fidelity schedulers gains; do
	t "the summary has its $sec section" grep -qx "== $sec" "$sum"
done
t "the JSON has every scheduler's mean, model and bound" jq -e --arg s "$scheds" \
	'[($s | split(" "))[] as $k | .schedulers[$k] | .mean > 0 and .bound > 0] | all' "$json"
t "and the model's, where dard-sim models it" jq -e \
	'[.schedulers | (.ecmp, .dard, .pvlb, ."sdn-optimal") | .model > 0] | all' "$json"
t "a fidelity verdict for the calibration and every scheduler's run" jq -e \
	--argjson n 5 '(.calibration.fidelity.faithful | type) == "boolean" and
	 ([.runs[0].schedulers[] | .fidelity.faithful | type == "boolean"] | length == $n)' "$json"
t "DARD's gain over ECMP, its model's beside it" jq -e \
	'[.gains[] | select(.sched == "dard" and .over == "ecmp") | (.gain | type) == "number" and (.model | type) == "number"] | length == 1' "$json"
t "the load average before it started, in the meta and the JSON" bash -c \
	"grep -q '^loadavg=[0-9.]*$' '$out/run/meta' && jq -e '.meta.loadavg | tonumber >= 0' '$json' >/dev/null"
t "summary prints the same report again" bash -c \
	"'$top/scripts/experiment' summary '$out/run' | diff - '$sum'"

sd=$run/sdn-optimal
t "sdn-optimal: the controller ran sdn-optimal rounds" \
	jq -e '.algo == "sdn-optimal" and .rounds > 0' "$sd/controller.json"
t "and the hosts took its assignments" \
	jq -e '(map(.controller_assigns) | add) > 0 and all(.mode == "controller")' "$sd/hosts.json"
t "pvlb: every host's dardd ran in its pvlb mode, at the run's interval" \
	jq -e 'length == 16 and all(.sched_mode == "pvlb" and .pvlb_interval_s == 0.3)' \
	"$run/pvlb/hosts.json"
t "ecmp: no dardd ran" test ! -e "$run/ecmp/hosts.json"
t "ecmp never moves a flow" bash -c \
	"awk -F, '\$3 == \"ecmp\" && \$10 != 0 { bad = 1 } END { exit bad }' '$csv'"
t "stride stays between pods" bash -c \
	"awk -F, 'NR > 1 && substr(\$5, 2, 1) == substr(\$6, 2, 1) { bad = 1 } END { exit bad }' '$csv'"
t "the transfer-time CDF is a PNG" png "$run/transfer-time-cdf.png"
t "the path-switch CDF is a PNG" png "$run/path-switch-cdf.png"
t "the testbed beside the model is a PNG" png "$out/run/testbed-model.png"
t "plot redraws them" "$top/scripts/experiment" plot "$out/run"
t "no namespace is left" bash -c "! ip netns list | grep -q 'exp_\|calib_'"

rep=$out/rep
t "compare ecmp and dard-paper twice on one traffic" "$top/scripts/experiment" \
	compare --schedulers ecmp,dard-paper --repeat 2 --no-calibrate --pattern stride \
	--link 100 --size 2 --rate 0.2 --duration 4 --seed 3 -q --out "$rep"
t "two runs, each with its results and model" bash -c \
	"for r in 1 2; do [[ -s $rep/run\$r/results.csv && -s $rep/run\$r/model.csv ]] || exit 1; done"
t "the same flows in both" cmp -s "$rep/run1/dard-paper/plan.csv" "$rep/run2/dard-paper/plan.csv"
n=$(($(wc -l <"$rep/run1/dard-paper/plan.csv") - 1))
t "dard-paper: every flow finished in both runs" bash -c \
	"[[ \$(cat $rep/run[12]/results.csv | awk -F, '\$3 == \"dard-paper\" && \$8 != \"\"' | wc -l) == $((2 * n)) ]]"
t "dard-paper: its hosts' counters" jq -e 'length > 0' "$rep/run1/dard-paper/hosts.json"
t "the statistics over both runs" jq -e \
	'.schedulers."dard-paper".runs == 2 and .schedulers.ecmp.runs == 2 and
	 ([.gains[] | select(.sched == "dard-paper" and .over == "ecmp") | .pairs] == [2])' "$rep/summary.json"
t "no calibration, and the report says so" jq -e '.calibration.fidelity.faithful == null' "$rep/summary.json"
t "the means chart is a PNG" png "$rep/testbed-model.png"
sds=$out/seeds
t "two runs on two traffics (--seeds 3-4)" "$top/scripts/experiment" \
	compare --schedulers ecmp --seeds 3-4 --no-calibrate --pattern random \
	--link 100 --size 2 --rate 0.2 --duration 4 -q --out "$sds"
t "their flows differ" bash -c "! cmp -s '$sds/run1/ecmp/plan.csv' '$sds/run2/ecmp/plan.csv'"
t "the meta names both seeds" grep -qx 'seeds=3 4' "$sds/meta"
t "no namespace is left" bash -c "! ip netns list | grep -q 'exp_\|calib_'"

summary
