#include "client/net/connection.h"

#include <enet/enet.h>
#include <enet/time.h>

namespace sr::net {

Connection::~Connection() { close(); }

void Connection::close() {
  if (host_ != nullptr) {
    if (peer_ != nullptr && state_ == State::kConnected) {
      enet_peer_disconnect_now(peer_, protocol::kClientLeaving);
      enet_host_flush(host_);
    }
    enet_host_destroy(host_);
    enet_deinitialize();
    host_ = nullptr;
    peer_ = nullptr;
  }
}

sr::Status<std::string> Connection::connect(const std::string& host, std::uint16_t port,
                                            std::uint32_t protocol_version) {
  close();
  if (enet_initialize() != 0) return "could not initialise ENet";
  host_ = enet_host_create(nullptr, 1, protocol::kChannelCount, 0, 0);
  if (host_ == nullptr) {
    enet_deinitialize();
    return "could not create a network socket";
  }
  host_->maximumPacketSize = 1 << 20;
  host_->maximumWaitingData = 4 << 20;
  ENetAddress address{};
  address.port = port;
  if (enet_address_set_host(&address, host.c_str()) != 0) {
    close();
    return "cannot resolve '" + host + "'";
  }
  peer_ = enet_host_connect(host_, &address, protocol::kChannelCount, protocol_version);
  if (peer_ == nullptr) {
    close();
    return "cannot start connecting to " + host;
  }
  // A server that acknowledges nothing for this long is gone (ENet pings twice a second); a racer then resumes
  // over a new connection (Session). ENet's default waits up to 30 s.
  enet_peer_timeout(peer_, 0, kTimeoutMs, kTimeoutMs);
  state_ = State::kConnecting;
  connect_started_ms_ = enet_time_get();
  return {};
}

void Connection::poll(std::uint32_t timeout_ms, std::vector<Event>& out) {
  if (host_ == nullptr) return;
  ENetEvent event;
  int status = enet_host_service(host_, &event, timeout_ms);
  while (status > 0) {
    Event e;
    switch (event.type) {
      case ENET_EVENT_TYPE_CONNECT:
        // Silence is timed from here until the server first acknowledges something (ENet leaves this 0 until then).
        if (peer_->lastReceiveTime == 0) peer_->lastReceiveTime = host_->serviceTime;
        state_ = State::kConnected;
        e.kind = Event::Kind::kConnected;
        out.push_back(std::move(e));
        break;
      case ENET_EVENT_TYPE_RECEIVE: {
        protocol::DecodeResult decoded =
            protocol::decode(std::span<const std::uint8_t>(event.packet->data, event.packet->dataLength));
        enet_packet_destroy(event.packet);
        if (decoded.ok()) {
          e.kind = Event::Kind::kMessage;
          e.message = std::move(decoded).value();
        } else {
          e.kind = Event::Kind::kBadMessage;
          e.error = decoded.error().message;
        }
        out.push_back(std::move(e));
        break;
      }
      case ENET_EVENT_TYPE_DISCONNECT:
        state_ = State::kDisconnected;
        e.kind = Event::Kind::kDisconnected;
        e.disconnect_data = event.data;
        out.push_back(std::move(e));
        break;
      case ENET_EVENT_TYPE_NONE: break;
    }
    if (host_ == nullptr) return;
    status = enet_host_check_events(host_, &event);
  }
  // Nothing answers the connect (no server on that port, a machine that drops the packets): give up after the same
  // silence as a connection, not ENet's 30 s.
  if (state_ == State::kConnecting && peer_ != nullptr &&
      ENET_TIME_DIFFERENCE(enet_time_get(), connect_started_ms_) > kTimeoutMs) {
    enet_peer_reset(peer_);
    state_ = State::kDisconnected;
    Event e;
    e.kind = Event::Kind::kDisconnected;
    out.push_back(std::move(e));
    return;
  }
  // ENet checks its timeout only when a resend falls due, up to 10 s late; silence is what we time.
  if (state_ == State::kConnected && peer_ != nullptr && peer_->state == ENET_PEER_STATE_CONNECTED &&
      ENET_TIME_DIFFERENCE(host_->serviceTime, peer_->lastReceiveTime) > kTimeoutMs) {
    enet_peer_reset(peer_);
    state_ = State::kDisconnected;
    Event e;
    e.kind = Event::Kind::kDisconnected;
    out.push_back(std::move(e));
  }
}

bool Connection::send(const protocol::Message& message) {
  if (state_ != State::kConnected) return false;
  const std::uint8_t channel = protocol::message_channel(protocol::message_id(message));
  const std::vector<std::uint8_t> bytes = protocol::encode(message);
  ENetPacket* packet = enet_packet_create(bytes.data(), bytes.size(),
                                          protocol::channel_reliable(channel) ? ENET_PACKET_FLAG_RELIABLE : 0);
  if (packet == nullptr) return false;
  if (enet_peer_send(peer_, channel, packet) != 0) {
    enet_packet_destroy(packet);
    return false;
  }
  return true;
}

void Connection::flush() {
  if (host_ != nullptr) enet_host_flush(host_);
}

void Connection::disconnect() {
  if (peer_ != nullptr && state_ == State::kConnected) {
    enet_peer_disconnect(peer_, protocol::kClientLeaving);
    enet_host_flush(host_);
  }
}

int Connection::socket_handle() const { return host_ != nullptr ? static_cast<int>(host_->socket) : -1; }

std::uint32_t Connection::rtt_ms() const { return peer_ != nullptr ? peer_->roundTripTime : 0; }

}  // namespace sr::net
