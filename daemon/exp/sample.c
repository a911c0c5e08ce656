// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp sample: the CPU's idle share and every testbed interface's
 * counters, every interval, until SIGTERM or SIGINT. It runs beside the
 * experiment, so it does little: the namespaces are entered once, at
 * the start, for a socket each, and an interval costs one read of
 * /proc/stat and two dumps per node.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/netlink.h>

#include "buf.h"
#include "dir.h"
#include "nlstats.h"
#include "opts.h"
#include "procstat.h"
#include "sample.h"
#include "stdopts.h"

struct sampler {
	const struct exp_sample_args *a;
	struct exp_node *node;
	long nnodes;
	struct exp_nl *nl;
	uint8_t *said; /* a node's failed dump is said once */
	struct exp_ifstats st;
	void *buf;
	int stat_fd, cpu_fd, links_fd;
	char cpu_path[PATH_MAX], links_path[PATH_MAX];
	struct exp_cpu prev;
	int have_prev;
	struct dard_buf rows;
};

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static double now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The testbed's nodes and a socket in each one's namespace. */
static int open_nodes(struct sampler *s, char *err)
{
	char path[PATH_MAX], *text;
	size_t len;
	long i;
	int self, ret;

	if (snprintf(path, sizeof(path), "%s/%s/nodes", s->a->state,
		     s->a->prefix) >= (int)sizeof(path))
		return exp_fail(err, -ENAMETOOLONG, "%s: path too long",
				s->a->state);
	ret = exp_file(path, &text, &len, err);
	if (ret == -ENOENT)
		return exp_fail(err, ret, "testbed %s is not up: no %s",
				s->a->prefix, path);
	if (ret)
		return ret;
	s->nnodes = exp_nodes_read(path, text, len, &s->node, err);
	free(text);
	if (s->nnodes < 0)
		return s->nnodes;
	s->nl = calloc(s->nnodes, sizeof(*s->nl));
	s->said = calloc(s->nnodes, 1);
	if (!s->nl || !s->said)
		return exp_fail(err, -ENOMEM, "out of memory");
	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (self < 0)
		return exp_fail(err, -errno,
				"Unable to open our own namespace: %s",
				strerror(errno));
	for (i = 0, ret = 0; !ret && i < s->nnodes; i++)
		ret = exp_nl_open(&s->nl[i], s->node[i].ns, self, err);
	close(self);
	return ret;
}

/* DIR/name written anew with its header line; the fd, or -errno. */
static int open_out(const char *dir, const char *name, const char *header,
		    char *path, char *err)
{
	int fd, ret;

	ret = exp_path(path, dir, name, err);
	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return exp_fail(err, -errno, "Unable to create `%s': %s", path,
				strerror(errno));
	if (write(fd, header, strlen(header)) != (ssize_t)strlen(header)) {
		ret = exp_fail(err, -EIO, "Unable to write `%s'", path);
		close(fd);
		return ret;
	}
	return fd;
}

static int open_files(struct sampler *s, char *err)
{
	if (mkdir(s->a->out, 0755) && errno != EEXIST)
		return exp_fail(err, -errno, "Unable to create `%s': %s",
				s->a->out, strerror(errno));
	s->cpu_fd =
		open_out(s->a->out, "cpu.csv", "t,idle\n", s->cpu_path, err);
	if (s->cpu_fd < 0)
		return s->cpu_fd;
	s->links_fd = open_out(s->a->out, "links.csv",
			       "t,node,dev,tx_bytes,tx_packets,drops,backlog\n",
			       s->links_path, err);
	if (s->links_fd < 0)
		return s->links_fd;
	s->stat_fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	if (s->stat_fd < 0)
		return exp_fail(err, -errno, "Unable to open /proc/stat: %s",
				strerror(errno));
	return 0;
}

/* The rows gathered, written in one write: whole lines or none. */
static int flush_rows(struct sampler *s, int fd, const char *path, char *err)
{
	size_t off = 0;
	ssize_t n;

	if (s->rows.oom)
		return exp_fail(err, -ENOMEM, "out of memory");
	while (off < s->rows.len) {
		n = write(fd, s->rows.s + off, s->rows.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return exp_fail(err, n < 0 ? -errno : -EIO,
					"Unable to write `%s': %s", path,
					n < 0 ? strerror(errno)
					      : "short write");
		off += n;
	}
	s->rows.len = 0;
	return 0;
}

/* /proc/stat's cpu line now, and a row for the time since the last. */
static int sample_cpu(struct sampler *s, char *err)
{
	char text[4096];
	struct exp_cpu cur;
	double t = now(CLOCK_REALTIME), idle;
	ssize_t n = pread(s->stat_fd, text, sizeof(text) - 1, 0);

	if (n <= 0)
		return exp_fail(err, -EIO, "Unable to read /proc/stat: %s",
				n < 0 ? strerror(errno) : "empty");
	text[n] = '\0';
	if (exp_cpu_parse(text, &cur))
		return exp_fail(err, -EINVAL, "/proc/stat: no cpu line");
	if (s->have_prev) {
		idle = exp_cpu_idle(&s->prev, &cur);
		if (isfinite(idle))
			dard_buf_printf(&s->rows, "%.3f,%.4f\n", t, idle);
	}
	s->prev = cur;
	s->have_prev = 1;
	return flush_rows(s, s->cpu_fd, s->cpu_path, err);
}

/* Every node's interfaces: one row each but lo's and mgmt0's. */
static int sample_links(struct sampler *s, char *err)
{
	const struct exp_ifstat *v;
	double t;
	long i;
	size_t k;
	int ret;

	for (i = 0; i < s->nnodes; i++) {
		t = now(CLOCK_REALTIME);
		ret = exp_nl_sample(&s->nl[i], &s->st, s->buf);
		if (ret) {
			if (!s->said[i])
				fprintf(stderr,
					"dard-exp: %s: Unable to read its "
					"counters: %s\n",
					s->node[i].name, strerror(-ret));
			s->said[i] = 1;
			continue;
		}
		for (k = 0; k < s->st.n; k++) {
			v = &s->st.v[k];
			if (!v->have_link || !strcmp(v->name, "lo") ||
			    !strcmp(v->name, "mgmt0"))
				continue;
			dard_buf_printf(&s->rows,
					"%.3f,%s,%s,%llu,%llu,%llu,%llu\n", t,
					s->node[i].name, v->name,
					(unsigned long long)v->tx_bytes,
					(unsigned long long)v->tx_packets,
					(unsigned long long)v->drops,
					(unsigned long long)v->backlog);
		}
	}
	return flush_rows(s, s->links_fd, s->links_path, err);
}

/* Samples every interval from now until a signal asks it to stop. */
static int run(struct sampler *s, char *err)
{
	struct sigaction sa = {.sa_handler = on_stop};
	sigset_t block, wait;
	double start = now(CLOCK_MONOTONIC), next, left;
	struct timespec ts;
	unsigned long k = 0;
	int ret = 0;

	/* Signals only while waiting, so a sample is never cut short. */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &wait);
	sigdelset(&wait, SIGTERM);
	sigdelset(&wait, SIGINT);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!ret && !stop) {
		ret = sample_cpu(s, err);
		if (!ret)
			ret = sample_links(s, err);
		/* On the grid from the start; a late sample skips ticks. */
		do {
			next = start + ++k * s->a->interval;
		} while (next <= now(CLOCK_MONOTONIC));
		while (!ret && !stop) {
			left = next - now(CLOCK_MONOTONIC);
			if (left <= 0)
				break;
			ts.tv_sec = (time_t)left;
			ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
			ppoll(NULL, 0, &ts, &wait);
		}
	}
	return ret;
}

static void sampler_free(struct sampler *s)
{
	long i;

	for (i = 0; s->nl && i < s->nnodes; i++)
		exp_nl_close(&s->nl[i]);
	free(s->nl);
	free(s->said);
	free(s->node);
	free(s->buf);
	exp_ifstats_free(&s->st);
	dard_buf_free(&s->rows);
	if (s->stat_fd >= 0)
		close(s->stat_fd);
	if (s->cpu_fd >= 0)
		close(s->cpu_fd);
	if (s->links_fd >= 0)
		close(s->links_fd);
}

int exp_sample_cmd(int argc, char **argv, void (*usage)(FILE *))
{
	struct exp_sample_args a;
	struct sampler s = {
		.a = &a, .stat_fd = -1, .cpu_fd = -1, .links_fd = -1};
	char err[EXP_ERR_MAX];
	int ret;

	ret = exp_sample_opts(argc, argv, &a, usage, err);
	if (ret != DARD_OPTS_RUN) {
		if (err[0])
			fprintf(stderr, "dard-exp: %s\n", err);
		return ret;
	}
	s.buf = aligned_alloc(NLMSG_ALIGNTO, EXP_NL_BUF);
	ret = s.buf ? 0 : exp_fail(err, -ENOMEM, "out of memory");
	if (!ret)
		ret = open_nodes(&s, err);
	if (!ret)
		ret = open_files(&s, err);
	if (!ret)
		ret = run(&s, err);
	sampler_free(&s);
	if (ret) {
		fprintf(stderr, "dard-exp: sample: %s\n", err);
		return 1;
	}
	return 0;
}
