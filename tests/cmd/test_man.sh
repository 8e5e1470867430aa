#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The man page: `make install PREFIX=DIR` puts pmusim and pmusim.1 under
# DIR; man and groff render the page without a warning; the page names
# every option `pmusim run --help` lists and every command of
# `pmusim --help`, so the two stay in sync.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
page=$dir/p/share/man/man1/pmusim.1

check "make install PREFIX=DIR installs the command and the page" \
	'make -s --no-print-directory -C "$PMUSIM_SRCTREE" O="$PMUSIM_OBJTREE" install PREFIX="$dir/p" >"$dir/install.log" 2>&1 && [ -x "$dir/p/bin/pmusim" ] && [ -f "$page" ]'
check "the installed command runs" '"$dir/p/bin/pmusim" --help | grep -q "^usage: pmusim"'
check "the installed page is the source's" 'cmp -s "$page" "$PMUSIM_SRCTREE/Documentation/pmusim.1"'
if command -v man >/dev/null 2>&1; then
	MANWIDTH=80 man --warnings -l "$page" >"$dir/man.txt" 2>"$dir/man.err"
	check "man -l renders it without warnings" '[ $? = 0 ] && [ ! -s "$dir/man.err" ] && grep -q "pmusim run" "$dir/man.txt"'
else
	skip "man is not installed"
fi
if command -v groff >/dev/null 2>&1; then
	check "groff -ww finds nothing to warn about" \
		'groff -man -Tutf8 -ww -z "$page" 2>"$dir/groff.err" && [ ! -s "$dir/groff.err" ]'
else
	skip "groff is not installed"
fi

# every option of pmusim run --help, long and short, is in the page (roff writes - as \-)
missing=
for opt in $("$PMUSIM" run --help | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u); do
	grep -qF -- "$(sed 's/-/\\-/g' <<<"$opt")" "$PMUSIM_SRCTREE/Documentation/pmusim.1" || missing="$missing $opt"
done
check "the page names every option of pmusim run --help${missing:+ (missing:$missing)}" '[ -z "$missing" ]'
missing=
for cmd in $("$PMUSIM" --help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
	grep -qE "pmusim $cmd" "$PMUSIM_SRCTREE/Documentation/pmusim.1" || missing="$missing $cmd"
done
check "the page names every command of pmusim --help${missing:+ (missing:$missing)}" '[ -z "$missing" ]'
# every CPU model, as the refusal of an unknown one lists them
printf 'duration: 10\nmachine: {cpu: nosuch}\ntasks:\n  - name: t\n    workload: {kind: tchain}\n' >"$dir/cpu.yaml"
models=$("$PMUSIM" run "$dir/cpu.yaml" 2>&1 | sed -n 's/.*(one of: \(.*\))$/\1/p' | tr -d ,)
missing=
for m in $models; do
	grep -qw -- "$m" "$PMUSIM_SRCTREE/Documentation/pmusim.1" || missing="$missing $m"
done
check "the page names every CPU model${missing:+ (missing:$missing)}" '[ -n "$models" ] && [ -z "$missing" ]'
echo "1..$n"
