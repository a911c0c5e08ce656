// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's I/O context (io.h): the sockets every part sends by, one test
 * seam for all of them, and the signing of the controller's messages,
 * which the controller client and the ASSIGN it applies both send.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "clock.h"
#include "dardd_priv.h"
#include "io.h"
#include "log.h"

static uint16_t port_of(const struct dardd *d, enum dardd_sock sock)
{
	if (sock == DARDD_SOCK_QUERY)
		return d->o.switch_port;
	return sock == DARDD_SOCK_CONTROLLER ? DARD_CP_PORT : DARD_SHARE_PORT;
}

static ssize_t xmit_udp(struct dardd *d, enum dardd_sock sock, const void *buf,
			size_t len, uint32_t addr)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons(port_of(d, sock)),
				 .sin_addr.s_addr = htonl(addr)};

	return sendto(d->io.fd[sock], buf, len, 0, (struct sockaddr *)&sa,
		      sizeof(sa));
}

static uint64_t wall_ns(void)
{
	return dard_clock_ns(CLOCK_REALTIME);
}

void io_init(struct dardd *d)
{
	struct dardd_io *io = &d->io;
	int s;

	memset(io, 0, sizeof(*io));
	for (s = 0; s < __DARDD_SOCKS; s++)
		io->fd[s] = -1;
	io->digest = dard_cp_topo_digest(d->t);
	io->xmit = xmit_udp;
	io->wall_ns = wall_ns;
}

int io_open(struct dardd *d, enum dardd_sock sock, const char *what)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	/* The share port is the peers' to send to: ours to bind. */
	if (sock == DARDD_SOCK_SHARE)
		sa.sin_port = htons(DARD_SHARE_PORT);
	sa.sin_addr.s_addr = htonl(d->t->node[d->me].mgmt);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		if (sock == DARDD_SOCK_SHARE)
			log_err("Unable to open the %s socket on %s:%d: %s",
				what, inet_ntoa(sa.sin_addr), DARD_SHARE_PORT,
				strerror(errno));
		else
			log_err("Unable to open the %s socket on %s: %s", what,
				inet_ntoa(sa.sin_addr), strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	d->io.fd[sock] = fd;
	return 0;
}

void io_close(struct dardd *d, enum dardd_sock sock)
{
	if (d->io.fd[sock] >= 0)
		close(d->io.fd[sock]);
	d->io.fd[sock] = -1;
}

uint64_t io_next_seq(struct dardd *d)
{
	/* Clock times: above any a dardd before us sent (cproto.h). */
	d->io.seq_out = dard_cp_next_seq(d->io.seq_out, d->io.wall_ns());
	return d->io.seq_out;
}

int io_send_cp(struct dardd *d, struct dard_cp_msg *m)
{
	static uint8_t buf[DARD_CP_MSG_MAX];
	size_t len;

	m->sender = d->t->node[d->me].id;
	m->topo = d->io.digest;
	m->seq = io_next_seq(d);
	len = dard_cp_encode(buf, sizeof(buf), &d->keys->key[0], m);
	if (!len) {
		log_warn("controller: unable to encode a %s of %u records",
			 dard_cp_type_name(m->type), m->count);
		return -1;
	}
	if (d->io.xmit(d, DARDD_SOCK_CONTROLLER, buf, len, d->o.controller) <
	    0) {
		d->st.controller_send_errors++;
		return -1;
	}
	if (m->type == DARD_CP_REPORT) {
		d->st.controller_reports++;
		d->st.controller_report_bytes += len;
	}
	return 0;
}
