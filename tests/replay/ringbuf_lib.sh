# SPDX-License-Identifier: GPL-2.0-only
#
# Shared by the ringbuf shell tests: which command lines a script under
# tests/replay/ringbuf runs with. A script names its flags on a line
# "# options: ..." and its modes on "# modes: ..." (fwd: forward writable,
# fwd-ro: forward overwrite, bwd-ro: backward overwrite, bwd: backward
# writable); without a modes line it runs in all four, or only in fwd if
# it reads (read needs a data_tail).

ringbuf_mode_flags() { # MODE
	case $1 in
	fwd)	echo "" ;;
	fwd-ro)	echo "--overwrite" ;;
	bwd-ro)	echo "--backward --overwrite" ;;
	bwd)	echo "--backward" ;;
	*)	echo "bad-mode-$1" ;;
	esac
}

# Prints "MODE FLAGS..." lines for SCRIPT.
ringbuf_modes() { # SCRIPT
	local f=$1 opts modes m
	opts=$(sed -n 's/^# options:[[:space:]]*//p' "$f" | head -1)
	modes=$(sed -n 's/^# modes:[[:space:]]*//p' "$f" | head -1)
	if [ -z "$modes" ]; then
		if grep -qE '^[[:space:]]*read([[:space:]#]|$)' "$f"; then
			modes=fwd
		else
			modes="fwd fwd-ro bwd-ro bwd"
		fi
	fi
	for m in $modes; do
		echo "$m $opts $(ringbuf_mode_flags "$m")"
	done
}

# All modes of SCRIPT through BACKEND, each under a "== MODE" line.
ringbuf_run_all() { # BACKEND SCRIPT
	local backend=$1 f=$2 mode flags
	ringbuf_modes "$f" | while read -r mode flags; do
		echo "== $mode"
		# shellcheck disable=SC2086
		"$PMUSIM" ringbuf --backend "$backend" $flags "$f" 2>&1
		echo "exit $?"
	done
}
