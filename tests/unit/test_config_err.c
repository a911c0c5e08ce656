// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tests the configuration file's errors: each kind of bad input refused
 * with its line number and a message naming the problem.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config_fix.h"

/*
 * The keyword table: its list in the unknown-keyword message, each
 * single-valued keyword refused on a second line, each keyword's word
 * count (options in pairs for switch and host), and numbers as strict as
 * num.h: digits only, within range.
 */
static void test_err_keywords(void **state)
{
	static const char *const once[] = {
		"topology t",
		"capacity 10",
		"levels core tor",
		"base 10.0.0.0/8",
		"mode auto",
		"ids 172.16.0.0/16",
		"linknet 172.20.0.0/14",
		"mgmtnet 172.24.0.0/16",
	};
	char text[256], msg[64];
	unsigned i;

	(void)state;
	expect_err(
		"nope\n", 1,
		"unknown keyword `nope' (expected topology, capacity, levels, base, mode, ids, linknet, mgmtnet, family, base6, ids6, outer, switch, host, link or alias)");
	for (i = 0; i < sizeof(once) / sizeof(once[0]); i++) {
		snprintf(text, sizeof(text), "%s\n%s\n", once[i], once[i]);
		snprintf(msg, sizeof(msg), "`%.*s' given twice",
			 (int)strcspn(once[i], " "), once[i]);
		expect_err(text, 2, msg);
	}
	expect_err("ids\n", 1, "expected `ids PREFIX', got 1 word");
	expect_err("linknet 1 2\n", 1,
		   "expected `linknet PREFIX', got 3 words");
	expect_err("mgmtnet 10.0.0.0/33\n", 1, "mgmtnet: invalid prefix");
	expect_err(HEAD "host h9 id 172.16.0.9 mgmt\n", 3,
		   "expected `host NAME [id ADDR] [mgmt ADDR]', got 5 words");
	expect_err(HEAD "switch s9 core mgmt 172.24.0.9 x\n", 3,
		   "expected `switch NAME LEVEL [mgmt ADDR]', got 6 words");
	expect_err(
		HEAD NODES "link core1:1 aggr1:1 capacity 10 x\n", 9,
		"expected `link UPPER:PORT LOWER[:PORT] [capacity MBIT]', got 6 words");
	expect_err(HEAD "alias\n", 3,
		   "expected `alias HOST ADDR...', got 1 word");
	expect_err("capacity +5\n" HEAD, 1, "invalid capacity `+5'");
	expect_err("capacity 0x10\n" HEAD, 1, "invalid capacity `0x10'");
	expect_err("capacity 1e3\n" HEAD, 1, "invalid capacity `1e3'");
	expect_err("capacity 4294967295\n" HEAD, 1,
		   "invalid capacity `4294967295'");
	expect_err(HEAD NODES "link tor1:+1 h1\n", 9, "invalid port `+1'");
}

static void test_err_statements(void **state)
{
	expect_err("frobnicate 1\n", 1, "unknown keyword `frobnicate'");
	/* A key file given as the configuration: its key is not quoted. */
	expect_err("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f"
		   "00a08\n",
		   1, "unknown keyword of 64 characters (expected topology");
	expect_err(HEAD "\n# comment\nswitches core1 core\n", 5,
		   "unknown keyword `switches'");
	expect_err(HEAD "levels a b\n", 3, "`levels' given twice");
	expect_err("base 10.0.0.0/8\nbase 11.0.0.0/8\n" TINY, 2,
		   "`base' given twice");
	expect_err("topology a\n" TINY, 2, "`topology' given twice");
	expect_err("levels\n", 1, "expected `levels LEVEL...'");
	expect_err("levels core host\n", 1, "invalid level name `host'");
	expect_err("levels a b!c\n", 1, "invalid level name `b!c'");
	expect_err("levels a b a\n", 1, "level `a' given twice");
	expect_err("levels a b c d e f g h i\n", 1,
		   "at most 8 switch levels, got 9");
	expect_err("topology\n", 1, "expected `topology NAME'");
	expect_err("topology a b\n", 1, "got 3 words");
	expect_err("switch core1 core\n" HEAD, 1, "switch before `levels'");
	expect_err("host h1\n" HEAD, 1, "host before `levels'");
	expect_err(HEAD "switch s1 spine\n", 3,
		   "switch `s1': unknown level `spine'");
	expect_err(HEAD "switch s1\n", 3,
		   "expected `switch NAME LEVEL [mgmt ADDR]', got 2 words");
	expect_err(HEAD NODES "switch aggr1 tor\n", 9,
		   "node `aggr1' declared twice");
	expect_err(HEAD NODES "host h2\n", 9, "node `h2' declared twice");
	expect_err(HEAD "switch bad!name core\n", 3,
		   "invalid node name `bad!name'");
	expect_err(HEAD "host -h\n", 3, "invalid node name `-h'");
	expect_err(HEAD "host aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", 3,
		   "invalid node name");
}

static void test_err_links(void **state)
{
	expect_err(HEAD NODES "link core1:1 nosuch:1\n", 9,
		   "unknown node `nosuch'");
	expect_err(HEAD NODES "link nosuch:1 aggr1:1\n", 9,
		   "unknown node `nosuch'");
	expect_err(HEAD NODES "link tor1:x h1\n", 9,
		   "invalid port `x' of `tor1'");
	expect_err(HEAD NODES "link tor1:0 h1\n", 9,
		   "invalid port `0' of `tor1'");
	expect_err(HEAD NODES "link tor1:4097 h1\n", 9, "invalid port `4097'");
	expect_err(HEAD NODES "link tor1: h1\n", 9, "invalid port `'");
	expect_err(HEAD NODES "link tor1:2 h1:y\n", 9,
		   "invalid port `y' of `h1'");
	expect_err(HEAD NODES "link core1 aggr1:1\n", 9, "expected core1:PORT");
	expect_err(HEAD NODES "link core1:1 aggr1\n", 9, "expected aggr1:PORT");
	expect_err(HEAD NODES "link core1:1\n", 9, "expected `link UPPER:PORT");
	/* The upper end's port is taken. */
	expect_err(TINY "switch tor2 tor\nlink aggr1:3 tor2:1\n", 15,
		   "aggr1: port 3 is used twice");
	/* The lower end's port is taken. */
	expect_err(TINY "switch aggr2 aggr\n"
			"link core1:2 aggr2:1\n"
			"link core2:2 aggr2:1\n",
		   16, "aggr2: port 1 is used twice");
	expect_err(TINY "link core1:2 tor1:4\n", 14,
		   "`tor1' (tor) is not one level below `core1' (core)");
	expect_err(TINY "link tor1:4 aggr1:4\n", 14,
		   "`aggr1' (aggr) is not one level below `tor1' (tor)");
	expect_err(TINY "link h1:2 tor1:4\n", 14,
		   "`h1' is a host and cannot be the upper end");
	expect_err(TINY "link core1:2 aggr1:4\n", 14, "parallel links");
	expect_err(TINY "switch tor2 tor\n"
			"link aggr1:4 tor2:1\n"
			"link tor2:2 h1\n",
		   16, "host `h1' already has a link");
	expect_err(TINY "switch aggr2 aggr\nlink core1:2 aggr2:1 capacity 0\n",
		   15, "link: invalid capacity `0'");
	expect_err(TINY "switch aggr2 aggr\nlink core1:2 aggr2:1 capacity x\n",
		   15, "link: invalid capacity `x'");
	expect_err(TINY "switch aggr2 aggr\nlink core1:2 aggr2:1 speed 10\n",
		   15, "expected `capacity MBIT' after the ends, got `speed'");
	expect_err(TINY "switch aggr2 aggr\nlink core1:2 aggr2:1 capacity\n",
		   15, "expected `capacity MBIT' after the ends");
}

static void test_err_options(void **state)
{
	expect_err("capacity 0\n" HEAD, 1, "invalid capacity `0'");
	expect_err("capacity abc\n" HEAD, 1, "invalid capacity `abc'");
	expect_err("capacity -5\n" HEAD, 1, "invalid capacity `-5'");
	expect_err("capacity 99999999999\n" HEAD, 1, "invalid capacity");
	expect_err(TINY "capacity 100\n", 14,
		   "capacity must come before the links");
	expect_err(HEAD "base 10.1.0.0/8\n", 3,
		   "base: invalid prefix `10.1.0.0/8'");
	expect_err(HEAD "base 10.0.0.0/33\n", 3, "base: invalid prefix");
	expect_err(HEAD "base\n", 3, "expected `base PREFIX', got 1 word");
	expect_err(HEAD "ids 172.16.0.0/33\n", 3,
		   "ids: invalid prefix `172.16.0.0/33'");
	expect_err(HEAD "ids 172.16.1.0/16\n", 3, "ids: invalid prefix");
	expect_err(HEAD "linknet 1.2.3\n", 3, "linknet: invalid prefix");
	expect_err(HEAD "mgmtnet 256.0.0.0/8\n", 3, "mgmtnet: invalid prefix");
	expect_err(HEAD "mode fancy\n", 3, "invalid mode `fancy'");
	expect_err(HEAD "mode\n", 3, "expected `mode auto|paper|compact'");
	expect_err(HEAD "host h9 color red\n", 3, "h9: unknown option `color'");
	expect_err(HEAD "switch s9 core id 172.16.0.9\n", 3,
		   "s9: unknown option `id' (expected `mgmt ADDR')");
	expect_err(HEAD "host h9 id\n", 3, "expected `host NAME");
	expect_err(HEAD "host h9 id 1.2.3\n", 3,
		   "h9: invalid id address `1.2.3'");
	expect_err(HEAD "host h9 id 0.0.0.0\n", 3, "h9: invalid id address");
	expect_err(HEAD "host h9 mgmt 300.1.1.1\n", 3,
		   "h9: invalid mgmt address `300.1.1.1'");
	expect_err(HEAD "switch s9 core mgmt x\n", 3,
		   "s9: invalid mgmt address `x'");
	/* The plan's own checks name the whole file. */
	expect_err("mode paper\n" TINY "host h3\nlink tor1:70 h3\n", 0,
		   "does not fit paper addressing");
	/* A /31 or /32 has no room for hosts, nodes or /31 links. */
	expect_err("ids 172.16.0.0/31\n" TINY, 0,
		   "ID prefix 172.16.0.0/31 holds 0 hosts, not 2");
	expect_err("ids 172.16.0.1/32\n" TINY, 0, "holds 0 hosts");
	expect_err("mgmtnet 172.24.0.1/32\n" TINY, 0, "holds 0 nodes");
	expect_err("mgmtnet 172.24.0.0/30\n" TINY, 0, "holds 2 nodes, not 6");
	expect_err("linknet 172.20.0.0/32\n" TINY, 0, "holds 0 /31 links");
	expect_err("linknet 172.20.0.0/30\n" TINY, 0,
		   "holds 2 /31 links, not 5");
	expect_err(
		"ids 10.9.0.0/16\n" TINY, 0,
		"the alias base 10.0.0.0/8 overlaps the ID prefix 10.9.0.0/16");
}

static void test_err_duplicate_addr(void **state)
{
	/* The second holder's line, naming both. */
	expect_err(HEAD "switch core1 core\n"
			"switch core2 core\n"
			"switch aggr1 aggr\n"
			"switch tor1 tor\n"
			"host h1 id 172.16.5.5\n"
			"host h2 id 172.16.5.5\n" LINKS,
		   8, "h2: ID address 172.16.5.5 is also h1's");
	/* Defaults skip what was given explicitly, wherever it was. */
	{
		struct dard_config cfg;
		const struct dard_topo *t;

		parse_ok(&cfg, HEAD "switch core1 core\n"
				    "switch core2 core mgmt 172.24.0.1\n"
				    "switch aggr1 aggr\n"
				    "switch tor1 tor\n"
				    "host h1\n"
				    "host h2 id 172.16.0.1\n" LINKS);
		t = cfg.topo;
		assert_int_equal(t->node[find(t, "h1")].id, A("172.16.0.2"));
		assert_int_equal(t->node[find(t, "h2")].id, A("172.16.0.1"));
		assert_int_equal(t->node[find(t, "core1")].mgmt,
				 A("172.24.0.2"));
		assert_int_equal(t->node[find(t, "core2")].mgmt,
				 A("172.24.0.1"));
		dard_config_free(&cfg);
	}
	/* Explicit addresses lie in their prefix: kinds cannot collide. */
	expect_err(TINY "host h3 id 8.8.8.8\nlink tor1:4 h3\n", 14,
		   "h3: ID 8.8.8.8 is not a node address of 172.16.0.0/16");
	expect_err(
		TINY "host h3 mgmt 172.16.0.9\nlink tor1:4 h3\n", 14,
		"h3: management address 172.16.0.9 is not a node address of 172.24.0.0/16");
	expect_err(TINY "host h3 id 172.16.0.0\nlink tor1:4 h3\n", 14,
		   "is not a node address");
	expect_err(TINY "host h3 id 172.16.0.1 id 172.16.0.2\n", 14,
		   "h3: `id' given twice");
	/* And the prefixes are disjoint. */
	expect_err(
		"linknet 10.0.0.0/16\n" TINY, 0,
		"the alias base 10.0.0.0/8 overlaps the link prefix 10.0.0.0/16");
	expect_err("ids 172.20.0.0/14\n" TINY, 0,
		   "the ID prefix 172.20.0.0/14 overlaps the link prefix");
	expect_err(
		"mgmtnet 172.16.0.0/16\n" TINY, 0,
		"the ID prefix 172.16.0.0/16 overlaps the management prefix");
}

static void test_err_aliases(void **state)
{
	expect_err(TINY "alias h1 11.0.0.1 10.8.16.195\n", 14,
		   "alias h1: 11.0.0.1 is outside the alias base");
	expect_err(TINY "alias h1 10.4.16.195 10.4.16.194\n", 14,
		   "alias h1: 10.4.16.194 is not a host alias");
	expect_err(TINY "alias h1 10.4.16.196 10.8.16.195\n", 14,
		   "alias h1: 10.4.16.196 belongs to h2");
	expect_err(TINY "alias h2 10.8.16.196\n", 14,
		   "alias h2: 1 aliases listed, the plan gives 2");
	expect_err(TINY "alias h2 10.4.16.196 10.8.16.196\n"
			"alias h1 10.4.16.195 10.8.16.195 10.8.16.195\n",
		   15, "alias h1: 10.8.16.195 listed twice");
	expect_err(TINY "alias tor1 10.4.16.195\n", 14,
		   "alias: `tor1' is not a host");
	expect_err(TINY "alias h7 10.4.16.195\n", 14,
		   "alias: `h7' is not a host");
	expect_err(TINY "alias h1 10.4.16\n", 14,
		   "alias: invalid address `10.4.16'");
	expect_err(TINY "alias h1\n", 14, "expected `alias HOST ADDR...'");
	/* Aliases may come before the links they depend on. */
	expect_err(HEAD NODES "alias h1 10.4.16.195\n" LINKS, 9,
		   "alias h1: 1 aliases listed, the plan gives 2");
}

static void test_err_whole_file(void **state)
{
	expect_err("", 0, "no switch levels");
	expect_err("# nothing\n\n   \n", 0, "no switch levels");
	expect_err("topology x\n", 0, "no switch levels");
	expect_err(HEAD, 0, "no switch at level `core' (the roots)");
	/* Errors about one node point at the line that declares it. */
	expect_err(TINY "switch core3 core\n", 14,
		   "switch `core3' (core) has nothing below it");
	expect_err(TINY "switch tor2 tor\nlink aggr1:4 tor2:1\n", 14,
		   "switch `tor2' (tor) has nothing below it");
	expect_err(
		TINY "switch aggr2 aggr\n", 14,
		"switch `aggr2' (aggr) has no link to a core switch above it");
	expect_err(TINY "host h3\n", 14,
		   "host `h3' has no link to a tor switch");
	expect_err(HEAD "switch core1 core\n", 3,
		   "switch `core1' (core) has nothing below it");
	/* Without a topology line, messages still name something. */
	expect_err("levels core tor\nswitch c core\nswitch t tor\nhost h\n"
		   "link c:1 t:2\nlink t:1 h\nmode paper\nbase 10.0.0.0/24\n",
		   0, "this topology does not fit paper addressing");
}

static void test_err_bytes(void **state)
{
	static const char nul[] = "topology tiny\n"
				  "levels core aggr tor\n"
				  "switch co\0re1 core\n"
				  "switch core2 core\n";
	char big[70000];

	expect_err_len(nul, sizeof(nul) - 1, 3, "NUL byte in line");
	/* Bytes after len are never read. */
	expect_err_len(TINY "capacity 10\n", strlen(TINY) + 8, 14,
		       "expected `capacity MBIT'");

	memset(big, 'a', sizeof(big));
	memcpy(big, "topology tiny\n", 14);
	big[sizeof(big) - 1] = '\n';
	expect_err_len(big, sizeof(big), 2, "line longer than");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_statements),
		cmocka_unit_test(test_err_keywords),
		cmocka_unit_test(test_err_links),
		cmocka_unit_test(test_err_options),
		cmocka_unit_test(test_err_duplicate_addr),
		cmocka_unit_test(test_err_aliases),
		cmocka_unit_test(test_err_whole_file),
		cmocka_unit_test(test_err_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
