#include "net/transport/limits.h"

#include <enet/enet.h>
#include <enet/time.h>

namespace sr::transport {

void apply_limits(ENetHost& host, const HostLimits& limits) {
  host.maximumPacketSize = limits.max_packet_bytes;
  host.maximumWaitingData = limits.max_waiting_bytes;
}

void SilenceWatch::start(ENetHost& host, ENetPeer& peer) const {
  enet_peer_timeout(&peer, 0, timeout_ms_, timeout_ms_);
  if (peer.lastReceiveTime == 0) peer.lastReceiveTime = host.serviceTime;
}

bool SilenceWatch::judge_now(std::uint32_t now_ms) {
  const std::uint32_t since_last = ENET_TIME_DIFFERENCE(now_ms, last_judged_ms_);
  if (since_last < kJudgeEveryMs) return false;
  last_judged_ms_ = now_ms;
  if (since_last > kJudgeEveryMs + kOwnStallMs) judge_after_ms_ = now_ms + kOwnStallMs;
  return !ENET_TIME_LESS(now_ms, judge_after_ms_);
}

bool SilenceWatch::silent(const ENetPeer& peer, std::uint32_t now_ms) const {
  return peer.state == ENET_PEER_STATE_CONNECTED && silent_since(peer.lastReceiveTime, now_ms);
}

bool SilenceWatch::silent_since(std::uint32_t last_heard_ms, std::uint32_t now_ms) const {
  return ENET_TIME_DIFFERENCE(now_ms, last_heard_ms) > timeout_ms_;
}

}  // namespace sr::transport
