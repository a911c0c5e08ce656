// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-sim's options: one table gives each option's name, argument, the
 * modes it applies to, its parser and bounds, and its lines of --help;
 * getopt's tables, the help and the messages all come from it.
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "sched.h"
#include "sim.h"
#include "stdopts.h"
#include "traffic.h"
#include "optparse.h"

#define OFF(field) offsetof(struct sim_args, field)

/* In the order of --help's sections. */
static const struct sim_opt opts[] = {
	{.name = "place", .val = 'P', .modes = SIM_PLACE | SIM_RUN},
	{.name = "run", .val = 'R', .modes = SIM_PLACE | SIM_RUN},
	{.name = "pattern",
	 .val = 'p',
	 .modes = SIM_RUN,
	 .parse = opt_pattern,
	 .flags = OPT_TRAFFIC,
	 .help_in = SIM_RUN,
	 .help = "  --pattern P    stride (default), random or staggered (0.5, 0.3)\n"},
	{.name = "rate",
	 .val = 'r',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(rate),
	 .min = 0,
	 .max = 1e7,
	 .flags = OPT_ABOVE_MIN | OPT_TRAFFIC,
	 .domain = "a positive number up to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --rate R       flows per second per source (default 0.2)\n"},
	{.name = "size",
	 .val = 'z',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(size),
	 .min = 0,
	 .max = 1e7,
	 .flags = OPT_ABOVE_MIN | OPT_TRAFFIC,
	 .domain = "a positive number up to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --size MB      per flow (default 512)\n"},
	{.name = "duration",
	 .val = 'D',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(duration),
	 .min = 0,
	 .max = 1e7,
	 .flags = OPT_ABOVE_MIN | OPT_TRAFFIC,
	 .domain = "a positive number up to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --duration S   seconds in which flows arrive (default 120)\n"
		 "                 The paper's ns-2 runs say 5 per second of 128 MB;\n"
		 "                 on 1 Gbit/s links that is 5.4 times what a host\n"
		 "                 link carries. The defaults load host links to 0.86\n"
		 "                 (Documentation/experiments.md, \"Simulation\").\n"},
	{.name = "workload",
	 .val = 'w',
	 .modes = SIM_RUN,
	 .parse = opt_workload,
	 .flags = OPT_TRAFFIC,
	 .help_in = SIM_RUN,
	 .help = "  --workload W   draw flow sizes from W, websearch (DCTCP's, up\n"
		 "                 to 30 MB, mean 1.7 MB) or datamining (VL2's, half\n"
		 "                 of them one packet, up to 973 MB, mean 7.5 MB),\n"
		 "                 at --load's arrival rate, instead of --rate and\n"
		 "                 --size (not with them); --pattern defaults to\n"
		 "                 random and --step to 0. Adds each scheduler's\n"
		 "                 slowdowns by flow size\n"
		 "                 (Documentation/experiments.md, \"Workloads\")\n"},
	{.name = "load",
	 .val = 'u',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(load),
	 .min = 0,
	 .max = 1,
	 .flags = OPT_ABOVE_MIN | OPT_TRAFFIC,
	 .domain = "a share above 0, up to 1",
	 .help_in = SIM_RUN,
	 .help = "  --load L       with --workload: every host's flows arrive as a\n"
		 "                 Poisson process that carries L of its link's\n"
		 "                 capacity (--link or the topology's) on average:\n"
		 "                 L * capacity / the mean size a second (default 0.5)\n"},
	{.name = "flows",
	 .val = 'f',
	 .modes = SIM_RUN,
	 .parse = opt_string,
	 .off = OFF(flows),
	 .help_in = SIM_RUN,
	 .help = "  --flows FILE   replay FILE's flows instead of drawing them (no\n"
		 "                 --pattern, --rate, --size or --duration): CSV\n"
		 "                 whose header names start, src, dst and bytes in\n"
		 "                 any order, and maybe id (the flows' numbers in\n"
		 "                 --csv); other columns are ignored, so an\n"
		 "                 experiment's plan.csv (dardctl traffic gen format\n"
		 "                 csv) is one. Flows are sorted by start\n"},
	{.name = "link",
	 .val = 'l',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.link),
	 .min = 0,
	 .max = 1e7,
	 .flags = OPT_ABOVE_MIN,
	 .domain = "Mbit/s above 0, up to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --link MBIT    every link at MBIT Mbit/s, a testbed's --rate\n"
		 "                 (default: the topology's, 1000 on generated trees)\n"},
	{.name = "goodput",
	 .val = 'g',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.goodput),
	 .min = 0,
	 .max = 1,
	 .flags = OPT_ABOVE_MIN,
	 .domain = "a share above 0, up to 1",
	 .help_in = SIM_RUN,
	 .help = "  --goodput F    flows share F of every link's rate (default 1):\n"
		 "                 0.9432 (1428/1514, a TCP segment's payload in its\n"
		 "                 Ethernet frame) makes a flow alone on its path\n"
		 "                 take as long as a testbed's iperf3 transfer\n"},
	{.name = "sched",
	 .val = 'S',
	 .modes = SIM_RUN,
	 .parse = opt_sched,
	 .help_in = SIM_RUN,
	 .help = "  --sched LIST   comma-separated schedulers, or all (default)\n"},
	/* A step below 1 ms would take forever; 0 is exact. */
	{.name = "step",
	 .val = 'T',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.step),
	 .min = 1e-3,
	 .max = 1e7,
	 .flags = OPT_OR_ZERO,
	 .domain = "0 or a number from 0.001 to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --step S       rates are recomputed every S seconds (default\n"
		 "                 0.25; 0.001 at least): arrivals wait for the next\n"
		 "                 step and other events are taken at the step after\n"
		 "                 them; 0 makes every event exact, which is slow on\n"
		 "                 big trees\n"},
	{.name = "elephant-age",
	 .val = 'E',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.elephant_age),
	 .min = 0,
	 .max = 1e7,
	 .domain = "a number from 0 to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --elephant-age S  when a flow becomes an elephant (default:\n"
		 "                 dard's mode, 1; every other scheduler 10)\n"},
	{.name = "elephant-bytes",
	 .val = 'Y',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.elephant_bytes),
	 .min = 0,
	 .max = 1e15,
	 .domain = "bytes from 0 to 10^15",
	 .help_in = SIM_RUN,
	 .help = "  --elephant-bytes B  and carried B bytes of payload (default: 0.1 s\n"
		 "                 at its host link's rate, as dardd's datapath; 0: any)\n"},
	/* DARD's own intervals and threshold, to see what each costs. */
	{.name = "round",
	 .val = 'I',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.schedule),
	 .min = 0,
	 .max = 1e7,
	 .flags = OPT_ABOVE_MIN,
	 .domain = "seconds above 0, up to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --round S      dard, dard-paper: a monitor's rounds every\n"
		 "                 S + U[0, S] s (default: the mode's, 1 or 5)\n"},
	{.name = "pvlb",
	 .val = 'v',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.pvlb),
	 .min = 0,
	 .max = 1e7,
	 .flags = OPT_ABOVE_MIN,
	 .domain = "seconds above 0, up to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --pvlb S       pvlb: a flow's random re-pick every S s of\n"
		 "                 its life (default 10, the paper's)\n"},
	{.name = "central",
	 .val = 'c',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.central),
	 .min = 0,
	 .max = 1e7,
	 .flags = OPT_ABOVE_MIN,
	 .domain = "seconds above 0, up to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --central S    hedera, sdn-*: a round every S s (default\n"
		 "                 5, the paper's; dard-controller's is 1)\n"},
	{.name = "query",
	 .val = 'Q',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.query),
	 .min = 0,
	 .max = 1e7,
	 .flags = OPT_ABOVE_MIN,
	 .domain = "seconds above 0, up to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --query S      dard, dard-paper: switch queries every S s\n"
		 "                 (default 1)\n"},
	{.name = "delta",
	 .val = 'e',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.delta),
	 .min = 0,
	 .max = 1e7,
	 .domain = "Mbit/s from 0 to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --delta D      dard, dard-paper: a move must gain more than D\n"
		 "                 Mbit/s (default: 1% of the paths' bandwidth; dard-paper 10)\n"},
	{.name = "quiet-at",
	 .val = 'W',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.quiet),
	 .min = 0,
	 .max = 1,
	 .domain = "a share from 0 to 1",
	 .help_in = SIM_RUN,
	 .help = "  --quiet-at F   dard, dard-paper: a monitor whose elephants run\n"
		 "                 at F of their host link share or more asks\n"
		 "                 nothing (default: the mode's, 0.9 or 0: never)\n"},
	{.name = "quiet-sleep",
	 .val = 'Z',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.sleep),
	 .min = 0,
	 .max = 1e7,
	 .domain = "seconds from 0 to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --quiet-sleep S  dard, dard-paper: after a round that wanted no\n"
		 "                 move, quiet for S s while the rates hold\n"
		 "                 (default: the mode's, 3 or 0)\n"},
	{.name = "busy-at",
	 .val = 'B',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.busy),
	 .min = 0,
	 .max = 1,
	 .domain = "a share from 0 to 1",
	 .help_in = SIM_RUN,
	 .help = "  --busy-at F    dard, dard-paper: a link is a bottleneck only\n"
		 "                 when its load is F of its bandwidth or more;\n"
		 "                 0: by its elephants alone (default: the\n"
		 "                 mode's, 0.9 or 0)\n"},
	{.name = "min-share",
	 .val = 'M',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.min_share),
	 .min = 0,
	 .max = 1,
	 .domain = "a share from 0 to 1",
	 .help_in = SIM_RUN,
	 .help = "  --min-share F  dard, dard-paper: a switch counts an elephant\n"
		 "                 on a link only while its rate is F of the\n"
		 "                 link's bandwidth or more (dard-switchd's\n"
		 "                 --min-share; default: the mode's, 1/64 or 0)\n"},
	{.name = "escape",
	 .val = 'X',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.escape),
	 .min = 0,
	 .max = 1,
	 .domain = "a probability from 0 to 1",
	 .help_in = SIM_RUN,
	 .help = "  --escape P     dard, dard-paper: a round with no move that gains\n"
		 "                 takes a neutral one with probability P, twice\n"
		 "                 per flow at most, and draws its target among\n"
		 "                 near-equal ones (default: the mode's, 0.5 or 0)\n"},
	{.name = "watch-interval",
	 .val = 'i',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.watch),
	 .min = 0,
	 .max = DARD_WATCH_MAX,
	 .domain = "seconds from 0 to 20",
	 .help_in = SIM_RUN,
	 .help = "  --watch-interval S  dard, dard-paper: every host watches the\n"
		 "                 switches above its ToR for every link of its\n"
		 "                 paths they see, asking every S, elephants or\n"
		 "                 none, and is told of a change at the next\n"
		 "                 query (their notices), so that it knows every\n"
		 "                 destination's dead paths (dardd's\n"
		 "                 --watch-interval; default: the mode's, 20 or\n"
		 "                 0: none; at most 20)\n"},
	{.name = "split",
	 .val = 'k',
	 .modes = SIM_RUN,
	 .parse = opt_u32,
	 .off = OFF(sim.split),
	 .min = 1,
	 .max = DARD_SIM_SPLIT_MAX,
	 .domain = "a number of parts from 1 to 8",
	 .help_in = SIM_RUN,
	 .help = "  --split K      dard, dard-paper: a flow becoming an elephant is\n"
		 "                 spread over K paths (default 1: one path, as\n"
		 "                 ever; up to 8, and the pair's paths): K parts,\n"
		 "                 the first on the flow's path, the others on the\n"
		 "                 paths its host's view gives the most bandwidth.\n"
		 "                 Each part is a flow of its own for max-min\n"
		 "                 fairness (uncoupled subflows), the flow's rate\n"
		 "                 their sum; the flow ends when its bytes are\n"
		 "                 done. Switches count parts as elephants, rounds\n"
		 "                 move them, never two of a flow onto one path.\n"
		 "                 Not fair to whole flows: a flow's K parts take K\n"
		 "                 shares of a shared bottleneck. The other\n"
		 "                 schedulers ignore it; refused when --sched has\n"
		 "                 no DARD, and with --fail\n"},
	{.name = "anneal",
	 .val = 'A',
	 .modes = SIM_RUN,
	 .parse = opt_u32,
	 .off = OFF(sim.anneal),
	 .min = 0,
	 .max = 100000000,
	 .domain = "a number of steps up to 10^8",
	 .help_in = SIM_RUN,
	 .help = "  --anneal N     Hedera's annealing steps per round (default 1000\n"
		 "                 plus 10 per destination host)\n"},
	{.name = "large",
	 .val = 'L',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.large),
	 .min = 0,
	 .max = 1,
	 .domain = "a fraction in [0, 1]",
	 .help_in = SIM_RUN,
	 .help = "  --large F      the controllers' large-flow share (default 0.1;\n"
		 "                 0 shows them every flow, 1 only the elephants)\n"},
	{.name = "csv",
	 .val = 'C',
	 .modes = SIM_RUN,
	 .parse = opt_string,
	 .off = OFF(csv),
	 .help_in = SIM_RUN,
	 .help = "  --csv FILE     every flow of every scheduler: sched, flow, src,\n"
		 "                 dst, start, end, time, moves\n"},
	{.name = "fail",
	 .val = 'F',
	 .modes = SIM_RUN,
	 .parse = opt_fail_spec,
	 .help_in = SIM_RUN,
	 .help = "  --fail SPEC    links down: A-B@T (the link between switches A\n"
		 "                 and B, down at T s), A-B@T1-T2 (back up at T2),\n"
		 "                 core:N@T (the Nth core link, from 1, in the order\n"
		 "                 of dardctl topo gen's link lines) or random:N@T\n"
		 "                 (N random core links, by the seed);\n"
		 "                 comma-separated, repeatable. Adds switch-ecmp to\n"
		 "                 all and, per scheduler, the flow-seconds stalled\n"
		 "                 and the flows never finished (Documentation/\n"
		 "                 experiments.md, \"Failures\")\n"},
	{.name = "degrade",
	 .val = 'U',
	 .modes = SIM_RUN,
	 .parse = opt_degrade_spec,
	 .help_in = SIM_RUN,
	 .help = "  --degrade SPEC links at a share of their capacity for the whole\n"
		 "                 run: LINK=F, LINK as in --fail without @T (A-B,\n"
		 "                 core:N, random:N, the same draw as --fail's), F\n"
		 "                 above 0 and below 1, both directions;\n"
		 "                 comma-separated, repeatable. Max-min fairness,\n"
		 "                 dard's switch answers and hedera's annealing see\n"
		 "                 it; ecmp, pvlb and sdn-* are blind to capacity;\n"
		 "                 bound only where it keeps the tree even\n"
		 "                 (Documentation/experiments.md, \"Asymmetry\")\n"},
	{.name = "converge",
	 .val = 'G',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.converge),
	 .min = 0,
	 .max = 1e7,
	 .domain = "seconds from 0 to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --converge S   switch-ecmp's routing convergence after a\n"
		 "                 failure, and the controllers' extra round\n"
		 "                 after it (default 0.2)\n"},
	{.name = "rto",
	 .val = 'O',
	 .modes = SIM_RUN,
	 .parse = opt_double,
	 .off = OFF(sim.rto),
	 .min = 0,
	 .max = 1e7,
	 .domain = "seconds from 0 to 10^7",
	 .help_in = SIM_RUN,
	 .help = "  --rto S        dard: a flow stalled S seconds on a failed path\n"
		 "                 no monitor told its host of moves to the next\n"
		 "                 path (TCP timeout repair; default 0: never)\n"},
	/* Four passes: on fattree:16 random the fourth moves less than a
	 * flow a round on average. */
	{.name = "refine",
	 .val = 'N',
	 .modes = SIM_RUN,
	 .parse = opt_u32,
	 .off = OFF(sim.refine),
	 .min = 0,
	 .max = 1000,
	 .domain = "a number of passes up to 1000",
	 .help_in = SIM_RUN,
	 .help = "  --refine N     sdn-optimal's local search passes (default 4;\n"
		 "                 0: the ToR colouring alone)\n"},
	{.name = "keep",
	 .val = 'K',
	 .modes = SIM_RUN,
	 .parse = opt_u32,
	 .off = OFF(sim.keep),
	 .min = 0,
	 .max = 1,
	 .domain = "0 or 1",
	 .help_in = SIM_RUN,
	 .help = "  --keep 1       sdn-optimal's search keeps a flow on its path\n"
		 "                 wherever the new placement gains nothing there\n"
		 "                 (default 0: every flow takes the new one)\n"},
	{.name = "share",
	 .val = 'H',
	 .modes = SIM_RUN,
	 .parse = opt_u32,
	 .off = OFF(sim.share),
	 .min = 0,
	 .max = 1,
	 .domain = "0 or 1",
	 .help_in = SIM_RUN,
	 .help = "  --share 0|1    dard, dard-paper: a ToR's hosts share the answers\n"
		 "                 of the switches they all ask, as dardd does\n"
		 "                 (default 1; 0: each host asks every switch)\n"},
	{.name = "stale",
	 .val = 'J',
	 .modes = SIM_RUN,
	 .parse = opt_u32,
	 .off = OFF(sim.stale),
	 .min = 0,
	 .max = 1,
	 .domain = "0 or 1",
	 .help_in = SIM_RUN,
	 .help = "  --stale 0|1    dard, dard-paper: a host sees other hosts' moves at\n"
		 "                 its next query, as dardd does (default 1; 0: at once)\n"},
	{.name = "topo",
	 .val = 't',
	 .modes = SIM_PLACE | SIM_RUN,
	 .parse = opt_string,
	 .off = OFF(topo),
	 .help_in = SIM_PLACE,
	 .help = "  --topo TOPO    fattree:P[,T], clos:DI,DA[,HOSTS], 3tier[:PODS] or\n"
		 "                 a configuration file (default fattree:4)\n"},
	{.name = "algo",
	 .val = 'a',
	 .modes = SIM_PLACE,
	 .parse = opt_algo,
	 .help_in = SIM_PLACE,
	 .help = "  --algo ALGO    d-mod-k (the XGFT digit form, the default),\n"
		 "                 d-mod-k-literal (port d mod k at every hop),\n"
		 "                 s-mod-k, s-mod-k-literal, sdn-greedy (flows in\n"
		 "                 the demand's order, each on the path whose most\n"
		 "                 loaded link is least loaded, ties to the first),\n"
		 "                 sdn-optimal (fat-trees with full-bisection\n"
		 "                 aggregation: the smallest L_D, Documentation/\n"
		 "                 routing.md), or sdn-adaptive (the SDN thesis:\n"
		 "                 sdn-optimal when it places the demand free of\n"
		 "                 contention, else adaptive multipath routing,\n"
		 "                 shown as sdn-greedy's paths; \"choice\" says which)\n"},
	{.name = "demand",
	 .val = 'd',
	 .modes = SIM_PLACE,
	 .parse = opt_string,
	 .off = OFF(demand),
	 .help_in = SIM_PLACE,
	 .help = "  --demand D     a traffic pattern, one flow per host (stride: to\n"
		 "                 the host one pod on; random; staggered 0.5/0.3), or\n"
		 "                 a file of `SRC DST' host-name lines, # comments\n"
		 "                 (default stride)\n"},
	{.name = "seed",
	 .val = 's',
	 .modes = SIM_PLACE | SIM_RUN,
	 .parse = opt_u64,
	 .off = OFF(sim.seed),
	 .domain = "a whole number",
	 .help_in = SIM_PLACE,
	 .help = "  --seed N       for random and staggered (default 1)\n"},
	{.name = "version",
	 .val = 'V',
	 .modes = SIM_PLACE | SIM_RUN,
	 .help_in = SIM_PLACE,
	 .help = "  -V, --version  -h, --help\n"},
	{.name = "help", .val = 'h', .modes = SIM_PLACE | SIM_RUN},
};

enum { NOPTS = sizeof(opts) / sizeof(opts[0]) };

void sim_print_opts(FILE *f, unsigned section)
{
	const struct sim_opt *o;

	for (o = opts; o < opts + NOPTS; o++)
		if (o->help_in == section && o->help)
			fputs(o->help, f);
}

static void args_init(struct sim_args *a)
{
	memset(a, 0, sizeof(*a));
	/* flowsim's defaults, but steps of 0.25 s: exact is slow. */
	dard_sim_opts_init(&a->sim);
	a->sim.step = 0.25;
	a->topo = "fattree:4";
	a->algo_name = "d-mod-k";
	a->algo = sim_algo_find(a->algo_name);
	a->demand = "stride";
	opt_sched(NULL, "all", a, NULL);
	a->pattern_name = "stride";
	a->pattern = dard_pattern_parse(a->pattern_name);
	a->rate = 0.2;
	a->size = 512;
	a->duration = 120;
	a->workload_name = "none";
	a->load = 0.5;
}

/* getopt's tables, from opts[]. */
static void getopt_tables(struct option *lo, char *so)
{
	const struct sim_opt *o;

	for (o = opts; o < opts + NOPTS; o++, lo++) {
		*lo = (struct option){
			o->name, o->parse ? required_argument : no_argument,
			NULL, o->val};
		*so++ = o->val;
		if (o->parse)
			*so++ = ':';
	}
	*lo = (struct option){0};
	*so = 0;
}

static const struct sim_opt *opt_of(int val)
{
	const struct sim_opt *o;

	for (o = opts; o < opts + NOPTS; o++)
		if (o->val == val)
			return o;
	return NULL;
}

/*
 * A workload draws the sizes and their rate: --rate and --size would say
 * the traffic a second way, and --load alone says nothing. Random
 * destinations unless --pattern says otherwise, as the studies the
 * workloads come from send, and exact events unless --step is given.
 */
static int workload_check(struct sim_args *a, const struct sim_opt *fixed,
			  const struct sim_opt *load,
			  const struct sim_opt *pattern, int step, char *err)
{
	if (a->workload && fixed) {
		dard_fail(
			err, -EINVAL,
			"--workload draws the sizes and --load the rate: not with --%s",
			fixed->name);
		return 2;
	}
	if (!a->workload && load) {
		dard_fail(err, -EINVAL, "--load is for --workload only");
		return 2;
	}
	if (a->workload && !pattern) {
		a->pattern_name = "random";
		a->pattern = DARD_PATTERN_RANDOM;
	}
	/* A mouse lives for microseconds: waiting for a step's arrival
	 * would be all of its completion time. */
	if (a->workload && !step)
		a->sim.step = 0;
	return DARD_OPTS_RUN;
}

int sim_opts_parse(int argc, char **argv, struct sim_args *a, char *err)
{
	struct option lo[NOPTS + 1];
	char so[2 * NOPTS + 1];
	/* The last option given that only --place, or only --run, takes. */
	const struct sim_opt *place_only = NULL, *run_only = NULL, *o;
	const struct sim_opt *traffic = NULL; /* the last that draws it */
	/* The last of --rate and --size, and --load, --pattern if given. */
	const struct sim_opt *fixed = NULL, *load = NULL, *pattern = NULL;
	int step = 0; /* --step given */
	unsigned modes = 0;
	int c;

	args_init(a);
	err[0] = '\0';
	getopt_tables(lo, so);
	while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		o = opt_of(c);
		if (c == 'P' || c == 'R') {
			modes |= c == 'P' ? SIM_PLACE : SIM_RUN;
			continue;
		}
		/* -V, -h, and what getopt refused. */
		if (!o || !o->parse)
			return dard_common_opt(c, "dard-sim", NULL, sim_usage);
		if (o->parse(o, optarg, a, err))
			return 2;
		if (o->modes == SIM_PLACE)
			place_only = o;
		else if (o->modes == SIM_RUN)
			run_only = o;
		if (o->flags & OPT_TRAFFIC)
			traffic = o;
		if (c == 'r' || c == 'z')
			fixed = o;
		else if (c == 'u')
			load = o;
		else if (c == 'p')
			pattern = o;
		else if (c == 'T')
			step = 1;
	}
	if ((modes != SIM_PLACE && modes != SIM_RUN) || optind != argc) {
		dard_fail(err, -EINVAL, "%s (try --help)",
			  optind != argc ? "unexpected arguments"
					 : "give --place or --run");
		return 2;
	}
	a->mode = modes;
	o = modes == SIM_PLACE ? run_only : place_only;
	if (o) {
		dard_fail(err, -EINVAL, "--%s is for --%s only", o->name,
			  modes == SIM_PLACE ? "run" : "place");
		return 2;
	}
	if (a->flows && traffic) {
		dard_fail(err, -EINVAL,
			  "--%s draws traffic, and --flows gives it: not both",
			  traffic->name);
		return 2;
	}
	return workload_check(a, fixed, load, pattern, step, err);
}
