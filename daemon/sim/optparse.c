// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dard-sim's parsers of one option's argument, for its table (opts.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "optparse.h"
#include "traffic.h"
#include "workload.h"

#define ARG(a, off) ((char *)(a) + (off))

int opt_string(const struct sim_opt *o, const char *arg, struct sim_args *a,
	       char *err)
{
	*(const char **)ARG(a, o->off) = arg;
	return 0;
}

/* A number o refuses, in num.h's one form. */
static int opt_fail(const struct sim_opt *o, const char *arg, int ret,
		    char *err)
{
	char what[32];

	snprintf(what, sizeof(what), "--%s", o->name);
	return dard_num_fail(err, ret, what, arg, o->domain);
}

int opt_double(const struct sim_opt *o, const char *arg, struct sim_args *a,
	       char *err)
{
	double v;
	int ret;

	ret = dard_parse_double(arg, o->flags & OPT_OR_ZERO ? 0 : o->min,
				o->max, &v);
	if (!ret && (v < o->min || (o->flags & OPT_ABOVE_MIN && v == o->min)) &&
	    !(o->flags & OPT_OR_ZERO && v == 0))
		ret = -ERANGE;
	if (ret)
		return opt_fail(o, arg, ret, err);
	*(double *)ARG(a, o->off) = v;
	return 0;
}

int opt_u32(const struct sim_opt *o, const char *arg, struct sim_args *a,
	    char *err)
{
	int ret =
		dard_parse_u32(arg, o->min, o->max, (uint32_t *)ARG(a, o->off));

	return ret ? opt_fail(o, arg, ret, err) : 0;
}

/* Any 64-bit value: a double's min and max cannot say UINT64_MAX. */
int opt_u64(const struct sim_opt *o, const char *arg, struct sim_args *a,
	    char *err)
{
	int ret =
		dard_parse_u64(arg, 0, UINT64_MAX, (uint64_t *)ARG(a, o->off));

	return ret ? opt_fail(o, arg, ret, err) : 0;
}

int opt_algo(const struct sim_opt *o, const char *arg, struct sim_args *a,
	     char *err)
{
	a->algo = sim_algo_find(arg);
	if (a->algo < 0)
		return dard_fail(err, -EINVAL,
				 "unknown --algo `%s' (try --help)", arg);
	a->algo_name = arg;
	return 0;
}

int opt_pattern(const struct sim_opt *o, const char *arg, struct sim_args *a,
		char *err)
{
	a->pattern = dard_pattern_parse(arg);
	if (a->pattern < 0)
		return dard_fail(
			err, -EINVAL,
			"unknown --pattern `%s': stride, random or staggered",
			arg);
	a->pattern_name = arg;
	return 0;
}

int opt_workload(const struct sim_opt *o, const char *arg, struct sim_args *a,
		 char *err)
{
	a->workload = dard_workload_parse(arg);
	if (a->workload < 0)
		return dard_fail(
			err, -EINVAL,
			"unknown --workload `%s': websearch or datamining",
			arg);
	a->workload_name = arg;
	return 0;
}

/* "unknown scheduler `TOK' in --sched: a, b, ... or all", from flowsim. */
static int sched_fail(const char *tok, char *err)
{
	char names[256] = "";
	size_t len = 0;
	int s;

	for (s = 0; s < DARD_SIM_NSCHED && len < sizeof(names); s++)
		len += snprintf(names + len, sizeof(names) - len, "%s, ",
				dard_sim_sched_name(s));
	if (len >= 2 && len < sizeof(names))
		names[len - 2] = '\0';
	return dard_fail(err, -EINVAL,
			 "unknown scheduler `%s' in --sched: %s or all", tok,
			 names);
}

/* --sched: a comma-separated list, or all; marks want[]. */
int opt_sched(const struct sim_opt *o, const char *arg, struct sim_args *a,
	      char *err)
{
	char *buf, *tok, *save;
	int s, ret = 0;

	a->sched = arg;
	/* switch-ecmp is ecmp without failures: all adds it with --fail. */
	for (s = 0; s < DARD_SIM_NSCHED; s++)
		a->want[s] = !strcmp(arg, "all") && s != DARD_SIM_SWITCH_ECMP;
	if (!strcmp(arg, "all"))
		return 0;
	buf = strdup(arg);
	if (!buf)
		return dard_fail(err, -ENOMEM, "out of memory");
	for (tok = strtok_r(buf, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		s = dard_sim_sched_parse(tok);
		if (s < 0)
			ret = sched_fail(tok, err);
		else
			a->want[s] = 1;
	}
	free(buf);
	/* "," or "": a run of nothing, which would say nothing. */
	for (s = 0; !ret && s < DARD_SIM_NSCHED && !a->want[s]; s++)
		;
	if (!ret && s == DARD_SIM_NSCHED)
		ret = dard_fail(err, -EINVAL, "no scheduler in --sched `%s'",
				arg);
	return ret;
}

/* --fail: repeatable; fail.c reads the specs once the tree is known. */
int opt_fail_spec(const struct sim_opt *o, const char *arg, struct sim_args *a,
		  char *err)
{
	if (a->nfail == SIM_FAIL_MAX)
		return dard_fail(err, -E2BIG, "more than %d --fail options",
				 SIM_FAIL_MAX);
	if (!*arg)
		return dard_fail(err, -EINVAL, "empty --fail");
	a->fail[a->nfail++] = arg;
	return 0;
}

/* --degrade: repeatable; fail.c reads the specs once the tree is known. */
int opt_degrade_spec(const struct sim_opt *o, const char *arg,
		     struct sim_args *a, char *err)
{
	if (a->ndegrade == SIM_FAIL_MAX)
		return dard_fail(err, -E2BIG, "more than %d --degrade options",
				 SIM_FAIL_MAX);
	if (!*arg)
		return dard_fail(err, -EINVAL, "empty --degrade");
	a->degrade[a->ndegrade++] = arg;
	return 0;
}
