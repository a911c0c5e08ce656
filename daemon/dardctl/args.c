// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The words after OBJECT: help, unknown commands, numbers (args.h). */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "ctl.h"
#include "num.h"

int ctl_wants_help(int argc, char **argv)
{
	int i;

	if (argc > 0 && !strcmp(argv[0], "help"))
		return 1;
	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	return 0;
}

int ctl_unknown(const char *obj, const char *cmd)
{
	fprintf(stderr, "Command \"%s\" is unknown, try \"dardctl %s help\".\n",
		cmd, obj);
	return CTL_USAGE;
}

/* dardctl says a ctl_parse_* refusal in num.h's one form. */
static int num_fail(const char *what, const char *s, int ret, const char *range)
{
	char err[DARD_ERR_MAX];

	dard_num_fail(err, ret, what, s, range);
	fprintf(stderr, "%s\n", err);
	return -1;
}

int ctl_parse_u64(const char *what, const char *s, uint64_t min, uint64_t max,
		  uint64_t *out)
{
	char range[48];
	int ret = dard_parse_u64(s, min, max, out);

	if (!ret)
		return 0;
	snprintf(range, sizeof(range), "%llu-%llu", (unsigned long long)min,
		 (unsigned long long)max);
	return num_fail(what, s, ret, range);
}

int ctl_parse_u32(const char *what, const char *s, uint32_t min, uint32_t max,
		  uint32_t *out)
{
	uint64_t v;

	if (ctl_parse_u64(what, s, min, max, &v))
		return -1;
	*out = v;
	return 0;
}

int ctl_parse_double(const char *what, const char *s, double min, double max,
		     double *out)
{
	char range[64];
	int ret = dard_parse_double(s, min, max, out);

	if (!ret)
		return 0;
	snprintf(range, sizeof(range), "a decimal from %.15g to %.15g", min,
		 max);
	return num_fail(what, s, ret, range);
}

int ctl_parse_seconds(const char *what, const char *s, double min, double max,
		      uint64_t *ns)
{
	char range[64];
	int ret = dard_parse_seconds(s, min, max, ns);

	if (!ret)
		return 0;
	snprintf(range, sizeof(range), "seconds from %.15g to %.15g", min, max);
	return num_fail(what, s, ret, range);
}
