#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `pmusim dump` and scripts/ab-diff.sh, the parts of make ab that say where
# two outputs differ: a perf.data with one byte of one sample's ip changed
# is reported as that record, SAMPLE, field ip and both values; a summary
# field, a text line likewise; a file the reader refuses is one line on
# stderr and exit 2 from dump, "unreadable" from the diff.
set -u
src=${PMUSIM_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
pmusim=${PMUSIM:-$src/pmusim}
diff_sh=$src/scripts/ab-diff.sh
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; [ -n "${2:-}" ] && sed 's/^/# /' <<<"$2" | head -20; }
check() { # DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what" "$out"; fi
}
if ! command -v jq >/dev/null; then
	echo "# skipped: jq is not installed (scripts/install-deps.sh ab)"
	echo "1..0 # SKIP no jq"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# short, and without the RFC field a v6.12 configuration refuses
sed -e 's/^duration: .*/duration: 10000000/' -e '/alternative_period:/d' \
	"$src/scenarios/default.yaml" >"$tmp/short.yaml"
if ! out=$(cd "$tmp" && "$pmusim" run short.yaml -o a.data --json 2>&1 >a.json); then
	not_ok "a short run of the default scenario" "$out"
	echo "1..$n"
	exit 0
fi
cp "$tmp/a.data" "$tmp/b.data"

# dump: one line per record after the header lines
"$pmusim" dump "$tmp/a.data" >"$tmp/a.dump" 2>"$tmp/err"; rc=$?
out=$(head -3 "$tmp/a.dump"; cat "$tmp/err")
check "dump: exit 0 (got $rc)" test "$rc" = 0
check "dump: header, attr and env lines first" \
	test "$(cut -f1 "$tmp/a.dump" | head -3 | tr '\n' ' ')" = "header attr0 env "
records=$(awk -F'\t' '$1 ~ /^[0-9]+$/' "$tmp/a.dump" | wc -l)
check "dump: record lines numbered 0..$((records - 1)) in order" \
	awk -F'\t' '$1 ~ /^[0-9]+$/ { if ($1 != k++) exit 1 } END { exit !(k > 0) }' "$tmp/a.dump"
check "dump: as many SAMPLE lines as the summary's samples" \
	test "$(awk -F'\t' '$2 == "SAMPLE"' "$tmp/a.dump" | wc -l)" = "$(jq .samples "$tmp/a.json")"

# the first sample's ip, low byte flipped in a copy
k=$(awk -F'\t' '$2 == "SAMPLE" { print $1; exit }' "$tmp/a.dump")
data_offset=$(sed -n '1s/.*\tdata_offset=\([0-9]*\).*/\1/p' "$tmp/a.dump")
before=$(awk -F'\t' -v k="$k" '$1 ~ /^[0-9]+$/ && $1 < k { split($4, s, "="); t += s[2] } END { print t + 0 }' "$tmp/a.dump")
ip_at=$((data_offset + before + 8))	# sample_type has IP first (no IDENTIFIER)
byte=$(od -An -tu1 -j "$ip_at" -N1 "$tmp/a.data" | tr -d ' ')
printf "$(printf '\\%03o' $((byte ^ 1)))" | dd of="$tmp/b.data" bs=1 seek="$ip_at" conv=notrunc status=none
out=$("$diff_sh" perf-data "$pmusim" "$tmp/a.data" "$tmp/b.data"); rc=$?
check "perf-data: a changed byte: exit 1 (got $rc)" test "$rc" = 1
ip=$(awk -F'\t' -v k="$k" '$1 == k { for (i = 3; i <= NF; i++) if ($i ~ /^ip=/) print substr($i, 4) }' "$tmp/a.dump")
ip2=$(printf '%#x' $((ip ^ 1)))
check "perf-data: names record $k, SAMPLE, field ip, $ip and $ip2" \
	grep -qxF "  first difference: record $k (SAMPLE): field ip: base $ip, work $ip2" <<<"$out"
check "perf-data: one line differs in place" grep -q "; 1 differ in place$" <<<"$out"
out=$("$diff_sh" perf-data "$pmusim" "$tmp/a.data" "$tmp/a.data"); rc=$?
check "perf-data: the same file: exit 0 and silent (got $rc)" test "$rc" = 0 -a -z "$out"

# a file the reader refuses
head -c 200 "$tmp/a.data" >"$tmp/short.data"
"$pmusim" dump "$tmp/short.data" >"$tmp/out" 2>"$tmp/err"; rc=$?
out=$(cat "$tmp/err")
check "dump: a truncated file: exit 2 (got $rc), nothing on stdout" test "$rc" = 2 -a ! -s "$tmp/out"
check "dump: a truncated file: one line naming it" \
	test "$(wc -l <"$tmp/err")" = 1 -a "$(grep -c "^$tmp/short.data: " "$tmp/err")" = 1
out=$("$diff_sh" perf-data "$pmusim" "$tmp/a.data" "$tmp/short.data"); rc=$?
check "perf-data: one side unreadable: exit 1 and says which" \
	test "$rc" = 1 -a "$(grep -c "^  work unreadable: $tmp/short.data: " <<<"$out")" = 1
"$pmusim" dump >/dev/null 2>&1; rc=$?
out=
check "dump: no file: exit 2 (got $rc)" test "$rc" = 2

# summaries field by field, text line by line
jq '.samples += 1' "$tmp/a.json" >"$tmp/b.json"
s=$(jq .samples "$tmp/a.json")
out=$("$diff_sh" json "$tmp/a.json" "$tmp/b.json"); rc=$?
check "json: exit 1 (got $rc), names the field and both values" \
	test "$rc" = 1 -a "$(grep -cxF "  first difference: field samples: base $s, work $((s + 1))" <<<"$out")" = 1
printf 'one\ntwo\nthree\n' >"$tmp/a.txt"
printf 'one\nTWO\nthree\n' >"$tmp/b.txt"
out=$("$diff_sh" text "$tmp/a.txt" "$tmp/b.txt"); rc=$?
check "text: exit 1 (got $rc), line 2 and both lines" \
	test "$rc" = 1 -a "$(grep -cE '^  first difference, line 2:$|^    base: two$|^    work: TWO$' <<<"$out")" = 3
echo "1..$n"
