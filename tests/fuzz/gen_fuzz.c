// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the topology specs of -t and --topo
 * (daemon/lib/gen.h, "fattree:P[,T]", "clos:DI,DA[,HOSTS]",
 * "3tier[:PODS]"): a spec taken is one dard_gen_is_spec names and gives
 * a topology with hosts; a spec refused says why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[64], err[DARD_ERR_MAX] = "";
	struct dard_topo *t;

	/* The largest spec is about 20 bytes; longer ones are refused alike. */
	if (size >= sizeof(spec))
		return 0;
	memcpy(spec, data, size);
	spec[size] = 0;
	t = dard_gen_spec(spec, 1000, err);
	if (!t) {
		if (!err[0])
			abort();
		return 0;
	}
	if (!dard_gen_is_spec(spec) || !t->nhosts || t->nhosts > t->nnodes)
		abort();
	dard_topo_free(t);
	return 0;
}
