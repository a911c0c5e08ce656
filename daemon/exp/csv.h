/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The experiment directory's text files, read from buffers the caller
 * filled: CSV with or without a header line (fields split at commas,
 * no quoting: no field the script writes holds one), key=value lines
 * (meta) and the testbed's `NODE KIND NAMESPACE' lines (nodes). Pure;
 * a bad line is refused with "NAME:LINE: why" in err (EXP_ERR_MAX).
 * Blank lines are skipped.
 */
#ifndef _DARD_EXP_CSV_H
#define _DARD_EXP_CSV_H

#include <limits.h>
#include <stddef.h>

#include "topo.h"

/* Room for a message naming a file by its path. */
enum { EXP_ERR_MAX = DARD_ERR_MAX + PATH_MAX };

/* dard_fail for dard-exp's longer messages: EXP_ERR_MAX bytes of err. */
int exp_fail(char *err, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct exp_csv {
	const char *name;	 /* the file, for messages */
	char *own;		 /* name's copy, when the reader made one */
	const char *const *cols; /* the columns wanted, by name */
	unsigned ncols;
	char *text;	/* a copy, cut into fields */
	char **cell;	/* nrows x ncols, row by row */
	unsigned *line; /* each row's line in the file */
	size_t nrows;
};

/*
 * Reads buf[0..len) into c. With header, the first line names the
 * columns: each of cols must be among them (others are kept out) and
 * every row has as many fields as it; without, every row has exactly
 * ncols fields, cols being their names. Returns 0 or a negative errno
 * (-EINVAL for a bad line, -ENOMEM) with err set; c is then empty.
 */
int exp_csv_read(struct exp_csv *c, const char *name, const char *buf,
		 size_t len, const char *const *cols, unsigned ncols,
		 int header, char *err);
void exp_csv_free(struct exp_csv *c);

static inline const char *exp_csv_str(const struct exp_csv *c, size_t row,
				      unsigned col)
{
	return c->cell[row * c->ncols + col];
}

/*
 * Field col of row as a number in [min, max]: 0, or -EINVAL with
 * "NAME:LINE: COL `X': not a number" (or out of range) in err. An
 * empty field is NAN when empty_ok, else refused.
 */
int exp_csv_num(const struct exp_csv *c, size_t row, unsigned col, double min,
		double max, int empty_ok, double *v, char *err);
/* The same for a whole number up to max. */
int exp_csv_uint(const struct exp_csv *c, size_t row, unsigned col,
		 unsigned max, unsigned *v, char *err);

/* key=value lines; `#' starts a comment line. */
struct exp_kv {
	char *text;
	char **key, **val;
	unsigned *line;
	size_t n;
};

/*
 * Reads buf[0..len): a line without `=', with an empty key or a key
 * given twice is refused. Returns 0 or a negative errno with err set.
 */
int exp_kv_read(struct exp_kv *kv, const char *name, const char *buf,
		size_t len, char *err);
/* key's value, or NULL; *line its line when line is not NULL. */
const char *exp_kv_get(const struct exp_kv *kv, const char *key,
		       unsigned *line);
void exp_kv_free(struct exp_kv *kv);

/* A testbed node: its name and its network namespace's. */
struct exp_node {
	char name[DARD_NAME_MAX];
	char ns[NAME_MAX + 1];
};

/*
 * The testbed's nodes file: `NAME KIND NAMESPACE' lines, the namespace a
 * name /run/netns can hold (no `/', not `.' or `..'). Returns the number
 * of nodes (*out, to free) or a negative errno with err set.
 */
long exp_nodes_read(const char *name, const char *buf, size_t len,
		    struct exp_node **out, char *err);

#endif /* _DARD_EXP_CSV_H */
