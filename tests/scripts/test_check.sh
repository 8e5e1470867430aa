#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/check.sh's bookkeeping, on a fake source tree under /tmp whose
# Makefile "builds" in no time and whose runner reports a fixed count:
#   a tree under /tmp stays visible to the tests in their private /tmp
#   a configuration whose test runner does not start counts as failed,
#     with and without mount namespaces
#   a build whose pmusim features are not its .config's fails
#   a source tree holding a configuration (make run first) is checked as a clean one
#   every step prints its time; the extra checks (check.d/) run two at a
#     time and are reported and counted in order; with private /tmps they
#     start once the first configuration is built
#   the first configuration runs every test, the others only those they
#     can change (run-tests.sh with REFERENCE: a changed test program, a
#     shell test naming a CONFIG_ symbol whose value differs, or $LABEL,
#     and not one that says it is configuration-independent);
#     run-tests.sh times each test
# and scripts/check-build-config.sh on this build's real pmusim and .config.
#
# config-independent: its CONFIG_ symbols and $LABEL belong to its fake trees; check.sh holds each configuration's own pmusim to its .config
set -u
src=${PMUSIM_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
obj=${PMUSIM_OBJTREE:-$src}
. "$src/tests/lib/tap_lib.sh"
# run by make test: the outer make's command line (O=..., exported to
# us as well) must not reach ours: mrproper would clean that build
unset MAKEFLAGS MFLAGS MAKELEVEL O SANITIZE COVERAGE
unset TALLY LABEL REFERENCE
# nor the mark of the project's own builds: check.sh must set it itself
unset PMUSIM_OWN_BUILD

# ---- check-build-config.sh on the real build ---------------------------------
out=$("$src/scripts/check-build-config.sh" "$obj" 2>&1); rc=$?
check "this build's pmusim version matches its .config (exit $rc) $out" '[ $rc = 0 ]'
# the same binary against a .config with one feature flipped
mkdir -p "$dir/flipped"
ln -s "$obj/pmusim" "$dir/flipped/pmusim"
if grep -q '^CONFIG_PERF_HW_TIME=y' "$obj/.config"; then
	sed 's/^CONFIG_PERF_HW_TIME=y$/# CONFIG_PERF_HW_TIME is not set/' "$obj/.config" >"$dir/flipped/.config"
	flip="hw_time is on in $dir/flipped/pmusim but off in its .config (CONFIG_PERF_HW_TIME)"
else
	sed '/CONFIG_PERF_HW_TIME[ =]/d' "$obj/.config" >"$dir/flipped/.config"
	echo CONFIG_PERF_HW_TIME=y >>"$dir/flipped/.config"
	flip="hw_time is off in $dir/flipped/pmusim but on in its .config (CONFIG_PERF_HW_TIME)"
fi
out=$("$src/scripts/check-build-config.sh" "$dir/flipped" 2>&1); rc=$?
check "a .config that differs in CONFIG_PERF_HW_TIME: exit 1, one line naming it (got $rc: $out)" \
	'[ $rc = 1 ] && [ "$out" = "$flip" ]'

# ---- run-tests.sh on a tree without test programs -----------------------------
mkdir -p "$dir/empty/tests"
out=$(LABEL=empty TALLY=$dir/empty.tally "$src/scripts/run-tests.sh" "$dir/empty" 2>&1); rc=$?
check "run-tests.sh on a build without test programs: a failure, not 0 tests (exit $rc: $(tail -1 <<<"$out"))" \
	'[ $rc != 0 ] && [ "$(tail -1 <<<"$out")" = "[empty] 0 passed, 1 failed, 0 skipped" ] &&
	 [ "$(cat "$dir/empty.tally")" = "0 1 0" ]'

# ---- run-tests.sh: per-test times; with REFERENCE, what a configuration can change
# A fake source tree: one shell test naming a CONFIG_ symbol, one reading
# $LABEL, one neither, one reading $LABEL that says it is
# configuration-independent;
# two builds of it whose test programs are compiled here: "same" alike
# in both, "changed" different, "new" only in the second.
fake=$dir/fake
mkdir -p "$fake/scripts" "$fake/tests/x" "$dir/ref/tests/x" "$dir/obj/tests/x"
cp "$src/scripts/run-tests.sh" "$fake/scripts/"
printf 'echo "ok 1 - sh"\n# the TSC rate follows CONFIG_MODEL_TSC_KHZ\n' >"$fake/tests/x/test_opt.sh"
printf 'echo "ok 1 - sh"\n' >"$fake/tests/x/test_plain.sh"
printf '[ "${LABEL:-}" = x ] || echo "ok 1 - sh"\n' >"$fake/tests/x/test_label.sh"
printf '# config-independent: a test of the fake tree\n[ "${LABEL:-}" = x ] || echo "ok 1 - sh"\n' >"$fake/tests/x/test_indep.sh"
prog() { # OUT TEXT [SRCDIR]: a test program printing one TAP line
	local c=${3:-$dir}/prog_${2// /_}.c
	printf '#include <stdio.h>\nint main(void) { puts("ok 1 - %s"); return 0; }\n' "$2" >"$c"
	${CC:-cc} -g -O2 -o "$1" "$c"
}
# (the same program from another path: other debug info and build ID)
mkdir -p "$dir/elsewhere"
prog "$dir/ref/tests/x/test_same" same && prog "$dir/obj/tests/x/test_same" same "$dir/elsewhere" &&
	prog "$dir/ref/tests/x/test_changed" "as in the reference" &&
	prog "$dir/obj/tests/x/test_changed" changed && prog "$dir/obj/tests/x/test_new" new
check "the fake builds' test programs compile; test_same's files differ, not its code" \
	'[ -x "$dir/obj/tests/x/test_new" ] && ! cmp -s "$dir/ref/tests/x/test_same" "$dir/obj/tests/x/test_same"'
out=$(LABEL=all "$fake/scripts/run-tests.sh" "$dir/obj" 2>&1); rc=$?
check "run-tests.sh without REFERENCE runs every test (exit $rc: $(tail -1 <<<"$out"))" \
	'[ $rc = 0 ] && [ "$(tail -1 <<<"$out")" = "[all] 7 passed, 0 failed, 0 skipped" ] && ! grep -q "^# once:" <<<"$out"'
check "run-tests.sh prints the slowest tests and keeps every test's wall and CPU time in OBJTREE/test-times" \
	'[ "$(grep -cE "^# slowest: [0-9.]+ s \(cpu [0-9.]+ s\) tests/x/test_" <<<"$out")" = 7 ] &&
	 [ "$(grep -cE "^[0-9.]+ [0-9.]+ tests/x/test_[a-z]+(\.sh)?$" "$dir/obj/test-times")" = 7 ]'
out=$(LABEL=other REFERENCE=$dir/ref "$fake/scripts/run-tests.sh" "$dir/obj" 2>&1); rc=$?
check "with REFERENCE: the changed and new programs and the shell tests naming a CONFIG_ symbol or \$LABEL run, the rest are named once ($(tail -1 <<<"$out"))" \
	'[ $rc = 0 ] && [ "$(tail -1 <<<"$out")" = "[other] 4 passed, 0 failed, 0 skipped" ] &&
	 [ "$(cut -d" " -f3 "$dir/obj/test-times" | xargs)" = "tests/x/test_changed tests/x/test_new tests/x/test_label.sh tests/x/test_opt.sh" ] &&
	 grep -qx "# once: 3 tests this configuration cannot change ran in $dir/ref only: tests/x/test_same tests/x/test_indep.sh tests/x/test_plain.sh" <<<"$out"'
# with both builds' .configs, a shell test runs where a symbol it names has another value
printf 'CONFIG_MODEL_TSC_KHZ=3000000\nCONFIG_A=y\n' >"$dir/ref/.config"
printf 'CONFIG_MODEL_TSC_KHZ=3000000\n# CONFIG_A is not set\n' >"$dir/obj/.config"
out=$(LABEL=other REFERENCE=$dir/ref "$fake/scripts/run-tests.sh" "$dir/obj" 2>&1); rc=$?
check "with REFERENCE and the same CONFIG_MODEL_TSC_KHZ, the shell test naming it runs once ($(tail -1 <<<"$out"))" \
	'[ $rc = 0 ] && [ "$(cut -d" " -f3 "$dir/obj/test-times" | xargs)" = "tests/x/test_changed tests/x/test_new tests/x/test_label.sh" ]'
printf 'CONFIG_MODEL_TSC_KHZ=2000000\n' >"$dir/obj/.config"
out=$(LABEL=other REFERENCE=$dir/ref "$fake/scripts/run-tests.sh" "$dir/obj" 2>&1); rc=$?
check "with another CONFIG_MODEL_TSC_KHZ it runs again ($(tail -1 <<<"$out"))" \
	'[ $rc = 0 ] && [ "$(cut -d" " -f3 "$dir/obj/test-times" | xargs)" = "tests/x/test_changed tests/x/test_new tests/x/test_label.sh tests/x/test_opt.sh" ]'

# ---- check.sh on a fake tree -------------------------------------------------
# The fake tree is under /tmp on purpose: check.sh mounts a tmpfs there.
tree=$(mktemp -d /tmp/pmusim-test-check.XXXXXX)
outside=$(mktemp /tmp/pmusim-test-check.XXXXXX)	# in /tmp, not in the tree
trap 'rm -rf "$dir" "$tree" "$outside"' EXIT
mkdir -p "$tree/scripts" "$tree/cmd" "$dir/bin"
cp "$src/scripts/check.sh" "$src/scripts/private-tmp.sh" "$src/scripts/check-build-config.sh" "$tree/scripts/"
cp "$src/cmd/cmd_version.c" "$tree/cmd/"
# The fake pmusim's features are those of the .config it was "compiled"
# with: COMPILED_AS=LABEL:FILE compiles LABEL's build with FILE instead.
cat >"$tree/pmusim.in" <<'SH'
#!/bin/bash
echo "pmusim 0.1"
sed -nE 's/.*printf\("([a-z0-9_]+) %s\\n", IS_ENABLED\((CONFIG_[A-Z0-9_]+)\).*/\1 \2/p' \
	"$(dirname "$0")/../../cmd/cmd_version.c" | while read -r f c; do
	if grep -qx "$c=y" "$(dirname "$0")/compiled.config"; then echo "$f on"; else echo "$f off"; fi
done
SH
printf 'CONFIG_PERF_ALT_SAMPLE_PERIOD=y\nCONFIG_PERF_HW_TIME=y\nCONFIG_PERF_TASK_CTX_DATA=y\nCONFIG_LBR_STITCH=y\n' >"$tree/rfcs-on"
printf '# CONFIG_PERF_ALT_SAMPLE_PERIOD is not set\n# CONFIG_PERF_HW_TIME is not set\nCONFIG_LBR_STITCH=y\n' >"$tree/rfcs-off"
cat >"$tree/Makefile" <<'MK'
# as the real Makefile: only the project's own O= builds take a tree that
# holds a configuration
ifneq ($(wildcard $(CURDIR)/.config),)
ifneq ($(PMUSIM_OWN_BUILD),1)
$(error the source tree holds a configuration: run 'make mrproper' there first)
endif
endif
defconfig:
	@cp rfcs-on $(O)/.config
v6.12_defconfig allnoconfig randconfig:
	@cp rfcs-off $(O)/.config
all:
	@# WAIT_FOR_EXTRAS=FILE: the last configuration's build waits (at most a
	@# minute) for the extra checks to have started, and says if they had
	@if [ -n "$(WAIT_FOR_EXTRAS)" ] && [ "$(notdir $(O))" = check-randconfig-0x1 ]; then \
		for i in $$(seq 600); do [ -e "$(WAIT_FOR_EXTRAS)" ] && break; sleep 0.1; done; \
		if [ -e "$(WAIT_FOR_EXTRAS)" ]; then echo yes; else echo no; fi >$(CURDIR)/extras-seen; fi
	@cp $(if $(filter $(notdir $(O)):%,$(COMPILED_AS)),$(lastword $(subst :, ,$(COMPILED_AS))),$(O)/.config) $(O)/compiled.config
	@install -m 755 pmusim.in $(O)/pmusim
MK
cat >"$tree/scripts/run-tests.sh" <<'SH'
#!/bin/bash
echo "$LABEL ${REFERENCE:-none}" >>"$(dirname "$0")/../references"
echo "[$LABEL] 2 passed, 0 failed, 0 skipped"
echo "2 0 0" >>"$TALLY"
SH
chmod +x "$tree/scripts/run-tests.sh"
# no mount namespaces: an unshare that always fails
printf '#!/bin/sh\nexit 1\n' >"$dir/bin/unshare"
chmod +x "$dir/bin/unshare"

run_check() { # [ENV...]: sets out, rc
	out=$(env "$@" bash "$tree/scripts/check.sh" 0x1 2>&1 </dev/null); rc=$?
	rm -rf "$tree/build"
}
last() { tail -1 <<<"$out"; }

if unshare -m sh -c "mount -t tmpfs pmusim-test /tmp" 2>/dev/null; then
	run_check
	check "a tree under /tmp: each configuration's tests ran in their private /tmp ($(last))" \
		'[ $rc = 0 ] && [ "$(last)" = "8 passed, 0 failed, 0 skipped" ]'
	check "the private /tmp is still private: the tree is bound back, /tmp is a new tmpfs" \
		'unshare -m "$src/scripts/private-tmp.sh" "$tree" sh -c "[ -f \"$tree/Makefile\" ] && [ ! -e \"$outside\" ]"'
else
	echo "# skipped: no mount namespaces here (unshare -m needs CAP_SYS_ADMIN): check.sh runs the tests in the foreground"
	skip "a tree under /tmp in a private /tmp: no mount namespaces"
	skip "the private /tmp is still private: no mount namespaces"
fi
rm -f "$tree/references"
run_check PATH="$dir/bin:$PATH"
check "no mount namespaces: the tests run in the foreground ($(last))" \
	'[ $rc = 0 ] && [ "$(last)" = "8 passed, 0 failed, 0 skipped" ]'
check "the first configuration runs every test, the others with it as REFERENCE" \
	'[ "$(sed "s|$tree/build/||" "$tree/references" | xargs)" = "defconfig none v6.12 check-defconfig allnoconfig check-defconfig randconfig-0x1 check-defconfig" ]'

chmod -x "$tree/scripts/run-tests.sh"
run_check
check "a runner that does not start: each configuration counts as failed ($(last))" \
	'[ $rc != 0 ] && [ "$(last)" = "0 passed, 4 failed, 0 skipped" ] &&
	 [ "$(grep -c "^FAIL \[.*\] the test runner reported no count" <<<"$out")" = 4 ]'
run_check PATH="$dir/bin:$PATH"
check "the same without mount namespaces ($(last))" \
	'[ $rc != 0 ] && [ "$(last)" = "0 passed, 4 failed, 0 skipped" ]'
chmod +x "$tree/scripts/run-tests.sh"

run_check COMPILED_AS="check-v6.12:$tree/rfcs-on"
check "v6.12 compiled with defconfig's features: that configuration fails ($(last))" \
	'[ $rc != 0 ] && [ "$(last)" = "6 passed, 1 failed, 0 skipped" ] &&
	 grep -q "^FAIL \[v6.12\] pmusim version does not match .config" <<<"$out" &&
	 grep -q "^task_ctx_data is on in .* but off in its .config (CONFIG_PERF_TASK_CTX_DATA)" <<<"$out"'

# every step's time; the extra checks (check.d/) two at a time, reported
# in order, each counted; one that fails without a TAP line counts once
check "each configuration's build and tests and the whole print their wall and CPU time" \
	'grep -qE "^# time: defconfig build [0-9]+ s \(cpu [0-9]+ s\)$" <<<"$out" &&
	 grep -qE "^# time: randconfig-0x1 tests [0-9]+ s \(cpu [0-9]+ s\)$" <<<"$out" &&
	 grep -qE "^# time: make check [0-9]+ s \(cpu [0-9]+ s\)$" <<<"$out"'
mkdir -p "$tree/scripts/check.d"
printf '[ -z "${WAIT_FOR_EXTRAS:-}" ] || touch "$WAIT_FOR_EXTRAS"; sleep 2; echo "ok 1 - a1"; echo "ok 2 - a2"\n' >"$tree/scripts/check.d/a.sh"
printf 'echo "ok 1 - b1"; echo "not ok 2 - b2"\n' >"$tree/scripts/check.d/b.sh"
printf 'echo "c: dies without a TAP line"; exit 3\n' >"$tree/scripts/check.d/c.sh"
printf 'echo "ok 1 - d1"\n' >"$tree/scripts/check.d/d.sh"
run_check
check "extra checks: counted, in order, a failure without a TAP line counted once ($(last))" \
	'[ $rc != 0 ] && [ "$(last)" = "12 passed, 2 failed, 0 skipped" ] &&
	 [ "$(grep -E "^== [a-d]$" <<<"$out" | xargs)" = "== a == b == c == d" ] &&
	 grep -q "^not ok 2 - b2" <<<"$out" && grep -q "^c: dies without a TAP line" <<<"$out" &&
	 [ "$(grep -cE "^# time: [a-d] [0-9]+ s \(cpu [0-9]+ s\)$" <<<"$out")" = 4 ]'
if unshare -m true 2>/dev/null; then
	rm -f "$tree/extras-seen"
	run_check WAIT_FOR_EXTRAS="$tree/extras-started"
	check "with private /tmps the extra checks start before the last configuration is built ($(cat "$tree/extras-seen" 2>/dev/null))" \
		'[ "$(cat "$tree/extras-seen" 2>/dev/null)" = yes ] && [ "$(last)" = "12 passed, 2 failed, 0 skipped" ]'
else
	skip "the extra checks beside the configurations: no mount namespaces"
fi
rm -r "$tree/scripts/check.d"

# make run, then make check: the in-tree configuration is left alone
echo "CONFIG_IN_TREE=y" >"$tree/.config"
run_check
check "a source tree holding a .config (make run first): checked as a clean one, its .config untouched ($(last))" \
	'[ $rc = 0 ] && [ "$(last)" = "8 passed, 0 failed, 0 skipped" ] && [ "$(cat "$tree/.config")" = CONFIG_IN_TREE=y ]'
rm "$tree/.config"
echo "1..$n"
