// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The other end of dardd's control socket, for tests/root/ctlsock.sh, as
 * whoever runs it:
 *   ctlpeer listen   an impostor: binds the control socket's path (only
 *                    root can), says "ready", answers every client
 *                    with a forged stats document
 *   ctlpeer bind     binds it and exits, leaving the file behind, as a
 *                    killed dardd would
 *   ctlpeer full     binds it, fills its queue with a connection of its
 *                    own, says "ready" and takes none: a stopped dardd
 *                    whose queue is full, as a client meets it
 *   ctlpeer send T   a client sending the bytes T as they are (no
 *                    newline added), printing the answer
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ctlsock.h"

static const char forged[] = "{\"host\":\"impostor\",\"moves\":99}\n";

static int client(const char *text)
{
	struct sockaddr_un sun;
	int len = dardd_ctl_addr(&sun);
	char buf[4096];
	ssize_t n;
	int fd;

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (len < 0 || fd < 0 || connect(fd, (struct sockaddr *)&sun, len)) {
		perror("ctlpeer: connect");
		return 1;
	}
	if (send(fd, text, strlen(text), MSG_NOSIGNAL) < 0)
		perror("ctlpeer: send");
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, n, stdout);
	close(fd);
	return 0;
}

/* Queue room for no connection but the one we make ourselves. */
static int full(void)
{
	struct sockaddr_un sun;
	int len = dardd_ctl_addr(&sun);
	int fd, c;

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (len < 0 || fd < 0 || bind(fd, (struct sockaddr *)&sun, len) ||
	    listen(fd, 0)) {
		perror("ctlpeer: bind");
		return 1;
	}
	c = socket(AF_UNIX, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&sun, len)) {
		perror("ctlpeer: connect");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}

static int impostor(int listening)
{
	struct sockaddr_un sun;
	int len = dardd_ctl_addr(&sun);
	char buf[64];
	int fd, c;

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (len < 0 || fd < 0 || bind(fd, (struct sockaddr *)&sun, len) ||
	    (listening && listen(fd, 8))) {
		perror("ctlpeer: bind");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	if (!listening)
		return 0;
	for (;;) {
		c = accept(fd, NULL, NULL);
		if (c < 0)
			continue;
		/* Its line read, as dardd would; a hang-up is no SIGPIPE. */
		if (read(c, buf, sizeof(buf)) >= 0)
			send(c, forged, sizeof(forged) - 1, MSG_NOSIGNAL);
		close(c);
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "listen"))
		return impostor(1);
	if (argc == 2 && !strcmp(argv[1], "bind"))
		return impostor(0);
	if (argc == 2 && !strcmp(argv[1], "full"))
		return full();
	if (argc == 3 && !strcmp(argv[1], "send"))
		return client(argv[2]);
	fprintf(stderr,
		"Usage: ctlpeer { listen | bind | full | send TEXT }\n");
	return 2;
}
