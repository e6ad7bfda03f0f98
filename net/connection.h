// The client's ENet connection to one server: connect with the protocol version in the connect data, then send and
// receive whole messages. Knows bytes and messages, not lobby rules (session.h). Its limits and silence timing are
// the server's too (net/transport/limits.h).
//
// What it hands out comes from the server it connected to, as PROTOCOL.md "Transport" says: traffic from any other
// address is dropped (kIgnored), and a message on another channel than its own, or one only clients send, is a
// protocol error (kBadMessage), after which the session closes the connection.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/protocol/codec.h"
#include "common/protocol/messages.h"
#include "common/result.h"
#include "net/transport/limits.h"

struct _ENetHost;
struct _ENetPeer;
struct _ENetEvent;

namespace sr::net {

class Connection {
 public:
  // Silence after which a connected server is taken as gone, and the longest a connect waits for an answer.
  static constexpr std::uint32_t kTimeoutMs = transport::kClientLimits.peer_timeout_ms;
  enum class State : std::uint8_t { kIdle, kConnecting, kConnected, kDisconnected };

  struct Event {
    enum class Kind : std::uint8_t { kConnected, kMessage, kBadMessage, kIgnored, kDisconnected };
    Kind kind = Kind::kMessage;
    std::optional<protocol::Message> message;  // kMessage
    // kBadMessage: what the server sent, for "the server sent ...": "a message this client cannot read (...)" or
    // "a message against the protocol (Welcome on channel 1, not 0)". kIgnored: what was dropped, and from where.
    std::string error;
    std::uint32_t disconnect_data = 0;  // kDisconnected: the server's DisconnectReason, 0 if none
  };

  Connection() = default;
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Starts connecting to host:port (a name or an address). Ok, or an error sentence if that cannot even start.
  // `local_host`, when not empty, is the IPv4 address our socket is bound to (the source address the server sees:
  // tests that play several addresses on loopback); empty binds none (the system picks).
  [[nodiscard]] sr::Status<std::string> connect(const std::string& host, std::uint16_t port,
                                                std::uint32_t protocol_version = protocol::kProtocolVersion,
                                                const std::string& local_host = {});
  // Waits up to timeout_ms for traffic; appends what happened.
  void poll(std::uint32_t timeout_ms, std::vector<Event>& out);
  // Queues a message on its channel (protocol::message_channel). False when not connected.
  bool send(const protocol::Message& message);
  void flush();
  void disconnect();

  [[nodiscard]] State state() const { return state_; }
  // Round-trip time ENet measured, in milliseconds.
  [[nodiscard]] std::uint32_t rtt_ms() const;
  // The UDP socket's descriptor (-1 when closed), for a caller that waits on many connections at once.
  [[nodiscard]] int socket_handle() const;

 private:
  void close();
  // Whether an event comes from the server we connected to: our one peer, with the connection id and the address of
  // our connect (a stranger that connects to our socket once the server's connection is gone gets the same peer).
  [[nodiscard]] bool from_server(const _ENetEvent& event) const;
  void on_receive(const _ENetEvent& event, std::vector<Event>& out);
  // Ends the connection on our side at once (no goodbye): the server is gone, or never answered.
  void lost(std::vector<Event>& out);

  _ENetHost* host_ = nullptr;
  _ENetPeer* peer_ = nullptr;
  std::uint32_t connect_id_ = 0;   // ENet's random id of our connect
  std::uint32_t server_host_ = 0;  // the server's IPv4 address (network order) and port
  std::uint16_t server_port_ = 0;
  bool stranger_reported_ = false;  // one kIgnored for strangers per connect, however many come
  State state_ = State::kIdle;
  std::uint32_t connect_started_ms_ = 0;  // ENet time of connect()
  transport::SilenceWatch silence_{kTimeoutMs};
};

}  // namespace sr::net
