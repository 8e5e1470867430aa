#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/check-build-config.sh OBJTREE: does OBJTREE/pmusim's feature
# list (`pmusim version`) equal OBJTREE/.config? A build compiled against
# another tree's generated headers says the other configuration's
# features. cmd/cmd_version.c ties each feature to its CONFIG_ symbol
# (printf("NAME %s\n", IS_ENABLED(CONFIG_X) ...)); that is the map.
# Prints one line per difference; exit 0 when there is none, 1 when there
# is, 2 when the build cannot be asked.
set -u
objtree=$1
srctree=$(cd "$(dirname "$0")/.." && pwd)
config=$objtree/.config
[ -f "$config" ] || { echo "$config: no such file"; exit 2; }
map=$(sed -nE 's/.*printf\("([a-z0-9_]+) %s\\n", IS_ENABLED\((CONFIG_[A-Z0-9_]+)\).*/\1 \2/p' \
	"$srctree/cmd/cmd_version.c")
[ -n "$map" ] || { echo "$srctree/cmd/cmd_version.c: no feature tied to a CONFIG_ symbol found"; exit 2; }
if ! version=$("$objtree/pmusim" version 2>&1); then
	echo "$objtree/pmusim version failed: $(head -1 <<<"$version")"
	exit 2
fi

bad=0
seen=""
while read -r feature state; do
	case $state in on|off) ;; *) continue ;; esac
	symbol=$(awk -v f="$feature" '$1 == f { print $2 }' <<<"$map")
	if [ -z "$symbol" ]; then
		echo "pmusim version lists '$feature', which cmd/cmd_version.c does not tie to a CONFIG_ symbol"
		bad=1; continue
	fi
	seen="$seen $feature"
	want=off
	grep -qx "$symbol=y" "$config" && want=on
	if [ "$state" != "$want" ]; then
		echo "$feature is $state in $objtree/pmusim but $want in its .config ($symbol)"
		bad=1
	fi
done <<<"$version"
while read -r feature symbol; do
	case " $seen " in *" $feature "*) ;; *)
		echo "pmusim version does not list '$feature' ($symbol)"; bad=1 ;;
	esac
done <<<"$map"
exit $bad
