#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make seeds: each seed's result, reproduced on its scenario
# (scenarios/seed-*.yaml) by `pmusim seed`, printed as a table.
#
#   scripts/seeds.sh OBJTREE
#
# OBJTREE is a build with the RFCs on (defconfig). The per-task LBR data
# seed needs the feature both on and off: the second build, defconfig
# without CONFIG_PERF_TASK_CTX_DATA, goes to build/seeds-noctx. The LBR
# stitching seed's perf.data is read by real perf too (perf script and
# perf report, with and without --stitch-lbr); without perf that part is
# one skip line. Files go to out/seeds/.
set -u
objtree=$(cd "$1" && pwd)
srctree=$(cd "$(dirname "$0")/.." && pwd)
pmusim=$objtree/pmusim
out=$srctree/out/seeds
scn=$srctree/scenarios
mkdir -p "$out"

has() { "$pmusim" version | grep -q "^$1 on"; }
skip() { echo "seed $1: skipped: $2"; echo; }

# ---- write backward ----------------------------------------------------------
"$pmusim" seed write-backward "$scn/seed-write-backward.yaml" -o "$out/write-backward.data"
echo

# ---- per-task LBR data: this build, then the one without the feature ---------
noctx=$srctree/build/seeds-noctx
# (the source tree may hold make seeds' own in-tree configuration: the
# project's own O= builds leave it alone, PMUSIM_OWN_BUILD in the Makefile)
noctx_make() { make --no-print-directory -s -C "$srctree" O="$noctx" "$@" >/dev/null; }
build_noctx() {
	if ! [ -x "$noctx/pmusim" ] || ! grep -q '^# CONFIG_PERF_TASK_CTX_DATA is not set' "$noctx/.config"; then
		mkdir -p "$noctx"
		noctx_make defconfig &&
		sed -i 's/^CONFIG_PERF_TASK_CTX_DATA=y$/# CONFIG_PERF_TASK_CTX_DATA is not set/' "$noctx/.config" &&
		noctx_make olddefconfig || return
	fi
	noctx_make -j2 "$noctx/pmusim" || return
	# its rows are the feature's absence only if the build really is without it
	"$noctx/pmusim" version | grep -qx 'task_ctx_data off' ||
		{ echo "  ($noctx/pmusim says task_ctx_data on)"; return 1; }
}
"$pmusim" seed task-ctx-data "$scn/seed-task-ctx-data.yaml" -o "$out/task-ctx-data.data"
if has task_ctx_data; then
	if build_noctx; then
		"$noctx/pmusim" seed task-ctx-data "$scn/seed-task-ctx-data.yaml" \
			-o "$out/task-ctx-data-off.data" | tail -n +3 | grep -v '^  (whole\|^   '
		echo "  (the rows marked off: the same runs in build/seeds-noctx, defconfig without it)"
	else
		echo "  (the build without CONFIG_PERF_TASK_CTX_DATA failed: build/seeds-noctx)"
	fi
fi
echo

# ---- hardware time -----------------------------------------------------------
if has hw_time; then
	"$pmusim" seed hw-time "$scn/seed-hw-time.yaml" -o "$out/hw-time.data"
	echo
else
	skip hw-time "this build has no CONFIG_PERF_HW_TIME"
fi

# ---- LBR stitching, in pmusim and in perf ------------------------------------
if has lbr_stitch; then
	data=$out/lbr-stitch.data
	"$pmusim" seed lbr-stitch "$scn/seed-lbr-stitch.yaml" -o "$data"
	if ! command -v perf >/dev/null 2>&1 || ! perf version >/dev/null 2>&1; then
		echo "  perf: skipped: perf is not installed (apt-get install linux-perf)"
	else
		# deepest stack per tid in perf script's output (-F tid,ip,sym)
		script_max() { awk '/^ *[0-9]+ *$/ { t = $1; n[t] += 0; c = 0; next }
			/^\t/ { c++; if (c > n[t]) n[t] = c } END { for (t in n) print t, n[t] }' | sort -n; }
		# deepest chain in perf report's flat call graph of one tid
		report_max() {
			perf report -i "$data" --tid="$1" $2 --stdio --no-children --no-branch-stack \
				-g caller,0,flat -F overhead,sym 2>/dev/null |
			awk '/^ +[0-9.]+%$/ { c = 0; on = 1; next } /^$/ { on = 0; next }
				on && /^ +[^ ]/ { c++; if (c > m) m = c } END { print m + 0 }'
		}
		perf script -i "$data" -F tid,ip,sym 2>/dev/null | script_max >"$out/perf-plain.max"
		perf script -i "$data" -F tid,ip,sym --stitch-lbr 2>/dev/null | script_max >"$out/perf-stitch.max"
		echo "  perf $(perf version 2>/dev/null | awk '{ print $3 }') on the same file, deepest stack (frames):"
		printf "  %-8s %12s %22s %12s %22s\n" tid "perf script" "perf script --stitch" "perf report" "perf report --stitch"
		join "$out/perf-plain.max" "$out/perf-stitch.max" | while read -r tid plain stitched; do
			printf "  %-8s %12s %22s %12s %22s\n" "$tid" "$plain" "$stitched" \
				"$(report_max "$tid" "")" "$(report_max "$tid" --stitch-lbr)"
		done
		echo "  (perf report counts symbols: the sampled function + its callers)"
	fi
	echo
else
	skip lbr-stitch "this build has no CONFIG_LBR_STITCH"
fi

# ---- alternating periods -----------------------------------------------------
if has alternative_sample_period; then
	"$pmusim" seed alt-period "$scn/seed-alt-period.yaml" -o "$out/alt-period.data"
else
	skip alt-period "this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD"
fi
