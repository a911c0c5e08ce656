// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The options every program shares (stdopts.h). */
#include "log.h"
#include "stdopts.h"

int dard_common_opt(int opt, const char *prog, int *level,
		    void (*usage)(FILE *))
{
	switch (opt) {
	case 'v':
	case 'q':
		if (!level)
			break;
		*level = opt == 'v' ? DARD_LOG_DEBUG : DARD_LOG_ERR;
		return DARD_OPTS_RUN;
	case 'V':
		printf("%s %s\n", prog, DARD_VERSION);
		return 0;
	case 'h':
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
