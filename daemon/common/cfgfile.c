// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Reading the host configuration file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfgfile.h"
#include "gen.h"
#include "readall.h"

const char *dard_config_path(const char *arg)
{
	if (!arg)
		arg = getenv("DARD_CONFIG");
	return arg ? arg : DARD_CONFIG_DEFAULT;
}

int dard_config_read(struct dard_config *cfg, const char *path,
		     const struct dard_plan_opts *over, unsigned mask,
		     char *err, size_t errlen)
{
	char *text, e[DARD_ERR_MAX];
	unsigned line;
	size_t len;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "Unable to open `%s': %s", path,
			 strerror(-ret));
		return ret;
	}
	ret = dard_read_all(fd, DARD_CONFIG_MAX, &text, &len);
	close(fd);
	if (ret == -ENOMEM) {
		snprintf(err, errlen, "%s: out of memory", path);
		return ret;
	}
	if (ret == -EFBIG) {
		snprintf(err, errlen, "Unable to read `%s': larger than %u MiB",
			 path, DARD_CONFIG_MAX >> 20);
		return ret;
	}
	if (ret) {
		snprintf(err, errlen, "Unable to read `%s': %s", path,
			 strerror(-ret));
		return ret;
	}
	ret = dard_config_parse(cfg, text, len, over, mask, &line, e);
	free(text);
	if (ret) {
		if (line)
			snprintf(err, errlen, "%s:%u: %s", path, line, e);
		else
			snprintf(err, errlen, "%s: %s", path, e);
	}
	return ret;
}

/* Past 8192 hosts, 10.0.0.0/8 leaves too few alias bits (dard-sim). */
enum { WIDE_BASE_HOSTS = 8192 };

static int gen_load(struct dard_config *cfg, const char *spec,
		    const struct dard_load_opts *o, char *err, size_t errlen)
{
	char e[DARD_ERR_MAX];
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	cfg->topo = dard_gen_spec(spec, o->mbps, e);
	if (!cfg->topo) {
		snprintf(err, errlen, "Invalid topology: %s", e);
		return -EINVAL;
	}
	if (o->over)
		cfg->opts = *o->over;
	else
		dard_plan_opts_init(&cfg->opts);
	if (o->wide_base && !(o->mask & DARD_OPT_BASE) &&
	    cfg->topo->nhosts > WIDE_BASE_HOSTS)
		dard_prefix_parse("16.0.0.0/4", &cfg->opts.base);
	ret = dard_plan_build(cfg->topo, &cfg->opts, &cfg->plan, NULL, e);
	if (ret) {
		snprintf(err, errlen, "Unable to address %s: %s", spec, e);
		dard_config_free(cfg);
		return ret;
	}
	return 0;
}

int dard_topo_load(struct dard_config *cfg, const char *spec,
		   const struct dard_load_opts *o, char *err, size_t errlen)
{
	if (dard_gen_is_spec(spec))
		return gen_load(cfg, spec, o, err, errlen);
	return dard_config_read(cfg, spec, o->over, o->mask, err, errlen);
}
