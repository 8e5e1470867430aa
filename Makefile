# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim: one entry point. `make help` lists the targets.
#
# Builds in the tree, or out of it with O=DIR: the .config, the generated
# headers and every object then live under DIR. SANITIZE=address,undefined
# (or thread) builds with those sanitizers.

srctree := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
ifeq ($(O),)
objtree := $(srctree)
else
objtree := $(abspath $(O))
endif
export srctree

# As in Kbuild, a user's O= build refuses a source tree that holds a
# configuration (an in-tree build's .config or generated headers): the
# user meant one of the two. The project's own O= builds (make test's,
# check, bench, ab, ksrc-check, mutants, fuzz, seeds) do not: the include
# order alone keeps them apart. The object tree's include/ comes first on
# every compile line, its generated headers (autoconf.h, ksrc.h) are made
# before any object, and every rule names its source by $(srctree)/ and its
# object by $(objtree)/ (no VPATH), so nothing of an in-tree build is ever
# read. Recipes run with PMUSIM_OWN_BUILD=1 in their environment, so the
# scripts they start and the makes those start inherit it.
ifneq ($(objtree),$(srctree))
ifneq ($(wildcard $(srctree)/.config $(srctree)/include/generated),)
ifneq ($(PMUSIM_OWN_BUILD),1)
ifneq ($(filter-out clean mrproper help,$(or $(MAKECMDGOALS),all)),)
$(error the source tree $(srctree) holds a configuration (.config or include/generated), which an O= build would mix with its own: run 'make mrproper' there first)
endif
endif
endif
endif
export PMUSIM_OWN_BUILD := 1

CC ?= cc
ifeq ($(origin CC),default)
CC := gcc
endif
CFLAGS ?= -O2 -g
# the object tree's include/generated first: its own configuration
PMUSIM_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -Wno-missing-field-initializers \
	-I$(objtree)/include -I$(srctree) -I$(srctree)/include -MMD -MP
# The kernel is built without SSE, so its scalars never share a vector
# register. GCC 12's -O2 SLP vectoriser packed the output handle's event
# and rb into one, for the stores of the rare paths' handle copies: the
# record path then packed, spilled and unpacked them around its memcpy
# (core/ring_buffer.h). Without it, and with a handle per record in
# bench_ringbuf, 800-byte records in overwrite mode went from 1.56-1.60x
# to 1.41-1.43x memcpy.
PMUSIM_CFLAGS += -fno-tree-slp-vectorize
LDLIBS_TEST := -lcmocka
LDLIBS := -lcyaml -lyaml -lelf -liberty -lnettle -lz -lm -lpthread
ifneq ($(SANITIZE),)
PMUSIM_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS += -fsanitize=$(SANITIZE)
ifneq ($(findstring thread,$(SANITIZE)),)
# TSan ignores fences; core/kernel.h gives it acquire/release instead.
PMUSIM_CFLAGS += -Wno-tsan
endif
endif
ifneq ($(COVERAGE),)
# -O0 after CFLAGS' -O2: optimised code has branches gcov counts twice or
# never (inlined copies, merged conditions), so the figures would lie.
PMUSIM_CFLAGS += --coverage -DPMUSIM_COVERAGE
override CFLAGS += -O0
LDFLAGS += --coverage
endif

KCONFIG_CONFIG := $(objtree)/.config
AUTOCONF := $(objtree)/include/generated/autoconf.h
KCONF_ENV := srctree=$(srctree) KCONFIG_CONFIG=$(KCONFIG_CONFIG) \
	KCONFIG_AUTOHEADER=$(AUTOCONF) \
	KCONFIG_AUTOCONFIG=$(objtree)/include/config/auto.conf
KCONF_DIRS := mkdir -p $(objtree)/include/generated $(objtree)/include/config && cd $(objtree)

# ---- sources ---------------------------------------------------------------
# core/ and model/: the kernel and the hardware; sim/: the simulated world;
# tools/: the perf tool side (tools/lib/perf, tools/perf: the record
# session, tools/perf/util); replay/: ring-buffer replay backends; seeds/:
# the RFC seeds' experiments; cmd/: the pmusim command, whose main()
# (cmd/pmusim.c) stays out of the library.
SRC_DIRS := core core/x86 model sim tools/lib/perf tools/perf tools/perf/util replay seeds cmd
LIB_SRCS := $(sort $(filter-out $(srctree)/cmd/pmusim.c, \
	$(wildcard $(foreach d,$(SRC_DIRS),$(srctree)/$(d)/*.c))))
LIB_OBJS := $(patsubst $(srctree)/%.c,$(objtree)/%.o,$(LIB_SRCS))
LIB := $(objtree)/libpmusim.a
PMUSIM := $(objtree)/pmusim

# tests/lib/ is support code, whatever its files are called
TEST_MAINS := $(filter-out $(srctree)/tests/lib/%,$(sort $(wildcard $(srctree)/tests/*/test_*.c \
	$(srctree)/tests/*/*/test_*.c $(srctree)/tests/*/*/*/test_*.c $(srctree)/tests/*/*/*/*/test_*.c)))
TEST_BINS := $(patsubst $(srctree)/%.c,$(objtree)/%,$(TEST_MAINS))
# tests/DIR/test_NAME.c links with its helpers tests/DIR/NAME_*.c and with
# the shared test support in tests/lib/ (a test PMU, trace printers, ...).
test_helpers = $(wildcard $(dir $(1))$(patsubst test_%,%,$(notdir $(basename $(1))))_*.c)
TESTLIB_SRCS := $(sort $(wildcard $(srctree)/tests/lib/*.c))
TESTLIB_OBJS := $(patsubst $(srctree)/%.c,$(objtree)/%.o,$(TESTLIB_SRCS))

DEPS := $(LIB_OBJS:.o=.d) $(TESTLIB_OBJS:.o=.d) $(addsuffix .d,$(TEST_BINS)) $(objtree)/cmd/pmusim.d

.PHONY: all lib
all: $(PMUSIM) $(TEST_BINS)
lib: $(LIB)

# ---- configuration ---------------------------------------------------------
$(KCONFIG_CONFIG):
	@echo "  CONFIG  no .config: using defconfig"
	@$(KCONF_DIRS) && $(KCONF_ENV) kconfig-conf --defconfig=$(srctree)/kconfig/configs/defconfig $(srctree)/Kconfig >/dev/null

$(AUTOCONF): $(KCONFIG_CONFIG) $(wildcard $(srctree)/Kconfig $(srctree)/kconfig/Kconfig.*)
	@# a Kconfig change since .config was made: new symbols take their defaults
	@$(KCONF_DIRS) && $(KCONF_ENV) kconfig-conf --olddefconfig $(srctree)/Kconfig >/dev/null
	@$(KCONF_DIRS) && $(KCONF_ENV) kconfig-conf --silentoldconfig $(srctree)/Kconfig </dev/null
	@touch $@

.PHONY: defconfig allnoconfig allyesconfig randconfig olddefconfig oldconfig menuconfig savedefconfig %_defconfig
defconfig:
	@$(KCONF_DIRS) && $(KCONF_ENV) kconfig-conf --defconfig=$(srctree)/kconfig/configs/defconfig $(srctree)/Kconfig
%_defconfig:
	@$(KCONF_DIRS) && $(KCONF_ENV) kconfig-conf --defconfig=$(srctree)/kconfig/configs/$@ $(srctree)/Kconfig
allnoconfig allyesconfig randconfig olddefconfig oldconfig:
	@$(KCONF_DIRS) && $(KCONF_ENV) kconfig-conf --$@ $(srctree)/Kconfig
menuconfig:
	@$(KCONF_DIRS) && $(KCONF_ENV) kconfig-mconf $(srctree)/Kconfig
savedefconfig:
	@$(KCONF_DIRS) && $(KCONF_ENV) kconfig-conf --savedefconfig=$(objtree)/defconfig $(srctree)/Kconfig

# ---- build -----------------------------------------------------------------
$(objtree)/%.o: $(srctree)/%.c $(AUTOCONF)
	@mkdir -p $(dir $@)
	@echo "  CC      $*.o"
	@$(CC) $(PMUSIM_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@echo "  AR      libpmusim.a"
	@rm -f $@ && ar rcs $@ $^

# pmusim itself is linked statically unless a sanitizer or coverage is on
# (their runtimes need the dynamic loader) or STATIC=0: a short command
# such as `pmusim stitch` spent a third of its start-up in the loader,
# mapping and relocating libcyaml, libyaml, libm and libc.
STATIC ?= 1
ifeq ($(STATIC)$(SANITIZE)$(COVERAGE),1)
PMUSIM_LDFLAGS := -static
endif

$(PMUSIM): $(objtree)/cmd/pmusim.o $(LIB)
	@echo "  LD      pmusim"
	@$(CC) $(LDFLAGS) $(PMUSIM_LDFLAGS) -o $@ $^ $(LDLIBS)

.SECONDEXPANSION:
$(TEST_BINS): $(objtree)/%: $(srctree)/%.c $$(call test_helpers,$(srctree)/$$*.c) $(TESTLIB_OBJS) $(LIB) $(AUTOCONF)
	@mkdir -p $(dir $@)
	@echo "  CC      $*"
	@$(CC) $(PMUSIM_CFLAGS) $(CFLAGS) -MF $@.d -o $@ $(filter %.c,$^) $(TESTLIB_OBJS) $(LIB) $(LDFLAGS) $(LDLIBS_TEST) $(LDLIBS)

-include $(DEPS)

# ---- tests -----------------------------------------------------------------
# `make test` runs this build's tests; `make check` runs the whole matrix
# (defconfig, allnoconfig, fixed randconfig seeds) under ASan+UBSan.
.PHONY: test check
test: all
	@$(srctree)/scripts/run-tests.sh $(objtree)

CHECK_SEEDS ?= 0x1 0x2a 0x1234
check:
	@$(srctree)/scripts/install-deps.sh check
	@$(srctree)/scripts/check.sh $(CHECK_SEEDS)

# ---- hwcheck ---------------------------------------------------------------
# `make hwcheck`: the model against the host's real PMU (LBR call stacks of
# a deep chain, ring-buffer replay on the kernel). Not part of `check`:
# without a hardware PMU every check is a SKIP line and it exits 0.
HW_BINS := $(objtree)/tests/hw/tchain_native
DEPS += $(addsuffix .d,$(HW_BINS))

# frame pointers and no sibling calls: every chain level is a real CALL
$(HW_BINS): $(objtree)/%: $(srctree)/%.c $(LIB) $(AUTOCONF)
	@mkdir -p $(dir $@)
	@echo "  CC      $*"
	@$(CC) $(PMUSIM_CFLAGS) $(CFLAGS) -fno-omit-frame-pointer -fno-optimize-sibling-calls \
		-MF $@.d -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

.PHONY: hwcheck
hwcheck: $(PMUSIM) $(HW_BINS)
	@$(srctree)/scripts/hwcheck.sh $(objtree)

# ---- stress and coverage --------------------------------------------------
# `make stress`: the real-thread ring-buffer test (tests/stress/) for
# STRESS_SECONDS in a plain -O2 build (build/stress), then under
# ThreadSanitizer (build/check-tsan). `make coverage`: gcov build, tests,
# fuzz corpora, lcov report in out/coverage/ (scripts/coverage.sh).
STRESS_SECONDS ?= 60
.PHONY: stress coverage
stress:
	@[ -f $(srctree)/build/stress/.config ] || $(MAKE) --no-print-directory -f $(srctree)/Makefile O=$(srctree)/build/stress defconfig >/dev/null
	@$(MAKE) --no-print-directory -f $(srctree)/Makefile O=$(srctree)/build/stress -j2 $(srctree)/build/stress/tests/stress/test_ringbuf_threads
	@cd $(srctree)/build/stress && STRESS_SECONDS=$(STRESS_SECONDS) CMOCKA_MESSAGE_OUTPUT=TAP ./tests/stress/test_ringbuf_threads
	@TSAN_STRESS_SECONDS=$(STRESS_SECONDS) bash $(srctree)/scripts/check.d/tsan-stress.sh
coverage:
	@$(srctree)/scripts/install-deps.sh coverage
	@$(srctree)/scripts/coverage.sh

# ---- bench -----------------------------------------------------------------
# `make bench` builds bench_defconfig (no test hooks) out of tree in
# build/bench, runs every bench/bench_*.c program and scripts/bench.d/*.sh
# and *.py, prints the table and writes out/bench.json. The other
# bench/*.c programs are baselines and helpers the scripts run;
# sqlite_workload.c is built by scripts/bench.d/bolt.py against SQLite's
# downloaded amalgamation.
BENCH_SRCS := $(sort $(filter-out %/sqlite_workload.c,$(wildcard $(srctree)/bench/*.c)))
BENCH_BINS := $(patsubst $(srctree)/%.c,$(objtree)/%,$(BENCH_SRCS))
# Every function and loop of a bench program starts a cache line: where a
# loop falls against the fetch blocks moved the 40-byte memcpy baseline
# from 3.3 to 3.8 ns (0x...800 against 0x...830, the same code), so an
# edit elsewhere in the file moved the figure.
BENCH_CFLAGS := -falign-functions=64 -falign-loops=64
DEPS += $(addsuffix .d,$(BENCH_BINS))

$(BENCH_BINS): $(objtree)/%: $(srctree)/%.c $(LIB) $(AUTOCONF)
	@mkdir -p $(dir $@)
	@echo "  CC      $*"
	@$(CC) $(PMUSIM_CFLAGS) $(CFLAGS) $(BENCH_CFLAGS) -MF $@.d -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

.PHONY: bench bench-build
bench-build: $(BENCH_BINS) $(PMUSIM) vgtool
bench:
	@$(srctree)/scripts/install-deps.sh bench
	@[ -f $(srctree)/build/bench/.config ] || $(MAKE) --no-print-directory -f $(srctree)/Makefile O=$(srctree)/build/bench bench_defconfig >/dev/null
	@$(MAKE) --no-print-directory -f $(srctree)/Makefile O=$(srctree)/build/bench -j2 bench-build
	@$(srctree)/scripts/bench.sh $(srctree)/build/bench $(srctree)/out/bench.json

# ---- ab --------------------------------------------------------------------
# `make ab BASE=REV`: the working tree against REV, on behaviour (scenarios,
# ring-buffer replay scripts, fuzz corpora) and on instruction counts
# (callgrind: per record, per PMI, per branch), both built with this
# build's .config (defconfig without one). Exit 0 when nothing differs and
# no cost grew by more than AB_MAX_COST (default 1%). scripts/ab.sh.
AB_MAX_COST ?= 1%
.PHONY: ab
ab:
	@[ -n "$(BASE)" ] || { echo "make ab: BASE=REV is required" >&2; exit 2; }
	@$(srctree)/scripts/install-deps.sh ab
	@$(if $(KSRC_AB),KSRC="$(KSRC)" AB_MAX_COST=$(AB_MAX_COST) AB_CONFIG=$(wildcard $(KCONFIG_CONFIG)) $(srctree)/scripts/ksrc-ab.sh $(BASE),AB_MAX_COST=$(AB_MAX_COST) AB_CONFIG=$(wildcard $(KCONFIG_CONFIG)) $(srctree)/scripts/ab.sh $(BASE))

# ---- run -------------------------------------------------------------------
# `make pmusim`: the command alone, rebuilt as the .config changes.
# `make run`: the default scenario into out/perf.data of the build
# directory (O=DIR/out, never the source tree when building out of it),
# with the Valgrind tool built too, so that `pmusim record` works next.
.PHONY: run pmusim
pmusim: $(PMUSIM)
run:
	@$(srctree)/scripts/install-deps.sh run
	@$(MAKE) --no-print-directory -f $(srctree)/Makefile O=$(objtree) $(PMUSIM) vgtool
	@mkdir -p $(objtree)/out
	$(PMUSIM) run $(srctree)/scenarios/default.yaml -o $(objtree)/out/perf.data

# `make seeds`: each seed's result on its scenario (scenarios/seed-*.yaml),
# as tables; builds build/seeds-noctx too, for the per-task LBR data seed.
.PHONY: seeds
seeds:
	@$(srctree)/scripts/install-deps.sh run
	@$(MAKE) --no-print-directory -f $(srctree)/Makefile O=$(objtree) $(PMUSIM)
	@$(srctree)/scripts/seeds.sh $(objtree)

include $(srctree)/fuzz/Makefile.fuzz
include $(srctree)/ksrc/Makefile.ksrc
include $(srctree)/vgtool/Makefile.vgtool

# ---- install ---------------------------------------------------------------
PREFIX ?= /usr/local
.PHONY: install
install: $(PMUSIM) install-vgtool
	install -D -m 755 $(PMUSIM) $(DESTDIR)$(PREFIX)/bin/pmusim
	install -D -m 644 $(srctree)/Documentation/pmusim.1 $(DESTDIR)$(PREFIX)/share/man/man1/pmusim.1

# ---- clean -----------------------------------------------------------------
.PHONY: clean mrproper
clean:
	@for d in core model sim tools replay seeds cmd vgtool tests fuzz; do \
		[ -d $(objtree)/$$d ] && find $(objtree)/$$d \( -name '*.o' -o -name '*.d' -o -name '*.gcda' -o -name '*.gcno' \) -delete; \
	done; rm -f $(LIB) $(PMUSIM) $(TEST_BINS) $(HW_BINS); rm -rf $(srctree)/build $(objtree)/vgtool/lib
mrproper: clean
	@rm -rf $(objtree)/.config $(objtree)/.config.old $(objtree)/include/generated $(objtree)/include/config

.PHONY: help
help:
	@echo "Configuration: defconfig v6.12_defconfig allnoconfig allyesconfig randconfig olddefconfig menuconfig savedefconfig"
	@echo "Build:         all (default: pmusim, its Valgrind tool, the tests), pmusim, vgtool, O=DIR for out of tree,"
	@echo "               SANITIZE=address,undefined|thread"
	@echo "Test:          check (full matrix, ASan+UBSan), test (this build), hwcheck (against the host PMU),"
	@echo "               stress [STRESS_SECONDS=60], coverage"
	@echo "Fuzz:          fuzz FUZZER=NAME [TIME=s] [JOBS=n], fuzz-all, fuzz-replay, mutants"
	@echo "Use:           run (default scenario to out/perf.data, under O=DIR if given), seeds (the seeds' results), install PREFIX=... [DESTDIR=...]"
	@echo "               (bin/pmusim, libexec/pmusim/ (the Valgrind tool) and share/man/man1/pmusim.1)"
	@echo "Measure:       bench (table, out/bench.json), ab BASE=REV [AB_MAX_COST=1%] (behaviour and callgrind cost against REV)"
	@echo "Kernel files:  KSRC=DIR (default linux-source-6.12), ksrc-check [KSRC=DIR], ab KSRC=DIR BASE=REV (ksrc/README.md)"
	@echo "Clean:         clean, mrproper"
