/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dardd's I/O context (io.c): its three UDP sockets on the host's
 * management address, and the two things a test replaces, how a datagram
 * leaves and the wall clock. Every part that sends sends through it; the
 * controller's messages and the peers' shares carry one tree digest and
 * one sequence, each message's seq above every one before it.
 */
#ifndef _DARD_DARDD_IO_H
#define _DARD_DARDD_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct dardd;
struct dard_cp_msg;

/* Whom a socket talks to: the switches' agents, the controller, peers. */
enum dardd_sock {
	DARDD_SOCK_QUERY,      /* to dard-switchd's port (--switch-port) */
	DARDD_SOCK_CONTROLLER, /* to dard-controller, DARD_CP_PORT */
	DARDD_SOCK_SHARE,      /* to the ToR's hosts, DARD_SHARE_PORT */
	__DARDD_SOCKS,
};

struct dardd_io {
	int fd[__DARDD_SOCKS]; /* -1: not open */
	uint32_t digest;       /* dard_cp_topo_digest() of our tree */
	uint64_t seq_out;      /* our last seq: dard_cp_next_seq() */
	uint64_t query_seq; /* our last switch query's: dard_proto_next_seq() */
	/* Sends len bytes of buf by sock to addr (host byte order), at the
	 * sock's port: sendto, or a test's. */
	ssize_t (*xmit)(struct dardd *d, enum dardd_sock sock, const void *buf,
			size_t len, uint32_t addr);
	uint64_t (*wall_ns)(void); /* CLOCK_REALTIME, or a test's */
};

/* No socket open, sendto and the real clock; d->t set. */
void io_init(struct dardd *d);
/* Opens sock on our management address: 0, or -1 logged. */
int io_open(struct dardd *d, enum dardd_sock sock, const char *what);
void io_close(struct dardd *d, enum dardd_sock sock);
/* The next seq of ours, a clock time above every one before. */
uint64_t io_next_seq(struct dardd *d);
/* Signs m (our sender, the digest, the next seq) and sends it to the
 * controller, counting it; 0 or -1. */
int io_send_cp(struct dardd *d, struct dard_cp_msg *m);

#endif /* _DARD_DARDD_IO_H */
