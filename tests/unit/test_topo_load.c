// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard_topo_load, the loader dardctl and dard-sim share: generator specs
 * and files, the base-prefix rule (wide_base for big generated trees
 * unless the base was chosen), and its messages.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "buf.h"
#include "cfgfile.h"
#include "unit.h"

static char err[DARD_ERR_MAX + 4096];

static void test_generated(void **state)
{
	struct dard_load_opts o = {.mbps = 100};
	struct dard_config cfg;

	(void)state;
	assert_int_equal(
		dard_topo_load(&cfg, "fattree:4", &o, err, sizeof(err)), 0);
	assert_int_equal(cfg.topo->nhosts, 16);
	assert_int_equal(cfg.topo->link[0].mbps, 100);
	assert_int_equal(cfg.plan->opts.base.addr, A("10.0.0.0"));
	assert_int_equal(cfg.plan->opts.base.len, 8);
	dard_config_free(&cfg);
	assert_int_equal(
		dard_topo_load(&cfg, "fattree:3", &o, err, sizeof(err)),
		-EINVAL);
	assert_null(cfg.topo);
	assert_non_null(strstr(err, "Invalid topology: fattree:3"));
}

/*
 * fattree:34 (9826 hosts) needs more alias bits than 10/8 has: refused
 * (dardctl), or given 16.0.0.0/4 with wide_base (dard-sim), unless the
 * base was chosen, which wins either way.
 */
static void test_base_rule(void **state)
{
	struct dard_plan_opts over;
	struct dard_load_opts o = {.mbps = 1000, .over = &over};
	struct dard_config cfg;

	(void)state;
	dard_plan_opts_init(&over);
	assert_int_equal(
		dard_topo_load(&cfg, "fattree:34", &o, err, sizeof(err)),
		-ERANGE);
	assert_non_null(strstr(err, "Unable to address fattree:34: "));
	assert_null(cfg.topo);
	assert_null(cfg.plan);
	o.wide_base = 1;
	assert_int_equal(
		dard_topo_load(&cfg, "fattree:34", &o, err, sizeof(err)), 0);
	assert_int_equal(cfg.plan->opts.base.addr, A("16.0.0.0"));
	assert_int_equal(cfg.plan->opts.base.len, 4);
	dard_config_free(&cfg);
	/* Small trees keep 10/8 even so. */
	assert_int_equal(
		dard_topo_load(&cfg, "fattree:8", &o, err, sizeof(err)), 0);
	assert_int_equal(cfg.plan->opts.base.len, 8);
	dard_config_free(&cfg);
	/* A chosen base is kept, even a too small one. */
	o.mask = DARD_OPT_BASE;
	assert_int_equal(
		dard_topo_load(&cfg, "fattree:34", &o, err, sizeof(err)),
		-ERANGE);
	assert_non_null(strstr(err, "10.0.0.0/8"));
	assert_int_equal(dard_prefix_parse("32.0.0.0/5", &over.base), 0);
	assert_int_equal(
		dard_topo_load(&cfg, "fattree:34", &o, err, sizeof(err)), 0);
	assert_int_equal(cfg.plan->opts.base.addr, A("32.0.0.0"));
	dard_config_free(&cfg);
}

/* A file: read as dard_config_read reads it, overrides by mask. */
static void test_file(void **state)
{
	struct dard_load_opts o = {.mbps = 1000};
	struct dard_plan_opts over;
	struct dard_config cfg, gen;
	struct dard_buf b = {0};
	char path[] = "/tmp/dard-test-load-XXXXXX";
	FILE *f;
	int fd;

	(void)state;
	assert_int_equal(dard_topo_load(&gen, "clos:4,4", &o, err, sizeof(err)),
			 0);
	dard_config_write(gen.topo, gen.plan, DARD_CONFIG_F_PLAN, &b);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(b.s, 1, b.len, f), b.len);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(dard_topo_load(&cfg, path, &o, err, sizeof(err)), 0);
	assert_int_equal(cfg.topo->nhosts, gen.topo->nhosts);
	assert_int_equal(cfg.plan->opts.base.len, 8);
	dard_config_free(&cfg);
	dard_plan_opts_init(&over);
	assert_int_equal(dard_prefix_parse("11.0.0.0/8", &over.base), 0);
	o.over = &over;
	o.mask = DARD_OPT_BASE;
	assert_int_equal(dard_topo_load(&cfg, path, &o, err, sizeof(err)), 0);
	assert_int_equal(cfg.plan->opts.base.addr, A("11.0.0.0"));
	dard_config_free(&cfg);
	unlink(path);
	assert_int_equal(dard_topo_load(&cfg, path, &o, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, path));
	dard_config_free(&gen);
	dard_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_base_rule),
		cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
