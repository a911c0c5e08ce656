// SPDX-License-Identifier: GPL-2.0
/*
 * The flow table. Readers (transmit, the dump) hold RCU; entries are freed
 * after a grace period. The table is bounded by flows_max: a flow that
 * finds it full is sent on its hashed path all the same, and the GC work
 * makes room by evicting the idlest flows (an LRU by last_ns, in two
 * passes: a histogram of idle times picks the cut, the second evicts).
 * The event work reports elephants and ends of the flows queued on
 * ev_list; a flow's flag is set only once its event was delivered, and it
 * stays queued until then, so none is lost while the flow lives.
 */
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include "flows.h"
#include "netlink.h"

enum {
	GC_BUCKETS = 65,       /* fls64() of an idle time in ns: 0-64 */
	EVENT_RETRY_MS = 1000, /* no listener or no memory: try again */
	EVENT_BATCH = 256,     /* events per run: ev_lock is held meanwhile */
	WALK_BATCH = 1024,     /* flows per RCU read section of a GC walk */
};

static const struct rhashtable_params flow_params = {
	.key_offset = offsetof(struct dard_kflow, key),
	.key_len = sizeof(struct dard_flow_key),
	.head_offset = offsetof(struct dard_kflow, node),
	.automatic_shrinking = true,
};

struct dard_kflow *dard_flow_lookup(struct dard_dev *dd,
				    const struct dard_flow_key *key)
{
	return rhashtable_lookup(&dd->flows, key, flow_params);
}

struct dard_kflow *dard_flow_insert(struct dard_dev *dd, struct dard_kflow *nf)
{
	struct dard_kflow *old;

	if (atomic_inc_return(&dd->nflows) > READ_ONCE(dd->flows_max)) {
		atomic_dec(&dd->nflows);
		if (!READ_ONCE(dd->dying))
			queue_work(system_unbound_wq, &dd->gc_work);
		return NULL;
	}
	old = rhashtable_lookup_get_insert_fast(&dd->flows, &nf->node,
						flow_params);
	if (!old)
		return nf;
	atomic_dec(&dd->nflows);
	if (IS_ERR(old))
		return NULL;
	kfree(nf);
	return old;
}

/* Takes f out of the table and the event queue; the caller frees it
 * after a grace period. False if it was gone already. */
static bool unlink_flow(struct dard_dev *dd, struct dard_kflow *f)
{
	if (rhashtable_remove_fast(&dd->flows, &f->node, flow_params))
		return false;
	atomic_dec(&dd->nflows);
	spin_lock_bh(&dd->ev_lock);
	f->unlinked = true;
	list_del_init(&f->ev);
	spin_unlock_bh(&dd->ev_lock);
	return true;
}

int dard_flow_del(struct dard_dev *dd, const struct dard_flow_key *key)
{
	struct dard_kflow *f;
	int ret = -ENOENT;

	rcu_read_lock();
	f = dard_flow_lookup(dd, key);
	if (f && unlink_flow(dd, f)) {
		kfree_rcu(f, rcu);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

void dard_flow_owes_event(struct dard_dev *dd, struct dard_kflow *f)
{
	spin_lock_bh(&dd->ev_lock);
	/* A flow unlinked meanwhile is freed after this grace period. */
	if (!f->unlinked && list_empty(&f->ev))
		list_add_tail(&f->ev, &dd->ev_list);
	spin_unlock_bh(&dd->ev_lock);
	if (!READ_ONCE(dd->dying))
		mod_delayed_work(system_wq, &dd->event_work, 0);
}

/* The event f owes, if any, and the flag that marks it delivered. */
static u32 due_event(const struct dard_flow *f, u32 *done)
{
	if ((f->flags & (DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED)) ==
	    DARD_FLOW_F_ELEPHANT) {
		*done = DARD_FLOW_F_REPORTED;
		return DARD_EVENT_ELEPHANT;
	}
	if ((f->flags & (DARD_FLOW_F_ENDED | DARD_FLOW_F_END_REPORTED)) ==
	    DARD_FLOW_F_ENDED) {
		*done = DARD_FLOW_F_END_REPORTED;
		return DARD_EVENT_END;
	}
	return 0;
}

/* Reports what f owes; false if it must be tried again. */
static bool report(struct dard_dev *dd, struct dard_kflow *f, u64 now)
{
	struct dard_kflow snap;
	u32 type, done;

	for (;;) {
		spin_lock_bh(&f->lock);
		type = due_event(&f->f, &done);
		snap.key = f->key;
		snap.f = f->f;
		spin_unlock_bh(&f->lock);
		if (!type)
			return true;
		if (dard_netlink_event(dd, &snap, type, now, GFP_ATOMIC)) {
			dard_count(dd, DARD_STAT_EVENT_RETRY);
			return false;
		}
		spin_lock_bh(&f->lock);
		/* Unless a SYN restarted the flow meanwhile (account()): the
		 * new connection's events are still owed. */
		if (f->f.first_ns == snap.f.first_ns &&
		    (f->f.flags &
		     (type == DARD_EVENT_ELEPHANT ? DARD_FLOW_F_ELEPHANT
						  : DARD_FLOW_F_ENDED)))
			f->f.flags |= done;
		spin_unlock_bh(&f->lock);
	}
}

/*
 * Calls fn on every flow, under RCU; fn may unlink the flow. The table may
 * hold DARD_FLOWS_MAX * 16 flows and eviction multicasts an event for each
 * flow it takes: the walk leaves the read section now and then to
 * reschedule.
 */
static void walk(struct dard_dev *dd,
		 void (*fn)(struct dard_dev *dd, struct dard_kflow *f,
			    void *arg),
		 void *arg)
{
	struct rhashtable_iter it;
	struct dard_kflow *f;
	u32 n = 0;

	rhashtable_walk_enter(&dd->flows, &it);
	rhashtable_walk_start(&it);
	while ((f = rhashtable_walk_next(&it))) {
		if (IS_ERR(f)) {
			if (PTR_ERR(f) == -EAGAIN) /* resized: go on */
				continue;
			break;
		}
		fn(dd, f, arg);
		if (++n % WALK_BATCH)
			continue;
		rhashtable_walk_stop(&it);
		cond_resched();
		rhashtable_walk_start(&it);
	}
	rhashtable_walk_stop(&it);
	rhashtable_walk_exit(&it);
}

static void event_work(struct work_struct *work)
{
	struct dard_dev *dd = container_of(to_delayed_work(work),
					   struct dard_dev, event_work);
	u64 now = ktime_get_coarse_ns();
	struct dard_kflow *f, *tmp;
	unsigned long delay = 0;
	int n = 0;

	spin_lock_bh(&dd->ev_lock);
	list_for_each_entry_safe(f, tmp, &dd->ev_list, ev) {
		if (++n > EVENT_BATCH)
			break;
		if (report(dd, f, now)) {
			list_del_init(&f->ev);
		} else {
			/* Likely no listener: the rest would fail too. */
			delay = msecs_to_jiffies(EVENT_RETRY_MS);
			break;
		}
	}
	n = !list_empty(&dd->ev_list);
	spin_unlock_bh(&dd->ev_lock);
	if (n && !READ_ONCE(dd->dying))
		queue_delayed_work(system_wq, &dd->event_work, delay);
}

struct gc_walk {
	u64 now;
	u32 hist[GC_BUCKETS];
	u32 cut;    /* evict flows idle in buckets above this one */
	u32 at_cut; /* and this many from the cut bucket itself */
};

static u32 idle_bucket(const struct dard_kflow *f, u64 now)
{
	u64 last = READ_ONCE(f->f.last_ns);

	return now > last ? fls64(now - last) : 0;
}

static void gc_count(struct dard_dev *dd, struct dard_kflow *f, void *arg)
{
	struct gc_walk *w = arg;

	w->hist[idle_bucket(f, w->now)]++;
}

static void gc_evict(struct dard_dev *dd, struct dard_kflow *f, void *arg)
{
	struct gc_walk *w = arg;
	u32 b = idle_bucket(f, w->now);

	if (b < w->cut || (b == w->cut && !w->at_cut))
		return;
	if (b == w->cut)
		w->at_cut--;
	if (!unlink_flow(dd, f))
		return;
	/* An evicted flow ends: one try, as it is gone after this. */
	spin_lock_bh(&f->lock);
	if (!(f->f.flags & DARD_FLOW_F_END_REPORTED))
		f->f.flags |= DARD_FLOW_F_ENDED;
	spin_unlock_bh(&f->lock);
	/* Counted as event_retry if it failed; there is no later. */
	report(dd, f, w->now);
	kfree_rcu(f, rcu);
}

static void gc_work(struct work_struct *work)
{
	struct dard_dev *dd = container_of(work, struct dard_dev, gc_work);
	u32 max = READ_ONCE(dd->flows_max), keep, n, need, sum = 0;
	struct gc_walk *w;
	int b;

	/* Room for an eighth of the table, so that GC runs rarely. */
	keep = max - max / 8;
	if (keep == max)
		keep = max - 1;
	n = atomic_read(&dd->nflows);
	if (n <= keep)
		return;
	need = n - keep;
	w = kzalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return;
	w->now = ktime_get_coarse_ns();
	walk(dd, gc_count, w);
	for (b = GC_BUCKETS - 1; b > 0 && sum + w->hist[b] < need; b--)
		sum += w->hist[b];
	w->cut = b;
	w->at_cut = need - sum;
	walk(dd, gc_evict, w);
	kfree(w);
}

int dard_flows_init(struct dard_dev *dd)
{
	atomic_set(&dd->nflows, 0);
	dd->flows_max = DARD_FLOWS_MAX;
	INIT_DELAYED_WORK(&dd->event_work, event_work);
	spin_lock_init(&dd->ev_lock);
	INIT_LIST_HEAD(&dd->ev_list);
	INIT_WORK(&dd->gc_work, gc_work);
	return rhashtable_init(&dd->flows, &flow_params);
}

static void free_flow(void *ptr, void *arg)
{
	kfree(ptr);
}

/* After the device is unlisted and a grace period passed. */
void dard_flows_uninit(struct dard_dev *dd)
{
	WRITE_ONCE(dd->dying, true);
	cancel_delayed_work_sync(&dd->event_work);
	cancel_work_sync(&dd->gc_work);
	rhashtable_free_and_destroy(&dd->flows, free_flow, NULL);
}
