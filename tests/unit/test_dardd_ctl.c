// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's control socket: the answers to the words dardctl sends (the
 * keys tests/netns/dard.sh and dardctl read), and none to other words.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "dardd_fix.h"

static json_object *key(json_object *o, const char *k)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v))
		fail_msg("no key `%s' in %s", k, json_object_to_json_string(o));
	return v;
}

static void test_ctl(void **state)
{
	struct fix *f = fix_new();
	json_object *doc, *o;

	(void)state;
	assert_null(ctl_answer(&f->d, "status"));
	assert_null(ctl_answer(&f->d, ""));
	fix_elephant(f, "e2_1", 40001, 2);
	f->d.reply_rx.n[DARD_RX_LATE] = 3;

	doc = ctl_answer(&f->d, "stats");
	assert_string_equal(json_object_get_string(key(doc, "host")), "e1_1");
	assert_int_equal(json_object_get_int(key(doc, "monitors")), 1);
	assert_int_equal(json_object_get_int(key(doc, "elephants")), 1);
	assert_int_equal(json_object_get_int(key(doc, "late")), 3);
	assert_int_equal(json_object_get_int(key(doc, "rejected")), 0);
	json_object_put(doc);

	/* Refusals by reason, each under its own key beside their sum. */
	f->d.st.ctl_why[DARD_CTL_NOT_ROOT] = 1;
	f->d.st.ctl_why[DARD_CTL_OVERSIZED] = 2;
	doc = ctl_answer(&f->d, "stats");
	assert_int_equal(json_object_get_int(key(doc, "ctl_refused")), 3);
	assert_int_equal(json_object_get_int(key(doc, "ctl_not_root")), 1);
	assert_int_equal(json_object_get_int(key(doc, "ctl_malformed")), 0);
	assert_int_equal(json_object_get_int(key(doc, "ctl_oversized")), 2);
	assert_int_equal(json_object_get_int(key(doc, "ctl_unknown")), 0);
	json_object_put(doc);

	doc = ctl_answer(&f->d, "flows");
	assert_int_equal(json_object_array_length(doc), 1);
	o = json_object_array_get_idx(doc, 0);
	assert_string_equal(json_object_get_string(key(o, "proto")), "tcp");
	assert_int_equal(json_object_get_int(key(o, "sport")), 40001);
	assert_string_equal(json_object_get_string(key(o, "dst_host")), "e2_1");
	assert_int_equal(json_object_get_int(key(o, "path")), 3);
	assert_int_equal(json_object_get_int(key(o, "moves")), 0);
	assert_int_equal(json_object_array_length(key(o, "history")), 1);
	json_object_put(doc);

	doc = ctl_answer(&f->d, "monitors");
	assert_int_equal(json_object_array_length(doc), 1);
	o = json_object_array_get_idx(doc, 0);
	assert_string_equal(json_object_get_string(key(o, "src_tor")),
			    "tor1_1");
	assert_string_equal(json_object_get_string(key(o, "dst_tor")),
			    "tor2_1");
	o = key(o, "paths");
	assert_int_equal(json_object_array_length(o), 4);
	/* Nothing answered: unknown; our elephant counted on path 3. */
	assert_false(json_object_get_boolean(
		key(json_object_array_get_idx(o, 2), "known")));
	assert_int_equal(json_object_get_int(
				 key(json_object_array_get_idx(o, 2), "ours")),
			 1);
	assert_int_equal(json_object_get_int(
				 key(json_object_array_get_idx(o, 0), "ours")),
			 0);
	assert_int_equal(json_object_array_length(key(
				 json_object_array_get_idx(o, 0), "switches")),
			 3);
	json_object_put(doc);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
