// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The options only some objects take (objopts.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "ctl.h"
#include "dp.h"
#include "objopts.h"
#include "addr6.h"
#include <linux/dard.h>

/* Ids of the options without a letter, above any letter getopt returns. */
enum {
	OPT_BASE = 256,
	OPT_MODE,
	OPT_IDS,
	OPT_LINKNET,
	OPT_MGMTNET,
	OPT_FAMILY,
	OPT_BASE6,
	OPT_IDS6,
	OPT_OUTER,
	OPT_PIN,
	OPT_DATAPATH,
};

/* Every object option: one table for both places, usage and help. */
static const struct obj_opt {
	int id;		  /* getopt's val: the letter, if it has one */
	const char *name; /* --name */
	const char *arg;  /* its value in usage */
	unsigned set;	  /* enum ctl_opts */
} obj_opts[] = {
	{'t', "topo", "TOPO", CTL_OPTS_TOPO},
	{'c', "capacity", "MBIT", CTL_OPTS_TOPO},
	{OPT_BASE, "base", "PREFIX", CTL_OPTS_TOPO},
	{OPT_MODE, "mode", "MODE", CTL_OPTS_TOPO},
	{OPT_IDS, "ids", "PREFIX", CTL_OPTS_TOPO},
	{OPT_LINKNET, "linknet", "PREFIX", CTL_OPTS_TOPO},
	{OPT_MGMTNET, "mgmtnet", "PREFIX", CTL_OPTS_TOPO},
	{OPT_FAMILY, "family", "FAMILY", CTL_OPTS_TOPO},
	{OPT_BASE6, "base6", "PREFIX", CTL_OPTS_TOPO},
	{OPT_IDS6, "ids6", "PREFIX", CTL_OPTS_TOPO},
	{OPT_OUTER, "outer", "OUTER", CTL_OPTS_TOPO},
	{OPT_PIN, "pin", "DIR", CTL_OPTS_DP},
	{OPT_DATAPATH, "datapath", "KIND", CTL_OPTS_DP},
	{'k', "key", "FILE", CTL_OPTS_KEY},
};

#define NOPTS (sizeof(obj_opts) / sizeof(obj_opts[0]))

_Static_assert(NOPTS <= CTL_OBJ_OPTS_MAX, "CTL_OBJ_OPTS_MAX too small");

static int has_letter(const struct obj_opt *o)
{
	return o->id < OPT_BASE;
}

static int prefix6_opt(struct ctl *c, const char *name, const char *arg,
		       struct dard_prefix6 *p, unsigned bit)
{
	if (dard_prefix6_parse(arg, p)) {
		fprintf(stderr,
			"Invalid %s `%s': expected an IPv6 ADDR/LEN with no host bits set\n",
			name, arg);
		return -1;
	}
	c->opts_mask |= bit;
	return 0;
}

static int prefix_opt(struct ctl *c, const char *name, const char *arg,
		      struct dard_prefix *p, unsigned bit)
{
	if (dard_prefix_parse(arg, p)) {
		fprintf(stderr,
			"Invalid %s `%s': expected A.B.C.D/LEN with no host bits set\n",
			name, arg);
		return -1;
	}
	c->opts_mask |= bit;
	return 0;
}

static int dp_kind(struct ctl *c, const char *what, const char *arg)
{
	int kind = dard_dp_kind_parse(arg);

	if (kind < 0) {
		fprintf(stderr, "Invalid %s `%s': expected auto, bpf or kmod\n",
			what, arg);
		return -1;
	}
	c->dp_kind = kind;
	return 0;
}

int ctl_opts_env(struct ctl *c)
{
	const char *kind = getenv("DARD_DATAPATH");

	if (kind && dp_kind(c, "DARD_DATAPATH", kind))
		return CTL_USAGE;
	c->pin_root = getenv("DARD_PIN_ROOT");
	return CTL_OK;
}

int ctl_opts_getopt(struct option *lo, int n, char *shortopts, size_t size)
{
	size_t len = strlen(shortopts);
	unsigned i;

	for (i = 0; i < NOPTS; i++) {
		const struct obj_opt *o = &obj_opts[i];

		lo[n + i] = (struct option){o->name, required_argument, NULL,
					    o->id};
		if (has_letter(o) && len + 3 <= size) {
			shortopts[len++] = o->id;
			shortopts[len++] = ':';
			shortopts[len] = '\0';
		}
	}
	return NOPTS;
}

int ctl_opts_apply(struct ctl *c, int id, const char *val)
{
	int mode;

	switch (id) {
	case 't':
		c->topo_arg = val;
		return 0;
	case 'c':
		/* Mbit/s; UINT32_MAX is no capacity but a sentinel. */
		return ctl_parse_u32("capacity", val, 1, UINT32_MAX - 1,
				     &c->mbps);
	case OPT_BASE:
		return prefix_opt(c, "base", val, &c->opts.base, DARD_OPT_BASE);
	case OPT_IDS:
		return prefix_opt(c, "ID prefix", val, &c->opts.ids,
				  DARD_OPT_IDS);
	case OPT_LINKNET:
		return prefix_opt(c, "link prefix", val, &c->opts.links,
				  DARD_OPT_LINKS);
	case OPT_MGMTNET:
		return prefix_opt(c, "management prefix", val, &c->opts.mgmt,
				  DARD_OPT_MGMT);
	case OPT_BASE6:
		return prefix6_opt(c, "IPv6 base", val, &c->opts.base6,
				   DARD_OPT_BASE6);
	case OPT_IDS6:
		return prefix6_opt(c, "IPv6 ID prefix", val, &c->opts.ids6,
				   DARD_OPT_IDS6);
	case OPT_OUTER:
		mode = dard_outer_parse(val);
		if (mode < 0) {
			fprintf(stderr,
				"Invalid outer `%s': expected auto, ipv4 or ipv6\n",
				val);
			return -1;
		}
		c->opts.outer = mode;
		c->opts_mask |= DARD_OPT_OUTER;
		return 0;
	case OPT_FAMILY:
		mode = dard_family_parse(val);
		if (mode < 0) {
			fprintf(stderr,
				"Invalid family `%s': expected ipv4, ipv6 or dual\n",
				val);
			return -1;
		}
		c->opts.family = mode;
		c->opts_mask |= DARD_OPT_FAMILY;
		return 0;
	case OPT_MODE:
		mode = dard_mode_parse(val);
		if (mode < 0) {
			fprintf(stderr,
				"Invalid mode `%s': expected auto, paper or compact\n",
				val);
			return -1;
		}
		c->opts.mode = mode;
		c->opts_mask |= DARD_OPT_MODE;
		return 0;
	case OPT_PIN:
		c->pin_root = val;
		return 0;
	case OPT_DATAPATH:
		return dp_kind(c, "datapath", val);
	case 'k':
		c->key_arg = val;
		return 0;
	}
	return 1;
}

/*
 * The option word names, if any: `-X' or `--name' exactly, or
 * `--name=VALUE' with *val pointing at VALUE. Exact, as keywords are
 * (STYLE.md 7): a word after OBJECT that only starts like one is an
 * argument of the command.
 */
static const struct obj_opt *find(const char *word, const char **val)
{
	unsigned i;

	*val = NULL;
	if (word[0] != '-')
		return NULL;
	for (i = 0; i < NOPTS; i++) {
		const struct obj_opt *o = &obj_opts[i];
		size_t n = strlen(o->name);

		if (has_letter(o) && word[1] == o->id && !word[2])
			return o;
		if (word[1] != '-' || strncmp(word + 2, o->name, n))
			continue;
		if (!word[2 + n])
			return o;
		if (word[2 + n] == '=') {
			*val = word + 3 + n;
			return o;
		}
	}
	return NULL;
}

int ctl_opts_take(struct ctl *c, const char *obj, unsigned sets, int *argc,
		  char **argv)
{
	int i, kept = 0;

	for (i = 0; i < *argc; i++) {
		const struct obj_opt *o;
		const char *val;

		o = find(argv[i], &val);
		if (!o) {
			argv[kept++] = argv[i];
			continue;
		}
		if (!(o->set & sets)) {
			fprintf(stderr,
				"Option \"%s\" is not one of %s's, try \"dardctl %s help\".\n",
				argv[i], obj, obj);
			return CTL_USAGE;
		}
		if (!val && i + 1 >= *argc) {
			fprintf(stderr,
				"Option \"%s\" needs a value, try \"dardctl %s help\".\n",
				argv[i], obj);
			return CTL_USAGE;
		}
		if (!val)
			val = argv[++i];
		if (ctl_opts_apply(c, o->id, val))
			return CTL_USAGE;
	}
	*argc = kept;
	argv[kept] = NULL;
	return CTL_OK;
}

/* `lead{ a | b ... }' of the options of set, wrapped before column 77. */
static void usage_set(FILE *f, const char *lead, unsigned set)
{
	size_t col = strlen(lead), w;
	unsigned i, left = 0;
	char word[40];

	for (i = 0; i < NOPTS; i++)
		left += !!(obj_opts[i].set & set);
	fputs(lead, f);
	for (i = 0; i < NOPTS; i++) {
		const struct obj_opt *o = &obj_opts[i];

		if (!(o->set & set))
			continue;
		if (has_letter(o))
			snprintf(word, sizeof(word), "-%c %s", o->id, o->arg);
		else
			snprintf(word, sizeof(word), "--%s %s", o->name,
				 o->arg);
		w = strlen(word) + 3;
		if (col + w > 76) {
			fprintf(f, "\n%*s", (int)strlen(lead), "");
			col = strlen(lead);
		}
		col += fprintf(f, " %s %s", word, --left ? "|" : "}");
	}
	fputc('\n', f);
}

void ctl_opts_usage(FILE *f, const char *lead, unsigned sets)
{
	static const struct {
		unsigned set;
		const char *name;
	} groups[] = {
		{CTL_OPTS_TOPO, "TOPO_OPTS := {"},
		{CTL_OPTS_DP, "DP_OPTS := {"},
	};
	char buf[64];
	unsigned i;

	for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++) {
		if (!(groups[i].set & sets))
			continue;
		snprintf(buf, sizeof(buf), "%s%s", lead, groups[i].name);
		usage_set(f, buf, groups[i].set);
		/* The next group's lead: as far in, blank. */
		lead = "       ";
	}
}

void ctl_opts_help(FILE *f)
{
	fprintf(f,
		"  -t, --topo TOPO     a generated topology or a topology/configuration file;\n"
		"                      default: $DARD_CONFIG, else /etc/dard/dard.conf\n"
		"  -c, --capacity MBIT link capacity of generated topologies (default 1000)\n"
		"  --base PREFIX       alias space (default 10.0.0.0/8)\n"
		"  --mode MODE         alias layout: paper (6 bits per level, ports from 1, as\n"
		"                      in the DARD paper), compact (fewest bits), or auto\n"
		"                      (paper where it fits; the default)\n"
		"  --ids PREFIX        host IDs (default 172.16.0.0/16)\n"
		"  --linknet PREFIX    /31 link addresses (default 172.20.0.0/14)\n"
		"  --mgmtnet PREFIX    management network (default 172.24.0.0/16)\n"
		"  --family FAMILY     the fabric's address families: ipv4 (the default),\n"
		"                      ipv6 or dual (IPv4 and IPv6 aliases and IDs)\n"
		"  --base6 PREFIX      IPv6 alias space (default fd00:da::/48)\n"
		"  --ids6 PREFIX       IPv6 host IDs (default fd00:da:1::/64)\n"
		"  --outer OUTER       the header ID traffic crosses the fabric in: ipv4\n"
		"                      (IP-in-IP), ipv6 (4in6) or auto (the default: ipv6\n"
		"                      in an IPv6-only fabric, else ipv4)\n"
		"  --pin DIR           where datapaths pin their maps (default\n"
		"                      $DARD_PIN_ROOT, else " DARD_PIN_ROOT
		")\n"
		"  --datapath KIND     the host datapath dp and flow use: bpf (TC programs),\n"
		"                      kmod (the dard.ko device) or auto (default\n"
		"                      $DARD_DATAPATH, else auto: the one already on the\n"
		"                      interface, else kmod when dard.ko is loaded, else bpf)\n"
		"  -k, --key FILE      the switch protocol's key file (default $DARD_KEY,\n"
		"                      else /etc/dard/dard.key)\n");
}
