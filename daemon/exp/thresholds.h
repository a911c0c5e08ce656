/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Every threshold dard-exp report judges by, in one place
 * (Documentation/experiments.md, "Fidelity, statistics and the model",
 * explains each). Shares are fractions, rates Mbit/s.
 */
#ifndef _DARD_EXP_THRESHOLDS_H
#define _DARD_EXP_THRESHOLDS_H

/*
 * cpu: a sample whose idle share (of all CPUs' time since the sample
 * before) is under EXP_CPU_IDLE_MIN found the machine saturated: the
 * namespaces' forwarding, iperf3 and the daemons were queueing for a
 * core, so transfer times measure the CPU as much as the network. A
 * run is not faithful when more than EXP_CPU_BUSY_MAX of its samples
 * (between its t0 and its last flow's end) are such.
 */
#define EXP_CPU_IDLE_MIN 0.10
#define EXP_CPU_BUSY_MAX 0.10

/*
 * shaping: a link (an interface's transmit side) carrying more than
 * EXP_SHAPING_OVER x the link rate over a sample interval is not held
 * to it by its tbf (the fluid model's capacity would be wrong). tbf
 * may send its bucket on top of the rate in any interval: the
 * testbed's burst (dardctl's render_tc: 2 ms of the rate, at least
 * 80,000 bytes, a whole GSO packet) is allowed on top, which over 1 s
 * at 50 Mbit/s is 1.3% of the rate.
 */
#define EXP_SHAPING_OVER 1.05
#define EXP_TBF_BURST_S 0.002
#define EXP_TBF_BURST_MIN_BYTES 80000.0

/*
 * shaping: packets dropped by a link's queue during an interval in
 * which it carried under EXP_DROP_UNDER x the link rate, as did the
 * intervals before and after it. A fluid model loses nothing on a link
 * that is not full; such drops (a burst over the queue, a GSO packet
 * over the bucket) slow TCP where the model would not. Beside a full
 * interval the queue may have been full when it dropped: a flow that
 * started or ended inside the interval lowered its mean.
 */
#define EXP_DROP_UNDER 0.8

/*
 * share: a flow-second is judged when the flow has been alone on every
 * link of its path that second and the one before, and no other flow
 * on those links lived during any part of the iperf3 interval judged
 * (one that started or ended inside it took part of it): an idle path, where
 * its max-min fair share is the links' goodput (link x goodput). It is
 * below its share when the flow's goodput over its iperf3 interval
 * covering that second is under EXP_SHARE_BELOW x that share: a flow
 * slow alone on its path is the testbed's fault. Beside other flows it
 * may lose to them, or not yet have grown into a share another's end
 * left it, as TCP does and the fluid model does not: that is the model's
 * difference (the ratio testbed / model), not judged here. A run is not
 * faithful when more than EXP_SHARE_BELOW_MAX of the flow-seconds judged
 * are below. The EXP_SHARE_WORST flows of lowest mean ratio are named.
 */
#define EXP_SHARE_BELOW 0.8
#define EXP_SHARE_BELOW_MAX 0.10
#define EXP_SHARE_WORST 3

/*
 * share: iperf3 reports every EXP_IPERF_INTERVAL seconds (its default
 * -i 1); a last interval shorter than EXP_IPERF_PARTIAL of that is
 * partial (the transfer's tail) and not judged, nor is each flow's
 * first (connection set-up and slow start).
 */
#define EXP_IPERF_INTERVAL 1.0
#define EXP_IPERF_PARTIAL 0.9

/*
 * calibration: a flow placed alone on its path must reach
 * EXP_CALIB_MIN x link x goodput; slower, the testbed cannot carry one
 * flow at the rate the model gives it.
 */
#define EXP_CALIB_MIN 0.9

/*
 * load: the 1-minute load average when the experiment started; above
 * EXP_LOADAVG_BUSY something else was running.
 */
#define EXP_LOADAVG_BUSY 1.0

#endif /* _DARD_EXP_THRESHOLDS_H */
