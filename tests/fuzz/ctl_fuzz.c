// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the control line dardd reads from any local
 * client (daemon/common/ctlsock.h): at most DARD_CTL_LINE_MAX bytes, as
 * dardd reads them, must give a command that is one word and the whole
 * line, or a refusal whose reason fits the bytes; and what the log shows
 * of them is printable and bounded.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctlsock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = size < DARD_CTL_LINE_MAX ? size : DARD_CTL_LINE_MAX;
	char cmd[DARD_CTL_LINE_MAX], seen[48];
	const char *buf = (const char *)data;
	size_t i, n;
	int why;

	why = dard_ctl_line(buf, len, cmd);
	n = strlen(cmd);
	if (!why) {
		/* The words and the newline are every byte read; one
		 * space between two words, none at either end. */
		if (!n || n + 1 != len || buf[n] != '\n' ||
		    memcmp(cmd, buf, n) || cmd[0] == ' ' || cmd[n - 1] == ' ')
			abort();
		for (i = 0; i < n; i++)
			if (cmd[i] == ' ' ? cmd[i - 1] == ' '
					  : !isgraph((unsigned char)cmd[i]))
				abort();
	} else if (why == DARD_CTL_OVERSIZED) {
		if (n || len != DARD_CTL_LINE_MAX || memchr(buf, '\n', len))
			abort();
	} else if (why != DARD_CTL_MALFORMED || n) {
		abort();
	}
	if (!strcmp(dard_ctl_refusal_name(why), "?") && why)
		abort();
	dard_ctl_printable(buf, len, seen, sizeof(seen));
	n = strlen(seen);
	if (n != (len < sizeof(seen) ? len : sizeof(seen) - 1))
		abort();
	for (i = 0; i < n; i++)
		if (!isprint((unsigned char)seen[i]))
			abort();
	return 0;
}
