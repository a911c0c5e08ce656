/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-exp report's model of one experiment directory: what was read
 * (meta, each run's flows) and what was judged and computed from it
 * (fidelity, the statistics across runs, the gains). No I/O types:
 * dir.c fills it from the files, fidelity.c, fairshare.c and figures.c
 * compute, report.c and jsonout.c print.
 */
#ifndef _DARD_EXP_EXP_H
#define _DARD_EXP_EXP_H

#include <limits.h>
#include <stddef.h>

#include "config.h"
#include "csv.h"
#include "stats.h"

enum {
	EXP_SCHED_MAX = 16, /* schedulers in one experiment */
	EXP_RUN_MAX = 999,  /* runs (the script's --repeat's bound) */
	EXP_CHECK_MAX = 8,  /* reasons, and checks not judged, per verdict */
	EXP_TEXT_MAX = 640, /* one reason's text */
	EXP_NOTE_MAX = 32,  /* notes about the whole directory */
};

/* One reason a run (or the calibration) is not faithful. */
struct exp_reason {
	char check[16]; /* cpu, shaping, share, calibration */
	double value;	/* the figure judged: a share, a rate, packets */
	char text[EXP_TEXT_MAX];
};

/* A check that could not be judged, and why. */
struct exp_skip {
	char check[16];
	char why[256];
};

/*
 * A fidelity verdict: faithful when at least one check was judged and
 * no reason applies; not judged when no check could be.
 */
struct exp_verdict {
	unsigned judged; /* checks judged */
	unsigned nreasons, nskips;
	struct exp_reason reason[EXP_CHECK_MAX];
	struct exp_skip skip[EXP_CHECK_MAX];
};

enum exp_faith { EXP_NOT_JUDGED = -1, EXP_UNFAITHFUL = 0, EXP_FAITHFUL = 1 };

/* One scheduler in one run. NAN: no such figure. */
struct exp_cell {
	int present; /* the run's results.csv has its rows */
	unsigned flows, failed;
	double avg;	    /* s, of the finished flows */
	double model;	    /* s, dard-sim's replay of the same flows */
	double bound;	    /* s, the bound's rows for them */
	double idle;	    /* mean sampled idle share in the run */
	unsigned idle_n;    /* samples in it */
	double cpu_busy;    /* share of them under EXP_CPU_IDLE_MIN */
	double below;	    /* share of flow-seconds judged below */
	unsigned judged_fs; /* flow-seconds judged */
	struct exp_verdict v;
};

struct exp_run {
	unsigned num; /* R of DIR/runR; 1 for DIR's own results.csv */
	char dir[PATH_MAX];
	char seed[32];			     /* meta's, or empty */
	struct exp_cell cell[EXP_SCHED_MAX]; /* by the experiment's sched[] */
	double idle;			     /* over all its cells' samples */
	unsigned idle_n;
};

struct exp_calib {
	int have; /* calibration/flows.csv was there */
	unsigned flows, below;
	double want; /* Mbit/s: EXP_CALIB_MIN x link x goodput */
	unsigned slowest;
	char slowest_src[DARD_NAME_MAX], slowest_dst[DARD_NAME_MAX];
	double slowest_mbps;
	double idle;
	unsigned idle_n;
	double cpu_busy;
	struct exp_verdict v;
};

/* DIR/meta: every line kept for the JSON, the ones used taken out. */
struct exp_meta {
	int have;
	struct exp_kv kv;
	const char *topo; /* NULL: none */
	double link, goodput, loadavg;
	unsigned runs, nproc;
};

/* One scheduler across the runs. */
struct exp_sstat {
	struct dard_ci ci; /* of the runs' averages */
	double min, max;
	double model, bound; /* means over the runs with both */
	unsigned model_n, bound_n;
	double ratio; /* mean / model over the runs with both */
};

/* One pair the report weighs: s's gain over o. */
struct exp_gain {
	unsigned s, o;	   /* indices into sched[] */
	struct dard_ci ci; /* over the pairs of runs */
	double model;	   /* the mean of the per-pair model gains */
	unsigned model_n;
	double model_half; /* their 95% interval's half (Student's t) */
	/*
	 * The testbed's gain minus the model's, pair by pair, over the
	 * pairs with both: the model agrees when its interval holds 0.
	 */
	struct dard_ci diff;
};

enum { EXP_GAIN_MAX = 32 };

struct exp {
	char dir[PATH_MAX];
	int single; /* DIR's own results.csv: one run */
	struct exp_meta meta;
	struct dard_config cfg; /* meta's topology, when it loads */
	int have_topo;
	char sched[EXP_SCHED_MAX][DARD_NAME_MAX];
	unsigned nsched;
	struct exp_calib calib;
	struct exp_run *run;
	unsigned nruns;
	struct exp_sstat ss[EXP_SCHED_MAX];
	struct exp_gain gain[EXP_GAIN_MAX];
	unsigned ngains;
	/* What the report could not judge about the whole directory. */
	char note[EXP_NOTE_MAX][EXP_TEXT_MAX];
	unsigned nnotes;
};

/* Adds a note (beyond EXP_NOTE_MAX they are dropped). */
void exp_note(struct exp *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A verdict's reason, or a check it could not judge. A check judged
 * counts itself in v->judged, whatever it found.
 */
void exp_reason(struct exp_verdict *v, const char *check, double value,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void exp_skip(struct exp_verdict *v, const char *check, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
enum exp_faith exp_faith(const struct exp_verdict *v);
/* The index of sched in e->sched, added if new (-1: too many). */
int exp_sched_index(struct exp *e, const char *sched);
int exp_sched_find(const struct exp *e, const char *sched);

#endif /* _DARD_EXP_EXP_H */
