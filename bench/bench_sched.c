// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-bench-sched: CPU time of DARD's scheduling rounds, and the control
 * traffic a monitor causes, on fattree:32 (Documentation/benchmarks.md).
 *
 * For 1, 100 and 10,000 monitors, each a random pair of ToRs in different
 * pods, with random link states: the time to assemble every monitor's
 * path-state vector from link states and run its selfish round (dardd's,
 * dard_sched_round_links), as the daemon does at each scheduling
 * interval. Then per monitor the switches
 * it queries, the exit ports it asks each for, and the bytes of one query
 * round (IPv4 + UDP + protocol.md's messages), beside the paper's 48-byte
 * query and 32-byte reply per switch.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "gen.h"
#include "proto.h"
#include "sched.h"

enum { DLINKS = 2 * DARD_LEVEL_MAX, UDP_IP = 28 };

struct monitor {
	uint32_t stor, dtor;
	unsigned npaths;
	uint32_t (*dl)[DLINKS];
	uint8_t *ndl;
};

struct collect {
	const struct dard_topo *t;
	struct monitor *m;
	unsigned cap;
};

static volatile double sink;

static int add(const struct dard_path *path, void *arg)
{
	struct collect *c = arg;
	struct monitor *m = c->m;

	if (m->npaths == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		m->dl = realloc(m->dl, c->cap * sizeof(*m->dl));
		m->ndl = realloc(m->ndl, c->cap);
		if (!m->dl || !m->ndl)
			exit(1);
	}
	m->ndl[m->npaths] = dard_path_dlinks(c->t, path, m->dl[m->npaths]);
	m->npaths++;
	return 0;
}

/* Query and reply bytes of one round of m, on the wire. */
static void traffic(const struct dard_topo *t, struct monitor *m, unsigned *nsw,
		    unsigned long *query, unsigned long *reply)
{
	uint32_t *ports = calloc(t->nnodes, sizeof(*ports));
	uint8_t *seen = calloc(2 * t->nlinks, 1);
	unsigned p, k;
	uint32_t n;

	if (!ports || !seen)
		exit(1);
	/* An exit port is asked for once, of the switch it leaves. */
	for (p = 0; p < m->npaths; p++)
		for (k = 0; k < m->ndl[p]; k++) {
			uint32_t d = m->dl[p][k];
			const struct dard_link *l = &t->link[d / 2];

			if (seen[d]++)
				continue;
			ports[d % 2 == DARD_UP ? l->down : l->up]++;
		}
	*nsw = 0;
	*query = *reply = 0;
	for (n = 0; n < t->nnodes; n++) {
		if (!ports[n])
			continue;
		(*nsw)++;
		*query += UDP_IP + dard_proto_query_len(ports[n]);
		*reply += UDP_IP + dard_proto_reply_len(ports[n]);
	}
	free(ports);
	free(seen);
}

/*
 * CPU time of one scheduling round of n monitors, per monitor, in us, as
 * dardd runs it: each monitor's path-state vector from the link states,
 * then dard_sched_round_links; -1 when out of memory.
 */
static double round_us(const struct dard_lstate *ls, const struct monitor *mon,
		       unsigned n, double busy)
{
	struct dard_pstate *pv = calloc(mon[0].npaths, sizeof(*pv));
	struct dard_path_links *pl = calloc(mon[0].npaths, sizeof(*pl));
	uint32_t *fv = calloc(mon[0].npaths, sizeof(*fv));
	unsigned reps = 0, i, j;
	double t0, us;

	if (!pv || !fv || !pl) {
		free(pv);
		free(pl);
		free(fv);
		return -1;
	}
	/* CPU time of this process: the rounds run on one thread. */
	t0 = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
	do {
		for (i = 0; i < n; i++) {
			struct dard_move m;

			for (j = 0; j < mon[i].npaths; j++) {
				dard_path_state(ls, mon[i].dl[j], mon[i].ndl[j],
						busy, &pv[j]);
				fv[j] = (i + j) % 7 == 0;
				pl[j].dl = mon[i].dl[j];
				pl[j].n = mon[i].ndl[j];
			}
			if (dard_sched_round_links(ls, pl, pv, fv,
						   mon[i].npaths, 10, busy, &m))
				sink += m.estimate;
		}
		reps++;
	} while ((us = (dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - t0) * 1e3) <
		 2e5);
	free(pv);
	free(pl);
	free(fv);
	return us / reps / n;
}

int main(void)
{
	static const unsigned counts[] = {1, 100, 10000};
	struct dard_plan_opts o;
	struct dard_pathctx *pc;
	/* The default mode's rule: links judged by their loads too. */
	double busy = dard_sched_modes[DARD_SCHED_FAST].busy;
	struct dard_lstate *ls;
	struct dard_topo *t;
	struct dard_plan *p;
	struct monitor *mon;
	char err[DARD_ERR_MAX];
	unsigned i, c, ntors = 0, nsw;
	unsigned long q, r;
	uint32_t *tors, n;

	t = dard_gen_spec("fattree:32", 1000, err);
	if (!t) {
		fprintf(stderr, "fattree:32: %s\n", err);
		return 1;
	}
	dard_plan_opts_init(&o);
	p = dard_plan_new(t, &o, err);
	pc = p ? dard_pathctx_new(t, p) : NULL;
	tors = calloc(t->nnodes, sizeof(*tors));
	ls = calloc(2 * t->nlinks, sizeof(*ls));
	mon = calloc(counts[2], sizeof(*mon));
	if (!pc || !tors || !ls || !mon) {
		fprintf(stderr, "fattree:32: %s\n", p ? "out of memory" : err);
		return 1;
	}
	for (n = 0; n < t->nnodes; n++)
		if (!t->node[n].is_host && t->node[n].level == t->nlevels - 1)
			tors[ntors++] = n;
	srand(1);
	for (i = 0; i < 2 * t->nlinks; i++)
		ls[i] = (struct dard_lstate){.mbps = 1000,
					     .load = rand() % 1001,
					     .flows = rand() % 8,
					     .known = 1,
					     .loaded = 1};
	for (i = 0; i < counts[2]; i++) {
		struct collect col = {t, &mon[i], 0};

		/* ToRs of different pods: 16 ToRs to a pod. */
		do {
			mon[i].stor = tors[rand() % ntors];
			mon[i].dtor = tors[rand() % ntors];
		} while ((mon[i].stor - tors[0]) / 16 ==
			 (mon[i].dtor - tors[0]) / 16);
		dard_path_foreach(pc, dard_topo_tor_host(t, mon[i].stor),
				  dard_topo_tor_host(t, mon[i].dtor), add,
				  &col);
	}
	printf("\nCommand: make bench (build/bin/dard-bench-sched), fattree:32, %u paths per monitor\n\n",
	       mon[0].npaths);
	printf("| monitors | one scheduling round of all, ms CPU | per monitor, us | by count alone (paper), us | busy over count |\n");
	printf("|--:|--:|--:|--:|--:|\n");
	for (c = 0; c < 3; c++) {
		/* Side by side, in one run: the fast mode's rule, the paper's.
		 */
		double fast = round_us(ls, mon, counts[c], busy);
		double paper = round_us(ls, mon, counts[c], 0);

		if (fast < 0 || paper < 0)
			return 1;
		printf("| %u | %.3f | %.2f | %.2f | %.2f |\n", counts[c],
		       fast * counts[c] / 1e3, fast, paper, fast / paper);
	}
	traffic(t, &mon[0], &nsw, &q, &r);
	printf("\nOne monitor, one query round (every 1 s by default): %u switches\n",
	       nsw);
	printf("(dard_monitor_switches: %u)\n\n",
	       dard_monitor_switches(pc, t, mon[0].stor, mon[0].dtor, tors, 0));
	printf("| | queries, bytes | replies, bytes | total bytes/s per monitor |\n");
	printf("|---|--:|--:|--:|\n");
	printf("| dard (IPv4 + UDP + protocol.md) | %lu | %lu | %lu |\n", q, r,
	       q + r);
	printf("| paper (48-byte query, 32-byte reply per switch) | %u | %u | %u |\n",
	       48 * nsw, 32 * nsw, 80 * nsw);
	return 0;
}
