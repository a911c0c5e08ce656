/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The controller client (controller.c: reports, its datagrams, the mode
 * and the fallback; cpapply.c: ASSIGN and WEIGHTS through the datapath).
 */
#ifndef _DARD_DARDD_CONTROLLER_H
#define _DARD_DARDD_CONTROLLER_H

#include <stddef.h>
#include <stdint.h>

#include "cproto.h"
#include "log.h"
#include "receiver.h"

struct dardd;
struct elephant;

/* Who places our elephants, and why (controller.c). */
enum cp_mode {
	CP_NONE,    /* no controller configured: DARD */
	CP_UNHEARD, /* configured, not heard from yet: DARD */
	CP_SILENT,  /* silent past the timeout: DARD */
	CP_SELF,    /* heard, leaves our elephants to us (SELF): DARD */
	CP_PLACES,  /* heard, places our elephants: no DARD moves */
};

/* The controller client's state (controller.c, cpapply.c). */
struct cp {
	enum cp_mode mode;
	uint8_t algo;	       /* of its last ASSIGN or WEIGHTS */
	uint64_t seq_in;       /* the last seq taken from the controller */
	uint64_t epoch;	       /* the last epoch applied, 0: none */
	uint64_t heard_ns;     /* when last heard, 0: never */
	uint64_t mode_wall_ns; /* CLOCK_REALTIME of the last change of mode */
	uint64_t next_report_ns;
	struct dard_cp_msg *in, *out; /* decoded; incremental report */
	/* The ASSIGN set being applied and its ACK (cpapply.c). */
	struct dard_cp_msg *ack;
	uint64_t ack_epoch;
	int ack_open, ack_sent;
	/* The WEIGHTS set being applied; per ToR rank, the set that gave
	 * it weights (0: even). */
	uint64_t wset, w_epoch, *wgen;
	uint32_t ntors;
	int w_open, w_warned;
	int weighted;	   /* some destination has the controller's weights */
	struct dard_rx rx; /* its datagrams, taken or refused */
	struct dard_ratelimit w_rl; /* weights refused */
};

/*
 * controller.c: reports to dard-controller, its datagrams checked, and
 * the mode (dard or controller) with the fallback on silence.
 */
int controller_init(struct dardd *d);
/* The socket to the controller, on this host's management address. */
int controller_open(struct dardd *d);
void controller_fini(struct dardd *d);
/* Reports and the silence check, when due. */
void controller_tick(struct dardd *d, uint64_t now);
/* An elephant began (end 0) or ended: into the next incremental report. */
void controller_note(struct dardd *d, const struct elephant *e, int end);
/* The incremental report, if it has records: sent now. */
void controller_flush(struct dardd *d);
/* One datagram from addr:port (host byte order). */
void controller_input(struct dardd *d, const uint8_t *buf, size_t len,
		      uint32_t addr, uint16_t port, uint64_t now);
/* As query_receive(), from the controller's socket; how many taken. */
unsigned controller_receive(struct dardd *d);
/* Whether the controller places our elephants: DARD rounds do not move. */
int controller_places(const struct dardd *d);
/* "dard" or "controller", and why, for dardctl stats. */
const char *controller_mode_name(const struct dardd *d);
const char *controller_mode_why(const struct dardd *d);

/*
 * cpapply.c: ASSIGN and WEIGHTS through the datapath. Path indices are
 * dard_path_foreach()'s from us to the flow's destination host.
 */
/* e's path index, or -1 when its pair names none of them. */
int cp_path_index(struct dardd *d, const struct elephant *e);
void cp_assign(struct dardd *d, const struct dard_cp_msg *m, uint64_t now);
void cp_weights(struct dardd *d, const struct dard_cp_msg *m);
/* A weight record naming no ToR, or -1: checked before applying any. */
int cp_weights_check(struct dardd *d, const struct dard_cp_msg *m);
/* Every destination's weights even again: at start, and falling back. */
void cp_weights_even(struct dardd *d);

#endif /* _DARD_DARDD_CONTROLLER_H */
