/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Both ends of dardd's control socket (dardd.h): a file in a directory
 * only root may enter, so nobody else can bind it or stop dardd from
 * starting; each end still checks who holds the other by SO_PEERCRED
 * before trusting a byte, and says whose it is when it is not root's.
 */
#ifndef _DARD_CTLSOCK_H
#define _DARD_CTLSOCK_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

struct sockaddr_un;

/*
 * The control socket's path in this network namespace, with SUFFIX
 * (".sock"; dardd's lock file: ".lock"): DARDD_CTL_DIR/net-INODE.SUFFIX.
 * Returns 0, or -errno if /proc/self/ns/net cannot be read.
 */
int dardd_ctl_path(char *path, size_t size, const char *suffix);

/* Its address, for bind and connect; returns its length, or -errno. */
int dardd_ctl_addr(struct sockaddr_un *sun);

/* "pid 123, uid 65534, `python3 squat.py'": who a peer is, for messages. */
enum { DARD_PEER_STRLEN = 160 };
void dard_peer_describe(pid_t pid, uid_t uid, char *s, size_t size);

/*
 * A unix stream socket connected to sun (len bytes of it); returns the fd,
 * or -errno: -ETIMEDOUT when the listener took no connection for ms
 * (stopped or hung, its queue full). Sends on it wait ms at most too.
 */
int dard_unix_connect(const struct sockaddr_un *sun, socklen_t len, int ms);

/*
 * Connects to dardd's control socket, waiting ms at most; returns the fd,
 * or a negative errno with the reason in err (DARD_ERR_MAX): -ENOENT or
 * -ECONNREFUSED when no dardd listens, -ETIMEDOUT when one takes no
 * connection, -EACCES for a client that is not root, -EPERM when the
 * holder is not root (an impostor, named by pid, uid and command).
 */
int dard_ctl_connect(int ms, char *err);

/*
 * Whether a dardd runs in this network namespace: its lock is held.
 * Connects to nothing, so dardd counts nothing.
 */
int dard_ctl_bound(void);

/*
 * Binds and listens on the control socket; returns the fd, or a negative
 * errno with the reason in err. Makes DARD_RUN_DIR (0755) and
 * DARDD_CTL_DIR (0700) if missing and refuses either if another user
 * owns it or may write (or, DARDD_CTL_DIR, enter) it. Holds a write lock
 * (fcntl's, the open file description's, on *lock, the file beside the
 * socket, which says dardd's pid) for dardd's life: a second
 * dardd in the namespace is refused, naming the first, and a socket file
 * left by a killed one is replaced.
 */
int dard_ctl_listen(int *lock, char *err);

/* Closes what dard_ctl_listen opened and removes the socket file. */
void dard_ctl_close(int fd, int lock);

/*
 * A command line as dardd reads it: at most DARD_CTL_LINE_MAX bytes, the
 * newline included; a client sending more is refused unread.
 */
enum { DARD_CTL_LINE_MAX = 64 };

/* Why a control client was refused: the counters `dardctl stats' shows. */
enum dard_ctl_refusal {
	DARD_CTL_NOT_ROOT,  /* SO_PEERCRED: not uid 0 */
	DARD_CTL_MALFORMED, /* no newline, a second line, a byte not a word's */
	DARD_CTL_OVERSIZED, /* DARD_CTL_LINE_MAX bytes and no newline yet */
	DARD_CTL_UNKNOWN,   /* a word, but no command of dardd.h */
	DARD_CTL_INVALID,   /* a command, with arguments it does not take */
	__DARD_CTL_REFUSALS
};

/*
 * Checks the len bytes a client sent (len <= DARD_CTL_LINE_MAX) for one
 * line of printable ASCII without blanks and copies it without its
 * newline into cmd (DARD_CTL_LINE_MAX bytes); returns 0, or why not:
 * DARD_CTL_MALFORMED or DARD_CTL_OVERSIZED. Pure: the fuzz target's.
 */
int dard_ctl_line(const char *buf, size_t len, char *cmd);

/* The refusal's name, as its counter in stats ("not_root", ...). */
const char *dard_ctl_refusal_name(int why);

/*
 * buf's first bytes made printable into s (size bytes): non-printable
 * bytes become `?', so that a log line shows what a client sent.
 */
void dard_ctl_printable(const char *buf, size_t len, char *s, size_t size);

#endif /* _DARD_CTLSOCK_H */
