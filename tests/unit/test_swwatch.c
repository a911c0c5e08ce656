// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-switchd's watchers (watchers.h): a sender's one watch, replaced by
 * its next, lapsing with its lease; a full probe refusing a newcomer but
 * reusing a lapsed slot; and the notice each watcher is owed: the records
 * of its watched ports that changed, no others.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "watchers.h"

#define LEASE 30
static struct sw_port port[3] = {{.num = 1, .up = 1, .mbps = 100},
				 {.num = 2, .up = 0, .mbps = 100},
				 {.num = 4, .up = 1, .mbps = 40}};

static struct dard_msg watch(uint32_t sender, const uint16_t *ports, unsigned n)
{
	struct dard_msg q = {.type = DARD_MSG_WATCH,
			     .sender = sender,
			     .key_id = 7,
			     .seq = 1,
			     .count = n};

	if (n)
		memcpy(q.ports, ports, n * sizeof(*ports));
	return q;
}

/* Sender s's slot, which a live watch of it must have. */
static unsigned slot_of(const struct sw_watchers *ws, uint32_t s)
{
	unsigned i;

	for (i = 0; i < SW_WATCHERS_SLOTS; i++)
		if (ws->w[i].until && ws->w[i].sender == s)
			return i;
	fail_msg("sender %u has no slot", s);
	return 0;
}

static void test_take_replace_lapse(void **state)
{
	struct sw_watchers ws;
	struct dard_msg q = watch(11, (uint16_t[]){4, 9}, 2);
	unsigned i;

	(void)state;
	assert_int_equal(sw_watchers_init(&ws, 3), 0);
	assert_int_equal(sw_watchers_take(&ws, port, 3, &q, 0x0a000001, 5000,
					  100, LEASE),
			 0);
	assert_int_equal(sw_watchers_live(&ws, 100), 1);
	i = slot_of(&ws, 11);
	assert_int_equal(i, sw_watchers_home(11));
	/* Port 9 is not ours: nothing watched for it. */
	assert_memory_equal(sw_watched(&ws, i), ((uint8_t[]){0, 0, 1}), 3);
	assert_int_equal(ws.w[i].key_id, 7);
	assert_int_equal(ws.w[i].port, 5000);
	/* Its next watch replaces it, from wherever it now comes. */
	q = watch(11, NULL, 0);
	assert_int_equal(sw_watchers_take(&ws, port, 3, &q, 0x0a000002, 5001,
					  110, LEASE),
			 0);
	assert_int_equal(slot_of(&ws, 11), i);
	assert_int_equal(sw_watchers_live(&ws, 110), 1);
	assert_int_equal(ws.w[i].addr, 0x0a000002);
	/* No ports: every port. */
	assert_memory_equal(sw_watched(&ws, i), ((uint8_t[]){1, 1, 1}), 3);
	q = watch(12, (uint16_t[]){1}, 1);
	assert_int_equal(sw_watchers_take(&ws, port, 3, &q, 3, 3, 120, LEASE),
			 0);
	assert_int_equal(sw_watchers_live(&ws, 139), 2);
	/* 11's lease ends at 140, 12's at 150. */
	assert_int_equal(sw_watchers_live(&ws, 140), 1);
	assert_int_equal(sw_watchers_live(&ws, 150), 0);
	sw_watchers_free(&ws);
}

/*
 * Senders whose probes start at one slot fill its SW_WATCHERS_PROBES
 * slots; one more is refused while they live, a watcher already in
 * renews, and a lapsed one's slot goes to the newcomer.
 */
static void test_full(void **state)
{
	uint32_t same[SW_WATCHERS_PROBES + 1], s;
	struct sw_watchers ws;
	struct dard_msg q;
	unsigned n = 0, i;

	(void)state;
	for (s = 1; n < SW_WATCHERS_PROBES + 1; s++)
		if (sw_watchers_home(s) == sw_watchers_home(1))
			same[n++] = s;
	assert_int_equal(sw_watchers_init(&ws, 3), 0);
	for (i = 0; i < SW_WATCHERS_PROBES; i++) {
		q = watch(same[i], (uint16_t[]){1}, 1);
		assert_int_equal(sw_watchers_take(&ws, port, 3, &q, 1, 1,
						  i ? 2 : 1, LEASE),
				 0);
	}
	q = watch(same[SW_WATCHERS_PROBES], (uint16_t[]){1}, 1);
	assert_int_equal(sw_watchers_take(&ws, port, 3, &q, 1, 1, 20, LEASE),
			 -ENOSPC);
	i = slot_of(&ws, same[5]);
	q = watch(same[5], (uint16_t[]){2}, 1);
	assert_int_equal(sw_watchers_take(&ws, port, 3, &q, 1, 1, 20, LEASE),
			 0);
	assert_int_equal(slot_of(&ws, same[5]), i);
	/* The first's lease ended at 31: its slot goes to the newcomer. */
	assert_int_equal(sw_watchers_live(&ws, 31), SW_WATCHERS_PROBES - 1);
	q = watch(same[SW_WATCHERS_PROBES], (uint16_t[]){1}, 1);
	assert_int_equal(sw_watchers_take(&ws, port, 3, &q, 1, 1, 31, LEASE),
			 0);
	assert_int_equal(slot_of(&ws, same[SW_WATCHERS_PROBES]),
			 sw_watchers_home(1));
	assert_int_equal(sw_watchers_live(&ws, 31), SW_WATCHERS_PROBES);
	sw_watchers_free(&ws);
}

static void test_notice(void **state)
{
	struct dard_port_state st[3];
	struct sw_watchers ws;
	struct dard_msg q = watch(11, (uint16_t[]){2, 4}, 2);
	unsigned i;

	(void)state;
	assert_int_equal(sw_watchers_init(&ws, 3), 0);
	assert_int_equal(sw_watchers_take(&ws, port, 3, &q, 1, 1, 0, LEASE), 0);
	i = slot_of(&ws, 11);
	/* Port 1 changed: not watched, nothing owed. */
	assert_int_equal(
		sw_watcher_notice(&ws, i, port, 3, (uint8_t[]){1, 0, 0}, st),
		0);
	/* Ports 2 and 4 changed: both, as a reply has them. */
	assert_int_equal(
		sw_watcher_notice(&ws, i, port, 3, (uint8_t[]){1, 1, 1}, st),
		2);
	assert_int_equal(st[0].port, 2);
	assert_int_equal(st[0].flags, 0);
	assert_int_equal(st[1].port, 4);
	assert_int_equal(st[1].flags, DARD_PORT_F_UP);
	assert_int_equal(st[1].mbps, 40);
	sw_watchers_free(&ws);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_take_replace_lapse),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_notice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
