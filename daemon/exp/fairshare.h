/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Flows below their share: second by second, what each running flow
 * got (its iperf3 interval) against its max-min fair share of the
 * paths it was seen on (libdard-algo's dard_maxmin), the fluid model
 * dard-sim runs. Pure.
 *
 * Directed links: link l of the topology is 2l going up (from its lower
 * node) and 2l + 1 going down.
 */
#ifndef _DARD_EXP_FAIRSHARE_H
#define _DARD_EXP_FAIRSHARE_H

#include <stddef.h>
#include <stdint.h>

#include "thresholds.h"
#include "topo.h"

/* Host up, switch links both ways, host down. */
enum { EXP_PATH_LINKS = 2 * DARD_LEVEL_MAX + 2 };

/* An iperf3 interval, its times relative to the client's start. */
struct exp_iv {
	double start, end, mbps;
};

/* A paths.log line: at t (since t0) the flow was on these links. */
struct exp_seen {
	double t;
	unsigned nlinks; /* 0: no path known */
	uint32_t link[EXP_PATH_LINKS];
	const char *path; /* its switches, for naming it */
	size_t flow;	  /* the reader's: whose sighting it is */
};

struct exp_sflow {
	unsigned id;
	double begin, end;	 /* since t0 (times); NAN: not known */
	const struct exp_iv *iv; /* NULL: no report, not judged */
	size_t niv;
	const struct exp_seen *seen; /* in time */
	size_t nseen;
};

struct exp_worst {
	unsigned id;
	double ratio; /* its mean goodput over share */
	const char *path;
};

struct exp_share {
	unsigned judged, below; /* flow-seconds */
	struct exp_worst worst[EXP_SHARE_WORST];
	unsigned nworst;
};

/*
 * The directed links from host src over switches (their names, space
 * separated, src's ToR first) to host dst into link[] (*n of them):
 * 0, or -EINVAL with why in err (DARD_ERR_MAX).
 */
int exp_path_links(const struct dard_topo *t, uint32_t src, uint32_t dst,
		   const char *switches, uint32_t *link, unsigned *n,
		   char *err);

/*
 * Judges every whole second k since t0: the flows running through it
 * ([k, k + 1] within [begin, end]) with a path seen at or before its
 * middle get their max-min shares over nlinks directed links of
 * capacity cap Mbit/s each; each of them whose iperf3 interval covers
 * the middle (not its first, not a last partial one) is a flow-second
 * judged, below when its goodput is under EXP_SHARE_BELOW x its share.
 * 0, or -ENOMEM (-EINVAL for a link past nlinks).
 */
int exp_judge_share(uint32_t nlinks, double cap, const struct exp_sflow *f,
		    size_t n, struct exp_share *out);

#endif /* _DARD_EXP_FAIRSHARE_H */
