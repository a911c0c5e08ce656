// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The BPF backend's writers of dard_dests: a destination's paths, its
 * dead bits and its weights for new flows. Each reads, changes and writes
 * back one whole struct dard_dest, and a map update replaces the value at
 * once for the programs. Nothing orders two writers: dardd writes dead
 * bits and weights, and `dardctl dp weights' beside it can lose its write
 * or put back dead bits dardd has since changed, so dardctl refuses that
 * without force (datapath.md, "One writer").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include <bpf/bpf.h>

#include "dp_bpf.h"
#include "wcmp.h"

/*
 * Bumps dard_live_gen: every known flow checks its path against the dead
 * bits again at its next packet. Called after the destination is written,
 * so that a program reading the new generation finds the new destination;
 * a failure in between leaves flows unaware of the change until the next
 * bump, and is returned. Never DARD_LIVE_GEN_UNCHECKED.
 */
static int live_gen_bump(struct dard_dp *dp)
{
	__u32 zero = 0, gen;

	dp->live_gen_owed = 1;
	if (bpf_map_lookup_elem(dp->fd[M_LIVE_GEN], &zero, &gen))
		return -errno;
	if (++gen == DARD_LIVE_GEN_UNCHECKED)
		gen = 0;
	if (bpf_map_update_elem(dp->fd[M_LIVE_GEN], &zero, &gen, 0))
		return -errno;
	dp->live_gen_owed = 0;
	return 0;
}

/* A new path list: every path live until set_dead says otherwise. */
int dp_bpf_set_dest(struct dard_dp *dp, uint32_t id,
		    const struct dard_alias_pair *paths, unsigned n,
		    const uint8_t *next)
{
	struct dard_dest *d;
	__be32 key = htonl(id);
	unsigned i;
	int ret;

	if (!n || n > DARD_PATHS_MAX)
		return -ERANGE;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->npaths = n;
	memcpy(d->path, paths, n * sizeof(*paths));
	/* An order that leaves the paths is no order: index order then. */
	for (i = 0; i < n; i++)
		d->next[i] = next && next[i] < n ? next[i] : (i + 1) % n;
	ret = bpf_map_update_elem(dp->fd[M_DESTS], &key, d, 0)
		      ? -errno
		      : live_gen_bump(dp);
	free(d);
	return ret;
}

/* Only the dead bits change. */
int dp_bpf_set_dead(struct dard_dp *dp, uint32_t id, const uint64_t *dead)
{
	struct dard_dest *d = calloc(1, sizeof(*d));
	__be32 key = htonl(id);
	int ret = 0;

	if (!d)
		return -ENOMEM;
	if (bpf_map_lookup_elem(dp->fd[M_DESTS], &key, d)) {
		ret = -errno;
		goto out;
	}
	/*
	 * Unchanged: no flow has anything to check again, unless a bump
	 * failed after an earlier write (dardd tries the same bits again).
	 */
	if (!memcmp(d->dead, dead, sizeof(d->dead))) {
		if (dp->live_gen_owed)
			ret = live_gen_bump(dp);
		goto out;
	}
	memcpy(d->dead, dead, sizeof(d->dead));
	if (bpf_map_update_elem(dp->fd[M_DESTS], &key, d, BPF_EXIST))
		ret = -errno;
	else
		ret = live_gen_bump(dp);
out:
	free(d);
	return ret;
}

/*
 * Weights change no path, dead bit or flow: known flows keep their path
 * (only new ones look at the table), so the liveness generation stays.
 * The old table seeds the new one, so a small change moves few slots.
 */
int dp_bpf_set_weights(struct dard_dp *dp, uint32_t id, const uint16_t *w,
		       unsigned n)
{
	struct dard_dest *d = calloc(1, sizeof(*d));
	uint8_t was_weighted, was[DARD_WCMP_SLOTS];
	__be32 key = htonl(id);
	int ret = 0;

	if (!d)
		return -ENOMEM;
	if (bpf_map_lookup_elem(dp->fd[M_DESTS], &key, d)) {
		ret = -errno;
		goto out;
	}
	was_weighted = d->weighted;
	memcpy(was, d->slot, sizeof(was));
	if (w && n) {
		ret = n == d->npaths
			      ? dard_wcmp_build(w, n,
						d->weighted ? d->slot : NULL,
						d->slot)
			      : -EINVAL;
		if (ret)
			goto out;
		d->weighted = 1;
	} else {
		d->weighted = 0;
		memset(d->slot, 0, sizeof(d->slot));
	}
	/* A controller repeats its weights: an update that changes nothing
	 * is not made, so the programs never see the element change. */
	if (d->weighted == was_weighted && !memcmp(d->slot, was, sizeof(was)))
		goto out;
	if (bpf_map_update_elem(dp->fd[M_DESTS], &key, d, BPF_EXIST))
		ret = -errno;
out:
	free(d);
	return ret;
}

int dp_bpf_weights(struct dard_dp *dp, uint32_t id, uint16_t *slots,
		   unsigned *n)
{
	struct dard_dest *d = calloc(1, sizeof(*d));
	__be32 key = htonl(id);
	int ret;

	if (!d)
		return -ENOMEM;
	if (bpf_map_lookup_elem(dp->fd[M_DESTS], &key, d)) {
		ret = -errno;
	} else if (d->npaths > DARD_PATHS_MAX) {
		ret = -EIO;
	} else {
		*n = d->npaths;
		ret = d->weighted;
		if (ret)
			dard_wcmp_count(d->slot, d->npaths, slots);
	}
	free(d);
	return ret;
}
