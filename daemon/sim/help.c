// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-sim --help: the usage and what each mode does; each option's lines
 * come from the options' table (opts.c).
 */
#include <stdio.h>

#include "sim.h"

void sim_usage(FILE *f)
{
	fputs("Usage: dard-sim --place [ --topo TOPO ] [ --algo ALGO ]\n"
	      "                [ --demand { stride | random | staggered | FILE } ]\n"
	      "                [ --seed N ]\n"
	      "       dard-sim --run [ --topo TOPO ] [ --pattern P ] [ --rate R ]\n"
	      "                [ --size MB ] [ --duration S ] [ --flows FILE ]\n"
	      "                [ --workload { websearch | datamining } ] [ --load L ]\n"
	      "                [ --link MBIT ] [ --goodput F ] [ --seed N ]\n"
	      "                [ --sched LIST ] [ --step S ] [ --elephant-age S ]\n"
	      "                [ --elephant-bytes B ] [ --round S ] [ --pvlb S ]\n"
	      "                [ --central S ] [ --query S ] [ --delta D ]\n"
	      "                [ --quiet-at F ] [ --quiet-sleep S ] [ --busy-at F ]\n"
	      "                [ --escape P ] [ --stale 0|1 ] [ --split K ]\n"
	      "                [ --anneal N ] [ --large F ] [ --csv FILE ]\n"
	      "                [ --fail SPEC ]... [ --converge S ] [ --rto S ]\n"
	      "                [ --degrade SPEC ]...\n"
	      "                [ --refine N ] [ --keep 1 ] [ --share 0|1 ]\n"
	      "\n"
	      "--run:\n"
	      "Simulates elephant flows at the flow level (the DARD paper, section\n"
	      "4.3): from every host, flows arrive as a Poisson process to the\n"
	      "destinations the pattern draws (as dardctl traffic gen), or as a\n"
	      "flow file lists them, share links max-min fairly (its Appendix A)\n"
	      "and run to completion. Each scheduler starts every flow on the same\n"
	      "hashed path:\n"
	      "  ecmp         never moves it;\n"
	      "  pvlb         moves it to a random path every 10 s of its life;\n"
	      "  dard         dardd's own monitors and rounds, its default fast\n"
	      "               mode: elephants after 1 s, switch queries every\n"
	      "               1 s, rounds every 1 s + U[0, 1 s], delta 1% of\n"
	      "               the paths' bandwidth, a moved flow held 8 s, a\n"
	      "               monitor quiet while its flows run at 0.9 of their\n"
	      "               share or of their rates at an idle round (for 3 s),\n"
	      "               links a bottleneck only when loaded to 0.9 (busy);\n"
	      "  dard-paper   the same under the paper's mode: elephants after\n"
	      "               10 s, rounds every 5 s + U[0, 5 s], no hold,\n"
	      "               never quiet, links by their elephants alone;\n"
	      "  hedera       every 5 s, demand estimation and simulated annealing\n"
	      "               over a path per destination host, for the flows the\n"
	      "               edge switches report (Hedera's large flows, at 10%\n"
	      "               of their host link, and the elephants);\n"
	      "  sdn-greedy   every 5 s, SDN-greedy over the same flows;\n"
	      "  sdn-optimal  every 5 s, SDN-optimal over the same flows (fat-\n"
	      "               trees whose aggregation switches have full\n"
	      "               bisection, tapered ToRs allowed; under `all' it is\n"
	      "               skipped on other trees, with a note): the ToR\n"
	      "               colouring of all the flows at once, then a local\n"
	      "               search that unloads switch links, L_D unchanged;\n"
	      "  switch-ecmp  ECMP in the switches, re-hashing the flows of a\n"
	      "               failed link onto live paths (with --fail only);\n"
	      "  sdn-optimal-thesis  the thesis's SDN-optimal as it is: NL_D\n"
	      "               permutations, each routed alone (Documentation/\n"
	      "               experiments.md, \"SDN-optimal and SDN-greedy\");\n"
	      "  bound        a reference, not a scheduler: no flow is on a path,\n"
	      "               each runs at its max-min fair rate under the best\n"
	      "               splittable multipath routing (OPT), which no routing\n"
	      "               of whole flows improves on (under `all' skipped, with\n"
	      "               a note, on trees OPT does not handle, with --fail,\n"
	      "               and with a --degrade that makes the tree uneven).\n"
	      "It prints, per scheduler, the average transfer time, the 90th\n"
	      "percentile and largest path switches per flow, how many flows became\n"
	      "elephants, the control traffic by the paper's message sizes (48 and\n"
	      "32 bytes a query and reply, 80 a report, 72 a switch update; a SHARE\n"
	      "among a ToR's hosts at its real size, 64 bytes and 8 a record) and\n"
	      "the last completion; then DARD's improvement over ECMP and pVLB, and\n"
	      "Hedera's over DARD, by the paper's formula (1). With --workload it\n"
	      "also prints each scheduler's slowdowns (a flow's completion time over\n"
	      "its time alone on an idle fabric) by flow size: below 100 KB, to\n"
	      "10 MB and above, each bucket's flows, mean and 99th percentile.\n"
	      "\n",
	      f);
	sim_print_opts(f, SIM_RUN);
	fputs("\n"
	      "--place:\n"
	      "Places one demand of elephant flows on a multi-rooted tree with a\n"
	      "routing algorithm and prints the placement as JSON: every flow's\n"
	      "switches, every directed switch-to-switch link's load, the largest\n"
	      "load L_D and the largest number of flows a host sends or receives\n"
	      "NL_D (L_D >= NL_D for any placement; the SDN thesis, Theorem 1),\n"
	      "and lower_bound, the larger of NL_D and any ToR's non-local flows\n"
	      "over its up ports, rounded up: no single-path placement has a\n"
	      "smaller L_D, and sdn-optimal reaches it.\n"
	      "\n",
	      f);
	sim_print_opts(f, SIM_PLACE);
	fputs("\n"
	      "Exit status: 0 success, 1 error, 2 bad usage.\n",
	      f);
}
