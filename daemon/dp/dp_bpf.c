// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The BPF/TC datapath behind struct dard_dp_ops: loads bpf/dard_tc.bpf.c
 * through its skeleton, pins its maps under PIN_ROOT/<ifname>/ and attaches
 * both programs to the interface's clsact hooks, and the sock_ops
 * program to a cgroup (dp_rto.c), so forwarding outlives the process;
 * later processes open the pinned maps.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <net/if.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <linux/dard.h>

#include "addr.h"
#include "addr6.h"
#include "dard_tc.skel.h"
#include "dp.h"
#include "dp_bpf.h"
#include "dp_link.h"
#include "dp_rto.h"
#include "tc.h"

#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif

enum { TC_HANDLE = 1, TC_PRIORITY = 0xdad };

static const char *const map_names[] = {
	"dard_dests", "dard_aliases", "dard_flows",    "dard_events",
	"dard_stats", "dard_meta",    "dard_live_gen",
};

/* From the same list as enum dard_stat: one name for every index. */
#define STAT_NAME(id, name) [DARD_STAT_##id] = name,
static const char *const stat_names[] = {DARD_STAT_MAPPER(STAT_NAME)};
#undef STAT_NAME
_Static_assert(sizeof(stat_names) / sizeof(stat_names[0]) == __DARD_STAT_MAX,
	       "a name for every enum dard_stat");

const char *dard_stat_name(unsigned stat)
{
	return stat < __DARD_STAT_MAX && stat_names[stat] ? stat_names[stat]
							  : "?";
}

static int pin_dir(char *dir, const char *pin_root, const char *ifname)
{
	int n = snprintf(dir, PATH_MAX, "%s/%s",
			 pin_root ? pin_root : DARD_PIN_ROOT, ifname);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

/* The cookie of the current network namespace, or 0. */
static uint64_t netns_cookie(void)
{
	uint64_t c = 0;
	socklen_t len = sizeof(c);
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd >= 0) {
		getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &c, &len);
		close(fd);
	}
	return c;
}

static int same_mount_ns(void)
{
	struct stat a, b;

	if (stat("/proc/self/ns/mnt", &a) || stat("/proc/1/ns/mnt", &b))
		return 1;
	return a.st_ino == b.st_ino && a.st_dev == b.st_dev;
}

/*
 * Creates the parents of path, mounting bpffs where none is, and claims
 * path itself with a plain mkdir: whoever made it owns it.
 */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX], *p;
	struct statfs st;

	if (statfs("/sys/fs/bpf", &st) == 0 && st.f_type != BPF_FS_MAGIC &&
	    !strncmp(path, "/sys/fs/bpf/", 12)) {
		/* A private mount (ip netns exec) would take the pins with it.
		 */
		if (!same_mount_ns())
			return -EXDEV;
		if (mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700"))
			return -errno;
	}
	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(buf, 0700) ? -errno : 0;
}

/*
 * The default pin root, which the first attach made, goes with the last
 * detach (rmdir fails while another interface's pins are in it); an
 * operator's own root (--pin, $DARD_PIN_ROOT) stays.
 */
static void rmdir_default_root(const char *dir)
{
	size_t n = strlen(DARD_PIN_ROOT);

	if (!strncmp(dir, DARD_PIN_ROOT, n) && dir[n] == '/' &&
	    !strchr(dir + n + 1, '/'))
		rmdir(DARD_PIN_ROOT);
}

static int if_mtu(const char *ifname)
{
	struct ifreq ifr = {};
	int fd = socket(AF_INET, SOCK_DGRAM, 0), mtu = -1;

	if (fd < 0)
		return -1;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (!ioctl(fd, SIOCGIFMTU, &ifr))
		mtu = ifr.ifr_mtu;
	close(fd);
	return mtu;
}

static void dp_free(struct dard_dp *dp)
{
	int i;

	if (!dp)
		return;
	ring_buffer__free(dp->rb);
	for (i = 0; i < M_NR; i++)
		if (dp->fd[i] >= 0)
			close(dp->fd[i]);
	free(dp);
}

static struct dard_dp *dp_new(void)
{
	struct dard_dp *dp = calloc(1, sizeof(*dp));
	int i;

	if (!dp)
		return NULL;
	for (i = 0; i < M_NR; i++)
		dp->fd[i] = -1;
	dp->ncpus = libbpf_num_possible_cpus();
	if (dp->ncpus < 1)
		dp->ncpus = 1;
	return dp;
}

/*
 * Maps pinned by an older datapath whose destinations are laid out
 * otherwise (before weights, struct dard_dest was smaller) are refused:
 * a lookup would leave part of ours unwritten. -EPROTO: attach again.
 */
static int dests_current(int fd)
{
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	return info.value_size == sizeof(struct dard_dest) ? 0 : -EPROTO;
}

static int bpf_open(struct dard_dp **out, const char *ifname,
		    const char *pin_root)
{
	struct dard_dp *dp = dp_new();
	char path[PATH_MAX + 32];
	int i, ret;

	if (!dp)
		return -ENOMEM;
	ret = pin_dir(dp->dir, pin_root, ifname);
	for (i = 0; i < M_NR && !ret; i++) {
		snprintf(path, sizeof(path), "%s/%s", dp->dir, map_names[i]);
		dp->fd[i] = bpf_obj_get(path);
		if (dp->fd[i] < 0)
			ret = -errno;
	}
	if (!ret)
		ret = dests_current(dp->fd[M_DESTS]);
	if (ret) {
		dp_free(dp);
		return ret;
	}
	*out = dp;
	return 0;
}

static int bpf_attach(struct dard_dp **out, const struct dard_dp_opts *o)
{
	struct dard_meta meta = {};
	struct dard_tc_hook tc;
	struct dard_tc *skel = NULL;
	struct dard_dp *dp = NULL;
	unsigned ifindex = if_nametoindex(o->ifname);
	char path[PATH_MAX + 32];
	__u32 zero = 0;
	int i, ret, pinned = 0;

	if (!ifindex)
		return -ENODEV;
	/* First, as nothing is made yet: IP-in-IP cannot carry BIG TCP. */
	ret = dard_dp_link_cap_gso(ifindex);
	if (ret)
		return ret;
	dp = dp_new();
	if (!dp)
		return -ENOMEM;
	ret = pin_dir(dp->dir, o->pin_root, o->ifname);
	if (ret)
		goto err;
	skel = dard_tc__open();
	if (!skel) {
		ret = -errno;
		goto err;
	}
	skel->rodata->my_id = htonl(o->my_id);
	skel->rodata->elephant_age_ns = o->elephant_age_ns;
	skel->rodata->elephant_bytes = dard_dp_elephant_bytes(o, NULL, 0);
	skel->rodata->elephant_dscp = o->elephant_dscp;
	skel->rodata->hash_seed = (uint32_t)time(NULL) ^ (getpid() << 16);
	ret = if_mtu(o->ifname);
	skel->rodata->fabric_mtu = ret > 0 ? ret : 1500;
	if (o->outer6)
		dard_plan_layout6((struct dard_layout6 *)&skel->rodata->layout6,
				  o->outer6);
	/* Hash maps are preallocated: size them for this tree. */
	bpf_map__set_max_entries(skel->maps.dard_dests,
				 o->max_dests ? o->max_dests : DARD_DESTS_MAX);
	ret = dard_tc__load(skel);
	if (ret)
		goto err;
	/* Claiming the directory is the lock against a concurrent attach. */
	ret = make_dirs(dp->dir);
	if (ret)
		goto err;
	for (i = 0; i < M_NR; i++) {
		struct bpf_map *m =
			bpf_object__find_map_by_name(skel->obj, map_names[i]);

		snprintf(path, sizeof(path), "%s/%s", dp->dir, map_names[i]);
		ret = m ? bpf_map__pin(m, path) : -ENOENT;
		if (ret)
			goto err_unpin;
		pinned = i + 1;
		dp->fd[i] = dup(bpf_map__fd(m));
	}
	ret = dard_tc_hook_make(&tc, ifindex, TC_HANDLE, TC_PRIORITY);
	if (ret)
		goto err_unpin;
	if (tc.hook_created)
		meta.flags |= DARD_META_F_HOOK_CREATED;
	meta.ifindex = ifindex;
	meta.my_id = htonl(o->my_id);
	meta.netns_cookie = netns_cookie();
	ret = bpf_map_update_elem(dp->fd[M_META], &zero, &meta, 0);
	if (ret)
		goto err_hook;
	/* Not replacing: the pin directory was the lock, so a filter at our
	 * handle is someone else's. */
	ret = dard_tc_attach(&tc, BPF_TC_EGRESS,
			     bpf_program__fd(skel->progs.dard_tc_egress), 0);
	if (ret)
		goto err_hook;
	ret = dard_tc_attach(&tc, BPF_TC_INGRESS,
			     bpf_program__fd(skel->progs.dard_tc_ingress), 0);
	if (ret)
		goto err_hook;
	/* Last: its pin is the one thing err_hook would not remove. */
	ret = dard_dp_rto_attach(skel->progs.dard_sockops, o->cgroup, dp->dir);
	if (ret)
		goto err_hook;
	dard_tc__destroy(skel);
	*out = dp;
	return 0;

err_hook:
	dard_tc_release(&tc);
err_unpin:
	/* Only what this call made: the directory is ours since mkdir. */
	for (i = 0; i < pinned; i++) {
		snprintf(path, sizeof(path), "%s/%s", dp->dir, map_names[i]);
		unlink(path);
	}
	rmdir(dp->dir);
err:
	dard_tc__destroy(skel);
	dp_free(dp);
	return ret < 0 ? ret : -EINVAL;
}

int dard_dp_bpf_adopt(struct dard_dp **out, struct bpf_object *obj)
{
	struct dard_dp *dp = dp_new();
	int i;

	if (!dp)
		return -ENOMEM;
	for (i = 0; i < M_NR; i++) {
		struct bpf_map *m =
			bpf_object__find_map_by_name(obj, map_names[i]);

		dp->fd[i] = m ? dup(bpf_map__fd(m)) : -1;
		if (dp->fd[i] < 0) {
			dp_free(dp);
			return -ENOENT;
		}
	}
	*out = dp;
	return 0;
}

static int bpf_add_alias(struct dard_dp *dp, uint32_t alias)
{
	__be32 key = htonl(alias);
	__u8 one = 1;

	return bpf_map_update_elem(dp->fd[M_ALIASES], &key, &one, 0) ? -errno
								     : 0;
}

/*
 * The index of pair among the paths to id (network order), which the
 * program needs to repath the flow off it when it dies; DARD_PATHS_MAX
 * when unknown (no such destination or pair): the program then leaves
 * the flow to us.
 */
static int path_index(struct dard_dp *dp, __be32 id,
		      const struct dard_alias_pair *pair, __u32 *idx)
{
	struct dard_dest *d = calloc(1, sizeof(*d));
	__u32 i;

	if (!d)
		return -ENOMEM;
	*idx = DARD_PATHS_MAX;
	if (bpf_map_lookup_elem(dp->fd[M_DESTS], &id, d))
		goto out;
	for (i = 0; i < d->npaths && i < DARD_PATHS_MAX; i++) {
		if (d->path[i].saddr == pair->saddr &&
		    d->path[i].daddr == pair->daddr) {
			*idx = i;
			break;
		}
	}
out:
	free(d);
	return 0;
}

/*
 * One map update: the program reads the pair for every packet. Counters
 * the program adds between our read and our write are lost; the path is
 * not.
 */
static int bpf_move(struct dard_dp *dp, const struct dard_flow_key *key,
		    const struct dard_alias_pair *path)
{
	struct dard_flow f;
	__u32 idx;
	int ret;

	if (bpf_map_lookup_elem(dp->fd[M_FLOWS], key, &f))
		return -errno;
	if (f.path.saddr == path->saddr && f.path.daddr == path->daddr)
		return 0;
	ret = path_index(dp, key->daddr, path, &idx);
	if (ret)
		return ret;
	f.path = *path;
	f.path_idx = idx;
	f.live_gen = DARD_LIVE_GEN_UNCHECKED; /* the new path may be dead */
	/* What we read may be older than the program's last note: a stale
	 * hash written back would look re-drawn and move the flow again. */
	f.txhash = 0;
	f.moves++;
	return bpf_map_update_elem(dp->fd[M_FLOWS], key, &f, BPF_EXIST) ? -errno
									: 0;
}

typedef int (*walk_fn)(struct dard_dp *dp, const struct dard_flow_key *key,
		       const struct dard_flow *flow, void *arg);

/*
 * Calls fn on every flow, read from the kernel a batch at a time; stops
 * at fn's first non-zero return. The walk goes bucket by bucket, so fn
 * may delete the flow it is given. Returns 0, fn's value or -errno.
 */
static int walk(struct dard_dp *dp, walk_fn fn, void *arg)
{
	enum { BATCH = 256 };
	struct dard_flow_key *keys = calloc(BATCH, sizeof(*keys));
	struct dard_flow *flows = calloc(BATCH, sizeof(*flows));
	__u32 in = 0, out, n, i;
	void *cursor = NULL;
	int ret = 0, done = 0;

	if (!keys || !flows) {
		ret = -ENOMEM;
		goto out;
	}
	while (!done && !ret) {
		n = BATCH;
		ret = bpf_map_lookup_batch(dp->fd[M_FLOWS], cursor, &out, keys,
					   flows, &n, NULL);
		/* -ENOENT: the last batch, which may still hold flows. */
		if (ret == -ENOENT)
			done = 1;
		else if (ret)
			break;
		ret = 0;
		for (i = 0; i < n && !ret; i++)
			ret = fn(dp, &keys[i], &flows[i], arg);
		in = out;
		cursor = &in;
	}
out:
	free(keys);
	free(flows);
	return ret;
}

struct flows_arg {
	dard_dp_flow_cb cb;
	void *arg;
};

static int flows_fn(struct dard_dp *dp, const struct dard_flow_key *key,
		    const struct dard_flow *flow, void *arg)
{
	struct flows_arg *fa = arg;

	return fa->cb(key, flow, fa->arg);
}

static int bpf_flows(struct dard_dp *dp, dard_dp_flow_cb cb, void *arg)
{
	struct flows_arg fa = {cb, arg};

	return walk(dp, flows_fn, &fa);
}

struct sweep_arg {
	uint64_t now, idle_ns;
	dard_dp_event_cb cb;
	void *arg;
	int n;
};

static int sweep_fn(struct dard_dp *dp, const struct dard_flow_key *key,
		    const struct dard_flow *f, void *arg)
{
	struct sweep_arg *sa = arg;

	/* A packet may have come after now was read: not idle. */
	if (f->last_ns >= sa->now || sa->now - f->last_ns < sa->idle_ns)
		return 0;
	if (bpf_map_delete_elem(dp->fd[M_FLOWS], key))
		return 0;
	sa->n++;
	if (sa->cb && !(f->flags & DARD_FLOW_F_END_REPORTED)) {
		struct dard_event ev = {
			.type = DARD_EVENT_END,
			.key = *key,
			.path = f->path,
			.ts_ns = sa->now,
			.bytes = f->bytes,
		};

		sa->cb(&ev, sa->arg);
	}
	return 0;
}

/* The program's coarse clock is CLOCK_MONOTONIC_COARSE. */
static int bpf_sweep(struct dard_dp *dp, uint64_t idle_ns, dard_dp_event_cb cb,
		     void *arg)
{
	struct sweep_arg sa = {dard_coarse_ns(), idle_ns, cb, arg, 0};
	int ret = walk(dp, sweep_fn, &sa);

	return ret < 0 ? ret : sa.n;
}

static int rb_event(void *ctx, void *data, size_t size)
{
	struct dard_dp *dp = ctx;

	if (size < sizeof(struct dard_event))
		return 0;
	return dp->cb(data, dp->cb_arg);
}

/* The events ring, opened on first use, and who its records go to. */
static int ring(struct dard_dp *dp, dard_dp_event_cb cb, void *arg)
{
	if (!dp->rb) {
		dp->rb = ring_buffer__new(dp->fd[M_EVENTS], rb_event, dp, NULL);
		if (!dp->rb)
			return -errno;
	}
	dp->cb = cb;
	dp->cb_arg = arg;
	return 0;
}

static int bpf_poll(struct dard_dp *dp, dard_dp_event_cb cb, void *arg,
		    int timeout_ms)
{
	int ret = ring(dp, cb, arg);

	return ret ? ret : ring_buffer__poll(dp->rb, timeout_ms);
}

static int bpf_event_fd(struct dard_dp *dp, dard_dp_event_cb cb, void *arg)
{
	int ret = ring(dp, cb, arg);

	return ret ? ret : ring_buffer__epoll_fd(dp->rb);
}

static int bpf_stats(struct dard_dp *dp, uint64_t *out)
{
	uint64_t *v = calloc(dp->ncpus, sizeof(*v));
	__u32 i;
	int c;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < __DARD_STAT_MAX; i++) {
		out[i] = 0;
		if (bpf_map_lookup_elem(dp->fd[M_STATS], &i, v))
			continue;
		for (c = 0; c < dp->ncpus; c++)
			out[i] += v[c];
	}
	free(v);
	return 0;
}

static int bpf_detach(struct dard_dp *dp)
{
	char path[PATH_MAX + 32];
	struct dard_meta meta;
	struct dard_tc_hook tc = {
		.handle = TC_HANDLE,
		.priority = TC_PRIORITY,
		.attached = BPF_TC_INGRESS | BPF_TC_EGRESS,
	};
	__u32 zero = 0;
	int i, ret = 0;

	if (bpf_map_lookup_elem(dp->fd[M_META], &zero, &meta))
		return -errno;
	/* An index means nothing in another namespace: touch nothing there. */
	if (meta.netns_cookie && meta.netns_cookie != netns_cookie())
		return -EXDEV;
	/* What the attaching process made, as dard_meta remembers it. */
	tc.ifindex = meta.ifindex;
	tc.hook_created = !!(meta.flags & DARD_META_F_HOOK_CREATED);
	dard_tc_release(&tc);
	ret = dard_dp_rto_detach(dp->dir);
	for (i = 0; i < M_NR; i++) {
		snprintf(path, sizeof(path), "%s/%s", dp->dir, map_names[i]);
		if (unlink(path) && errno != ENOENT)
			ret = -errno;
	}
	if (rmdir(dp->dir) && errno != ENOENT)
		ret = -errno;
	else
		rmdir_default_root(dp->dir);
	return ret;
}

const struct dard_dp_ops dard_dp_bpf = {
	.name = "bpf",
	.attach = bpf_attach,
	.open = bpf_open,
	.set_dest = dp_bpf_set_dest,
	.set_dead = dp_bpf_set_dead,
	.set_weights = dp_bpf_set_weights,
	.weights = dp_bpf_weights,
	.add_alias = bpf_add_alias,
	.move = bpf_move,
	.flows = bpf_flows,
	.sweep = bpf_sweep,
	.poll = bpf_poll,
	.event_fd = bpf_event_fd,
	.stats = bpf_stats,
	.detach = bpf_detach,
	.close = dp_free,
};
