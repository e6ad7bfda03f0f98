// The server's ENet host: creation with small limits, peer bookkeeping by our own ids, and packet I/O as bytes.
// Knows nothing of messages; the lobby decodes and encodes them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "net/transport/limits.h"
#include "server/connect_gate.h"
#include "server/query_responder.h"

struct _ENetHost;
struct _ENetPeer;
struct _ENetEvent;

namespace sr::server {

using PeerId = std::uint32_t;

// Limits given to ENet instead of its 32 MiB defaults (docs/ARCHITECTURE.md, "Protocol").
struct NetLimits {
  std::size_t max_peers = 1100;
  // The UDP socket's receive and send buffers. ENet asks for 256 KiB, which a busy server fills in a few milliseconds
  // of being descheduled; every datagram beyond it is dropped and waits for ENet's retransmission (tens of ms).
  // The kernel caps the size at net.core.rmem_max / wmem_max.
  int socket_buffer_bytes = 8 << 20;
  std::size_t max_peers_per_ip = 1100;  // ENet's silent cap; the lobby's max_per_address answers in words
  // Packet and waiting-data sizes, and the silence after which a peer is dropped: the rules the client's connection
  // follows too (net/transport/limits.h).
  transport::HostLimits host = transport::kServerLimits;
  // Connection attempts per address beyond this are dropped before ENet sees them (connect_gate.h).
  ConnectGateLimits connect_gate;
};

struct NetEvent {
  enum class Kind : std::uint8_t { kConnect, kReceive, kDisconnect };
  Kind kind = Kind::kReceive;
  PeerId peer = 0;
  // kConnect: the client's protocol version. kDisconnect: what the client sent with its disconnect
  // (protocol::kClientLeaving when it closed on purpose), 0 when the connection timed out.
  std::uint32_t connect_data = 0;
  std::uint8_t channel = 0;
  std::vector<std::uint8_t> bytes;  // kReceive
  // ENet's random id of the connection the event came from: after rebind() an event of the old connection still
  // queued is told from one of the new (is_stale).
  std::uint32_t connection = 0;
};

class NetHost {
 public:
  NetHost() = default;
  ~NetHost();
  NetHost(const NetHost&) = delete;
  NetHost& operator=(const NetHost&) = delete;

  // Binds `bind_address:port` (port 0 picks a free port). Returns ok, or an error sentence.
  [[nodiscard]] sr::Status<std::string> open(const std::string& bind_address, std::uint16_t port, std::size_t channels,
                                             const NetLimits& limits);
  [[nodiscard]] std::uint16_t port() const { return port_; }
  // Datagrams with the query prefix (common/protocol/server_query.h) never reach ENet: valid queries are answered by
  // `queries` (not owned; null: none are answered), the rest dropped. Call before poll().
  void set_queries(QueryResponder* queries) { queries_ = queries; }
  // The clock the connect gate and the query responder are given: steady-clock microseconds.
  [[nodiscard]] static std::int64_t steady_now_us();

  // Waits at most `timeout_ms` for network events and returns those that arrived.
  void poll(std::uint32_t timeout_ms, std::vector<NetEvent>& out);
  // Sends now whatever was queued.
  void flush();

  // Queues bytes for a peer; false if the peer is unknown or the packet could not be created.
  bool send(PeerId peer, std::uint8_t channel, std::span<const std::uint8_t> bytes, bool reliable);
  // One packet, shared by every peer in `to` (ENet counts its references). Unknown peers are skipped.
  void send_many(std::span<const PeerId> to, std::uint8_t channel, std::span<const std::uint8_t> bytes, bool reliable);
  // Disconnects politely after queued packets are sent; `reason` reaches the client's disconnect event.
  void disconnect(PeerId peer, std::uint32_t reason);
  // A resumed player: id `keep` now means the connection `from` had (and `from` is forgotten). The connection `keep`
  // had, if still open, is closed once what was queued for it has been sent (the lobby tells it why).
  void rebind(PeerId keep, PeerId from);
  // True when `peer` has been moved to another connection than `connection` (rebind): an event of the old one that
  // was already polled is to be ignored.
  [[nodiscard]] bool is_stale(PeerId peer, std::uint32_t connection) const;
  [[nodiscard]] std::string address_of(PeerId peer) const;
  // The connect gate drops new connections from `peer`'s address for `ms` milliseconds (ConnectGate::hold).
  void hold_address(PeerId peer, std::uint32_t ms);
  // Bytes queued for the peer: waiting to be sent, or sent reliably and not yet acknowledged. 0 for unknown peers.
  [[nodiscard]] std::size_t queued_bytes(PeerId peer) const;
  [[nodiscard]] std::size_t peer_count() const { return peers_.size(); }
  // The socket receive buffer the kernel granted (bytes usable for datagrams), 0 if unknown.
  [[nodiscard]] int receive_buffer_bytes() const { return receive_buffer_bytes_; }
  // Connection attempts the gate dropped since the last call, by address ("a.b.c.d"), and forgets them.
  [[nodiscard]] std::vector<std::pair<std::string, std::uint64_t>> take_refused_connects();
  // Total bytes sent and received since open().
  [[nodiscard]] std::uint64_t bytes_sent() const;
  [[nodiscard]] std::uint64_t bytes_received() const;
  // UDP datagrams sent and received since open(), and the messages queued to peers (a message to n peers counts n):
  // at each flush ENet packs what waits for one peer into as few datagrams as fit.
  [[nodiscard]] std::uint64_t datagrams_sent() const;
  [[nodiscard]] std::uint64_t datagrams_received() const;
  [[nodiscard]] std::uint64_t messages_sent() const { return messages_sent_; }
  // Datagrams the kernel dropped because the socket's receive queue was full (the loop did not read fast enough: the
  // server is overloaded), since open(); 0 where the kernel does not say (SO_MEMINFO).
  [[nodiscard]] std::uint64_t socket_drops() const;

 private:
  // Peers silent for longer than the limit (transport::SilenceWatch): disconnect events (data 0, a timeout), and
  // forgotten.
  void drop_silent(std::vector<NetEvent>& out);

  // ENet's intercept callback (no user pointer: poll() names the host being serviced in a thread_local).
  static int intercept(_ENetHost* host, _ENetEvent* event);

  _ENetHost* host_ = nullptr;
  std::optional<ConnectGate> gate_;
  QueryResponder* queries_ = nullptr;
  std::uint16_t port_ = 0;
  PeerId next_id_ = 1;
  std::map<PeerId, _ENetPeer*> peers_;
  int receive_buffer_bytes_ = 0;
  std::uint64_t messages_sent_ = 0;
  transport::SilenceWatch silence_;
};

}  // namespace sr::server
