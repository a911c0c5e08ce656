// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the key file parser (daemon/lib/key.h): whatever
 * the bytes, it takes one or two keys with distinct ids or refuses with
 * a message that quotes none of them, and leaves no key behind; what it
 * takes, formatted again, parses to the same keys.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "key.h"
#include "topo.h" /* DARD_ERR_MAX */

/*
 * Whether s has more hex digits in a row than a message's own numbers
 * (a key id or 4294967295: 10): then it quotes the file.
 */
static int quotes(const char *s)
{
	unsigned run = 0;

	for (; *s; s++) {
		run = isxdigit((unsigned char)*s) ? run + 1 : 0;
		if (run > 10)
			return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[DARD_KEY_FILE_MAX];
	struct dard_keys keys, again, zero = {0};
	char err[DARD_ERR_MAX] = "";
	size_t len;

	if (dard_keys_parse(&keys, (const char *)data, size, "fuzz", err)) {
		if (!err[0] || quotes(err) ||
		    memcmp(&keys, &zero, sizeof(keys)))
			abort();
		return 0;
	}
	if (keys.n < 1 || keys.n > DARD_KEYS_MAX ||
	    (keys.n == 2 && keys.key[0].id == keys.key[1].id))
		abort();
	len = dard_keys_format(&keys, buf, sizeof(buf));
	if (!len || dard_keys_parse(&again, buf, len, "again", err) ||
	    again.n != keys.n ||
	    memcmp(again.key, keys.key, sizeof(keys.key[0]) * keys.n))
		abort();
	return 0;
}
