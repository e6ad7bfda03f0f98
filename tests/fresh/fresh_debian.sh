#!/usr/bin/env bash
# The README's two commands on a fresh Debian 12, for real: makes a clean bookworm minbase root with debootstrap,
# clones this repository's HEAD into it, and runs there, as a new user would right after `git clone`:
#   1. ./stackrace.sh play --help   (installs the packages, builds Release; ends with the game's --help, or with the
#                                    no-display message since the root has no display)
#   2. ./stackrace.sh test          (builds the sanitizer configuration and runs every test)
# It prints the last lines of each and a one-line verdict, and exits 0 only when both passed.
#
# usage: tests/fresh/fresh_debian.sh [--dir DIR] [--keep] [--play-only]
#   --dir DIR     where the root and the logs go (default /var/tmp/stackrace-fresh); DIR/root is made anew each run
#   --keep        leave DIR/root in place afterwards (to look around with `chroot DIR/root`)
#   --play-only   run only the first command (minutes instead of most of an hour)
# Needs root (debootstrap, chroot, mounts) and Debian's archive (deb.debian.org). It takes 40-60 minutes on 2 cores:
# too slow for CI, run it before saying a change to the dependencies, the build or the README is done.
#
# The test command runs in a network namespace of its own (loopback only), so its servers, ports and Xvfb displays
# cannot meet anything else running on this machine; by then the first command has installed every package, and
# the test command's own install step must find nothing left to install.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir=/var/tmp/stackrace-fresh
keep=0
play_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="${2:?--dir needs a directory}"; shift 2 ;;
    --keep) keep=1; shift ;;
    --play-only) play_only=1; shift ;;
    -h | --help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "fresh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

say() { printf 'fresh: %s\n' "$*" >&2; }
[ "$(id -u)" -eq 0 ] || { say "needs root (debootstrap, chroot and mounts): run it with sudo"; exit 2; }
for tool in debootstrap unshare; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    say "installing $tool"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$tool" >/dev/null ||
      { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$tool" >/dev/null; }
  fi
done

root="$dir/root"
mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
  if [ "$keep" = 0 ] && [ -d "$root" ]; then rm -rf --one-file-system "$root"; fi
}
trap cleanup EXIT

mkdir -p "$dir"
if [ -d "$root" ]; then
  # A root left by an earlier run (--keep, or a run that was killed): its mounts first, then the files.
  while read -r m; do umount -l "$m" 2>/dev/null || true; done < <(awk -v r="$root" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r)
  rm -rf --one-file-system "$root"
fi

say "debootstrap --variant=minbase bookworm $root (log: $dir/debootstrap.log)"
start=$SECONDS
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$dir/debootstrap.log" 2>&1 ||
  { tail -n 20 "$dir/debootstrap.log"; say "debootstrap failed"; exit 1; }
# The updates and security suites, as a Debian 12 machine has them.
cat >"$root/etc/apt/sources.list" <<'EOF'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$root/etc/resolv.conf"
say "root made in $((SECONDS - start)) s"

bind() { mount --bind "$1" "$root$1"; mounted+=("$root$1"); }
mount -t proc proc "$root/proc"; mounted+=("$root/proc")
mount -t sysfs sys "$root/sys"; mounted+=("$root/sys")
bind /dev
bind /dev/pts
mount -t tmpfs -o size=4g tmpfs "$root/dev/shm"; mounted+=("$root/dev/shm")

# The committed HEAD, as `git clone` gives it (uncommitted changes are not what a new user gets).
say "cloning $(git -C "$ROOT" rev-parse --short HEAD) into /root/stackrace"
git clone -q --no-hardlinks "$ROOT" "$root/root/stackrace"

in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "cd /root/stackrace && $1"
}

verdict=()
run_step() {
  local name="$1" log="$2" cmd="$3" isolate="$4" rc=0 t=$SECONDS
  say "running '$cmd' in the fresh root (log: $log)"
  if [ "$isolate" = 1 ]; then
    unshare --net bash -c "ip link set lo up && $(declare -f in_root); root='$root'; in_root '$cmd'" >"$log" 2>&1 || rc=$?
  else
    in_root "$cmd" >"$log" 2>&1 || rc=$?
  fi
  echo "----- the last lines of '$cmd' (exit status $rc, $((SECONDS - t)) s) -----"
  tail -n 25 "$log"
  echo "-----"
  verdict+=("'$cmd': exit $rc in $((SECONDS - t)) s")
  return "$rc"
}

rc=0
# play: with no display it prints why and exits 2 after installing and building; with one it would print --help.
run_step play "$dir/play.log" "./stackrace.sh play --help" 0 || rc=$?
play_ok=0
if [ "$rc" -eq 0 ] || { [ "$rc" -eq 2 ] && grep -q "there is no display" "$dir/play.log"; }; then play_ok=1; fi
[ -x "$root/root/stackrace/build/release/client/stackrace" ] || play_ok=0
test_ok=1
if [ "$play_only" = 0 ]; then
  run_step test "$dir/test.log" "./stackrace.sh test" 1 || test_ok=0
  grep -q "all tests passed" "$dir/test.log" || test_ok=0
fi

say "${verdict[*]}"
if [ "$play_ok" = 1 ] && [ "$test_ok" = 1 ]; then
  say "PASS: the README's commands work on a fresh Debian 12 ($((SECONDS / 60)) min)"
  exit 0
fi
say "FAIL: play $([ "$play_ok" = 1 ] && echo passed || echo failed), test $([ "$play_only" = 1 ] && echo "not run" || { [ "$test_ok" = 1 ] && echo passed || echo failed; })"
exit 1
