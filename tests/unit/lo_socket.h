/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A UDP socket on loopback with a port of its own, for the tests that
 * drain a receiver's socket; include after <cmocka.h>.
 */
#ifndef _DARD_TEST_LO_SOCKET_H
#define _DARD_TEST_LO_SOCKET_H

#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* Bound to 127.0.0.1, its address in *sa; a receive buffer of 1 MiB,
 * so that a flood of datagrams waits whole. */
static inline int unit_lo_socket(struct sockaddr_in *sa)
{
	socklen_t salen = sizeof(*sa);
	int fd = socket(AF_INET, SOCK_DGRAM, 0), big = 1 << 20;

	assert_true(fd >= 0);
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)sa, sizeof(*sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)sa, &salen), 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	return fd;
}

#endif /* _DARD_TEST_LO_SOCKET_H */
