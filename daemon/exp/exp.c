// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The report's model: notes, verdicts and the schedulers' list (exp.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "exp.h"

void exp_note(struct exp *e, const char *fmt, ...)
{
	va_list ap;

	if (e->nnotes == EXP_NOTE_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(e->note[e->nnotes++], EXP_TEXT_MAX, fmt, ap);
	va_end(ap);
}

void exp_reason(struct exp_verdict *v, const char *check, double value,
		const char *fmt, ...)
{
	struct exp_reason *r;
	va_list ap;

	if (v->nreasons == EXP_CHECK_MAX)
		return;
	r = &v->reason[v->nreasons++];
	snprintf(r->check, sizeof(r->check), "%s", check);
	r->value = value;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
}

void exp_skip(struct exp_verdict *v, const char *check, const char *fmt, ...)
{
	struct exp_skip *s;
	va_list ap;

	if (v->nskips == EXP_CHECK_MAX)
		return;
	s = &v->skip[v->nskips++];
	snprintf(s->check, sizeof(s->check), "%s", check);
	va_start(ap, fmt);
	vsnprintf(s->why, sizeof(s->why), fmt, ap);
	va_end(ap);
}

enum exp_faith exp_faith(const struct exp_verdict *v)
{
	if (v->nreasons)
		return EXP_UNFAITHFUL;
	return v->judged ? EXP_FAITHFUL : EXP_NOT_JUDGED;
}

int exp_sched_find(const struct exp *e, const char *sched)
{
	unsigned i;

	for (i = 0; i < e->nsched; i++)
		if (!strcmp(e->sched[i], sched))
			return i;
	return -1;
}

int exp_sched_index(struct exp *e, const char *sched)
{
	int i = exp_sched_find(e, sched);

	if (i >= 0)
		return i;
	if (e->nsched == EXP_SCHED_MAX || strlen(sched) >= DARD_NAME_MAX ||
	    !*sched)
		return -1;
	strcpy(e->sched[e->nsched], sched);
	return e->nsched++;
}
