# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# make            build userspace into build/bin/ and the libraries into
#                 build/lib/
# make check      build, then run what every change must pass (style,
#                 unit and CLI under ASan and UBSan, BPF, fuzz smoke, the
#                 namespace testbed's tests): about 10 minutes idle
# make check-long the long scenarios (the kernel module under qemu, the
#                 packages, the experiment, cluster and controller tests)
# make check-quick the edit loop's: check without the testbed
# make bench      benchmarks (Documentation/benchmarks.md), each with its
#                 command, date and the load average before it, tables
#                 as JSON in build/bench/
# make demo       bring up a fat-tree testbed, check every path, tear it down
# make clean

V ?= 0
ifeq ($(V),1)
Q :=
quiet = @true
else
Q := @
quiet = @printf '  %-6s %s\n'
endif

CC ?= gcc
CLANG ?= clang
# One version, the top entry of debian/changelog: the packages', what every
# program's --version prints and the DKMS source directory's name.
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)

# CFLAGS is the user's (make CFLAGS="-O0 -g"); what the code needs is apart.
# SAN=1 builds everything with AddressSanitizer and UBSan into build/san.
CFLAGS ?= -O2 -g
ifeq ($(SAN),1)
B := build/san
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	     -fno-omit-frame-pointer
# A sanitizer's report is never taken for the exit status 1 an error test
# expects.
export ASAN_OPTIONS := exitcode=86:detect_leaks=1
export UBSAN_OPTIONS := exitcode=87:print_stacktrace=1
else
B := build
SAN_FLAGS :=
endif
# The uapi headers, included as system headers, which -MMD leaves out of
# the dependencies it writes.
UAPI_H := $(wildcard kmod/uapi/linux/*.h)
# What every program may include; libdard-algo's headers only where it
# is linked (dard-sim, the tests, the benchmarks), so that dardd cannot
# reach for it by accident.
DAEMON_INC := -iquote daemon/lib -iquote daemon/common -iquote daemon/dp
DARD_CFLAGS := -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
	  -MMD -MP -isystem kmod/uapi $(DAEMON_INC) $(SAN_FLAGS) \
	  -DDARD_VERSION='"$(VERSION)"'
# Bound now, read-only after (full RELRO): no lazy symbol lookup, whose
# resolver saves the vector registers, key bytes in them included, on
# the stack where no wipe reaches (operations.md, "Keys").
LDFLAGS_ALL = $(CFLAGS) $(SAN_FLAGS) -Wl,-z,relro,-z,now $(LDFLAGS)
JSON_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null)
JSON_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)
BPF_LIBS := $(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf -lelf -lz)
# Whatever links the datapath (daemon/dp) makes rtnetlink requests by libmnl,
# and so does dard-exp's sampler.
MNL_LIBS := $(shell pkg-config --libs libmnl 2>/dev/null || echo -lmnl)
BPF_LIBS += $(MNL_LIBS)
# libdard needs libm and libsodium (the switch protocol's MACs, the key
# file's keys); the algorithms add threads, for the two-thread OPT, and
# GLPK, for the oblivious-routing LP.
SODIUM_LIBS := $(shell pkg-config --libs libsodium 2>/dev/null || echo -lsodium)
LIBDARD_LIBS := -lm $(SODIUM_LIBS)
ALGO_LIBS := -lm -pthread $(SODIUM_LIBS) -lglpk
# The daemons tell systemd they serve, and ping its watchdog
# (daemon/common/notify.c, sd_notify).
SYSTEMD_LIBS := $(shell pkg-config --libs libsystemd 2>/dev/null || echo -lsystemd)

# The BPF datapath: clang -target bpf on the UAPI headers, then a skeleton.
ARCH := $(shell uname -m)
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -Wall -Werror \
	      -I/usr/include/$(ARCH)-linux-gnu -isystem kmod/uapi
BPF_OBJ := $(B)/bpf/dard_tc.bpf.o
BPF_SKEL := $(B)/bpf/dard_tc.skel.h

# Each library and each program is a folder under daemon/; its objects are
# its folder's .c files (Documentation/design.md, "Layout").
srcs = $(sort $(shell find $(1) -name '*.c'))
objs = $(patsubst %.c,$(B)/%.o,$(call srcs,$(1)))

# libdard: the pure runtime core every program links.
LIBDARD := $(B)/lib/libdard.a
# libdard-algo: the research algorithms and the flow-level simulation.
LIBALGO := $(B)/lib/libdard-algo.a
# libdard-common: what several programs share (log, config files, tc).
LIBCOMMON := $(B)/lib/libdard-common.a
# libdard-dp: the host datapath interface and its BPF backend.
LIBDP := $(B)/lib/libdard-dp.a

IPPLUG := $(B)/lib/ip/link_dard.so
PROGS := $(B)/bin/dardctl $(B)/bin/dardd $(B)/bin/dard-switchd \
	 $(B)/bin/dard-sim $(B)/bin/dard-pathcheck $(B)/bin/dard-controller \
	 $(B)/bin/dard-exp
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
FUZZ_SRCS := $(wildcard tests/fuzz/*_fuzz.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(B)/fuzz/%)

.PHONY: all daemon bpf check check-build check-quick check-long test test-unit test-guest \
	test-bpf test-cli test-root test-netns test-netns-check test-netns-long test-faults \
	test-cluster test-controller \
	test-san test-kmod fuzz fuzz-smoke style bench bench-kmod demo install \
	uninstall deb test-pkg man clean kmod kmod-path kmod-clean kmod-tools
.DELETE_ON_ERROR:
.SECONDARY:

all: daemon

daemon: $(PROGS) $(LIBDARD) $(LIBALGO) $(IPPLUG)

bpf: $(BPF_SKEL) $(B)/bpf/dard_switch.skel.h

# The host datapath, and the switches' elephant counter (dard-switchd).
$(B)/bpf/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(UAPI_H)
	$(quiet) BPF $<
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(B)/bpf/%.skel.h: $(B)/bpf/%.bpf.o
	$(quiet) SKEL $@
	$(Q)bpftool gen skeleton $< name $* > $@

# The benchmark's loops around the same programs (bench/bench_dp.bpf.c).
$(B)/bench/bench_dp.bpf.o: bench/bench_dp.bpf.c bpf/dard_tc.bpf.c \
		$(wildcard bpf/*.h) $(UAPI_H)
	$(quiet) BPF $<
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(B)/bench/bench_dp.skel.h: $(B)/bench/bench_dp.bpf.o
	$(quiet) SKEL $@
	$(Q)bpftool gen skeleton $< name bench_dp > $@

ALGO_USERS := $(call objs,daemon/algo) $(call objs,daemon/sim) \
	      $(call objs,daemon/controller) $(call objs,daemon/exp)
$(ALGO_USERS) $(B)/tests/%.o $(B)/bench/%.o: DARD_CFLAGS += -iquote daemon/algo

# dardctl's deploy/ finds dardctl's own headers the same way.
$(call objs,daemon/dardctl): DARD_CFLAGS += -iquote daemon/dardctl

# Every loader object depends on its skeleton.
SWITCH_SKEL_USERS := $(call objs,daemon/switchd) $(B)/tests/bpf/test_switch.o \
		     $(B)/bench/bench_switch.o
$(SWITCH_SKEL_USERS): $(B)/bpf/dard_switch.skel.h
$(SWITCH_SKEL_USERS): DARD_CFLAGS += -I$(B)/bpf
$(B)/tests/bpf/test_switch.o $(B)/bench/bench_switch.o: DARD_CFLAGS += -iquote daemon/switchd
# The host datapath's BPF tests, one binary per feature, over one env.
DP_TEST_SRCS := $(wildcard tests/bpf/test_dp_*.c)
DP_TESTS := $(DP_TEST_SRCS:tests/bpf/%.c=$(B)/tests/%)
DP_TEST_OBJS := $(DP_TEST_SRCS:%.c=$(B)/%.o) $(B)/tests/bpf/dp_env.o
TC_SKEL_USERS := $(call objs,daemon/dp) $(DP_TEST_OBJS)
$(TC_SKEL_USERS): $(BPF_SKEL)
$(TC_SKEL_USERS): DARD_CFLAGS += -I$(B)/bpf
$(B)/bench/bench_dp.o: $(B)/bench/bench_dp.skel.h
$(B)/bench/bench_dp.o: DARD_CFLAGS += -I$(B)/bench

# -MMD leaves out -isystem headers, so the uapi header is named here: a
# change to it rebuilds every object that could see it.
# The version is compiled in (stdopts.c): a new changelog entry rebuilds it.
$(B)/daemon/common/stdopts.o: debian/changelog
$(B)/%.o: %.c $(UAPI_H)
	$(quiet) CC $<
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(DARD_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(JSON_CFLAGS) -c -o $@ $<

# The folder too: a file moved in or out changes its time, so that the
# archive is written anew without the moved file's stale object.
$(LIBDARD): $(call objs,daemon/lib) daemon/lib
$(LIBALGO): $(call objs,daemon/algo) daemon/algo
$(LIBCOMMON): $(call objs,daemon/common) daemon/common
$(LIBDP): $(call objs,daemon/dp) daemon/dp
$(B)/lib/%.a:
	$(quiet) AR $@
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && $(AR) rcs $@ $(filter %.o,$^)

# The programs: their own folder's objects and the libraries they use.
$(B)/bin/dardctl: $(call objs,daemon/dardctl) $(LIBDP) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(JSON_LIBS) $(BPF_LIBS) $(LIBDARD_LIBS)

$(B)/bin/dardd: $(call objs,daemon/dardd) $(LIBDP) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(JSON_LIBS) $(BPF_LIBS) $(LIBDARD_LIBS) \
		$(SYSTEMD_LIBS)

$(B)/bin/dard-switchd: $(call objs,daemon/switchd) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(BPF_LIBS) $(LIBDARD_LIBS) \
		$(SYSTEMD_LIBS)

# The controller places flows with libdard-algo (route.h).
$(B)/bin/dard-controller: $(call objs,daemon/controller) $(LIBALGO) \
		$(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(JSON_LIBS) $(ALGO_LIBS) $(SYSTEMD_LIBS)

$(B)/bin/dard-sim: $(call objs,daemon/sim) $(LIBALGO) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(JSON_LIBS) $(ALGO_LIBS)

# dard-exp: the sampler (libmnl) and the report (libdard-algo's max-min
# shares, json-c).
$(B)/bin/dard-exp: $(call objs,daemon/exp) $(LIBALGO) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(JSON_LIBS) $(MNL_LIBS) $(ALGO_LIBS)

# The iproute2 link plugin (daemon/ipplug/link_dard.c): `ip' dlopens it
# from $IP_LIB_DIR (default /usr/lib/ip), so it is position-independent
# and carries the libdard number parsing it uses.
$(IPPLUG): daemon/ipplug/link_dard.c daemon/lib/num.c daemon/lib/err.c \
		$(UAPI_H)
	$(quiet) SO $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
		-isystem kmod/uapi $(DAEMON_INC) $(CPPFLAGS) $(CFLAGS) -fPIC \
		-shared $(LDFLAGS) -o $@ $(filter %.c,$^) -lm

# The netlink policy fuzzer the qemu guest runs against dard.ko
# (tests/kmod/nlfuzz.c, libmnl only); `make kmod-tools' builds it for the
# guest's image.
$(B)/tests/nlfuzz: $(B)/tests/kmod/nlfuzz.o
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(shell pkg-config --libs libmnl 2>/dev/null || echo -lmnl)

kmod-tools: $(B)/tests/nlfuzz

# The kmod tests' guest helpers: the relay probe's packet crafter
# (tests/kmod/rawip.c) and the netlink policy fuzzer.
KMOD_HELPERS := $(B)/tests/rawip $(B)/tests/nlfuzz
$(B)/tests/rawip: $(B)/tests/kmod/rawip.o
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^

# The netns test's packet checker: links libdard for the expected paths.
$(B)/bin/dard-pathcheck: $(B)/tests/netns/pathcheck.o $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBDARD_LIBS)

# Unit tests link every library; the linker takes what each one uses.
$(B)/tests/test_lp $(B)/tests/test_route_exact: EXTRA_LIBS := -lglpk
# test_oom makes the n-th allocation fail: it wraps the allocator.
$(B)/tests/test_oom: LDFLAGS_ALL += -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
$(B)/tests/%: $(B)/tests/unit/%.o $(LIBALGO) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $(filter %.o,$^) $(filter %.a,$^) \
		$(CMOCKA_LIBS) $(EXTRA_LIBS) \
		$(JSON_LIBS) $(ALGO_LIBS) $(SYSTEMD_LIBS)

# dard-switchd's options and answers, without root or BPF (the counter
# is linked but never loaded: a fake counts); its loads from loopback's
# counters, which any user may dump.
SWITCHD_TEST_OBJS := $(B)/daemon/switchd/reply.o $(B)/daemon/switchd/opts.o \
		     $(B)/daemon/switchd/answer.o $(B)/daemon/switchd/counter.o \
		     $(B)/daemon/switchd/load.o $(B)/daemon/switchd/nl.o \
		     $(B)/daemon/switchd/window.o $(B)/daemon/switchd/watchers.o \
		     $(B)/daemon/switchd/notice.o $(B)/daemon/switchd/probe.o
$(B)/tests/unit/test_switchd.o: DARD_CFLAGS += -iquote daemon/switchd
$(B)/tests/test_switchd: $(B)/tests/unit/test_switchd.o $(SWITCHD_TEST_OBJS) \
		$(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(BPF_LIBS) $(LIBDARD_LIBS)

# dard-switchd's answer path over loopback, its counter faked.
$(B)/bench/bench_switchd.o: DARD_CFLAGS += -iquote daemon/switchd
$(B)/bin/dard-bench-switchd: $(B)/bench/bench_switchd.o $(SWITCHD_TEST_OBJS) \
		$(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(BPF_LIBS) $(LIBDARD_LIBS)

# dard-switchd's watchers, on their own.
$(B)/tests/unit/test_swwatch.o: DARD_CFLAGS += -iquote daemon/switchd
$(B)/tests/test_swwatch: $(B)/tests/unit/test_swwatch.o \
		$(B)/daemon/switchd/watchers.o $(B)/daemon/switchd/reply.o \
		$(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LIBDARD_LIBS)

# dard-switchd's link probes, without sockets.
$(B)/tests/unit/test_swprobe.o: DARD_CFLAGS += -iquote daemon/switchd
$(B)/tests/test_swprobe: $(B)/tests/unit/test_swprobe.o \
		$(B)/daemon/switchd/probe.o $(B)/daemon/switchd/notice.o \
		$(B)/daemon/switchd/watchers.o $(B)/daemon/switchd/reply.o \
		$(B)/daemon/switchd/nl.o $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LIBDARD_LIBS)

# dard-switchd's senders' windows, on their own.
$(B)/tests/unit/test_swreplay.o: DARD_CFLAGS += -iquote daemon/switchd
$(B)/tests/test_swreplay: $(B)/tests/unit/test_swreplay.o \
		$(B)/daemon/switchd/window.o $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(LIBDARD_LIBS)

# dardd's unit tests link its objects but main.o; a fake datapath ops
# table stands in for the BPF one.
DARDD_TEST_OBJS := $(filter-out %/main.o,$(call objs,daemon/dardd))
$(B)/tests/unit/test_dardd%.o: DARD_CFLAGS += -iquote daemon/dardd
$(B)/tests/test_dardd%: $(B)/tests/unit/test_dardd%.o $(DARDD_TEST_OBJS) \
		$(LIBDP) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(JSON_LIBS) \
		$(BPF_LIBS) $(LIBDARD_LIBS) $(SYSTEMD_LIBS)

# The controller's tests and benchmark drive its receive and round
# functions through its objects but main.o, without sockets.
CTLR_OBJS := $(filter-out %/main.o,$(call objs,daemon/controller))
$(B)/tests/unit/test_control%.o $(B)/bench/bench_ctl.o: \
	DARD_CFLAGS += -iquote daemon/controller
$(B)/tests/test_control%: $(B)/tests/unit/test_control%.o $(CTLR_OBJS) \
		$(LIBALGO) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(JSON_LIBS) \
		$(ALGO_LIBS) $(SYSTEMD_LIBS)
$(B)/bin/dard-bench-ctl: $(B)/bench/bench_ctl.o $(CTLR_OBJS) $(LIBALGO) \
		$(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(JSON_LIBS) $(ALGO_LIBS) $(SYSTEMD_LIBS)

# dard-exp's tests link its objects but main.o: the report on experiment
# directories they write, the sampler's walk on crafted dumps.
EXP_TEST_OBJS := $(filter-out %/main.o,$(call objs,daemon/exp))
$(B)/tests/unit/test_exp%.o: DARD_CFLAGS += -iquote daemon/exp
$(B)/tests/test_exp%: $(B)/tests/unit/test_exp%.o $(EXP_TEST_OBJS) \
		$(LIBALGO) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(JSON_LIBS) \
		$(MNL_LIBS) $(ALGO_LIBS)

# The kernel module's backend without the module: its messages, the
# choice of backend (which links both), the "not loaded" error.
$(B)/tests/test_dp_kmod: $(B)/tests/unit/test_dp_kmod.o $(LIBDP) $(LIBCOMMON) \
		$(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(BPF_LIBS) $(LIBDARD_LIBS)

# The policy both datapaths compile, and the datapath options' defaults.
$(B)/tests/test_dp_policy: $(B)/tests/unit/test_dp_policy.o $(LIBDP) \
		$(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(BPF_LIBS) $(LIBDARD_LIBS)

# The renderers' tests also link dardctl's renderers (daemon/dardctl); the
# rule above puts objects before the libraries they call.
RENDER_TESTS := $(filter $(B)/tests/test_render%,$(UNIT_BINS))
$(RENDER_TESTS): $(B)/daemon/dardctl/render.o $(B)/daemon/dardctl/render_ecmp.o \
		  $(B)/daemon/dardctl/render_bgp.o
$(RENDER_TESTS:$(B)/tests/%=$(B)/tests/unit/%.o): DARD_CFLAGS += -iquote daemon/dardctl

# BPF_PROG_TEST_RUN on the real skeletons, maps filled by dp_bpf.c: each
# tests/bpf/test_dp_FEATURE.c with the env they share (dp_env.c).
$(DP_TESTS): $(B)/tests/%: $(B)/tests/bpf/%.o $(B)/tests/bpf/dp_env.o \
		$(LIBDP) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(BPF_LIBS) $(LIBDARD_LIBS)

$(B)/tests/test_switch: $(B)/tests/bpf/test_switch.o \
		$(B)/daemon/switchd/counter.o $(B)/daemon/switchd/reply.o \
		$(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(BPF_LIBS) $(LIBDARD_LIBS)

# The policy digest's BPF build (Documentation/datapath.md, "One
# policy"): a test-only program over <linux/dard_policy_digest.h>, with
# the datapath's D-SACK walk (bpf/dsack.h), run in chunks by its driver.
PD_BPF := $(B)/tests/bpf/policy_digest
$(PD_BPF).bpf.o: tests/bpf/policy_digest.bpf.c tests/bpf/policy_digest.h \
		$(wildcard bpf/*.h) $(UAPI_H)
	$(quiet) BPF $<
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -iquote bpf -c $< -o $@

$(PD_BPF).skel.h: $(PD_BPF).bpf.o
	$(quiet) SKEL $@
	$(Q)bpftool gen skeleton $< name policy_digest > $@

$(B)/tests/bpf/test_policy_bpf.o: $(PD_BPF).skel.h
$(B)/tests/bpf/test_policy_bpf.o: DARD_CFLAGS += -I$(B)/tests/bpf
$(B)/tests/test_policy_bpf: $(B)/tests/bpf/test_policy_bpf.o
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(CMOCKA_LIBS) $(BPF_LIBS)

$(B)/bin/dard-bench-dp: $(B)/bench/bench_dp.o $(LIBDP) $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(BPF_LIBS) $(LIBDARD_LIBS)

$(B)/bin/dard-bench-switch: $(B)/bench/bench_switch.o \
		$(B)/daemon/switchd/counter.o $(B)/daemon/switchd/reply.o \
		$(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(BPF_LIBS) $(LIBDARD_LIBS)

# The pure benchmarks (bench/bench_NAME.c, the libraries only).
$(B)/bin/dard-bench-%: $(B)/bench/bench_%.o $(LIBALGO) $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(ALGO_LIBS)

$(B)/bin/dard-bench: $(B)/bench/bench.o $(LIBDARD)
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBDARD_LIBS)

# libFuzzer targets are built with clang and the sanitizers: libdard
# (whose wcmp.h reads the uapi header's limits) compiled once, with the
# sanitizers' coverage, into an archive of its own, and each target's
# file and the ones it adds below, linked with it.
FUZZ_BASE_CFLAGS := -g -O1 -std=gnu11 -D_GNU_SOURCE -MMD -MP $(DAEMON_INC) \
	-isystem kmod/uapi -iquote daemon/algo -iquote daemon/dardctl \
	-fno-sanitize-recover=all
FUZZ_LIBDARD := $(B)/fuzz/libdard-fuzz.a
FUZZ_LIB_OBJS := $(patsubst %.c,$(B)/fuzz/obj/%.o,$(call srcs,daemon/lib))
$(B)/fuzz/obj/%.o: %.c $(UAPI_H)
	$(quiet) FUZZCC $<
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(FUZZ_BASE_CFLAGS) \
		-fsanitize=fuzzer-no-link,address,undefined -c -o $@ $<
$(FUZZ_LIBDARD): $(FUZZ_LIB_OBJS) daemon/lib
	$(quiet) AR $@
	$(Q)rm -f $@ && $(AR) rcs $@ $(filter %.o,$^)
# A target's own folder first (FUZZ_CFLAGS): dardctl's load.h is not
# dard-switchd's.
$(B)/fuzz/%: tests/fuzz/%.c $(FUZZ_LIBDARD)
	$(quiet) FUZZ $@
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(FUZZ_CFLAGS) $(FUZZ_BASE_CFLAGS) -MF $@.d \
		-fsanitize=fuzzer,address,undefined \
		-o $@ $(filter %.c,$^) $(FUZZ_LIBDARD) $(LIBDARD_LIBS) $(FUZZ_LIBS)
# dardd's control line; dardctl's reading of dardd's answers (json-c);
# dard-sim's demand file; the kmod backend's reading of netlink replies. config_fuzz, proto_fuzz, num_fuzz, key_fuzz:
# libdard's.
$(B)/fuzz/ctl_fuzz: daemon/common/ctlsock.c
$(B)/fuzz/answer_fuzz: daemon/dardctl/answer.c
$(B)/fuzz/answer_fuzz: FUZZ_CFLAGS := $(JSON_CFLAGS)
$(B)/fuzz/answer_fuzz: FUZZ_LIBS := $(JSON_LIBS)
$(B)/fuzz/demand_fuzz: daemon/algo/demandfile.c
# dard-sim's flow file (--run --flows).
$(B)/fuzz/flows_fuzz: daemon/algo/flowfile.c
# dard-controller's host table: the datagrams hosts (or anyone) send it.
$(B)/fuzz/controller_fuzz: daemon/controller/hosts.c daemon/controller/paths.c \
		daemon/common/receiver.c daemon/common/log.c
$(B)/fuzz/controller_fuzz: FUZZ_CFLAGS := -iquote daemon/controller
# dardd's handling of the controller's datagrams, with a fake datapath.
$(B)/fuzz/cpin_fuzz: daemon/dardd/controller.c daemon/dardd/cpapply.c \
	daemon/dardd/elephants.c daemon/dardd/monitors.c daemon/dardd/dead.c \
	daemon/dardd/track.c daemon/dardd/io.c daemon/common/receiver.c \
	daemon/common/log.c
$(B)/fuzz/cpin_fuzz: FUZZ_CFLAGS := -iquote daemon/dardd
# The kmod backend's reading of the module's replies (libmnl).
$(B)/fuzz/kmsg_fuzz: daemon/dp/dp_kmod_msg.c
$(B)/fuzz/kmsg_fuzz: FUZZ_LIBS := $(shell pkg-config --libs libmnl 2>/dev/null || echo -lmnl)
# dardctl's reading of dard-controller's stats answer (json-c).
$(B)/fuzz/ctlr_answer_fuzz: daemon/dardctl/ctlr_answer.c
$(B)/fuzz/ctlr_answer_fuzz: FUZZ_CFLAGS := $(JSON_CFLAGS)
$(B)/fuzz/ctlr_answer_fuzz: FUZZ_LIBS := $(JSON_LIBS)
# dard-switchd's rtnetlink: the links dump's counters, acks (load.c logs).
$(B)/fuzz/load_fuzz: daemon/switchd/load.c daemon/switchd/nl.c \
		daemon/switchd/reply.c daemon/common/log.c
$(B)/fuzz/load_fuzz: FUZZ_CFLAGS := -iquote daemon/switchd
# The datapath's reading of the fabric interface's GSO sizes (libmnl).
$(B)/fuzz/link_fuzz: daemon/dp/dp_link.c
$(B)/fuzz/link_fuzz: FUZZ_LIBS := $(shell pkg-config --libs libmnl 2>/dev/null || echo -lmnl)

# dard-exp's reading of the experiment directory's CSV, meta and the
# testbed's nodes file; its sampler's walk of link and qdisc dumps.
$(B)/fuzz/expcsv_fuzz: daemon/exp/csv.c
$(B)/fuzz/expcsv_fuzz: FUZZ_CFLAGS := -iquote daemon/exp
$(B)/fuzz/expnl_fuzz: daemon/exp/nlstats.c daemon/exp/csv.c
$(B)/fuzz/expnl_fuzz: FUZZ_CFLAGS := -iquote daemon/exp
$(B)/fuzz/expnl_fuzz: FUZZ_LIBS := $(MNL_LIBS)

fuzz: $(FUZZ_BINS)

# A short, bounded run of every fuzzer from its seed corpus.
fuzz-smoke: $(FUZZ_BINS)
	$(Q)for f in $(FUZZ_BINS); do \
		n=$$(basename $$f); \
		rm -rf $(B)/fuzz/$$n.corpus; mkdir -p $(B)/fuzz/$$n.corpus; \
		t0=$$(date +%s.%N); \
		$$f -runs=20000 -seed=1 -max_len=4096 $(B)/fuzz/$$n.corpus \
			tests/fuzz/corpus/$$n \
			>$(B)/fuzz/$$n.log 2>&1 || { tail -40 $(B)/fuzz/$$n.log; exit 1; }; \
		echo "  FUZZ   $$n: 20000 runs, $$(awk -v a=$$t0 -v b=$$(date +%s.%N) \
			'BEGIN { printf "%.1f", b - a }') s"; \
	done

test-unit: $(UNIT_BINS)
	$(Q)scripts/run-tests --title test-unit $(UNIT_BINS)

test-bpf: $(DP_TESTS) $(B)/tests/test_switch $(B)/tests/test_policy_bpf
	$(Q)scripts/run-tests --title test-bpf $(DP_TESTS) $(B)/tests/test_switch \
		$(B)/tests/test_policy_bpf

# Man pages, scdoc sources in man/ (tests/cli/manpages.sh checks them).
MAN_SRC := $(wildcard man/*.scd)
MAN := $(patsubst man/%.scd,$(B)/man/%,$(MAN_SRC))
man: $(MAN)
$(B)/man/%: man/%.scd
	@mkdir -p $(@D)
	$(Q)scdoc < $< > $@

# The command-line tests: dardctl's commands, the man pages, the units
# (offline), the cluster runner's and the scripts' checks that fail
# before any namespace, sim-tables' arithmetic. No root (as root,
# dardctl.sh also makes one empty namespace of its own for -n).
test-cli: daemon
	$(Q)scripts/run-tests --title test-cli \
		"DARD_BIN=$(B)/bin tests/cli/dardctl.sh" \
		"DARD_BIN=$(B)/bin tests/cli/ipv6.sh" \
		"DARD_BIN=$(B)/bin tests/cli/manpages.sh" \
		"DARD_BIN=$(B)/bin tests/cli/units.sh" \
		"DARD_BIN=$(B)/bin tests/cli/cluster.sh" \
		"DARD_BIN=$(B)/bin tests/cli/simtables.sh" \
		"DARD_BIN=$(B)/bin tests/cli/workload.sh" \
		"DARD_BIN=$(B)/bin tests/cli/simworkloads.sh" \
		"DARD_BIN=$(B)/bin tests/cli/simopts.sh" \
		tests/cli/scripts.sh \
		tests/cli/testlib.sh

# The tests that need root for namespaces and mounts of their own (never
# the testbed's; they skip without root, and fail so when CI is set):
# ctlsock.sh, the control socket against an impostor (unshare -n -m);
# exp.sh, dard-exp sample on two namespaces of its own; xfer.sh,
# dard-exp send and recv on two more (a veth, a tbf); controller.sh,
# dard-controller and a host's side of its protocol (unshare -n);
# notify.sh, the daemons under a fake systemd (unshare -n -p -m);
# keyleak.sh, no key in the daemons' messages or core dumps (the same).
test-root: daemon $(B)/tests/ctlpeer $(B)/tests/ctlhost
	$(Q)scripts/run-tests --title test-root \
		"DARD_BIN=$(B)/bin DARD_CTLPEER=$(B)/tests/ctlpeer tests/root/ctlsock.sh" \
		"DARD_BIN=$(B)/bin tests/root/exp.sh" \
		"DARD_BIN=$(B)/bin tests/root/xfer.sh" \
		"DARD_BIN=$(B)/bin DARD_CTLHOST=$(B)/tests/ctlhost tests/root/controller.sh" \
		"DARD_BIN=$(B)/bin tests/root/notify.sh" \
		"DARD_BIN=$(B)/bin tests/root/keyleak.sh"

$(B)/tests/ctlpeer: $(B)/tests/root/ctlpeer.o $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBDARD_LIBS)

# A host's side of the controller protocol, for controller.sh.
$(B)/tests/ctlhost: $(B)/tests/root/ctlhost.o $(LIBCOMMON) $(LIBDARD)
	$(quiet) LD $@
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LIBDARD_LIBS)

# The unit, command-line and root tests again, built with ASan and UBSan
# in build/san.
test-san:
	$(Q)$(MAKE) --no-print-directory SAN=1 test-unit test-cli test-root

# The namespace tests: those make check runs (each a minute and a half
# at most on two idle cores), and the long scenarios make check-long
# runs (the experiment pipeline, a cluster over real sshd).
NETNS_CHECK := testbed tables6 testbed6 datapath dard spread mode auth share quiet faults bgp split \
	deterlab controller
NETNS_LONG := experiment cluster attack
# DARD on an IPv6-only fabric (4in6, ICMPv6 probes): spread.sh once at
# 20 Mbit/s.
SPREAD6 := DARD_SPREAD_ARGS='--family ipv6' DARD_SPREAD_RATES=20 \
	DARD_SPREAD_RUNS=1
test-netns: test-netns-check test-netns-long
test-netns-check: daemon
	$(Q)scripts/run-tests --title test-netns-check \
		$(patsubst %,tests/netns/%.sh,$(NETNS_CHECK)) \
		"$(SPREAD6) tests/netns/spread.sh"
test-netns-long: daemon
	$(Q)scripts/run-tests --title test-netns-long \
		$(patsubst %,tests/netns/%.sh,$(NETNS_LONG))

# The fault-injection test alone (about a minute), also run by test-netns.
test-faults: daemon
	$(Q)tests/netns/faults.sh

# scripts/cluster over real sshd in the testbed's namespaces (about
# three minutes; Debian's openssh-server), alone; also run by test-netns.
test-cluster: daemon
	$(Q)tests/netns/cluster.sh

# dard-controller on the testbed (about four and a half minutes), alone;
# also run by test-netns.
test-controller: daemon
	$(Q)tests/netns/controller.sh

# The kernel module under qemu (tests/kmod/run): Debian's linux-image-amd64
# boots an initramfs of our programs, DARD_KO and the host's tools, and
# runs tests/kmod/test.sh in it. No root; a missing DARD_KO fails. The
# module is built first (make kmod).
DARD_KO ?= $(KMOD)
KMOD_RUN = $(MAKE) --no-print-directory kmod && \
	   tests/kmod/run -m $(DARD_KO) -b $(B)/bin -t $(B)/tests
test-kmod: daemon $(KMOD_HELPERS)
	$(Q)$(KMOD_RUN) -q

# Installed for real (tests/guest/run, Documentation/testing.md): two
# Debian 12 guests with systemd under qemu get make deb's packages by
# the Ansible playbook and run the units; root (namespaces, taps). Its
# own step of .ci/run, outside check-long.
test-guest: daemon
	$(Q)tests/guest/run

# The same guest, tests/kmod/bench.sh: no datapath, BPF and kmod side by
# side.
bench-kmod: daemon $(KMOD_HELPERS)
	$(Q)$(KMOD_RUN) -s bench -q

# Formatting, and the size limits of Documentation/design.md: daemon's
# .c files, the kernel module's and the BPF programs' .c and .h files
# (kmod/uapi's headers among them) 700 lines, the tests' files 800, any
# C function 120.
STYLE_SRCS = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
TEST_SIZE_SRCS = $(shell git ls-files 'tests/*.c' 'tests/*.h' 'tests/*.sh' \
	'tests/*.py' 2>/dev/null)
style:
	$(quiet) STYLE clang-format
	$(Q)clang-format --dry-run -Werror $(STYLE_SRCS)
	$(quiet) STYLE sizes
	$(Q)scripts/check-size -f 700 $(filter daemon/%.c kmod/% bpf/%,$(STYLE_SRCS))
	$(Q)scripts/check-size -f 800 $(TEST_SIZE_SRCS)
	$(quiet) STYLE layers
	$(Q)scripts/check-calls daemon/dardd daemon/switchd daemon/controller \
		daemon/dardctl

# Everything the tests need, built before any runs: the build is
# parallel (-j, all cores), the tests one after another.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check-build:
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) daemon bpf $(DP_TESTS) \
		$(B)/tests/test_switch $(B)/tests/test_policy_bpf \
		$(B)/tests/ctlpeer $(B)/tests/ctlhost man
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) SAN=1 daemon \
		$(UNIT_BINS:$(B)/%=build/san/%) build/san/tests/ctlpeer \
		build/san/tests/ctlhost man
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) fuzz

# make check: what every change must pass, in about 10 minutes on two
# idle cores from nothing built, and on a busy machine too (it asserts
# behaviour, never a rate or a duration: Documentation/testing.md).
# make check-long: the scenarios that do not fit those minutes; CI runs
# both. make check-quick: the edit loop's, without namespace testbeds.
CHECK_STEPS := "$(MAKE) --no-print-directory style" \
	"$(MAKE) --no-print-directory test-san" \
	"$(MAKE) --no-print-directory test-bpf" \
	"$(MAKE) --no-print-directory fuzz-smoke"
check: check-build
	$(Q)scripts/run-tests --title check $(CHECK_STEPS) \
		$(patsubst %,tests/netns/%.sh,$(NETNS_CHECK)) \
		"$(SPREAD6) tests/netns/spread.sh"

check-quick: check-build
	$(Q)scripts/run-tests --title check-quick $(CHECK_STEPS)

check-long: check-build
	$(Q)scripts/run-tests --title check-long \
		"$(MAKE) --no-print-directory test-kmod" \
		"$(MAKE) --no-print-directory test-pkg" \
		$(patsubst %,tests/netns/%.sh,$(NETNS_LONG))

test: check

bench: $(B)/bin/dard-bench $(B)/bin/dard-bench-sched $(B)/bin/dard-bench-maxmin \
		$(B)/bin/dard-bench-route $(B)/bin/dard-bench-obl \
		$(B)/bin/dard-bench-dp $(B)/bin/dard-bench-ctl \
		$(B)/bin/dard-bench-switch $(B)/bin/dard-bench-switchd daemon
	$(Q)scripts/bench-run addressing $(B)/bin/dard-bench
	$(Q)scripts/bench-run sched $(B)/bin/dard-bench-sched
	$(Q)scripts/bench-run maxmin $(B)/bin/dard-bench-maxmin
	$(Q)scripts/bench-run route $(B)/bin/dard-bench-route
	$(Q)scripts/bench-run oblivious $(B)/bin/dard-bench-obl
	$(Q)scripts/bench-run controller $(B)/bin/dard-bench-ctl
	$(Q)scripts/bench-run switchd $(B)/bin/dard-bench-switchd
	$(Q)scripts/bench-run sim env DARD_SIM=$(B)/bin/dard-sim scripts/bench-sim
	$(Q)scripts/bench-run workloads env DARD_SIM=$(B)/bin/dard-sim \
		scripts/sim-workloads --quick --out $(B)/bench/workloads
	$(Q)scripts/bench-run testbed scripts/bench-testbed
	$(Q)scripts/bench-run failover scripts/bench-failover
	$(Q)scripts/bench-run fabric scripts/bench-fabric
	$(Q)scripts/bench-run split scripts/bench-split
	$(Q)scripts/bench-run dp $(B)/bin/dard-bench-dp
	$(Q)scripts/bench-run switch-counter $(B)/bin/dard-bench-switch
	$(Q)scripts/bench-run datapath scripts/bench-datapath
	$(Q)scripts/bench-run figures scripts/bench-figures
	$(Q)scripts/bench-run spread scripts/bench-spread
	$(Q)scripts/bench-run kmod $(MAKE) --no-print-directory bench-kmod

# Installs what it needs first: the one command on a fresh machine.
demo:
	$(Q)scripts/install-deps
	$(Q)$(MAKE) -s daemon
	$(Q)scripts/demo

# Where make install puts things (Documentation/operations.md,
# "Installing"). Units go where systemd looks: Debian's systemd.pc says
# /lib/systemd/system for the system's own (PREFIX=/usr, the package);
# systemd also reads $(PREFIX)/lib/systemd/system for /usr/local.
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
SBINDIR ?= $(PREFIX)/sbin
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
UNITDIR ?= $(if $(filter /usr,$(PREFIX)),/lib/systemd/system,$(PREFIX)/lib/systemd/system)
# Where iproute2's ip looks for link plugins (its LIBDIR/ip).
IPLIBDIR ?= /usr/lib/ip
# The Ansible playbook and its sample inventory (operations.md).
DOCDIR ?= $(PREFIX)/share/doc/dard
# DKMS takes a module's source from /usr/src/NAME-VERSION and nowhere
# else, so not from $(PREFIX)/src whatever PREFIX is.
DKMSDIR ?= /usr/src/dard-$(VERSION)
# What install put where, for uninstall; empty when a package manager
# keeps the list (debian/rules).
MANIFEST ?= $(PREFIX)/share/dard/install-manifest
UNITS := $(wildcard systemd/*.service)
ETC_SRCS ?= $(wildcard etc/dard/*)
EXAMPLES := $(wildcard examples/ansible/*)
KMOD_SRCS := Kbuild $(wildcard kmod/*.[ch]) $(UAPI_H)

# Units and dkms.conf name paths; they are written for PREFIX=/usr and
# SYSCONFDIR=/etc, and rewritten at each install for the ones given.
define STAGE
rm -rf $(B)/install && mkdir -p $(B)/install/systemd
for u in $(UNITS); do \
	sed -e 's|/usr/sbin/|$(SBINDIR)/|g' -e 's|/etc/dard|$(SYSCONFDIR)/dard|g' \
		$$u > $(B)/install/$$u || exit 1; \
done
sed 's|@VERSION@|$(VERSION)|g' dkms.conf > $(B)/install/dkms.conf
endef

# One line per file, "MODE SOURCE DESTINATION" ("conf" for a sample
# configuration file that never replaces an operator's), read by
# scripts/install-tree.
define INSTALL_LIST
$(foreach p,dardctl dardd dard-switchd dard-controller dard-exp,0755 $(B)/bin/$(p) $(SBINDIR)/$(p)
)0755 $(B)/bin/dard-sim $(BINDIR)/dard-sim
0755 scripts/testbed $(SBINDIR)/dard-testbed
0644 $(IPPLUG) $(IPLIBDIR)/link_dard.so
$(foreach m,$(MAN),0644 $(m) $(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m))
)$(foreach u,$(UNITS),0644 $(B)/install/$(u) $(UNITDIR)/$(notdir $(u))
)$(foreach e,$(ETC_SRCS),conf $(e) $(SYSCONFDIR)/dard/$(notdir $(e))
)$(foreach k,$(KMOD_SRCS),0644 $(k) $(DKMSDIR)/$(k)
)0644 $(B)/install/dkms.conf $(DKMSDIR)/dkms.conf
$(foreach x,$(EXAMPLES),0644 $(x) $(DOCDIR)/$(x)
)
endef
export INSTALL_LIST

install: daemon man
	$(Q)$(STAGE)
	$(Q)printf '%s\n' "$$INSTALL_LIST" | \
		DESTDIR="$(DESTDIR)" scripts/install-tree install "$(MANIFEST)"

# Removes what the manifest lists: files, samples the operator left as
# they were, then the directories install made, when empty. A module DKMS
# was given (dkms add, Documentation/operations.md) goes from DKMS first:
# its tree would otherwise point at the source removed here. Not in a
# DESTDIR, which is no machine's DKMS.
uninstall:
	$(Q)if [ -z "$(DESTDIR)" ] && command -v dkms >/dev/null && \
		dkms status -m dard -v "$(VERSION)" 2>/dev/null | grep -q .; then \
		dkms remove "dard/$(VERSION)" --all || exit 1; \
	fi
	$(Q)DESTDIR="$(DESTDIR)" scripts/install-tree uninstall "$(MANIFEST)"

# The Debian packages dard and dard-dkms, built in a copy of the tree's
# files (tracked and new, not ignored) so that debian/'s droppings stay
# out of it; the .debs land in build/deb.
DEB_DIR := build/deb
deb:
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/dard-$(VERSION)
	$(Q)git ls-files -co --exclude-standard -z | \
		xargs -0 sh -c 'for f; do [ -e "$$f" ] && printf "%s\0" "$$f"; done' - | \
		xargs -0 cp --parents -t $(DEB_DIR)/dard-$(VERSION)
	$(Q)cd $(DEB_DIR)/dard-$(VERSION) && \
		dpkg-buildpackage -b -us -uc -j2 > ../build.log 2>&1 || \
		{ tail -40 ../build.log; exit 1; }
	$(Q)ls $(DEB_DIR)/*.deb

# Installs into a DESTDIR and checks it, then the packages, then README's
# "Installing" from a fresh clone; root for dpkg and the overlay
# (Documentation/testing.md). About three minutes.
test-pkg: daemon man
	$(Q)rc=0; tests/pkg/install.sh || rc=1; tests/pkg/deb.sh || rc=1; \
		tests/pkg/readme.sh || rc=1; exit $$rc

clean:
	rm -rf build

# The kernel module (kmod/, Documentation/kmod.md), built out of tree by the
# top-level Kbuild against Debian's linux-headers-amd64, whose version this
# machine's running kernel (uname -r) need not share. It leaves $(KMOD).
KMOD := dard.ko
KERNELRELEASE ?= $(shell dpkg-query -W -f='$${Depends}' linux-headers-amd64 \
	2>/dev/null | sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p')
KDIR ?= $(if $(KERNELRELEASE),/lib/modules/$(KERNELRELEASE)/build,$(lastword \
	$(sort $(wildcard /lib/modules/*/build))))
kmod:
	$(Q)test -d "$(KDIR)" || { echo "no kernel headers: set KDIR" >&2; exit 1; }
	$(Q)$(MAKE) -C $(KDIR) M=$(CURDIR) modules

kmod-path:
	@echo $(KMOD)

kmod-clean:
	$(Q)test ! -d "$(KDIR)" || $(MAKE) -C $(KDIR) M=$(CURDIR) clean

-include $(shell find $(B) -name '*.d' 2>/dev/null)
