#include "net/connection.h"

#include <enet/enet.h>
#include <enet/time.h>

#include <span>
#include <string>
#include <utility>

namespace sr::net {
namespace {

std::string address_text(const ENetAddress& address) {
  char ip[64] = {};
  if (enet_address_get_host_ip(&address, ip, sizeof ip) != 0) return "?";
  return std::string(ip) + ":" + std::to_string(address.port);
}

}  // namespace

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

sr::Status<std::string> Connection::connect(const std::string& host, std::uint16_t port, std::uint32_t protocol_version,
                                            const std::string& local_host) {
  close();
  ENetAddress local{};
  if (!local_host.empty() && enet_address_set_host_ip(&local, local_host.c_str()) != 0) {
    return "not a local IPv4 address: '" + local_host + "'";
  }
  if (enet_initialize() != 0) return "could not initialise ENet";
  host_ = enet_host_create(local_host.empty() ? nullptr : &local, 1, protocol::kChannelCount, 0, 0);
  if (host_ == nullptr) {
    enet_deinitialize();
    return local_host.empty() ? std::string("could not create a network socket")
                              : "could not bind a network socket to " + local_host;
  }
  transport::apply_limits(*host_, transport::kClientLimits);
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
  connect_id_ = peer_->connectID;
  server_host_ = address.host;
  server_port_ = address.port;
  stranger_reported_ = false;
  // ENet's own timeout, until the server answers; then silence_ takes over (a racer resumes over a new connection).
  enet_peer_timeout(peer_, 0, kTimeoutMs, kTimeoutMs);
  silence_ = transport::SilenceWatch(kTimeoutMs);
  state_ = State::kConnecting;
  connect_started_ms_ = enet_time_get();
  return {};
}

bool Connection::from_server(const ENetEvent& event) const {
  const ENetPeer* peer = event.peer;
  if (peer == nullptr || peer != peer_) return false;
  // ENet resets the peer before it hands out its disconnect (the connection id is 0 by then); a stranger is reset
  // at its connect, so a disconnect on our peer is the server's while our connection lasts.
  if (event.type == ENET_EVENT_TYPE_DISCONNECT) return state_ == State::kConnecting || state_ == State::kConnected;
  return peer->connectID == connect_id_ && peer->address.host == server_host_ && peer->address.port == server_port_;
}

void Connection::lost(std::vector<Event>& out) {
  enet_peer_reset(peer_);
  state_ = State::kDisconnected;
  Event e;
  e.kind = Event::Kind::kDisconnected;
  out.push_back(std::move(e));
}

void Connection::on_receive(const ENetEvent& event, std::vector<Event>& out) {
  Event e;
  protocol::DecodeResult decoded =
      protocol::decode(std::span<const std::uint8_t>(event.packet->data, event.packet->dataLength));
  if (!decoded.ok()) {
    e.kind = Event::Kind::kBadMessage;
    e.error = "a message this client cannot read (" + decoded.error().message + ")";
  } else if (const auto route = protocol::check_route(protocol::message_id(decoded.value()), event.channelID,
                                                      protocol::Sender::kServer);
             !route) {
    e.kind = Event::Kind::kBadMessage;
    e.error = "a message against the protocol (" + route.error() + ")";
  } else {
    e.kind = Event::Kind::kMessage;
    e.message = std::move(decoded).value();
  }
  out.push_back(std::move(e));
}

void Connection::poll(std::uint32_t timeout_ms, std::vector<Event>& out) {
  if (host_ == nullptr) return;
  ENetEvent event;
  int status = enet_host_service(host_, &event, timeout_ms);
  while (status > 0) {
    if (event.type != ENET_EVENT_TYPE_NONE && !from_server(event)) {
      // Only a stranger can be here: our one peer is the server's until that connection ends, and then ENet lets
      // anyone connect to our socket on it. Its packets are dropped and its connection reset unanswered.
      if (event.type == ENET_EVENT_TYPE_RECEIVE) enet_packet_destroy(event.packet);
      if (event.type == ENET_EVENT_TYPE_CONNECT && !stranger_reported_) {
        stranger_reported_ = true;
        Event e;
        e.kind = Event::Kind::kIgnored;
        e.error = "a connection from " + address_text(event.peer->address) + ", which is not the server";
        out.push_back(std::move(e));
      }
      if (event.type != ENET_EVENT_TYPE_DISCONNECT) enet_peer_reset(event.peer);
    } else {
      switch (event.type) {
        case ENET_EVENT_TYPE_CONNECT: {
          silence_.start(*host_, *peer_);
          state_ = State::kConnected;
          Event e;
          e.kind = Event::Kind::kConnected;
          out.push_back(std::move(e));
          break;
        }
        case ENET_EVENT_TYPE_RECEIVE:
          on_receive(event, out);
          enet_packet_destroy(event.packet);
          break;
        case ENET_EVENT_TYPE_DISCONNECT: {
          state_ = State::kDisconnected;
          Event e;
          e.kind = Event::Kind::kDisconnected;
          e.disconnect_data = event.data;
          out.push_back(std::move(e));
          break;
        }
        case ENET_EVENT_TYPE_NONE: break;
      }
    }
    if (host_ == nullptr) return;
    status = enet_host_check_events(host_, &event);
  }
  if (peer_ == nullptr) return;
  // Nothing answers the connect (no server on that port, a machine that drops the packets): given up after the same
  // silence as a connection, not ENet's 30 s.
  if (state_ == State::kConnecting && silence_.connect_overdue(connect_started_ms_, enet_time_get())) return lost(out);
  if (state_ == State::kConnected && silence_.judge_now(host_->serviceTime) &&
      silence_.silent(*peer_, host_->serviceTime)) {
    lost(out);
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
