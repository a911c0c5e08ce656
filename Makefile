# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# make            build userspace into build/bin/ (dardctl) and libdard
# make check      build and run every test (style, unit, CLI, fuzz smoke,
#                 netns testbed)
# make bench      benchmarks (Documentation/benchmarks.md)
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
B := build
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

# CFLAGS is the user's (make CFLAGS="-O0 -g"); what the code needs is apart.
CFLAGS ?= -O2 -g
DARD_CFLAGS := -std=gnu11 -D_GNU_SOURCE -pthread -Wall -Wextra -Wno-unused-parameter \
	  -MMD -MP -isystem kmod/uapi -DDARD_VERSION='"$(VERSION)"'
JSON_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null)
JSON_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
CMOCKA_LIBS := $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)
BPF_LIBS := $(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf -lelf -lz)
# What libdard itself needs: libm, and threads for the two-thread OPT.
LIBDARD_LIBS := -lm -pthread

# The BPF datapath: clang -target bpf on the UAPI headers, then a skeleton.
ARCH := $(shell uname -m)
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -Wall -Werror \
	      -I/usr/include/$(ARCH)-linux-gnu -isystem kmod/uapi
BPF_OBJ := $(B)/bpf/dard_tc.bpf.o
BPF_SKEL := $(B)/bpf/dard_tc.skel.h

LIB_SRCS := $(wildcard daemon/lib/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
CTL_SRCS := daemon/dardctl.c daemon/print.c daemon/render.c \
	    daemon/dp_bpf.c daemon/dp_program.c daemon/cfgfile.c daemon/render_ecmp.c \
	    $(wildcard daemon/ctl_*.c)
CTL_OBJS := $(CTL_SRCS:%.c=$(B)/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
FUZZ_SRCS := $(wildcard tests/fuzz/*_fuzz.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(B)/fuzz/%)

.PHONY: all daemon bpf check test test-unit test-bpf test-cli test-netns fuzz fuzz-smoke style \
	bench demo install clean
.DELETE_ON_ERROR:
.SECONDARY:

all: daemon

daemon: $(B)/bin/dardctl $(B)/bin/dard-switchd $(B)/bin/dardd $(B)/bin/dard-sim \
	$(B)/lib/libdard.a \
	$(B)/bin/dard-pathcheck

bpf: $(BPF_SKEL) $(B)/bpf/dard_switch.skel.h

$(BPF_OBJ): bpf/dard_tc.bpf.c $(wildcard bpf/*.h) kmod/uapi/linux/dard.h
	$(quiet) BPF $<
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BPF_SKEL): $(BPF_OBJ)
	$(quiet) SKEL $@
	$(Q)bpftool gen skeleton $< name dard_tc > $@

# The switches' elephant counter, loaded by dard-switchd.
$(B)/bpf/dard_switch.bpf.o: bpf/dard_switch.bpf.c $(wildcard bpf/*.h) \
		kmod/uapi/linux/dard.h
	$(quiet) BPF $<
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(B)/bpf/dard_switch.skel.h: $(B)/bpf/dard_switch.bpf.o
	$(quiet) SKEL $@
	$(Q)bpftool gen skeleton $< name dard_switch > $@

$(B)/tests/bpf/test_switch.o $(B)/daemon/switchd.o: $(B)/bpf/dard_switch.skel.h
$(B)/tests/bpf/test_switch.o $(B)/daemon/switchd.o: DARD_CFLAGS += -I$(B)/bpf

$(B)/bin/dardd: $(B)/daemon/dardd.o $(B)/daemon/dp_bpf.o \
		$(B)/daemon/dp_program.o $(B)/daemon/cfgfile.o \
		$(B)/daemon/log.o $(B)/lib/libdard.a
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(JSON_LIBS) $(BPF_LIBS) $(LIBDARD_LIBS)

$(B)/bin/dard-sim: $(B)/daemon/sim.o $(B)/daemon/cfgfile.o $(B)/lib/libdard.a
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(JSON_LIBS) $(LIBDARD_LIBS)

$(B)/bin/dard-switchd: $(B)/daemon/switchd.o $(B)/daemon/cfgfile.o \
		$(B)/daemon/log.o $(B)/lib/libdard.a
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(BPF_LIBS)

$(B)/tests/test_switch: $(B)/tests/bpf/test_switch.o
	$(quiet) LD $@
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(BPF_LIBS)

# The benchmark's loops around the same programs (bench/bench_dp.bpf.c).
$(B)/bench/bench_dp.bpf.o: bench/bench_dp.bpf.c bpf/dard_tc.bpf.c \
		$(wildcard bpf/*.h) kmod/uapi/linux/dard.h
	$(quiet) BPF $<
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(B)/bench/bench_dp.skel.h: $(B)/bench/bench_dp.bpf.o
	$(quiet) SKEL $@
	$(Q)bpftool gen skeleton $< name bench_dp > $@

# Every loader object depends on the skeleton.
$(B)/daemon/dp_bpf.o $(B)/tests/bpf/test_datapath.o: $(BPF_SKEL)
$(B)/daemon/dp_bpf.o $(B)/tests/bpf/test_datapath.o: \
	DARD_CFLAGS += -I$(B)/bpf
$(B)/bench/bench_dp.o: $(B)/bench/bench_dp.skel.h
$(B)/bench/bench_dp.o: DARD_CFLAGS += -I$(B)/bench

# BPF_PROG_TEST_RUN on the real skeleton, maps filled by dp_bpf.c.
$(B)/tests/test_datapath: $(B)/tests/bpf/test_datapath.o $(B)/daemon/dp_bpf.o
	$(quiet) LD $@
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(BPF_LIBS)

$(B)/%.o: %.c
	$(quiet) CC $<
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(DARD_CFLAGS) $(CFLAGS) $(JSON_CFLAGS) -c -o $@ $<

$(B)/lib/libdard.a: $(LIB_OBJS)
	$(quiet) AR $@
	@mkdir -p $(dir $@)
	$(Q)$(AR) rcs $@ $^

$(B)/bin/dardctl: $(CTL_OBJS) $(B)/lib/libdard.a
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(JSON_LIBS) $(BPF_LIBS) $(LIBDARD_LIBS)

# The netns test's packet checker: links libdard for the expected paths.
$(B)/bin/dard-pathcheck: $(B)/tests/netns/pathcheck.o $(B)/daemon/cfgfile.o \
		$(B)/lib/libdard.a
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^

# Tests that check libdard against an independent LP/ILP solver (GLPK).
$(B)/tests/test_lp $(B)/tests/test_route_exact: EXTRA_LIBS := -lglpk

$(B)/tests/%: $(B)/tests/unit/%.o $(B)/lib/libdard.a
	$(quiet) LD $@
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(EXTRA_LIBS) $(LIBDARD_LIBS)

$(B)/bin/dard-bench-dp: $(B)/bench/bench_dp.o $(B)/daemon/dp_bpf.o
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(BPF_LIBS)

# The pure benchmarks (bench/bench_NAME.c, libdard only); dard-bench-dp
# above also needs the BPF loader.
$(B)/bin/dard-bench-%: $(B)/bench/bench_%.o $(B)/lib/libdard.a
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LIBDARD_LIBS)

$(B)/bin/dard-bench: $(B)/bench/bench.o $(B)/lib/libdard.a
	$(quiet) LD $@
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LIBDARD_LIBS)

# libFuzzer targets are built with clang and the sanitizers, from source.
$(B)/fuzz/%: tests/fuzz/%.c $(LIB_SRCS)
	$(quiet) FUZZ $@
	@mkdir -p $(dir $@)
	$(Q)$(CLANG) -g -O1 -std=gnu11 -D_GNU_SOURCE \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-o $@ $^ $(LIBDARD_LIBS)

fuzz: $(FUZZ_BINS)

# A short, bounded run of every fuzzer from its seed corpus.
fuzz-smoke: $(FUZZ_BINS)
	$(Q)for f in $(FUZZ_BINS); do \
		n=$$(basename $$f); \
		echo "  FUZZ   $$n (20000 runs)"; \
		rm -rf $(B)/fuzz/$$n.corpus; mkdir -p $(B)/fuzz/$$n.corpus; \
		$$f -runs=20000 -seed=1 -max_len=4096 $(B)/fuzz/$$n.corpus \
			tests/fuzz/corpus/$$n \
			>$(B)/fuzz/$$n.log 2>&1 || { tail -40 $(B)/fuzz/$$n.log; exit 1; }; \
	done

test-unit: $(UNIT_BINS)
	$(Q)rc=0; for t in $(UNIT_BINS); do $$t || rc=1; done; exit $$rc

test-bpf: $(B)/tests/test_datapath $(B)/tests/test_switch
	$(Q)$(B)/tests/test_datapath
	$(Q)$(B)/tests/test_switch

test-cli: daemon
	$(Q)tests/cli/dardctl.sh

test-netns: daemon
	$(Q)rc=0; tests/netns/testbed.sh || rc=1; \
		tests/netns/datapath.sh || rc=1; \
		tests/netns/dard.sh || rc=1; \
		tests/netns/experiment.sh || rc=1; \
		tests/netns/deterlab.sh || rc=1; exit $$rc

STYLE_SRCS = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
style:
	$(quiet) STYLE clang-format
	$(Q)clang-format --dry-run -Werror $(STYLE_SRCS)

check: style test-unit test-bpf test-cli fuzz-smoke test-netns

test: check

bench: $(B)/bin/dard-bench $(B)/bin/dard-bench-sched $(B)/bin/dard-bench-maxmin \
		$(B)/bin/dard-bench-route $(B)/bin/dard-bench-dp daemon
	$(Q)$(B)/bin/dard-bench
	$(Q)$(B)/bin/dard-bench-sched
	$(Q)$(B)/bin/dard-bench-maxmin
	$(Q)$(B)/bin/dard-bench-route
	$(Q)DARD_SIM=$(B)/bin/dard-sim scripts/bench-sim
	$(Q)scripts/bench-testbed
	$(Q)$(B)/bin/dard-bench-dp
	$(Q)scripts/bench-datapath

# Installs what it needs first: the one command on a fresh machine.
demo:
	$(Q)scripts/install-deps
	$(Q)$(MAKE) -s daemon
	$(Q)scripts/demo

PREFIX ?= /usr/local
install: daemon
	install -D -m 0755 $(B)/bin/dardctl $(DESTDIR)$(PREFIX)/sbin/dardctl
	install -D -m 0755 $(B)/bin/dardd $(DESTDIR)$(PREFIX)/sbin/dardd
	install -D -m 0755 $(B)/bin/dard-switchd $(DESTDIR)$(PREFIX)/sbin/dard-switchd
	install -D -m 0755 scripts/testbed $(DESTDIR)$(PREFIX)/sbin/dard-testbed

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
