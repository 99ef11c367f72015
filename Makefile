# SPDX-License-Identifier: BSD-2-Clause
# Makefile - one non-recursive GNU Makefile for cpc-tools.
#
#   make            build everything (runs autoreconf and configure first
#                   when config.mk is missing)
#   make check      unit and end-to-end tests; ends "N passed, N failed"
#   make check-asan the same suite built with -fsanitize=address,undefined
#   make check-tsan the library's threaded unit tests built with
#                   -fsanitize=thread, each run TSAN_RUNS times (default 3)
#   make fuzz       build the libFuzzer targets with clang and run each for
#                   FUZZ_SECONDS (see the end)
#   make install    DESTDIR and prefix honoured
#   make uninstall / dist / deb   (mk/packaging.mk)
#   make clean / distclean
#
# Two libraries, each built twice (a static archive for the tools and the
# unit tests, a shared library with a version script for programs):
# libcpc (libcpc/) and libpctx (libcpc/pctx/), which uses nothing of
# libcpc.  libcpc.so.1 has libpctx.so.1 as NEEDED.  Their public headers,
# libcpc.h and libpctx.h, are in include/ and installed as they are.

B		?= build
# CONFIG: the directory of config.mk and config.h (a cross build keeps its
# own, out of tree: see the hardware tier at the end).
CONFIG		?= .
SAN		?=
TSAN		?=
NOCONF_GOALS	:= clean distclean check-hw clean-hw

ifeq ($(filter $(NOCONF_GOALS),$(MAKECMDGOALS)),)
include $(CONFIG)/config.mk
endif

WARN		= -Wall -Wextra -Wshadow -Wstrict-prototypes \
		  -Wmissing-prototypes -Wno-unused-parameter
# Each part sees only the headers it may use (INC is set per directory
# below): the compiler, not a grep, keeps the tools on libcpc's API.
#   PUBLIC_INC   the installed headers, and libcpc/toolapi/: what libcpc's
#                static archive gives the tools beyond them (the -c
#                grammar's parsed form, messages made safe), not
#                installed and not exported from libcpc.so.1
#   COMMON_INC   common/ and each of its parts (common/*/)
#   PRIVATE_INC  libcpc's own folders: libcpc and the unit tests only
PUBLIC_INC	= -Iinclude -Ilibcpc/toolapi
COMMON_INC	= -Icommon $(patsubst %/,-I%,$(sort $(dir $(wildcard \
		  common/*/*.h))))
PRIVATE_INC	= -Ilibcpc -Ilibcpc/events -Ilibcpc/backends \
		  -Ilibcpc/platform
INC		= $(PUBLIC_INC)
ALL_CFLAGS	= -std=gnu11 $(WARN) -I. $(INC) $(CPPFLAGS) $(CFLAGS) \
		  $(SANFLAGS)
ALL_LDFLAGS	= -Wl,--as-needed $(LDFLAGS) $(SANFLAGS)
ifneq ($(SAN),)
SANFLAGS	= -fsanitize=address,undefined -fno-omit-frame-pointer \
		  -fno-sanitize-recover=undefined
endif
# The ThreadSanitizer build (check-tsan): every data race is a failure.
ifneq ($(TSAN),)
SANFLAGS	= -fsanitize=thread -fno-omit-frame-pointer
endif
# The fuzzing build: everything instrumented for libFuzzer as well.
ifneq ($(FUZZ),)
SANFLAGS	= -fsanitize=fuzzer-no-link,address,undefined \
		  -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
ifneq ($(WERROR),)
ALL_CFLAGS	+= -Werror
endif

# libcpc in layers (libcpc/cpc_impl.h): the API objects, the event
# catalogue and the backends, the platform's facts.
LIBCPC_SRC	= libcpc/cpc.c libcpc/handle.c libcpc/set.c libcpc/buf.c \
		  libcpc/bind.c libcpc/ctx.c libcpc/sample.c libcpc/walk.c \
		  libcpc/names.c libcpc/smpl.c libcpc/lwpevents.c \
		  $(wildcard libcpc/events/*.c) $(wildcard libcpc/backends/*.c) \
		  $(wildcard libcpc/platform/*.c) libcpc/strtoset.c \
		  libcpc/v1_event.c libcpc/v1.c
LIBCPC_H	= $(wildcard include/*.h libcpc/*.h libcpc/*/*.h)
LIBPCTX_SRC	= libcpc/pctx/pctx.c libcpc/pctx/start.c libcpc/pctx/capture.c \
		  libcpc/pctx/loop.c libcpc/pctx/dispatch.c libcpc/pctx/lwp.c \
		  libcpc/pctx/procfs.c \
		  libcpc/pctx/msgsafe.c
# common/ in parts, one direction between them (tests/layers): cli/ ->
# smpl/ and metric/ -> out/ -> the bottom (the delta core, error
# handling); serve/, the exporter, beside the bottom (libc only).
COMMON_SRC	= $(CLI_SRC) $(SMPL_SRC) $(METRIC_SRC) $(OUT_SRC) $(SERVE_SRC) \
		  common/setgrp.c common/errh.c common/stdfds.c
CPUSTAT_SRC	= cpustat/cpustat.c cpustat/run.c cpustat/cputhread.c \
		  cpustat/printer.c cpustat/report.c \
		  cpustat/soak.c
CPUTRACK_SRC	= cputrack/cputrack.c cputrack/track.c cputrack/lines.c \
		  cputrack/lwpevents.c cputrack/procs.c cputrack/callbacks.c \
		  cputrack/command.c cputrack/lwpevlines.c
# The command line: options, hints for perf users, listings, CPU lists,
# --listen.
CLI_SRC		= common/cli/cli.c common/cli/usage.c common/cli/args.c \
		  common/cli/hints.c common/cli/listev.c common/cli/caps.c \
		  common/cli/cpulist.c common/cli/smplopt.c \
		  common/cli/listenopt.c common/cli/metopt.c
CPUSTAT_SRC	+= cpustat/cpus.c cpustat/nap.c cpustat/recs.c cpustat/cgroups.c
# Sampling (-S and its reports): the records, their names, the files.
SMPL_SRC	= common/smpl/smpl.c common/smpl/smplreq.c common/smpl/smplset.c \
		  common/smpl/symtab.c common/smpl/profile.c \
		  common/smpl/smplout.c common/smpl/smplcsv.c common/smpl/callg.c \
		  common/smpl/perfout.c
# Derived metrics (-M): their expressions, sets and rows.
METRIC_SRC	= common/metric/expr.c common/metric/metric.c \
		  common/metric/plan.c common/metric/mrow.c
# The output: one writer interface, a writer per format, their cells.
OUT_SRC		= common/out/format.c common/out/columns.c \
		  common/out/expo.c common/out/exporender.c \
		  common/out/text.c common/out/csv.c common/out/json.c \
		  common/out/openmetrics.c common/out/cells.c \
		  common/out/timefmt.c common/out/outfile.c
# The HTTP exporter of --listen: its thread, the socket, HTTP.
SERVE_SRC	= common/serve/serve.c common/serve/listen.c common/serve/http.c
UNIT_TESTS	= $(patsubst tests/unit/%.c,$(B)/tests/unit/%, \
		  $(filter-out tests/unit/tap.c,$(wildcard tests/unit/t_*.c)))
WORKLOADS	= $(patsubst tests/workloads/%.c,$(B)/tests/workloads/%, \
		  $(wildcard tests/workloads/*.c))
# The seed page's example programs, built as a Solaris user would.
SEED_PROGS	= $(patsubst tests/seed/%.c,$(B)/tests/seed/%, \
		  $(wildcard tests/seed/*.c))

LIBCPC_OBJ	= $(LIBCPC_SRC:%.c=$(B)/%.o)
LIBPCTX_OBJ	= $(LIBPCTX_SRC:%.c=$(B)/%.o)
COMMON_OBJ	= $(COMMON_SRC:%.c=$(B)/%.o)
CPUSTAT_OBJ	= $(CPUSTAT_SRC:%.c=$(B)/%.o)
CPUTRACK_OBJ	= $(CPUTRACK_SRC:%.c=$(B)/%.o)

LIBCPC_A	= $(B)/libcpc/libcpc.a
LIBCPC_SO	= $(B)/libcpc/libcpc.so.1
# libpctx's archive and shared library sit beside libcpc's: one -L, one
# rpath or LD_LIBRARY_PATH finds both.
LIBPCTX_A	= $(B)/libcpc/libpctx.a
LIBPCTX_SO	= $(B)/libcpc/libpctx.so.1
PCFILES		= $(B)/libcpc/libcpc.pc $(B)/libcpc/libpctx.pc
COMMON_A	= $(B)/common/libcommon.a
CPUSTAT		= $(B)/cpustat/cpustat
CPUTRACK	= $(B)/cputrack/cputrack
# libpfm4 and libtracefs are not linked: libcpc/platform/lazy.c loads
# them when a name needs them (their headers are still needed).
LIBS		= -ldl -lpthread
# The JSON Schema of --format=json (share/), and cpcplot beside the tools.
pkgdatadir	= $(datarootdir)/cpc-tools
# The tools (and what links common/) also need libdw for the profiles.
TOOL_LIBS	= $(LIBS) $(DW_LIBS)

.PHONY: all check check-asan check-tsan check-unit check-bats install install-man clean \
	distclean FORCE

all: $(CPUSTAT) $(CPUTRACK) $(LIBCPC_SO) $(LIBPCTX_SO) $(PCFILES)

config.mk: configure config.mk.in
	./configure $(CONFIGURE_FLAGS)

configure: configure.ac
	autoreconf -i

config.h: config.mk

# The tools and every part of common/ (any object under these folders,
# whatever its subfolder): the public headers and common's own, never
# libcpc's private folders.
$(B)/common/%.o $(B)/cpustat/%.o $(B)/cputrack/%.o: INC = $(PUBLIC_INC) \
    $(COMMON_INC)

$(B)/%.o: %.c $(CONFIG)/config.h $(LIBCPC_H) $(wildcard common/*.h \
    common/*/*.h cpustat/*.h cputrack/*.h)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TRACE_CFLAGS) $(DW_CFLAGS) -c -o $@ $<

# libcpc is position independent and hides everything it does not export.
$(B)/libcpc/%.o: INC = $(PUBLIC_INC) $(PRIVATE_INC)
$(B)/libcpc/%.o: libcpc/%.c $(CONFIG)/config.h $(LIBCPC_H)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(TRACE_CFLAGS) -fPIC \
	    -fvisibility=hidden -c -o $@ $<

# libpctx the same way, and without libcpc's private folders: it must
# not depend on libcpc (its own private header is beside its sources).
$(B)/libcpc/pctx/%.o: INC = $(PUBLIC_INC)
$(B)/libcpc/pctx/%.o: libcpc/pctx/%.c $(CONFIG)/config.h \
    $(wildcard include/*.h libcpc/pctx/*.h)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<
# libcpc's message escaping, compiled into libpctx under its own names.
$(B)/libcpc/pctx/msgsafe.o: libcpc/platform/msgsafe.c \
    libcpc/toolapi/msgsafe.h

$(LIBCPC_A): $(LIBCPC_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# libpctx.so.1 is NEEDED even though libcpc calls none of it (hence
# --no-as-needed): cpc_bind_pctx takes a pctx_t, and programs linked when
# libcpc.so.1 exported pctx_* find them, under the same versions, in it.
# The two are always side by side (here and installed): the RUNPATH
# $ORIGIN finds libpctx.so.1 for a program that found libcpc.so.1 by its
# own RUNPATH, which the loader does not apply to libcpc's dependencies.
$(LIBCPC_SO): $(LIBCPC_OBJ) libcpc/libcpc.map $(LIBPCTX_SO)
	$(CC) -shared -Wl,-soname,libcpc.so.1 \
	    -Wl,--version-script=libcpc/libcpc.map -Wl,-rpath,'$$ORIGIN' \
	    $(ALL_LDFLAGS) -o $@ $(LIBCPC_OBJ) \
	    -Wl,--no-as-needed $(LIBPCTX_SO) -Wl,--as-needed $(LIBS)

$(LIBPCTX_A): $(LIBPCTX_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(LIBPCTX_SO): $(LIBPCTX_OBJ) libcpc/pctx/libpctx.map
	$(CC) -shared -Wl,-soname,libpctx.so.1 \
	    -Wl,--version-script=libcpc/pctx/libpctx.map $(ALL_LDFLAGS) \
	    -o $@ $(LIBPCTX_OBJ)

# The .pc files name the install directories: pc.vars changes (and they
# are made again) whenever those differ from the last build's, as for
# `make install prefix=/usr` after a plain `make`.
PCVARS		= $(prefix)|$(libdir)|$(includedir)|$(VERSION)
$(B)/libcpc/pc.vars: FORCE
	@mkdir -p $(@D)
	@echo '$(PCVARS)' | cmp -s - $@ || echo '$(PCVARS)' > $@

$(B)/libcpc/libcpc.pc: libcpc/libcpc.pc.in
$(B)/libcpc/libpctx.pc: libcpc/pctx/libpctx.pc.in
$(PCFILES): $(B)/libcpc/pc.vars config.mk
	sed -e 's|@prefix@|$(prefix)|' -e 's|@libdir@|$(libdir)|' \
	    -e 's|@includedir@|$(includedir)|' -e 's|@VERSION@|$(VERSION)|' \
	    $(filter %.pc.in,$^) > $@

FORCE:

$(COMMON_A): $(COMMON_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# libcpc.a's cpc_bind_pctx asks libpctx whether a thread is controlled.
$(CPUSTAT): $(CPUSTAT_OBJ) $(COMMON_A) $(LIBCPC_A) $(LIBPCTX_A)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CPUSTAT_OBJ) $(COMMON_A) $(LIBCPC_A) \
	    $(LIBPCTX_A) $(TOOL_LIBS)

$(CPUTRACK): $(CPUTRACK_OBJ) $(COMMON_A) $(LIBCPC_A) $(LIBPCTX_A)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CPUTRACK_OBJ) $(COMMON_A) $(LIBCPC_A) \
	    $(LIBPCTX_A) $(TOOL_LIBS)

# The unit tests reach inside the parts they test: every folder.
$(B)/tests/unit/% $(B)/tests/fuzz/%: private INC = $(PUBLIC_INC) \
    $(COMMON_INC) $(PRIVATE_INC)
$(B)/tests/unit/%: tests/unit/%.c tests/unit/tap.c $(wildcard tests/unit/*.h) \
    $(COMMON_A) $(LIBCPC_A) $(LIBPCTX_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests/unit $(ALL_LDFLAGS) -o $@ \
	    $< tests/unit/tap.c $(COMMON_A) $(LIBCPC_A) $(LIBPCTX_A) \
	    $(TOOL_LIBS)

# Workloads are the oracle, not code under test: never sanitized (ASan
# faults in shadow memory and would change their exact counts).
$(B)/tests/workloads/%: tests/workloads/%.c tests/workloads/wl.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O1 $(WARN) $(WL_CFLAGS) -o $@ $< -lpthread

# The profile's oracle keeps its frame pointers: call chains walk them.
$(B)/tests/workloads/split_work: WL_CFLAGS = -fno-omit-frame-pointer \
				      -mno-omit-leaf-frame-pointer
$(B)/tests/workloads/callgraph: WL_CFLAGS = -fno-omit-frame-pointer \
				     -mno-omit-leaf-frame-pointer -fno-inline \
				     -fno-optimize-sibling-calls

# Only include/ and the libraries: what an installed libcpc gives (the
# flags are the house warnings, less -Wshadow and the prototype checks,
# which K&R-era examples do not meet).
$(B)/tests/seed/%: tests/seed/%.c tests/seed/supplied.h $(LIBCPC_A) \
    $(LIBPCTX_A)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -Wall -Wextra -Wno-unused-parameter $(SANFLAGS) \
	    -Iinclude $(ALL_LDFLAGS) -o $@ $< $(LIBCPC_A) \
	    $(LIBPCTX_A) $(LIBS)

# The msr simulator (tests/msrsim): a test tool like the workloads, never
# sanitized; built only where libfuse3 is (msr.bats skips without it).
FUSE_CFLAGS	:= $(shell pkg-config --cflags fuse3 2>/dev/null)
FUSE_LIBS	:= $(shell pkg-config --libs fuse3 2>/dev/null)
MSRSIM		= $(if $(FUSE_LIBS),$(B)/tests/msrsim/msrsim)

$(B)/tests/msrsim/msrsim: tests/msrsim/msrsim.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O1 $(WARN) $(FUSE_CFLAGS) -o $@ $< $(FUSE_LIBS)

check: all $(UNIT_TESTS) $(WORKLOADS) $(SEED_PROGS) $(MSRSIM)
	@B=$(B) LAYER_OBJS="$(patsubst $(B)/%,%,$(LIBCPC_OBJ) $(LIBPCTX_OBJ) \
	    $(COMMON_OBJ) $(CPUSTAT_OBJ) $(CPUTRACK_OBJ))" \
	    TOOL_INC="$(PUBLIC_INC) $(COMMON_INC)" tests/run

check-asan:
	$(MAKE) B=build-asan SAN=1 check

# The unit tests that use libcpc from several threads at once, under
# ThreadSanitizer: a report (a race, a lock taken in two orders) fails
# the run.  (Not t_lwpset: its libpctx part, a traced child forked from
# a threaded process, hangs in ThreadSanitizer's runtime.)  t_serve: the
# exporter's thread, its clients and a publisher.  tests/tsan runs each
# TSAN_RUNS times and ends like tests/run.
TSAN_TESTS	= t_mtctx t_rebind t_serve
TSAN_RUNS	?= 3
check-tsan:
	$(MAKE) B=build-tsan TSAN=1 \
	    $(TSAN_TESTS:%=build-tsan/tests/unit/%)
	TSAN_RUNS=$(TSAN_RUNS) tests/tsan $(TSAN_TESTS:%=build-tsan/tests/unit/%)

install: all
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(libdir)/pkgconfig \
	    $(DESTDIR)$(includedir) $(DESTDIR)$(mandir)/man1 \
	    $(DESTDIR)$(mandir)/man3
	install -m 755 $(CPUSTAT) $(DESTDIR)$(bindir)/cpustat
	install -m 755 $(CPUTRACK) $(DESTDIR)$(bindir)/cputrack
	install -m 755 cpcplot/cpcplot $(DESTDIR)$(bindir)/cpcplot
	install -d $(DESTDIR)$(pkgdatadir)
	install -m 644 share/output.schema.json \
	    $(DESTDIR)$(pkgdatadir)/output.schema.json
	@# cpcplot --flame's module and page script, which cpcplot finds
	@# from where it is (bin/../share/cpc-tools).
	install -m 644 cpcplot/cpcflame.py $(DESTDIR)$(pkgdatadir)/cpcflame.py
	install -m 644 cpcplot/cpcflame.js $(DESTDIR)$(pkgdatadir)/cpcflame.js
	install -m 755 $(LIBCPC_SO) $(DESTDIR)$(libdir)/libcpc.so.1
	ln -sf libcpc.so.1 $(DESTDIR)$(libdir)/libcpc.so
	install -m 755 $(LIBPCTX_SO) $(DESTDIR)$(libdir)/libpctx.so.1
	ln -sf libpctx.so.1 $(DESTDIR)$(libdir)/libpctx.so
	@# include/ holds the public headers and nothing else: all of it.
	install -m 644 $(wildcard include/*.h) $(DESTDIR)$(includedir)
	install -m 644 $(PCFILES) $(DESTDIR)$(libdir)/pkgconfig
	$(MAKE) install-man

# The manual pages alone (manpages.bats checks what this installs).
install-man:
	install -d $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(mandir)/man3
	install -m 644 man1/cpustat.1 $(DESTDIR)$(mandir)/man1/cpustat.1
	install -m 644 man1/cputrack.1 $(DESTDIR)$(mandir)/man1/cputrack.1
	install -m 644 man1/cpcplot.1 $(DESTDIR)$(mandir)/man1/cpcplot.1
	install -m 644 $(wildcard man3/*.3) $(DESTDIR)$(mandir)/man3
	@# Each function a page names has a link page, so that man finds it
	@# (man cpc_close shows cpc_open(3)) without a database.
	@for f in $(wildcard man3/*.3); do \
		for n in $$(sed -n 's/^\.Nm \([a-z_0-9]*\).*/\1/p' $$f); do \
			[ -e man3/$$n.3 ] || \
			    echo ".so man3/$${f#man3/}" \
			    >$(DESTDIR)$(mandir)/man3/$$n.3; \
		done; \
	done

# The sbin link and the completion that install adds, uninstall, dist, deb.
include mk/packaging.mk

clean:
	rm -rf build build-asan build-tsan build-fuzz

distclean: clean
	rm -rf config.mk config.h config.h.in config.h.in~ config.log \
	    config.status configure autom4te.cache aclocal.m4 \
	    config.guess config.sub install-sh compile missing

# ---------------------------------------------------------------------------
# Fuzzing: libFuzzer targets (tests/fuzz/fuzz_*.c) for the -c grammar and
# cpc_set_add_request, built with clang and ASan/UBSan in $(FUZZ_B).
# tests/fuzz/run runs each for FUZZ_SECONDS from its seed corpus
# (tests/fuzz/corpus/TARGET, never written to) and fails on any finding
# (crash, leak, undefined behaviour, an input slower than 10 s), which it
# leaves in $(FUZZ_B)/findings.
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_CC=clang]

FUZZ_B		?= build-fuzz
FUZZ_CC		?= clang
FUZZ_SECONDS	?= 60
FUZZ_TARGETS	= $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: fuzz fuzz-build

fuzz:
	$(MAKE) B=$(FUZZ_B) CC=$(FUZZ_CC) FUZZ=1 fuzz-build
	tests/fuzz/run $(FUZZ_B) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-build: $(FUZZ_TARGETS:%=$(B)/tests/fuzz/%)

$(B)/tests/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(COMMON_A) $(LIBCPC_A) \
    $(LIBPCTX_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -fsanitize=fuzzer \
	    -o $@ $< $(COMMON_A) $(LIBCPC_A) $(LIBPCTX_A) $(TOOL_LIBS)

# ---------------------------------------------------------------------------
# Hardware tier: a real PMU (QEMU's emulated ARMv8 PMUv3) in an aarch64
# guest.  tests/hw/run checks the tools, cross-builds with
#   $(MAKE) CONFIG=$(HW_B) B=$(HW_B) hw-guest
# (configure --host=$(HW_HOST) out of tree, in $(HW_B), so the native
# config.mk and config.h are never touched), fetches the guest's kernel and
# busybox from Debian, boots the guest and exits with the guest's verdict.
#
#   make check-hw   run the hardware suite in QEMU (skips with a reason
#                   when QEMU or the cross tools are missing, unless CI=true)
#   make clean-hw   remove the cross build (the download cache stays)

HW_HOST		?= aarch64-linux-gnu
HW_B		?= build-aarch64
HW_PROGS	= $(B)/tests/hw/insnloop $(B)/tests/hw/spinloop \
		  $(B)/tests/unit/t_ovf $(B)/tests/unit/t_userread \
		  $(B)/bench/summary-setsample

.PHONY: check-hw clean-hw hw-guest

# The cross build's config.h must win over the tree's native one.
ifneq ($(CONFIG),.)
ALL_CFLAGS	+= -iquote $(CONFIG)
endif

$(HW_B)/config.mk: configure config.mk.in
	@mkdir -p $(@D)
	cd $(@D) && $(CURDIR)/configure --host=$(HW_HOST) $(HW_CONFIGURE_FLAGS)

$(HW_B)/config.h: $(HW_B)/config.mk

# Everything the guest runs; made with CONFIG=$(HW_B) B=$(HW_B).
hw-guest: $(CPUSTAT) $(CPUTRACK) $(WORKLOADS) $(HW_PROGS)

# The instruction-count oracle and the spinner: no libc, no loader, every
# instruction known.
$(B)/tests/hw/%: tests/hw/guest/%.S
	@mkdir -p $(@D)
	$(CC) -nostdlib -static -Wl,--build-id=none -o $@ $<

# cpc_set_sample's cost in the guest, where the user-space read runs.
$(B)/bench/summary-setsample: bench/summary-setsample.c $(LIBCPC_A) \
    $(LIBPCTX_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBCPC_A) \
	    $(LIBPCTX_A) $(LIBS)

check-hw:
	@HW_HOST=$(HW_HOST) HW_B=$(HW_B) tests/hw/run

clean-hw:
	rm -rf $(HW_B)
