// The client's ENet connection to one server: connect with the protocol version in the connect data, then send and
// receive whole messages. Knows bytes and messages, not lobby rules (session.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/protocol/codec.h"
#include "common/protocol/messages.h"
#include "common/result.h"

struct _ENetHost;
struct _ENetPeer;

namespace sr::net {

class Connection {
 public:
  // Silence after which a connected server is taken as gone, and the longest a connect waits for an answer (ENet's
  // own connect gives up only after about 30 s).
  static constexpr std::uint32_t kTimeoutMs = 5'000;
  enum class State : std::uint8_t { kIdle, kConnecting, kConnected, kDisconnected };

  struct Event {
    enum class Kind : std::uint8_t { kConnected, kMessage, kBadMessage, kDisconnected };
    Kind kind = Kind::kMessage;
    std::optional<protocol::Message> message;  // kMessage
    std::string error;                         // kBadMessage: why it did not decode
    std::uint32_t disconnect_data = 0;         // kDisconnected: the server's DisconnectReason, 0 if none
  };

  Connection() = default;
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Starts connecting to host:port (a name or an address). Ok, or an error sentence if that cannot even start.
  [[nodiscard]] sr::Status<std::string> connect(const std::string& host, std::uint16_t port,
                                                std::uint32_t protocol_version = protocol::kProtocolVersion);
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

  _ENetHost* host_ = nullptr;
  _ENetPeer* peer_ = nullptr;
  State state_ = State::kIdle;
  std::uint32_t connect_started_ms_ = 0;  // ENet time of connect()
};

}  // namespace sr::net
