#!/usr/bin/env bash
# LanTest: LAN discovery for real (common/protocol/DIRECTORY.md, "2. LAN discovery"). Three network namespaces: a
# bridge, a server and a player, the two joined to the bridge by veth pairs (10.77.0.0/24 and IPv6 link-local). The
# server runs `stackrace-server` with its default discovery port; the player's stackrace-lan-probe (net/discovery's
# ServerQuery, as the game's browser) must find it within a second by broadcast, and then two `stackrace-bot`s join
# the address found and race a sprint there. Traffic stays inside the namespaces; everything is removed on exit.
# usage: lan_test.sh STACKRACE_SERVER STACKRACE_LAN_PROBE STACKRACE_BOT
# Exit status 77 (skipped) when not root or without `ip netns`.
set -euo pipefail

server_bin="$1"
probe_bin="$2"
bot_bin="$3"

if [ "$(id -u)" -ne 0 ]; then
  echo "LanTest: skipped: needs root to make network namespaces (run as root, as CI does)"
  exit 77
fi
if ! ip netns list >/dev/null 2>&1; then
  echo "LanTest: skipped: 'ip netns' is not available"
  exit 77
fi

run_id="$$-$RANDOM"
ns_bridge="srlan-br-$run_id"
ns_server="srlan-sv-$run_id"
ns_player="srlan-pl-$run_id"
work="$(mktemp -d /tmp/stackrace-lan.XXXXXX)"
server_pid=""

cleanup() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  for ns in "$ns_player" "$ns_server" "$ns_bridge"; do ip netns del "$ns" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "LanTest: FAIL: $*" >&2
  if [ -f "$work/server.log" ]; then
    echo "--- server output" >&2
    cat "$work/server.log" >&2
  fi
  exit 1
}

for ns in "$ns_bridge" "$ns_server" "$ns_player"; do
  ip netns add "$ns"
  # IPv6 addresses usable at once (no duplicate address detection), so ff02::1 can be probed from the start.
  ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.accept_dad=0 2>/dev/null || true
  ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 2>/dev/null || true
  ip -n "$ns" link set lo up
done
ip -n "$ns_bridge" link add br0 type bridge
ip -n "$ns_bridge" link set br0 up
# Each end host's eth0 is one end of a veth pair whose other end is a port of the bridge.
ip -n "$ns_server" link add eth0 type veth peer name port-sv netns "$ns_bridge"
ip -n "$ns_player" link add eth0 type veth peer name port-pl netns "$ns_bridge"
for port in port-sv port-pl; do
  ip -n "$ns_bridge" link set "$port" master br0
  ip -n "$ns_bridge" link set "$port" up
done
ip -n "$ns_server" addr add 10.77.0.1/24 brd + dev eth0
ip -n "$ns_player" addr add 10.77.0.2/24 brd + dev eth0
ip -n "$ns_server" link set eth0 up
ip -n "$ns_player" link set eth0 up

# The server, with its defaults (game port 7878, discovery port 47777).
ip netns exec "$ns_server" "$server_bin" --data-dir "$work/data" --name "lan test" --log-level info \
  >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 200); do
  grep -q "^LAN discovery on UDP port 47777" "$work/server.log" && break
  kill -0 "$server_pid" 2>/dev/null || fail "the server exited"
  sleep 0.05
done
grep -q "^LAN discovery on UDP port 47777" "$work/server.log" || fail "the server did not start LAN discovery"

# Found within a second, by broadcast from the other namespace.
ip netns exec "$ns_player" "$probe_bin" --timeout-ms 1000 --listen-more-ms 500 >"$work/probe.txt" \
  2>"$work/probe.err" || { cat "$work/probe.txt" "$work/probe.err" >&2; fail "no server found within 1 s"; }
cat "$work/probe.txt"
read -r _ _ address port after rest < <(grep "^found v4 " "$work/probe.txt" | head -1)
[ "$address" = "10.77.0.1" ] || fail "found $address, not the server's 10.77.0.1"
[ "$port" = "7878" ] || fail "found game port $port, not 7878"
after_ms="${after#after_ms=}"
[ "$after_ms" -le 1000 ] || fail "found after $after_ms ms"
case "$rest" in *"name=lan test"*) ;; *) fail "the server's name is not in '$rest'" ;; esac
if grep -q "^found v6 fe80::" "$work/probe.txt"; then
  echo "LanTest: the server answered on IPv6 (ff02::1) too"
else
  fail "no answer from the server over IPv6 (ff02::1)"
fi

# Joined: two bots race a short sprint on the address found.
ip netns exec "$ns_player" "$bot_bin" --server "$address:$port" --count 2 --create sprint --lines 4 --timeout 120 \
  --quiet >"$work/bot.txt" 2>&1 || { cat "$work/bot.txt" >&2; fail "the bots could not race on $address:$port"; }
cat "$work/bot.txt"
grep -q "^summary: 1 races, 2 of 2 racers finished" "$work/bot.txt" || fail "the race on $address:$port did not finish"
echo "LanTest: found $address:$port after $after_ms ms and raced there"
