/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The configuration file's tests (test_config.c, test_config_err.c): a
 * small valid tree in pieces, a parse that must succeed and one that
 * must fail on a given line with a given message. Include after
 * <cmocka.h>.
 */
#ifndef _DARD_TEST_CONFIG_FIX_H
#define _DARD_TEST_CONFIG_FIX_H

#include <string.h>

#include "config.h"
#include "gen.h"
#include "path.h"
#include "unit.h"

/*
 * A small valid tree: two cores above one aggregation switch, one ToR and
 * two hosts, so every host has two aliases. The line numbers matter.
 */
#define HEAD                                                                   \
	"topology tiny\n"                                                      \
	"levels core aggr tor\n" /* 2 */
#define NODES                                                                  \
	"switch core1 core\n"                                                  \
	"switch core2 core\n"                                                  \
	"switch aggr1 aggr\n"                                                  \
	"switch tor1 tor\n"                                                    \
	"host h1\n"                                                            \
	"host h2\n" /* 3..8 */
#define LINKS                                                                  \
	"link core1:1 aggr1:1\n"                                               \
	"link core2:1 aggr1:2\n"                                               \
	"link aggr1:3 tor1:1\n"                                                \
	"link tor1:2 h1\n"                                                     \
	"link tor1:3 h2\n" /* 9..13 */
#define TINY HEAD NODES LINKS

static inline void parse_ok(struct dard_config *cfg, const char *text)
{
	char err[DARD_ERR_MAX];
	unsigned line;
	int ret =
		dard_config_parse(cfg, text, strlen(text), NULL, 0, &line, err);

	if (ret)
		fail_msg("line %u: %s (%d)", line, err, ret);
	assert_non_null(cfg->topo);
	assert_non_null(cfg->plan);
}

/* Parses text of length len and expects an error on line with msg. */
static inline void expect_err_len(const char *text, size_t len, unsigned line,
				  const char *msg)
{
	struct dard_config cfg;
	char err[DARD_ERR_MAX];
	unsigned l;
	int ret = dard_config_parse(&cfg, text, len, NULL, 0, &l, err);

	if (!ret) {
		dard_config_free(&cfg);
		fail_msg("accepted, expected line %u: %s\n%s", line, msg, text);
	}
	assert_true(ret < 0);
	assert_null(cfg.topo);
	assert_null(cfg.plan);
	if (l != line || !strstr(err, msg))
		fail_msg("got line %u: %s\nexpected line %u: ...%s...\n%s", l,
			 err, line, msg, text);
}

static inline void expect_err(const char *text, unsigned line, const char *msg)
{
	expect_err_len(text, strlen(text), line, msg);
}

#endif /* _DARD_TEST_CONFIG_FIX_H */
