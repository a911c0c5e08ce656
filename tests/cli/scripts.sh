#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# scripts/testbed's and scripts/experiment's command lines, checked where
# they fail before any namespace is made (issue 17: --sched-mode,
# dard-paper, --unscaled, --repeat, --runs, --seeds), experiment's
# summaries of canned results (dard-exp report: one run's, and three
# paired runs': means, intervals, the gains over ECMP); the testbed
# options each scheduler gets; and what remote mode (--exec) leaves
# running per scheduler.
#
#   testbed up / experiment compare --> argument checks --> error
#                                    \-> (accepted) fake dardctl: exit 1
#   run_one SCHED --> $tmp/testbed (fake: notes its arguments, fails)
#   remote_scheduler --> $tmp/ssh h1 (joins, sh -c) --> stand-in dardctl
#   run_one, a failure after the bring-up --> the EXIT trap downs it
#   canned results.csv --> experiment summary DIR / plot DIR
#
# No namespace is made: dardctl is a fake that notes its arguments and
# fails, so a command line that passes the checks stops at the testbed's
# first step (`dardctl topo gen'), with its state and lock under $tmp.

set -u
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tb=$top/scripts/testbed
ex=$top/scripts/experiment
tmp=$(mktemp -d /tmp/scripts-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
suite=scripts
source "$top/tests/lib.sh"

cat >"$tmp/dardctl" <<EOF
#!/bin/sh
echo "\$*" >>"$tmp/calls"
exit 1
EOF
chmod +x "$tmp/dardctl"
export DARDCTL=$tmp/dardctl DARD_TESTBED_DIR=$tmp/state \
	DARD_TESTBED_LOCK=$tmp/lock DARD_TESTBED_PREFIX=clitest

# refused NAME PATTERN ARGS...: testbed ARGS fails naming PATTERN, before
# it has called dardctl.
refused() {
	local name=$1 pat=$2
	shift 2
	rm -f "$tmp/calls"
	ok "testbed: $name" 1 "$tb" "$@" &&
		has "testbed: $name: says why" "$err" "$pat" &&
		is "testbed: $name: before any step" "$(cat "$tmp/calls" 2>/dev/null)" ""
}
# accepted NAME ARGS...: testbed ARGS passes the argument checks: it
# reaches the bring-up, which stops at the fake dardctl (or, not as root,
# at the root check that comes after the arguments'), leaving no state.
accepted() {
	local name=$1
	shift
	rm -f "$tmp/calls"
	ok "testbed: $name: past the checks" 1 "$tb" "$@" || return
	if [[ $EUID -eq 0 ]]; then
		has "testbed: $name: reached topo gen" "$(cat "$tmp/calls" 2>/dev/null)" \
			'^(-c [0-9]+ )?-t fattree:2 topo gen output '
		is "testbed: $name: no state left" "$(ls -A "$tmp/state" 2>/dev/null)" ""
	else
		has "testbed: $name: reached the root check" "$err" 'must run as root'
	fi
}

refused "--sched-mode without --dard" '^testbed: --sched-mode goes with --dard$' \
	up fattree:2 --sched-mode paper
refused "a bad mode names the good ones" "^testbed: invalid --sched-mode \`slow': fast, paper, pvlb or off$" \
	up fattree:2 --dard --sched-mode slow
refused "--sched-mode with no mode" '^testbed: --sched-mode needs fast, paper, pvlb or off$' \
	up fattree:2 --dard --sched-mode
refused "--sched-mode and --no-datapath" '^testbed: --sched-mode goes with --dard$' \
	up fattree:2 --no-datapath --sched-mode fast
refused "--fast still needs --dard" '^testbed: --fast goes with --dard$' \
	up fattree:2 --fast
accepted "--dard --sched-mode paper" up fattree:2 --dard --sched-mode paper
accepted "--dard --sched-mode fast --fast" up fattree:2 --dard --sched-mode fast --fast
accepted "--sched-mode before --dard" up fattree:2 --sched-mode paper --dard
refused "--pvlb-interval without the pvlb mode" \
	'^testbed: --pvlb-interval goes with --sched-mode pvlb$' \
	up fattree:2 --dard --pvlb-interval 2
refused "--pvlb-interval needs seconds" '^testbed: --pvlb-interval needs seconds$' \
	up fattree:2 --dard --sched-mode pvlb --pvlb-interval soon
accepted "--dard --sched-mode pvlb --pvlb-interval 2" \
	up fattree:2 --dard --sched-mode pvlb --pvlb-interval 2 --fast
accepted "--dard --sched-mode off" up fattree:2 --dard --sched-mode off
refused "--degrade without --rate" '^testbed: --degrade needs --rate$' \
	up fattree:2 --degrade core1-aggr1_1=0.25
refused "--degrade of a share of 1" '^testbed: --degrade needs A-B=F' \
	up fattree:2 --rate 50 --degrade core1-aggr1_1=1
refused "--degrade without a pair" '^testbed: --degrade needs A-B=F' \
	up fattree:2 --rate 50 --degrade core1=0.5
accepted "--rate 50 --degrade core1-aggr1_1=0.25,core2-aggr2_1=.5" \
	up fattree:2 --rate 50 --degrade core1-aggr1_1=0.25,core2-aggr2_1=.5
refused "--probe-interval without --dard" '^testbed: --probe-interval goes with --dard$' \
	up fattree:2 --probe-interval 0
ok "testbed: help" 0 "$tb" --help &&
	has "testbed: help names --sched-mode" "$out" '\[ --dard \[ --sched-mode MODE \]' &&
	has "testbed: and the modes" "$out" 'MODE := \{ fast \| paper \}' &&
	has "testbed: and the ages" "$out" '1 s \(fast\) or 10 s \(paper\)'

# bad NAME PATTERN ARGS...: experiment ARGS exits 2 naming PATTERN, and
# never reaches the testbed.
bad() {
	local name=$1 pat=$2
	shift 2
	rm -f "$tmp/calls"
	ok "experiment: $name" 2 "$ex" "$@" &&
		has "experiment: $name: says why" "$err" "$pat" &&
		is "experiment: $name: before any run" "$(cat "$tmp/calls" 2>/dev/null)" ""
}
bad "--repeat 0" "^experiment: --runs and --repeat need a number of runs, 1 to 999, not \`0'$" \
	compare --repeat 0
bad "--runs 0" "not \`0'$" compare --runs 0
bad "--runs and --seeds" '^experiment: --runs, --repeat and --seeds: one of them$' \
	compare --runs 2 --seeds 1-2
bad "--seeds backwards" '^experiment: --seeds 5-1: from the first to the last, 999 at most$' \
	compare --seeds 5-1
bad "--seeds not numbers" "^experiment: --seeds needs numbers" compare --seeds "1 b"
bad "--calibrate-seconds 2" "^experiment: --calibrate-seconds needs a whole number above 2, not \`2'$" \
	compare --calibrate-seconds 2
bad "--repeat abc" "not \`abc'$" compare --repeat abc
bad "--repeat 1000" "not \`1000'$" compare --repeat 1000
bad "--repeat with no number" '^experiment: --repeat needs a value$' compare --repeat
bad "--repeat with sweep" '^experiment: --runs, --repeat and --seeds go with compare$' sweep --repeat 2
bad "dard-paper passes the list check, bogus does not" \
	"^experiment: unknown scheduler \`bogus' in --schedulers; known: .* dard dard-paper dard-count sdn-greedy " \
	compare --schedulers ecmp,dard-paper,bogus
bad "--schedulers with spaces" \
	"^experiment: --schedulers takes a comma-separated list \\(ecmp,dard\\), not \`ecmp dard'$" \
	compare --schedulers "ecmp dard"
bad "--unscaled is a flag" "unknown scheduler \`sdn-bogus'" \
	compare --unscaled --repeat 3 --schedulers dard-paper,sdn-bogus
bad "dard-count on a deployment" \
	'^experiment: dard-count needs the namespace testbed ' \
	compare --exec "ssh %s" --config /etc/hostname --schedulers ecmp,dard-count
bad "an empty scheduler list" '^experiment: --schedulers needs at least one of: ' \
	compare --schedulers ,
bad "a value left off at the end" '^experiment: --link needs a value$' compare --link
bad "--workload with --size" \
	'^experiment: --workload draws the sizes and --load the rate: not with --size$' \
	compare --workload websearch --size 4
bad "--workload with --rates" 'not with --rates$' sweep --rates 0.1 --workload datamining
bad "--workload nope" "^experiment: unknown --workload \`nope': websearch or datamining$" \
	compare --workload nope
bad "--load without --workload" '^experiment: --load goes with --workload$' compare --load 0.3
bad "--load 0" "^experiment: --load needs a share of the links, 0.001 to 1, not \`0'$" \
	compare --workload websearch --load 0
ok "experiment: help" 0 "$ex" --help &&
	has "experiment: help names dard-paper" "$out" 'pvlb, dard, dard-paper,$' &&
	has "experiment: and --unscaled" "$out" '^  --unscaled ' &&
	has "experiment: with the paper's sizes" "$out" '--link 100 --size 128' &&
	has "experiment: and --runs, --repeat, --seeds" "$out" \
		'compare \[ OPTIONS \] \[ --runs N \| --repeat N \| --seeds LIST \]'

# What run_one asks of the testbed per scheduler, scaled and --unscaled:
# a fake testbed notes its arguments and fails the bring-up, where
# run_one stops.
printf '#!/bin/sh\necho "$*" >>"%s"\nexit 1\n' "$tmp/tb.log" >"$tmp/testbed"
chmod +x "$tmp/testbed"
upargs() {
	rm -f "$tmp/tb.log"
	(
		source "$ex"
		testbed=$tmp/testbed quiet=1 unscaled=${2:-} ebytes=${3:-}
		run_one "$tmp/ru" "$1"
	) 2>/dev/null
	cat "$tmp/tb.log" 2>/dev/null
}
up="^up fattree:4 --rate 50 --prefix exp_[0-9]+_"
has "run_one dard: --fast" "$(upargs dard)" "${up}dard --dard --fast$"
has "run_one dard-paper: the paper's mode, --fast" "$(upargs dard-paper)" \
	"${up}dard_paper --dard --sched-mode paper --fast$"
has "run_one dard-paper --unscaled: no --fast" "$(upargs dard-paper 1)" \
	"${up}dard_paper --dard --sched-mode paper$"
has "run_one dard --unscaled: no --fast" "$(upargs dard 1)" \
	"${up}dard --dard$"
has "run_one dard-count: links by their elephants alone" "$(upargs dard-count)" \
	"${up}dard_count --dard --busy-at 0 --fast$"
has "run_one dard-count --unscaled: no --fast" "$(upargs dard-count 1)" \
	"${up}dard_count --dard --busy-at 0$"
has "run_one sdn-optimal --unscaled: no --fast" "$(upargs sdn-optimal 1)" \
	"${up}sdn_optimal --dard --controller sdn-optimal$"
has "run_one pvlb: dardd's pvlb mode at the run's interval" "$(upargs pvlb)" \
	"${up}pvlb --dard --sched-mode pvlb --pvlb-interval 2$"
has "run_one ecmp --unscaled: still 1 s elephants" "$(upargs ecmp 1)" \
	"${up}ecmp --elephant-age 1$"
has "run_one switch-ecmp: the testbed's ECMP routing" "$(upargs switch-ecmp)" \
	"${up}switch_ecmp --routing ecmp$"
has "run_one dard --elephant-bytes: the datapath is given it" \
	"$(upargs dard "" 5000)" "${up}dard --dard --fast --elephant-bytes 5000$"

# A failure after the bring-up (here the traffic: dardctl fails) leaves
# no testbed or state behind: the exit downs it.
cat >"$tmp/tbok" <<EOF
#!/bin/sh
echo "\$*" >>"$tmp/tb.log"
[ "\$1" = up ] && mkdir -p "\$DARD_TESTBED_DIR/x"
exit 0
EOF
chmod +x "$tmp/tbok"
rm -f "$tmp/tb.log"
ok "run_one: the traffic fails after the bring-up" 1 bash -c \
	'source "$1"; testbed=$2 quiet=1 tbroot=$3; run_one "$3/ru" dard' \
	- "$ex" "$tmp/tbok" "$tmp/tbroot" &&
	has "and says so" "$err" '^experiment: generating the traffic failed$' &&
	has "the testbed brought down at the exit" "$(cat "$tmp/tb.log")" \
		'^down --prefix exp_[0-9]+_dard$' &&
	is "its state gone" "$(ls "$tmp/tbroot" | grep -v '^ru$')" ""

# Under a workload the plan asks dardctl for it, with no rate or size.
rm -f "$tmp/calls"
ok "run_one --workload: the traffic fails after the bring-up" 1 bash -c \
	'source "$1"; testbed=$2 quiet=1 tbroot=$3 workload=websearch load=0.3 pattern=random
	run_one "$3/ru" ecmp' - "$ex" "$tmp/tbok" "$tmp/tbroot" &&
	has "the plan: the workload at its load" "$(cat "$tmp/calls")" \
		' traffic gen format csv pattern random torp 0.5 podp 0.3 workload websearch load 0.3 duration 60 seed 1$'

# DIR/slowdown.md from canned flows: each flow's seconds over its bytes
# alone at 20 Mbit/s x 1428/1514, by size; the failed one counted apart.
mkdir -p "$tmp/sl/run1/ecmp"
printf '%s\n' id,start,src,dst,src_id,dst_id,bytes 0,0,h1,h2,a,b,50000 \
	1,0,h2,h3,a,b,2000000 2,0,h3,h4,a,b,20000000 3,0,h4,h1,a,b,10000 \
	>"$tmp/sl/run1/ecmp/plan.csv"
printf '%s\n' pattern,rate,scheduler,id,src,dst,start,seconds,bytes,moves,path \
	random,,ecmp,0,h1,h2,0,0.1,50000,0, random,,ecmp,1,h2,h3,0,2.0,2000000,0, \
	random,,ecmp,2,h3,h4,0,,0,0, random,,ecmp,3,h4,h1,0,0.05,10000,0, \
	>"$tmp/sl/run1/results.csv"
printf '%s\n' sched,flow,src,dst,start,end,time,moves ecmp,1,h2,h3,0,0.8,0.8,0 \
	ecmp,2,h3,h4,0,8.7,8.7,0 >"$tmp/sl/run1/model.csv"
(source "$ex"; workload=websearch load=0.3 link=20 schedulers=ecmp slowdown "$tmp/sl")
has "slowdown.md: the testbed's, by size" "$(cat "$tmp/sl/slowdown.md" 2>/dev/null)" \
	'^\| ecmp \| testbed \| 2 \| 8\.25 \| 11\.79 \| 1 \| 2\.36 \| 2\.36 \| 0 \| - \| - \| 1 \|$'
has "slowdown.md: dard-sim's on the same flows" "$(cat "$tmp/sl/slowdown.md" 2>/dev/null)" \
	'^\| ecmp \| dard-sim \| 0 \| - \| - \| 1 \| 0\.94 \| 0\.94 \| 1 \| 1\.03 \| 1\.03 \| 0 \|$'

# --unscaled's pVLB interval is the paper's 10 s, unless given.
pvlb() { (source "$ex" && parse compare "$@" && echo "$pvlb_interval"); }
is "--unscaled: pVLB every 10 s" "$(pvlb --unscaled)" 10
is "scaled: every 2 s" "$(pvlb)" 2
is "--unscaled --pvlb-interval 3: 3 s" "$(pvlb --pvlb-interval 3 --unscaled)" 3

# Remote mode (--exec): what each scheduler sets a host's dardd to, and
# what the exit sets it back to. The node is here, reached through a shim
# that does what ssh does (joins its arguments, sh -c runs the line), or
# one that passes words (scripts/cluster exec's way); its dardctl is a
# stand-in that keeps the mode of a dardd in $tmp/mode (none: no dardd),
# answers `-j sched show' as dardctl does and logs each `sched set' to
# $tmp/node.log. What the real dardd does with the command:
# tests/unit/test_dardd_mode.c; on a testbed: tests/netns/mode.sh.
mkdir -p "$tmp/shim"
cat >"$tmp/shim/dardctl" <<EOF
#!/bin/bash
m=\$(cat "$tmp/mode" 2>/dev/null) || { echo "No dardd in this network namespace" >&2; exit 1; }
case "\$*" in
"-j sched show")
	read -r mode _ interval <<<"\$m"
	echo "[{\"sched_mode\": \"\$mode\", \"pvlb_interval_s\": \${interval:-10}}]" ;;
"sched set "*)
	shift 2
	[[ \$1 =~ ^(fast|paper|off|pvlb)\$ ]] || { echo "invalid mode" >&2; exit 2; }
	echo "set \$*" >>"$tmp/node.log"
	was=\$(cut -s -d' ' -f3 "$tmp/mode")
	[[ \$1 == pvlb ]] && was=\${3:-\$was}
	echo "\$1 - \$was" | sed 's/ *\$//' >"$tmp/mode" ;;
*) exit 2 ;;
esac
EOF
# ssh NODE ARGS...: ssh's way, the words joined into one line for sh.
cat >"$tmp/ssh" <<EOF
#!/bin/sh
shift
PATH=$tmp/shim:\$PATH exec sh -c "\$*"
EOF
# words NODE CMD...: CMD as words (scripts/cluster exec's way).
cat >"$tmp/words" <<EOF
#!/bin/sh
shift
PATH=$tmp/shim:\$PATH exec "\$@"
EOF
printf '#!/bin/sh\necho %s\n' "'[{\"name\": \"h1\"}]'" >"$tmp/addrs"
chmod +x "$tmp/shim/"* "$tmp/ssh" "$tmp/words" "$tmp/addrs"
# remote SCHED [TEMPLATE]: experiment's remote_scheduler for SCHED on h1
# (through the ssh shim unless TEMPLATE), its status, the commands the
# node took and its mode then; after its exit (cleanup), the mode in
# $tmp/after and the commands the exit sent in $tmp/restored.
remote() {
	: >"$tmp/node.log"
	(
		source "$ex"
		dardctl=$tmp/addrs rconfig=/dev/null exec_tmpl=${2:-"$tmp/ssh %s"}
		fabric_if=dard0 ndardctl=dardctl pvlb_interval=2
		remote_scheduler "$1" 2>"$tmp/remote.err"
		echo "status $?"
		cat "$tmp/node.log"
		echo "mode $(cat "$tmp/mode")"
		: >"$tmp/node.log"
	) || sed 's/^/failed: /' "$tmp/remote.err"
	cat "$tmp/mode" >"$tmp/after" 2>/dev/null
	cat "$tmp/node.log" >"$tmp/restored"
}
lines() { printf '%s\n' "$@"; }

echo "fast" >"$tmp/mode"
is "remote dard on a fast dardd: set fast" "$(remote dard)" \
	"$(lines 'status 0' 'set fast' 'mode fast -')"
is "and the exit sets it back" "$(cat "$tmp/restored")" "set fast"
is "remote dard-paper: set paper" "$(remote dard-paper)" \
	"$(lines 'status 0' 'set paper' 'mode paper -')"
is "and the exit sets it back to fast" "$(cat "$tmp/after")" "fast -"
is "remote pvlb: pvlb at the run's interval" "$(remote pvlb)" \
	"$(lines 'status 0' 'set pvlb interval 2' 'mode pvlb - 2')"
is "and the exit: fast again, the interval the run's" "$(cat "$tmp/after")" \
	"fast - 2"
is "remote ecmp: off, no moves" "$(remote ecmp)" \
	"$(lines 'status 0' 'set off' 'mode off - 2')"
is "remote sdn-optimal: off too (remote mode runs no controller)" \
	"$(remote sdn-optimal)" "$(lines 'status 0' 'set off' 'mode off - 2')"
echo "pvlb - 7" >"$tmp/mode"
is "remote dard, as words, on a pvlb dardd" "$(remote dard "$tmp/words %s")" \
	"$(lines 'status 0' 'set fast' 'mode fast - 7')"
is "and the exit: pvlb at its own interval" "$(cat "$tmp/restored")" \
	"set pvlb interval 7"
rm -f "$tmp/mode"
remote dard >/dev/null
is "remote dard, no dardd on the node: fails, naming it" \
	"$(grep '^experiment:' "$tmp/remote.err")" \
	"experiment: h1: its dardd did not say its mode (is dardd running there, as new as this dardctl?)"

# summary DIR is dard-exp report DIR (its statistics are unit-tested in
# tests/unit/test_exp_*.c): one run as an older experiment left it
# (DIR/results.csv), then three paired runs (DIR/runR), with hand-made
# rows whose averages give the figures by hand.
header=pattern,rate,scheduler,id,src,dst,start,seconds,bytes,moves,path
mkdir -p "$tmp/one"
cat >"$tmp/one/results.csv" <<EOF
$header
stride,0.1,switch-ecmp,1,e1_1,e2_1,0.5,20.000,33554432,0,
stride,0.1,switch-ecmp,2,e1_2,e2_2,1.5,22.000,33554432,0,
stride,0.1,ecmp,1,e1_1,e2_1,0.5,18.000,33554432,0,tor1_1 aggr1_1 core1 aggr2_1 tor2_1
stride,0.1,ecmp,2,e1_2,e2_2,1.5,22.000,33554432,0,tor1_1 aggr1_2 core3 aggr2_2 tor2_1
stride,0.1,pvlb,1,e1_1,e2_1,0.5,17.000,33554432,3,tor1_1 aggr1_1 core2 aggr2_1 tor2_1
stride,0.1,pvlb,2,e1_2,e2_2,1.5,,0,2,tor1_1 aggr1_1 core1 aggr2_1 tor2_1
stride,0.1,dard,1,e1_1,e2_1,0.5,15.000,33554432,1,tor1_1 aggr1_1 core1 aggr2_1 tor2_1
stride,0.1,dard,2,e1_2,e2_2,1.5,16.000,33554432,2,tor1_1 aggr1_2 core4 aggr2_2 tor2_1
EOF
ok "summary of one run" 0 "$ex" summary "$tmp/one" &&
	has "one run: ecmp's average" "$out" '^1 +- +ecmp +2 +0 +20\.000 ' &&
	has "one run: pvlb's failed flow left out" "$out" '^1 +- +pvlb +2 +1 +17\.000 ' &&
	has "one run: DARD over ECMP, (20 - 15.5) / 20, no interval" "$out" \
		'^dard +ecmp +1 +22\.50 .* one run: no interval$' &&
	has "one run: DARD over switch ECMP, (21 - 15.5) / 21" "$out" \
		'^dard +switch-ecmp +1 +26\.19 '

# Three paired runs of four schedulers, each flow a second longer per
# run; in run 2 every dard flow failed: its runs are 1 and 3.
for r in 1 2 3; do
	mkdir -p "$tmp/rep/run$r"
	{
		echo "$header"
		for s in ecmp:20 dard-paper:18 dard:16 sdn-optimal:15; do
			a=$((${s#*:} + r))
			if [[ $s == dard:* && $r == 2 ]]; then
				echo "stride,0.1,dard,1,e1_1,e2_1,0.5,,0,0,"
				echo "stride,0.1,dard,2,e1_2,e2_2,1.5,,0,0,"
				continue
			fi
			echo "stride,0.1,${s%:*},1,e1_1,e2_1,0.5,$a.000,1,0,"
			echo "stride,0.1,${s%:*},2,e1_2,e2_2,1.5,$((a + 2)).000,1,1,"
		done
	} >"$tmp/rep/run$r/results.csv"
done
printf 'topo=fattree:4\nlink=50\ngoodput=0.943197\nschedulers=ecmp,dard-paper,dard,sdn-optimal\nruns=3\nseeds=1 1 1\nloadavg=0.2\n' \
	>"$tmp/rep/meta"
ok "summary of three runs" 0 "$ex" summary "$tmp/rep" &&
	has "three runs: ecmp's mean 23, sd 1, t(2) 4.303 x 1 / sqrt 3" "$out" \
		'^ecmp +3 +23\.000 +1\.000 +2\.484 +22\.000 +24\.000 ' &&
	has "three runs: dard's failed run left out" "$out" \
		'^dard +2 +19\.000 +1\.414 +12\.706 +18\.000 +20\.000 ' &&
	has "three runs: DARD over ECMP by pairs, (18.18 + 16.67) / 2" "$out" \
		'^dard +ecmp +2 +17\.42 +9\.63 ' &&
	has "three runs: SDN-optimal over ECMP, all three pairs" "$out" \
		'^sdn-optimal +ecmp +3 +21\.77 ' &&
	is "and the same as JSON" "$(jq -r '.schedulers.ecmp.mean' "$tmp/rep/summary.json")" 23

mkdir -p "$tmp/empty"
ok "summary of nothing fails" 1 "$ex" summary "$tmp/empty" &&
	has "and says what is missing" "$err" 'not an experiment directory'

bad "--out holding runs" \
	"^experiment: --out $tmp/rep already holds run directories \\(of an earlier experiment\\): name another$" \
	compare --repeat 2 --out "$tmp/rep"

if command -v gnuplot >/dev/null; then
	png() { [[ $(head -c 8 "$1" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]]; }
	ok "plot of three runs" 0 "$ex" plot "$tmp/rep" &&
		is "the testbed-and-model chart is a PNG" "$(png "$tmp/rep/testbed-model.png" && echo y)" y &&
		is "each run has its CDF" "$(png "$tmp/rep/run3/transfer-time-cdf.png" && echo y)" y &&
		mkdir -p "$tmp/a dir" && cp -r "$tmp/rep" "$tmp/a dir/" &&
		rm -f "$tmp/a dir/rep/run"*/*.png &&
		ok "plot of runs in a path with a space" 0 "$ex" plot "$tmp/a dir/rep" &&
		is "each run still has its CDF" \
			"$(png "$tmp/a dir/rep/run2/transfer-time-cdf.png" && echo y)" y &&
		is "the chart's data: mean, interval, model, bound" "$(cat "$tmp/rep/means.dat")" \
			"$(printf '%s\n' 'ecmp 23 2.484 NaN NaN' 'dard 19 12.706 NaN NaN' \
				'dard-paper 21 2.484 NaN NaN' 'sdn-optimal 18 2.484 NaN NaN')"
else
	echo "skip plot: no gnuplot"
fi

summary
