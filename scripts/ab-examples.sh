#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The README's worked example of `make ab`: the three perf_output_begin()
# implementations the write-backward seed compares, each one
# scripts/ab-examples/NAME.func (the function as that version writes it)
# and NAME.patch (that function put into core/ring_buffer.c).
#
#   scripts/ab-examples.sh regen [REV]   rewrite every NAME.patch against
#                                        REV's core/ring_buffer.c (default main)
#   scripts/ab-examples.sh run [REV]     in a throwaway copy of REV (its own
#                                        git repository under $TMPDIR), apply
#                                        each patch and run make ab BASE=HEAD;
#                                        print each run's verdict and figures
#
# Nothing is ever applied to this tree or to REV: `run` works on a copy, and
# a patch that no longer applies there (core/ring_buffer.c moved on) is
# made again from its .func first, with a note. AB_CONFIG (default
# kconfig/configs/bench_defconfig, what `make bench` measures) is the
# configuration of both sides.
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
dir=$srctree/scripts/ab-examples
cmd=${1:-}
rev=${2:-main}
file=core/ring_buffer.c

usage() {
	echo "usage: scripts/ab-examples.sh regen|run [REV]" >&2
	exit 2
}

# put_func FUNC < ring_buffer.c > patched: the definition of
# perf_output_begin() (signature line to the closing brace in column 0)
# replaced by FUNC's text. Fails if there is no such definition.
put_func() {
	awk -v func_file="$1" '
	/^int perf_output_begin\(struct perf_output_handle \*handle,$/ && !done {
		while ((getline l < func_file) > 0) print l
		skipping = 1
		next
	}
	skipping { if ($0 == "}") { skipping = 0; done = 1 } next }
	{ print }
	END { exit !done }'
}

# make_patch TREE NAME: NAME.patch from TREE's core/ring_buffer.c.
make_patch() {
	local tree=$1 name=$2 tmp
	tmp=$(mktemp -d) || return 1
	mkdir -p "$tmp/a/core" "$tmp/b/core"
	cp "$tree/$file" "$tmp/a/$file"
	if ! put_func "$dir/$name.func" <"$tree/$file" >"$tmp/b/$file"; then
		echo "ab-examples: no 'int perf_output_begin(struct perf_output_handle *handle,' ... '}' in $tree/$file" >&2
		rm -rf "$tmp"
		return 1
	fi
	(cd "$tmp" && diff -u --label "a/$file" --label "b/$file" "a/$file" "b/$file") >"$dir/$name.patch.new"
	[ $? = 1 ] || { rm -rf "$tmp" "$dir/$name.patch.new"; echo "ab-examples: $name changes nothing" >&2; return 1; }
	mv "$dir/$name.patch.new" "$dir/$name.patch"
	rm -rf "$tmp"
}

# copy_of REV DEST: REV's files, committed to a new repository at DEST.
copy_of() {
	mkdir -p "$2" &&
	git -C "$srctree" archive "$1" | tar -x -C "$2" &&
	git -C "$2" init -q &&
	git -C "$2" add -A &&
	git -C "$2" -c user.name=ab-examples -c user.email=ab@pmusim -c commit.gpgsign=false \
		commit -qm "$1 ($(git -C "$srctree" rev-parse --short=12 "$1"))"
}

git -C "$srctree" rev-parse --verify -q "$rev^{commit}" >/dev/null ||
	{ echo "ab-examples: '$rev' is not a git revision" >&2; exit 2; }
names=$(cd "$dir" && ls *.func | sed 's/\.func$//')

case $cmd in
regen)
	tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
	git -C "$srctree" show "$rev:$file" >"$tmp/rb.c" || exit 1
	mkdir -p "$tmp/t/core" && mv "$tmp/rb.c" "$tmp/t/$file"
	for name in $names; do
		make_patch "$tmp/t" "$name" || exit 1
		echo "ab-examples: $dir/$name.patch against $rev ($(git -C "$srctree" rev-parse --short=12 "$rev"))"
	done
	;;
run)
	tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
	tree=$tmp/tree
	copy_of "$rev" "$tree" || exit 1
	if [ ! -x "$tree/scripts/ab-diff.sh" ] || { [ ! -f "$tree/cmd/cmd_dump.c" ] && [ ! -f "$tree/sim/cmd_dump.c" ]; }; then
		echo "ab-examples: $rev predates make ab's record diff (scripts/ab-diff.sh, pmusim dump); give a REV that has them" >&2
		exit 2
	fi
	config=${AB_CONFIG:-$srctree/kconfig/configs/bench_defconfig}
	echo "ab-examples: base $rev = $(git -C "$srctree" rev-parse --short=12 "$rev"), configuration $config"
	status=0
	for name in $names; do
		if ! git -C "$tree" apply --check "$dir/$name.patch" 2>/dev/null; then
			echo "ab-examples: $name.patch does not apply to $rev; made again from $name.func (scripts/ab-examples.sh regen $rev keeps it)"
			make_patch "$tree" "$name" || exit 1
		fi
		git -C "$tree" apply "$dir/$name.patch" || exit 1
		echo
		echo "== $name: $(git -C "$tree" diff --stat | tail -1)"
		# a *defconfig names a configuration; make expands it into a .config
		if [ ! -f "$tmp/config" ]; then
			case $config in
			*defconfig)
				make -s -C "$tree" O="$tmp/cfg" "$(basename "$config")" >/dev/null 2>&1 &&
					cp "$tmp/cfg/.config" "$tmp/config" || exit 1 ;;
			*)	cp "$config" "$tmp/config" || exit 1 ;;
			esac
		fi
		(cd "$tree" && AB_CONFIG=$tmp/config scripts/ab.sh HEAD) >"$tmp/$name.log" 2>&1
		rc=$?
		grep -E '^(behaviour:|DIFFERS:|  per |  first|    (base|work):|ab: (PASS|FAIL))' "$tmp/$name.log" | head -30
		echo "exit $rc"
		[ $rc -le 1 ] || status=2
		git -C "$tree" checkout -q -- .
	done
	exit $status
	;;
*)
	usage
	;;
esac
