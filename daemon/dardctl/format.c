// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Output forms the objects share (format.h). */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "ctl.h"
#include "format.h"
#include "print.h"
#include <linux/dard.h>

int ctl_format(struct ctl *c, const char *format, const char *text_only)
{
	if (!strcmp(format, "json") && !is_json_context())
		new_json_obj(1, c->pretty);
	if (!strcmp(format, text_only) && is_json_context()) {
		fprintf(stderr, "format %s and -j do not mix\n", text_only);
		return CTL_USAGE;
	}
	return CTL_OK;
}

void ctl_print_ends(const struct dard_flow_key *k)
{
	char b[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &k->saddr, b, sizeof(b));
	print_string(PRINT_ANY, "src", " %s", b);
	print_uint(PRINT_ANY, "sport", ":%llu", ntohs(k->sport));
	inet_ntop(AF_INET, &k->daddr, b, sizeof(b));
	print_string(PRINT_ANY, "dst", " %s", b);
	print_uint(PRINT_ANY, "dport", ":%llu", ntohs(k->dport));
}
