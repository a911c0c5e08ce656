// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BIG TCP off for IPv4 on the fabric interface. A GSO or GRO packet over
 * 64 KiB has total length 0, and IP-in-IP cannot wrap one (its outer
 * header would need a length too); the programs drop what still comes
 * (drop_big_tcp). One rtnetlink request to read, one to lower, by libmnl.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "dp_link.h"

/* Linux 6.3's; the Debian 12 uapi headers predate them. */
enum {
	DARD_IFLA_GSO_IPV4_MAX_SIZE = 63,
	DARD_IFLA_GRO_IPV4_MAX_SIZE = 64,
};

struct nlmsghdr *dard_rt_msg(char *buf, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = time(NULL);
	return nlh;
}

struct nlmsghdr *dard_rt_link_msg(char *buf, uint16_t type, uint16_t flags,
				  uint32_t ifindex)
{
	struct nlmsghdr *nlh = dard_rt_msg(buf, type, flags);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return nlh;
}

int dard_rt_talk(struct nlmsghdr *nlh, mnl_cb_t cb, void *arg)
{
	char buf[DARD_RT_BUF];
	struct mnl_socket *nl = mnl_socket_open(NETLINK_ROUTE);
	unsigned portid;
	ssize_t n;
	int ret;

	if (!nl)
		return -errno;
	/* Both bits: NLM_F_EXCL and NLM_F_REPLACE share them. */
	if ((nlh->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP)
		nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	do {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0) {
			ret = -errno;
			goto out;
		}
		errno = 0;
		ret = mnl_cb_run(buf, n, nlh->nlmsg_seq, portid, cb, arg);
	} while (ret > 0);
	if (ret < 0)
		ret = errno ? -errno : -EPROTO;
out:
	mnl_socket_close(nl);
	return ret;
}

static int attr_cb(const struct nlattr *a, void *arg)
{
	struct dard_link_sizes *s = arg;
	uint16_t type = mnl_attr_get_type(a);

	if (type != DARD_IFLA_GSO_IPV4_MAX_SIZE &&
	    type != DARD_IFLA_GRO_IPV4_MAX_SIZE)
		return MNL_CB_OK;
	if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return MNL_CB_ERROR;
	if (type == DARD_IFLA_GSO_IPV4_MAX_SIZE)
		s->gso_ipv4_max = mnl_attr_get_u32(a);
	else
		s->gro_ipv4_max = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

int dard_dp_link_sizes_cb(const struct nlmsghdr *nlh, void *arg)
{
	return mnl_attr_parse(nlh, sizeof(struct ifinfomsg), attr_cb, arg);
}

int dard_dp_link_sizes(unsigned ifindex, struct dard_link_sizes *s)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];

	memset(s, 0, sizeof(*s));
	return dard_rt_talk(dard_rt_link_msg(buf, RTM_GETLINK, 0, ifindex),
			    dard_dp_link_sizes_cb, s);
}

int dard_dp_link_set_sizes(unsigned ifindex, const struct dard_link_sizes *s)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh;

	nlh = dard_rt_link_msg(buf, RTM_NEWLINK, 0, ifindex);
	if (s->gso_ipv4_max)
		mnl_attr_put_u32(nlh, DARD_IFLA_GSO_IPV4_MAX_SIZE,
				 s->gso_ipv4_max);
	if (s->gro_ipv4_max)
		mnl_attr_put_u32(nlh, DARD_IFLA_GRO_IPV4_MAX_SIZE,
				 s->gro_ipv4_max);
	return dard_rt_talk(nlh, NULL, NULL);
}

int dard_dp_link_cap_gso(unsigned ifindex)
{
	struct dard_link_sizes s, set = {};
	int ret = dard_dp_link_sizes(ifindex, &s);

	if (ret)
		return ret;
	if (s.gso_ipv4_max > DARD_GSO_IPV4_MAX)
		set.gso_ipv4_max = DARD_GSO_IPV4_MAX;
	if (s.gro_ipv4_max > DARD_GSO_IPV4_MAX)
		set.gro_ipv4_max = DARD_GSO_IPV4_MAX;
	if (!set.gso_ipv4_max && !set.gro_ipv4_max)
		return 0;
	return dard_dp_link_set_sizes(ifindex, &set);
}
