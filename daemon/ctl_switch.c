// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dardctl switch: a switch's downhill and uphill tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dardctl.h"
#include "lib/table.h"
#include "print.h"
#include "render.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl [ -t TOPO ] switch tables SWITCH [ format { text | ip | json } ]\n"
		"\n"
		"The downhill table (prefixes allocated below, by down port; looked up\n"
		"first, on the destination) and the uphill table (prefixes allocated\n"
		"from above, by up port; looked up on the source when the downhill\n"
		"table has no match), as in Table 2 of the DARD paper.\n"
		"format ip prints the iproute2 commands that install them on a Linux\n"
		"router whose port N is interface pN; format json equals -j.\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

static void print_table(struct ctl *c, uint32_t sw, const char *key,
			const struct dard_route *r, uint32_t n)
{
	const struct dard_topo *t = c->cfg.topo;
	char b[24];
	uint32_t i;

	print_text("%s table\n%-20s %-5s %s\n", key, "prefix", "port", "to");
	open_json_array(PRINT_JSON, key);
	for (i = 0; i < n; i++) {
		open_json_object(NULL);
		print_string(PRINT_ANY, "prefix", "%-20s",
			     dard_prefix_str(r[i].prefix, r[i].len, b));
		print_uint(PRINT_ANY, "port", " %-5llu", r[i].port);
		print_string(PRINT_ANY, "to", " %s\n",
			     t->node[dard_topo_peer(t, sw, r[i].port)].name);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

static int switch_tables(struct ctl *c, uint32_t sw, const char *format)
{
	const struct dard_topo *t = c->cfg.topo;
	struct dard_route *r;
	uint32_t n, m;

	if (!strcmp(format, "ip")) {
		render_switch(stdout, t, c->cfg.plan, sw, "ip ");
		return CTL_OK;
	}
	n = dard_table_downhill_size(t, sw);
	m = dard_table_uphill_size(t, sw);
	r = calloc((n > m ? n : m) + 1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "Out of memory\n");
		return CTL_ERR;
	}
	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%s", t->node[sw].name);
	print_string(PRINT_ANY, "level", " (%s)\n",
		     t->level_name[t->node[sw].level]);
	n = dard_table_downhill(t, c->cfg.plan, sw, r);
	print_table(c, sw, "downhill", r, n);
	if (t->node[sw].level) {
		m = dard_table_uphill(t, c->cfg.plan, sw, r);
		print_text("\n");
		print_table(c, sw, "uphill", r, m);
	}
	close_json_object();
	free(r);
	return CTL_OK;
}

int do_switch(struct ctl *c, int argc, char **argv)
{
	const char *format = "text";
	uint32_t sw;
	int i;

	if (argc < 1)
		return usage(stderr);
	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	if (strcmp(argv[0], "tables")) {
		fprintf(stderr,
			"Command \"%s\" is unknown, try \"dardctl switch help\".\n",
			argv[0]);
		return CTL_USAGE;
	}
	if (argc < 2) {
		fprintf(stderr, "switch tables: which switch?\n");
		return usage(stderr);
	}
	for (i = 2; i < argc; i++) {
		if ((!strcmp(argv[i], "format") ||
		     !strcmp(argv[i], "--format")) &&
		    i + 1 < argc) {
			format = argv[++i];
			if (strcmp(format, "text") && strcmp(format, "ip") &&
			    strcmp(format, "json")) {
				fprintf(stderr,
					"Invalid format `%s': expected text, ip or json\n",
					format);
				return CTL_USAGE;
			}
		} else {
			fprintf(stderr, "switch tables: unexpected `%s'\n",
				argv[i]);
			return usage(stderr);
		}
	}
	if (!strcmp(format, "json") && !is_json_context())
		new_json_obj(1, c->pretty);
	if (!strcmp(format, "ip") && is_json_context()) {
		fprintf(stderr, "format ip and -j do not mix\n");
		return CTL_USAGE;
	}
	if (ctl_load(c))
		return CTL_ERR;
	sw = ctl_node(c, argv[1], 0);
	if (sw == DARD_NONE)
		return CTL_ERR;
	return switch_tables(c, sw, format);
}
