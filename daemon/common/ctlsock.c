// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Both ends of dardd's control socket, each checking the other (ctlsock.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "ctlsock.h"
#include "dardd.h"
#include "err.h"
#include "topo.h"

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

int dard_ctl_connect(char *err)
{
	char who[DARD_PEER_STRLEN];
	struct sockaddr_un sun;
	socklen_t len = dardd_ctl_addr(&sun);
	struct ucred cred;
	int fd, ret;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return dard_fail(err, -errno, "Unable to open a socket: %s",
				 strerror(errno));
	if (connect(fd, (struct sockaddr *)&sun, len)) {
		ret = -errno;
		close(fd);
		return dard_fail(err, ret,
				 "No dardd in this network namespace: %s",
				 strerror(-ret));
	}
	/* Before a byte goes either way: anyone may hold an abstract name. */
	ret = peer_of(fd, &cred, who, sizeof(who));
	if (ret) {
		close(fd);
		return dard_fail(err, ret, "Unable to tell who holds @%s: %s",
				 DARDD_CTL_NAME, strerror(-ret));
	}
	if (cred.uid != 0) {
		close(fd);
		return dard_fail(
			err, -EPERM,
			"Refusing to talk to @%s: its holder (%s) is not root, so not dardd",
			DARDD_CTL_NAME, who);
	}
	return fd;
}

/* The inode of the socket bound to our name, from /proc/net/unix; 0 if none. */
static unsigned long name_inode(void)
{
	char line[512], want[sizeof(DARDD_CTL_NAME) + 2];
	unsigned long inode = 0, ino;
	FILE *f = fopen("/proc/net/unix", "re");
	int path;

	if (!f)
		return 0;
	snprintf(want, sizeof(want), "@%s", DARDD_CTL_NAME);
	while (!inode && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%*s %*s %*s %*s %*s %*s %lu %n", &ino,
			   &path) == 1 &&
		    !strcmp(line + path, want))
			inode = ino;
	}
	fclose(f);
	return inode;
}

int dard_ctl_bound(void)
{
	return name_inode() != 0;
}

/*
 * Who holds a socket that does not listen (bound only, so connect is
 * refused and SO_PEERCRED has nothing to say): the process with its
 * inode among its open files, as ss -xp finds it.
 */
static int holder_by_inode(char *who, size_t size, long *uid)
{
	unsigned long inode = name_inode();
	char want[48], path[600], link[48];
	struct dirent *p, *f;
	struct stat st;
	DIR *proc, *fds;
	int found = 0;

	if (!inode || !(proc = opendir("/proc")))
		return 0;
	snprintf(want, sizeof(want), "socket:[%lu]", inode);
	while (!found && (p = readdir(proc))) {
		if (!isdigit((unsigned char)p->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		fds = opendir(path);
		while (fds && !found && (f = readdir(fds))) {
			ssize_t n;

			snprintf(path, sizeof(path), "/proc/%s/fd/%s",
				 p->d_name, f->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			if (n <= 0)
				continue;
			link[n] = 0;
			snprintf(path, sizeof(path), "/proc/%s", p->d_name);
			if (!strcmp(link, want) && !stat(path, &st)) {
				dard_peer_describe(atoi(p->d_name), st.st_uid,
						   who, size);
				*uid = st.st_uid;
				found = 1;
			}
		}
		if (fds)
			closedir(fds);
	}
	closedir(proc);
	return found;
}

/* Who holds the name, into who; returns its uid, or -1 if not found. */
static long describe_holder(char *who, size_t size)
{
	long uid = -1;
	struct sockaddr_un sun;
	socklen_t len = dardd_ctl_addr(&sun);
	struct ucred cred;
	int fd;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && !connect(fd, (struct sockaddr *)&sun, len) &&
	    !peer_of(fd, &cred, who, size)) {
		close(fd);
		return cred.uid;
	}
	if (fd >= 0)
		close(fd);
	if (!holder_by_inode(who, size, &uid))
		snprintf(who, size, "a process not found (ss -xlp)");
	return uid;
}

int dard_ctl_listen(char *err)
{
	char who[DARD_PEER_STRLEN];
	struct sockaddr_un sun;
	socklen_t len = dardd_ctl_addr(&sun);
	int fd, ret;
	long uid;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return dard_fail(err, -errno, "Unable to open a socket: %s",
				 strerror(errno));
	if (!bind(fd, (struct sockaddr *)&sun, len) && !listen(fd, 8))
		return fd;
	ret = -errno;
	close(fd);
	if (ret != -EADDRINUSE)
		return dard_fail(err, ret,
				 "Unable to open the control socket @%s: %s",
				 DARDD_CTL_NAME, strerror(-ret));
	/* An abstract name dies with its holder: never stale, so say whose. */
	uid = describe_holder(who, sizeof(who));
	return dard_fail(err, ret,
			 "Unable to open the control socket @%s: held by %s%s",
			 DARDD_CTL_NAME, who,
			 uid == 0  ? " (root: another dardd?)"
			 : uid > 0 ? " (not root: an impostor)"
				   : "");
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
	/* One line per connection, a word of printable bytes. */
	if (!n || n + 1 != len)
		return DARD_CTL_MALFORMED;
	for (i = 0; i < n; i++)
		if (!isgraph((unsigned char)buf[i]))
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
