// The rules both ends of a stackrace connection put on ENet, in one place: the server's host (server/net_host.h) and
// the client's connection (net/connection.h) create their own ENet hosts but take their limits and their silence
// timing from here, so the two ends cannot drift apart.
//
// Sizes: ENet's defaults accept 32 MiB packets and 32 MiB of waiting data from anyone; a host here accepts what the
// protocol needs (PROTOCOL.md, "Transport"). Silence: ENet checks its own timeout only when a resend falls due, which
// after a few lost resends is up to 10 s past it (a racer's stall budget runs meanwhile), so both ends time a peer's
// silence themselves, the same way (docs/ARCHITECTURE.md, "Resuming a race").
#pragma once

#include <cstddef>
#include <cstdint>

struct _ENetHost;
struct _ENetPeer;

namespace sr::transport {

struct HostLimits {
  std::size_t max_packet_bytes = 0;   // a larger incoming packet is refused by ENet
  std::size_t max_waiting_bytes = 0;  // received bytes not yet handed out, beyond which ENet drops what comes
  // A connected peer that acknowledges nothing for this long is gone (ENet pings an idle peer twice a second), and a
  // connect that nothing answers for this long has failed (ENet's own connect gives up after about 30 s). A racer
  // dropped mid-race keeps their seat and resumes over a new connection (PROTOCOL.md, "Resuming a race").
  std::uint32_t peer_timeout_ms = 5'000;
};

// The server: packets a little over protocol::kMaxMessageBytes, so that an oversized message still arrives and its
// sender is dropped with a reason; 256 KiB waiting.
inline constexpr HostLimits kServerLimits{72 * 1024, 256 * 1024, 5'000};
// A client hears only its server, whose replay downloads arrive as many chunks at once: 1 MiB packets, 4 MiB waiting.
inline constexpr HostLimits kClientLimits{1 << 20, 4 << 20, 5'000};

// Sets the host's packet and waiting-data limits.
void apply_limits(_ENetHost& host, const HostLimits& limits);

// Times the silence of a host's peers. Times are ENet milliseconds (enet_time_get, the host's serviceTime), which wrap
// around: differences are taken as ENet takes them.
class SilenceWatch {
 public:
  // How often peers are judged, and how long a gap between two judgements must be to count as our own stall.
  static constexpr std::uint32_t kJudgeEveryMs = 100;
  static constexpr std::uint32_t kOwnStallMs = 1'000;

  explicit SilenceWatch(std::uint32_t timeout_ms = HostLimits{}.peer_timeout_ms) : timeout_ms_(timeout_ms) {}
  [[nodiscard]] std::uint32_t timeout_ms() const { return timeout_ms_; }

  // A peer connected (a CONNECT event on either end): ENet's own timeout is set to the same limit, and silence is
  // timed from the host's service time until the peer first acknowledges something (ENet leaves that 0 until then).
  void start(_ENetHost& host, _ENetPeer& peer) const;
  // Whether to judge peers at service time `now_ms`: at most every kJudgeEveryMs; and after a gap longer than
  // kJudgeEveryMs + kOwnStallMs since the last call (our own loop stalled), not for kOwnStallMs, because the datagrams
  // that waited meanwhile are not all read yet (ENet reads a few hundred per call) and nobody is silent for that.
  [[nodiscard]] bool judge_now(std::uint32_t now_ms);
  // A connected peer that has acknowledged nothing for longer than the timeout, as of `now_ms`.
  [[nodiscard]] bool silent(const _ENetPeer& peer, std::uint32_t now_ms) const;
  // The same, from the time the peer was last heard of.
  [[nodiscard]] bool silent_since(std::uint32_t last_heard_ms, std::uint32_t now_ms) const;
  // A connect started at `started_ms` that nothing has answered by `now_ms` has failed.
  [[nodiscard]] bool connect_overdue(std::uint32_t started_ms, std::uint32_t now_ms) const {
    return silent_since(started_ms, now_ms);
  }

 private:
  std::uint32_t timeout_ms_;
  std::uint32_t last_judged_ms_ = 0;
  std::uint32_t judge_after_ms_ = 0;
};

}  // namespace sr::transport
