// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Both ends of dardd's control socket, each checking the other (ctlsock.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>

#include "ctlsock.h"
#include "dardd.h"
#include "err.h"

int dardd_ctl_path(char *path, size_t size, const char *suffix)
{
	struct stat st;

	if (stat("/proc/self/ns/net", &st))
		return -errno;
	snprintf(path, size, DARDD_CTL_DIR "/net-%lu%s",
		 (unsigned long)st.st_ino, suffix);
	return 0;
}

int dardd_ctl_addr(struct sockaddr_un *sun)
{
	int ret;

	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	ret = dardd_ctl_path(sun->sun_path, sizeof(sun->sun_path), ".sock");
	return ret ? ret : (int)sizeof(*sun);
}

void dard_peer_describe(pid_t pid, uid_t uid, char *s, size_t size)
{
	char path[64], cmd[64] = "";
	ssize_t n = -1;
	int fd, i;

	/* The command line, NULs as blanks: what ps would show. */
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, cmd, sizeof(cmd) - 1);
		close(fd);
	}
	for (i = 0; i < n; i++)
		if (!cmd[i] || !isprint((unsigned char)cmd[i]))
			cmd[i] = ' ';
	while (n > 0 && cmd[n - 1] == ' ')
		n--;
	cmd[n > 0 ? n : 0] = 0;
	snprintf(s, size, "pid %d, uid %u, `%s'", (int)pid, (unsigned)uid,
		 n > 0 ? cmd : "?");
}

/* The peer of a connected fd, described; -errno if the kernel says not. */
static int peer_of(int fd, struct ucred *cred, char *who, size_t size)
{
	socklen_t len = sizeof(*cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cred, &len))
		return -errno;
	dard_peer_describe(cred->pid, cred->uid, who, size);
	return 0;
}

int dard_unix_connect(const struct sockaddr_un *sun, socklen_t len, int ms)
{
	struct timeval tv = {.tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000};
	int fd, ret;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/*
	 * A listener that takes no connection (stopped, or hung) leaves them
	 * in its queue; once that is full, connect waits, as long as the
	 * send timeout (unix(7)) says, then fails with EAGAIN.
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) ||
	    connect(fd, (const struct sockaddr *)sun, len)) {
		ret = errno == EAGAIN ? -ETIMEDOUT : -errno;
		close(fd);
		return ret;
	}
	return fd;
}

int dard_ctl_connect(int ms, char *err)
{
	char who[DARD_PEER_STRLEN];
	struct sockaddr_un sun;
	int len = dardd_ctl_addr(&sun);
	struct ucred cred;
	int fd, ret;

	if (len < 0)
		return dard_fail(err, len,
				 "Unable to tell this network namespace: %s",
				 strerror(-len));
	fd = dard_unix_connect(&sun, len, ms);
	if (fd == -ETIMEDOUT)
		return dard_fail(
			err, fd,
			"dardd did not answer within %.3g s: %s takes no connection",
			ms / 1e3, sun.sun_path);
	if (fd == -EACCES || fd == -EPERM)
		return dard_fail(err, fd,
				 "Unable to reach dardd at %s: %s (root only)",
				 sun.sun_path, strerror(-fd));
	if (fd == -ENOENT || fd == -ECONNREFUSED)
		return dard_fail(err, fd,
				 "No dardd in this network namespace (%s: %s)",
				 sun.sun_path, strerror(-fd));
	if (fd < 0)
		return dard_fail(err, fd, "Unable to reach dardd at %s: %s",
				 sun.sun_path, strerror(-fd));
	/* Before a byte goes either way: the directory's mode may be wrong. */
	ret = peer_of(fd, &cred, who, sizeof(who));
	if (ret) {
		close(fd);
		return dard_fail(err, ret, "Unable to tell who holds %s: %s",
				 sun.sun_path, strerror(-ret));
	}
	if (cred.uid != 0) {
		close(fd);
		return dard_fail(
			err, -EPERM,
			"Refusing to talk to %s: its holder (%s) is not root, so not dardd",
			sun.sun_path, who);
	}
	return fd;
}

/* An open file description's write lock on the whole file (fcntl(2)). */
static int ofd_lock(int fd, int cmd, struct flock *fl)
{
	memset(fl, 0, sizeof(*fl));
	fl->l_type = F_WRLCK;
	fl->l_whence = SEEK_SET;
	return fcntl(fd, cmd, fl);
}

int dard_ctl_bound(void)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct flock fl;
	int fd, held;

	if (dardd_ctl_path(path, sizeof(path), ".lock"))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	/* Asks without taking it: a dardd starting now is not refused. */
	held = !ofd_lock(fd, F_OFD_GETLK, &fl) && fl.l_type != F_UNLCK;
	close(fd);
	return held;
}

/*
 * DIR, made with MODE if missing, must be a directory of ours that no one
 * else may write (nor, with MASK 077, enter): else another user could put
 * their own socket where dardctl looks for dardd's.
 */
static int own_dir(const char *dir, mode_t mode, mode_t mask, char *err)
{
	struct stat st;

	if (mkdir(dir, mode) && errno != EEXIST)
		return dard_fail(err, -errno, "Unable to make %s: %s", dir,
				 strerror(errno));
	if (lstat(dir, &st))
		return dard_fail(err, -errno, "Unable to read %s: %s", dir,
				 strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return dard_fail(
			err, -ENOTDIR,
			"Refusing %s for the control socket: not a directory",
			dir);
	if (st.st_uid != geteuid())
		return dard_fail(
			err, -EPERM,
			"Refusing %s for the control socket: owned by uid %u, not uid %u",
			dir, (unsigned)st.st_uid, (unsigned)geteuid());
	if (st.st_mode & mask)
		return dard_fail(
			err, -EPERM,
			"Refusing %s for the control socket: mode %04o lets others in (chmod %04o it)",
			dir, (unsigned)(st.st_mode & 07777),
			(unsigned)(st.st_mode & 07777 & ~mask));
	return 0;
}

/* Who holds the lock: the pid it wrote there, described. */
static void lock_holder(int fd, char *who, size_t size)
{
	char buf[24] = "", path[32];
	struct stat st;
	ssize_t n;
	int pid;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	pid = n > 0 ? atoi(buf) : 0;
	snprintf(path, sizeof(path), "/proc/%d", pid);
	if (pid > 0 && !stat(path, &st))
		dard_peer_describe(pid, st.st_uid, who, size);
	else
		snprintf(who, size, "a process not found");
}

int dard_ctl_listen(int *lock, char *err)
{
	char who[DARD_PEER_STRLEN],
		path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct sockaddr_un sun;
	int len = dardd_ctl_addr(&sun), fd, ret;
	struct flock fl;

	*lock = -1;
	if (len < 0)
		return dard_fail(err, len,
				 "Unable to tell this network namespace: %s",
				 strerror(-len));
	ret = own_dir(DARD_RUN_DIR, 0755, 022, err);
	if (!ret)
		ret = own_dir(DARDD_CTL_DIR, 0700, 077, err);
	if (ret)
		return ret;
	dardd_ctl_path(path, sizeof(path), ".lock");
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return dard_fail(err, -errno, "Unable to open %s: %s", path,
				 strerror(errno));
	if (ofd_lock(fd, F_OFD_SETLK, &fl)) {
		ret = errno == EACCES ? -EAGAIN : -errno;
		if (ret == -EAGAIN)
			lock_holder(fd, who, sizeof(who));
		close(fd);
		if (ret != -EAGAIN)
			return dard_fail(err, ret, "Unable to lock %s: %s",
					 path, strerror(-ret));
		return dard_fail(
			err, -EADDRINUSE,
			"Unable to open the control socket %s: another dardd runs in this network namespace (%s)",
			sun.sun_path, who);
	}
	/* Never unlinked: a second dardd must lock the same file. */
	if (ftruncate(fd, 0) || dprintf(fd, "%d\n", (int)getpid()) < 0) {
		/* The pid is for messages alone: go on without it. */
	}
	*lock = fd;
	/* A socket file outlives a killed dardd; holding the lock, it is ours.
	 */
	unlink(sun.sun_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&sun, len) &&
	    !chmod(sun.sun_path, 0600) && !listen(fd, 8))
		return fd;
	ret = -errno;
	if (fd >= 0)
		close(fd);
	close(*lock);
	*lock = -1;
	return dard_fail(err, ret, "Unable to open the control socket %s: %s",
			 sun.sun_path, strerror(-ret));
}

void dard_ctl_close(int fd, int lock)
{
	struct sockaddr_un sun;

	if (fd >= 0) {
		close(fd);
		if (dardd_ctl_addr(&sun) > 0)
			unlink(sun.sun_path);
	}
	/* After the unlink: the next dardd's socket is not ours to remove. */
	if (lock >= 0)
		close(lock);
}

int dard_ctl_line(const char *buf, size_t len, char *cmd)
{
	const char *nl = memchr(buf, '\n', len);
	size_t i, n;

	cmd[0] = 0;
	if (!nl)
		return len >= DARD_CTL_LINE_MAX ? DARD_CTL_OVERSIZED
						: DARD_CTL_MALFORMED;
	n = nl - buf;
	/* One line per connection: words of printable bytes, one space
	 * between two, none before the first or after the last. */
	if (!n || n + 1 != len || buf[0] == ' ' || buf[n - 1] == ' ')
		return DARD_CTL_MALFORMED;
	for (i = 0; i < n; i++)
		if (buf[i] == ' ' ? buf[i - 1] == ' '
				  : !isgraph((unsigned char)buf[i]))
			return DARD_CTL_MALFORMED;
	memcpy(cmd, buf, n);
	cmd[n] = 0;
	return 0;
}

const char *dard_ctl_refusal_name(int why)
{
	static const char *const names[__DARD_CTL_REFUSALS] = {
		[DARD_CTL_NOT_ROOT] = "not_root",
		[DARD_CTL_MALFORMED] = "malformed",
		[DARD_CTL_OVERSIZED] = "oversized",
		[DARD_CTL_UNKNOWN] = "unknown",
		[DARD_CTL_INVALID] = "invalid",
	};

	return why >= 0 && why < __DARD_CTL_REFUSALS ? names[why] : "?";
}

void dard_ctl_printable(const char *buf, size_t len, char *s, size_t size)
{
	size_t i;

	if (!size)
		return;
	for (i = 0; i < len && i + 1 < size; i++)
		s[i] = isprint((unsigned char)buf[i]) ? buf[i] : '?';
	s[i] = 0;
}
