#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record leaves Valgrind out of what it writes and of what the
# program sees (#25 part 5). A guest (record_progs/maps_env.c) recorded
# under pmusim's Valgrind tool:
# - its MMAP2 records are the maps the kernel would write for it: the
#   executable file maps /proc/PID/maps shows when it runs natively,
#   with their length, offset, device, inode and flags (one is shared),
#   the inode generation FS_IOC_GETVERSION says (and the host's kernel
#   writes, perf record -e task-clock, where the host allows it),
#   and its page of anonymous code as //anon with zeros; whole pages; nothing of
#   Valgrind's (the tool, its trampoline, the loader's rwx page,
#   vgpreload_*.so), in the MMAP2s nor in perf buildid-list; a page
#   that mprotect makes executable has its //anon MMAP2 too;
# - the environment it prints is the one it prints natively, with the
#   same variables in the same order (but _, which the shell sets to
#   the command it ran), whatever LD_PRELOAD, LD_LIBRARY_PATH and
#   VALGRIND_LIB were, and in an image that execve ran; the tool's
#   --pmusim-env option on its own.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
progs=$PMUSIM_SRCTREE/tests/cmd/record_progs
export TMPDIR=$dir/tmp
mkdir "$TMPDIR"

# Valgrind runs (~5 s in all): the check matrix runs this in its two extremes
record_test_needs "${LABEL:-}" valgrind gcc perf python3
prog=$dir/maps_env
gcc -O2 -g -o "$prog" "$progs/maps_env.c" || { echo "Bail out! cannot build the guest"; exit 1; }

# ---- the maps ----------------------------------------------------------------
"$prog" maps >"$dir/native.maps" || { echo "Bail out! the guest failed natively"; exit 1; }
if (cd "$dir" && "$PMUSIM" record -c 20011 -o "$dir/maps.data" -- "$prog" maps \
	>/dev/null 2>"$dir/maps.err"); then
	ok "recorded the guest ($(head -1 "$dir/maps.err"))"
else
	nok "pmusim record failed: $(head -1 "$dir/maps.err")"
fi
perf script -i "$dir/maps.data" --show-mmap-events -F comm >"$dir/mmap.txt" 2>"$dir/mmap.perr"
# the host kernel's own MMAP2s of the guest, where perf_event_open is allowed (a software event)
: >"$dir/kernel.txt"
if perf record -q -e task-clock -o "$dir/kernel.data" -- "$prog" maps >/dev/null 2>&1; then
	perf script -i "$dir/kernel.data" --show-mmap-events -F comm >"$dir/kernel.txt" 2>/dev/null
fi
perf buildid-list -i "$dir/maps.data" >"$dir/buildids.txt" 2>"$dir/buildids.perr"
check "perf script reads the MMAP2 records" "grep -q PERF_RECORD_MMAP2 '$dir/mmap.txt'"
check "perf buildid-list reads the file" "[ -s '$dir/buildids.txt' ]"

while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok }" ;;
	"not ok "*) nok "${line#not ok }" ;;
	"# "*) echo "$line" ;;
	esac
done < <(python3 - "$dir/native.maps" "$dir/mmap.txt" "$dir/buildids.txt" "$prog" \
	"$PMUSIM_OBJTREE/vgtool/lib/pmusim-amd64-linux" "$dir/kernel.txt" 2>&1 <<'EOF'
import fcntl, os, re, struct, sys

native_maps, mmap_txt, buildids, prog, tool, kernel_txt = sys.argv[1:7]
tool_real = os.path.realpath(tool)

def result(good, what, detail=""):
    print(("ok " if good else "not ok ") + what + (": " + detail if detail and not good else ""))

# natively: executable maps of files, and anonymous code
native, native_anon = set(), []
for line in open(native_maps):
    f = line.split()
    lo, hi = (int(x, 16) for x in f[0].split("-"))
    if "x" not in f[1]:
        continue
    path = f[5] if len(f) > 5 else ""
    if path.startswith("/"):
        native.add((path, hi - lo, int(f[2], 16), f[3], int(f[4]), f[1]))
    elif not path:
        native_anon.append((hi - lo, f[1]))

rx = re.compile(r"PERF_RECORD_MMAP2 \d+/\d+: \[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) "
                r"([0-9a-f]+):([0-9a-f]+) (\d+) (\d+)\]: (\S+) (.*)$")
recs = []
kernel_gen = {}
for line in open(kernel_txt):
    m = rx.search(line.rstrip("\n"))
    if m and m.group(9).startswith("/"):
        kernel_gen[m.group(9)] = int(m.group(7))
for line in open(mmap_txt):
    if "PERF_RECORD_MMAP2" not in line:
        continue
    m = rx.search(line.rstrip("\n"))
    if not m:
        result(False, "every MMAP2 line parses", line.strip())
        continue
    start, ln, pgoff = (int(m.group(i), 16) for i in (1, 2, 3))
    dev = "%02x:%02x" % (int(m.group(4), 16), int(m.group(5), 16))
    recs.append(dict(start=start, len=ln, pgoff=pgoff, dev=dev, ino=int(m.group(6)),
                     gen=int(m.group(7)), prot=m.group(8), name=m.group(9)))
print("# %d MMAP2 records, %d executable file maps natively" % (len(recs), len(native)))
result(len(recs) > 0, "MMAP2 records were written")

def valgrinds(name):
    base = os.path.basename(name)
    return (base.startswith("vgpreload_") or "valgrind" in name or
            (name.startswith("/") and os.path.exists(name) and os.path.realpath(name) == tool_real) or
            base.startswith("pmusim-amd64-linux"))

bad = [r["name"] for r in recs if valgrinds(r["name"])]
result(not bad, "no MMAP2 of Valgrind's own files (the tool, vgpreload_*.so)", ", ".join(bad))
tiny = ["%#x(%#x) %s" % (r["start"], r["len"], r["name"]) for r in recs if r["len"] < 0x1000]
result(not tiny, "no MMAP2 shorter than a page (the trampoline's was 0x65 bytes)", ", ".join(tiny))
rwx = [r["name"] for r in recs if r["prot"].startswith("rwx")]
result(not rwx, "no rwx MMAP2 (Valgrind's loader page)", ", ".join(rwx))
unaligned = ["%#x(%#x) @ %#x %s" % (r["start"], r["len"], r["pgoff"], r["name"]) for r in recs
             if r["start"] % 4096 or r["len"] % 4096 or r["pgoff"] % 4096]
result(not unaligned, "every MMAP2 is whole pages: start, length and offset", ", ".join(unaligned))
flags = [r["prot"] + " " + r["name"] for r in recs if r["prot"] not in ("r-xp", "r-xs")]
result(not flags, "every MMAP2 is r-x, private or shared, as the guest mapped it", ", ".join(flags))
shared = [r["name"] for r in recs if r["prot"] == "r-xs"]
result(shared == [prog], "the guest's shared map of itself is its one MAP_SHARED MMAP2", str(shared))

files = set((r["name"], r["len"], r["pgoff"], r["dev"], r["ino"], r["prot"]) for r in recs
            if r["name"].startswith("/") and not r["name"].startswith("//"))
missing = sorted(native - files)
extra = sorted(files - native)
result(not missing and not extra,
       "the file MMAP2s are the native /proc/PID/maps executable maps: path, length, offset, "
       "maj:min, inode, flags", "missing %s, extra %s" % (missing, extra))
for path in sorted(set(f[0] for f in files)):
    st = os.stat(path)
    want = ("%02x:%02x" % (os.major(st.st_dev), os.minor(st.st_dev)), st.st_ino)
    got = set((f[3], f[4]) for f in files if f[0] == path)
    result(got == {want}, "%s: maj:min and inode are stat's %s %d" % (os.path.basename(path), *want),
           str(got))
def getversion(path):
    try:
        with open(path, "rb") as f:
            return struct.unpack("l", fcntl.ioctl(f.fileno(), 0x80087601, b"\0" * 8))[0] & 0xffffffff
    except OSError:
        return None     # the file system does not say (tmpfs): 0 is written (pmusim.1)
if kernel_gen:
    print("# the host's kernel wrote MMAP2s of the guest (perf record -e task-clock): held against them too")
else:
    print("# perf record -e task-clock refused on this host: generations from FS_IOC_GETVERSION only")
for path in sorted(set(f[0] for f in files)):
    gen = getversion(path)
    want = gen or 0
    got = set(r["gen"] for r in recs if r["name"] == path)
    kernel = kernel_gen.get(path) if gen is not None else None
    result(got == {want} and kernel in (None, want),
           "%s: ino_generation %d, FS_IOC_GETVERSION's%s" % (os.path.basename(path), want,
           ", as the host's kernel wrote it" if kernel is not None else ""),
           "recorded %s, the kernel's %s" % (got, kernel))
result(any(r["gen"] for r in recs) or not any(getversion(p) for p in set(f[0] for f in files)),
       "a file whose inode has a generation gets it (not 0 for all)")
progs = [f for f in files if f[0] == prog]
result(len(progs) == 2, "the guest itself has its MMAP2s (its text, its shared page)", str(progs))
anon = [r for r in recs if r["name"] == "//anon"]
result(len(anon) == len(native_anon) == 1 and anon[0]["len"] == native_anon[0][0] and
       anon[0]["dev"] == "00:00" and anon[0]["ino"] == 0 and anon[0]["pgoff"] == 0,
       "its page of anonymous code is one //anon MMAP2, 00:00, inode 0, as natively",
       "recorded %s, natively %s" % ([(hex(r["start"]), hex(r["len"])) for r in anon], native_anon))

ids = [l.split(None, 1)[1].strip() for l in open(buildids) if l.strip()]
bad = [p for p in ids if valgrinds(p)]
result(not bad, "no perf buildid-list entry of Valgrind's files", ", ".join(bad))
names = set(r["name"] for r in recs)
result(set(ids) <= names, "every build-id is of a file an MMAP2 names", str(set(ids) - names))
print("ok the MMAP2 checks ran to their end")
EOF
)

# a page of code that mprotect made executable: the kernel writes its vma then
if (cd "$dir" && "$PMUSIM" record -o "$dir/jit.data" -- "$prog" jit >"$dir/jit.out" \
	2>"$dir/jit.err"); then
	page=$(head -1 "$dir/jit.out")
	perf script -i "$dir/jit.data" --show-mmap-events -F comm 2>/dev/null |
		sed -n 's/.*PERF_RECORD_MMAP2 [0-9/]*: \[\(0x[0-9a-f]*\)(\(0x[0-9a-f]*\)) @ 0 00:00 0 0\]: r-xp \/\/anon$/\1 \2/p' \
		>"$dir/jit.anon"
	covered=no
	while read -r start len; do
		[ $((start)) -le $((page)) ] && [ $((page)) -lt $((start + len)) ] && covered=yes
	done <"$dir/jit.anon"
	check "a page mprotect made r-x has its //anon MMAP2 (page $page)" "[ \$covered = yes ]"
else
	nok "jit: pmusim record failed: $(head -1 "$dir/jit.err")"
fi

# ---- the environment ---------------------------------------------------------
# env_case NAME ENV...: the guest's environment natively and recorded, with ENV set
env_case() {
	local name=$1 diffs
	shift
	(cd "$dir" && env "$@" "$prog" env >"$dir/$name.native" 2>/dev/null)
	if ! (cd "$dir" && env "$@" "$PMUSIM" record -o "$dir/$name.data" -- "$prog" env \
		>"$dir/$name.recorded" 2>"$dir/$name.err"); then
		nok "$name: pmusim record failed: $(head -1 "$dir/$name.err")"
		return
	fi
	# _ is the shell's: the command it ran, pmusim here
	diffs=$(diff <(grep -v '^_=' "$dir/$name.native") <(grep -v '^_=' "$dir/$name.recorded"))
	if [ -z "$diffs" ] && [ -s "$dir/$name.native" ]; then
		ok "$name: the guest's environment is its native one, in order ($(wc -l <"$dir/$name.native") variables)"
	else
		nok "$name: the guest's environment differs from its native one"
		sed 's/^/# /' <<<"$diffs" | head -20
	fi
}
env_case plain -u LD_PRELOAD -u VALGRIND_LIB -u LD_LIBRARY_PATH -u GLIBCXX_FORCE_NEW
env_case empty-preload -u VALGRIND_LIB LD_PRELOAD=
env_case own-preload -u VALGRIND_LIB LD_PRELOAD=/nonexistent/libnone.so
env_case valgrind-lib "VALGRIND_LIB=$dir/a/directory/named/at/more/length/than/the/tool/directory/has/$dir"
env_case debug-libs -u LD_PRELOAD LD_LIBRARY_PATH=/nonexistent/lib GLIBCXX_FORCE_NEW=7
check "the recorded guest had no Valgrind variable (LD_PRELOAD, VALGRIND_LIB, GLIBCXX_FORCE_NEW, /usr/lib/debug)" \
	"! grep -qE '^(LD_PRELOAD|VALGRIND_LIB|GLIBCXX_FORCE_NEW|GLIBCPP_FORCE_NEW)=|/usr/lib/debug' '$dir/plain.recorded'"
# the image execve runs: Valgrind's core sets its environment anew
(cd "$dir" && sh -c 'exec "$0" env' "$prog" >"$dir/exec.native")
if (cd "$dir" && "$PMUSIM" record -o "$dir/exec.data" -- /bin/sh -c 'exec "$0" env' "$prog" \
	>"$dir/exec.recorded" 2>"$dir/exec.err"); then
	check "exec: the image execve ran has its native environment" \
		"diff <(grep -v '^_=' '$dir/exec.native') <(grep -v '^_=' '$dir/exec.recorded') >/dev/null"
else
	nok "exec: pmusim record failed: $(head -1 "$dir/exec.err")"
fi
# the tool's --pmusim-env itself: a variable taken out, one given a value
# the program did not have (it comes last), a bad option refused
launcher=$(type -P valgrind)
[ -x "$launcher.bin" ] && launcher=$launcher.bin	# (Debian's wrapper adds variables)
mkdir "$dir/streams"
(cd "$dir" && env -u LD_PRELOAD -u VALGRIND_LIB "$prog" env | grep -v '^HOME=' >"$dir/opt.want"; echo "PMUSIM_NEW=a b" >>"$dir/opt.want")
(cd "$dir" && env -u LD_PRELOAD VALGRIND_LIB="$PMUSIM_OBJTREE/vgtool/lib" "$launcher" -q --tool=pmusim \
	--pmusim-out="$dir/streams" --pmusim-env=VALGRIND_LIB --pmusim-env=HOME "--pmusim-env=PMUSIM_NEW=a b" \
	"$prog" env >"$dir/opt.got" 2>"$dir/opt.err")
check "--pmusim-env=NAME takes NAME out, --pmusim-env=NAME=VALUE adds it" \
	"diff '$dir/opt.want' '$dir/opt.got' >/dev/null"
(cd "$dir" && VALGRIND_LIB="$PMUSIM_OBJTREE/vgtool/lib" "$launcher" -q --tool=pmusim \
	--pmusim-out="$dir/streams" --pmusim-env==x "$prog" env >/dev/null 2>"$dir/bad.err")
rc=$?
check "--pmusim-env==x: refused, a name is needed (exit $rc)" \
	"[ $rc != 0 ] && grep -q 'a variable.s name is needed' '$dir/bad.err'"
check "no stream directory left" "[ -z \"\$(ls -A '$TMPDIR')\" ]"
echo "1..$n"
