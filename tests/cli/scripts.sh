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
#   remote_scheduler --> $tmp/ssh h1 (joins, sh -c) --> stand-in dardd
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
# The stand-in dardds (below) are found by their executable, never by
# a pid kept in a file that may outlive them.
cleanup() {
	local p
	for p in $(pgrep -x dardd); do
		[[ $(readlink "/proc/$p/exe") == "$tmp/real/dardd" ]] && kill "$p"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
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
			'^-t fattree:2 topo gen output '
		is "testbed: $name: no state left" "$(ls -A "$tmp/state" 2>/dev/null)" ""
	else
		has "testbed: $name: reached the root check" "$err" 'must run as root'
	fi
}

refused "--sched-mode without --dard" '^testbed: --sched-mode goes with --dard$' \
	up fattree:2 --sched-mode paper
refused "a bad mode names the good ones" "^testbed: invalid --sched-mode \`slow': fast or paper$" \
	up fattree:2 --dard --sched-mode slow
refused "--sched-mode with no mode" '^testbed: --sched-mode needs fast or paper$' \
	up fattree:2 --dard --sched-mode
refused "--sched-mode and --no-datapath" '^testbed: --sched-mode goes with --dard$' \
	up fattree:2 --no-datapath --sched-mode fast
refused "--fast still needs --dard" '^testbed: --fast goes with --dard$' \
	up fattree:2 --fast
accepted "--dard --sched-mode paper" up fattree:2 --dard --sched-mode paper
accepted "--dard --sched-mode fast --fast" up fattree:2 --dard --sched-mode fast --fast
accepted "--sched-mode before --dard" up fattree:2 --sched-mode paper --dard
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
bad "--unscaled is a flag" "unknown scheduler \`sdn-bogus'" \
	compare --unscaled --repeat 3 --schedulers dard-paper,sdn-bogus
bad "dard-count on a deployment" \
	'^experiment: dard-count needs the namespace testbed ' \
	compare --exec "ssh %s" --config /etc/hostname --schedulers ecmp,dard-count
bad "an empty scheduler list" '^experiment: --schedulers needs at least one of: ' \
	compare --schedulers ,
bad "a value left off at the end" '^experiment: --link needs a value$' compare --link
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

# --unscaled's pVLB interval is the paper's 10 s, unless given.
pvlb() { (source "$ex" && parse compare "$@" && echo "$pvlb_interval"); }
is "--unscaled: pVLB every 10 s" "$(pvlb --unscaled)" 10
is "scaled: every 2 s" "$(pvlb)" 2
is "--unscaled --pvlb-interval 3: 3 s" "$(pvlb --pvlb-interval 3 --unscaled)" 3

# Remote mode (--exec): what each scheduler leaves running on a host, and
# what the exit leaves. The node is here, reached through a shim that
# does what ssh does (joins its arguments, sh -c runs the line); its
# dardd is a stand-in (a compiled sleeper, so that its name is dardd and
# its /proc cmdline its arguments) that logs "start ARGS" and, on
# SIGTERM, "stop ARGS" to $tmp/node.log; pgrep sees only stand-ins.
# A dardd found on PATH (a start without a recorded command line) is a
# script that waits $STANDIN_DELAY before it runs the stand-in, so that
# a start that does not wait for it fails.
mkdir -p "$tmp/shim" "$tmp/real"
cat >"$tmp/standin.c" <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int argc_;
static char **argv_;

static void note(const char *what)
{
	FILE *f = fopen(getenv("STANDIN_LOG"), "a");

	if (!f)
		return;
	fputs(what, f);
	for (int i = 1; i < argc_; i++)
		fprintf(f, " %s", argv_[i]);
	fputc('\n', f);
	fclose(f);
}

int main(int argc, char **argv)
{
	struct timespec t = { .tv_sec = 60 };
	sigset_t term;

	argc_ = argc;
	argv_ = argv;
	if (getenv("STANDIN_FAIL"))
		return 1;
	/* No handler: stdio is not async-signal-safe, and note() may be
	 * running. SIGTERM stays pending until sigtimedwait takes it. */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
	note("start");
	if (sigtimedwait(&term, NULL, &t) == SIGTERM)
		note("stop");
	return 0;
}
EOF
${CC:-cc} -o "$tmp/real/dardd" "$tmp/standin.c" || exit 1
export STANDIN_LOG=$tmp/node.log
cat >"$tmp/shim/dardd" <<EOF
#!/bin/sh
sleep \${STANDIN_DELAY:-0}
exec $tmp/real/dardd "\$@"
EOF
cat >"$tmp/shim/pgrep" <<EOF
#!/bin/sh
for p in \$(/usr/bin/pgrep -x dardd); do
	[ "\$(readlink /proc/\$p/exe)" = $tmp/real/dardd ] && echo \$p
done
exit 0
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
# running: the stand-ins' arguments, a line each, sorted.
running() {
	local p
	for p in $(PATH=$tmp/shim:$PATH pgrep); do
		tr '\0' ' ' <"/proc/$p/cmdline" | cut -d' ' -f2- | sed 's/ $//'
	done | sort
}
# started ARGS...: a stand-in logged its start with ARGS (a poll, 20 s),
# or the test says which did not; the log then emptied.
started() {
	within 20 grep -q "^start $*\$" "$tmp/node.log" ||
		fail "a stand-in dardd $* never started"
	: >"$tmp/node.log"
}
# standin ARGS...: the deployment's dardd, ARGS in its command line.
standin() {
	setsid "$tmp/real/dardd" "$@" </dev/null >/dev/null 2>&1 &
	started "$@"
}
# remote SCHED [TEMPLATE]: experiment's remote_scheduler for SCHED on h1
# (through the ssh shim unless TEMPLATE), its status, what it did and
# what then ran; after its exit (cleanup), $tmp/after has what runs.
remote() {
	: >"$tmp/node.log"
	(
		source "$ex"
		dardctl=$tmp/addrs rconfig=/dev/null exec_tmpl=${2:-"$tmp/ssh %s"}
		fabric_if=dard0 remote_log=$tmp/dardd.log remote_state=$tmp/state.h1
		remote_scheduler "$1" 2>"$tmp/remote.err"
		echo "status $?"
		cat "$tmp/node.log"
		running | sed 's/^/running: /'
		: >"$tmp/node.log"
	) || sed 's/^/failed: /' "$tmp/remote.err"
	running >"$tmp/after"
}
lines() { printf '%s\n' "$@"; }
# standins_stop: every stand-in stopped, and gone (so its "stop" line is
# written: a poll, 20 s) before the log is emptied.
none_run() { [[ -z $(PATH=$tmp/shim:$PATH pgrep) ]]; }
standins_stop() {
	local p
	for p in $(PATH=$tmp/shim:$PATH pgrep); do kill "$p"; done
	within 20 none_run || fail "stand-ins still run: $(running)"
	: >"$tmp/node.log"
}

is "remote dard, none running: one started in the fast mode, waited for" \
	"$(STANDIN_DELAY=0.5 remote dard)" \
	"$(lines 'status 0' 'start -M fast -i dard0 h1' 'running: -M fast -i dard0 h1')"
is "and the exit stops it again" "$(cat "$tmp/after")" ""
is "and leaves no state on the node" "$(ls "$tmp"/state.h1* 2>/dev/null)" ""

STANDIN_FAIL=1 remote dard >/dev/null
has "remote dard: a dardd that does not come up fails, naming the node" \
	"$(cat "$tmp/remote.err")" '^experiment: h1: dardd did not come up in the fast mode \(its log: '

own="-c /etc/dard/dard.conf -k /etc/dard/key -P /sys/fs/bpf/dard -i dard0 h1"
standin $own
standin -c /etc/dard/dard.conf -i other0 h9
is "remote dard: the deployment's own (no -M) is kept" "$(remote dard)" \
	"$(lines 'status 0' 'running: -c /etc/dard/dard.conf -i other0 h9' "running: $own")"
is "remote dard-paper: only its own replaced, its options kept, -M paper added" \
	"$(remote dard-paper)" \
	"$(lines 'status 0' "stop $own" "start -M paper $own" \
		"running: -M paper $own" 'running: -c /etc/dard/dard.conf -i other0 h9')"
is "and the exit restores the original command line" "$(cat "$tmp/after")" \
	"$(lines '-c /etc/dard/dard.conf -i other0 h9' "$own")"
is "remote ecmp (remote_scheduler): only its dardd stopped" "$(remote ecmp)" \
	"$(lines 'status 0' "stop $own" 'running: -c /etc/dard/dard.conf -i other0 h9')"
is "and restored at the exit" "$(cat "$tmp/after")" \
	"$(lines '-c /etc/dard/dard.conf -i other0 h9' "$own")"
standins_stop

standin -M paper -i dard0 h1
is "remote dard: a -M paper dardd is replaced by a fast one" "$(remote dard)" \
	"$(lines 'status 0' 'stop -M paper -i dard0 h1' 'start -M fast -i dard0 h1' \
		'running: -M fast -i dard0 h1')"
is "and restored" "$(cat "$tmp/after")" "-M paper -i dard0 h1"
is "remote dard-paper: the -M paper dardd is kept" "$(remote dard-paper)" \
	"$(lines 'status 0' 'running: -M paper -i dard0 h1')"
standins_stop
standin -c x --sched-mode=paper -i dard0 h1
is "remote dard, as words: --sched-mode=paper is dropped for -M fast" \
	"$(remote dard "$tmp/words %s")" \
	"$(lines 'status 0' 'stop -c x --sched-mode=paper -i dard0 h1' \
		'start -M fast -c x -i dard0 h1' 'running: -M fast -c x -i dard0 h1')"
is "and restored" "$(cat "$tmp/after")" "-c x --sched-mode=paper -i dard0 h1"
standins_stop
is "remote ecmp, none running: nothing done" "$(remote ecmp)" "status 0"
# A dardd whose parent never reaps it is a zombie once killed: stopped,
# not waited for until the bound (its State line says Z). The bound is
# 60 s here (and its parent outlives it), so that "at once", under 30 s
# however busy the machine, tells the two apart.
: >"$tmp/node.log"
setsid sh -c "\"$tmp/real/dardd\" -i dard0 h1 </dev/null >/dev/null 2>&1 & exec sleep 120" &
zparent=$!
started -i dard0 h1
t0=$EPOCHREALTIME
is "remote ecmp: a dardd left a zombie counts as stopped" \
	"$(DARD_STOP_BOUND=60 remote ecmp)" "$(lines 'status 0' 'stop -i dard0 h1')"
took=$(since "$t0")
t "and at once, not after the 60 s bound ($took s)" \
	awk -v s="$took" 'BEGIN { exit !(s < 30) }'
kill "$zparent"
standins_stop
is "remote: DARD_STOP_BOUND must be whole seconds" \
	"$(DARD_STOP_BOUND=1.5 remote ecmp)" \
	"failed: experiment: DARD_STOP_BOUND: expected whole seconds, not \`1.5'"

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
