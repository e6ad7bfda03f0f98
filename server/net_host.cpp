#include "server/net_host.h"

#include <arpa/inet.h>
#include <enet/enet.h>
#include <linux/sock_diag.h>
#include <sys/socket.h>

#include <array>
#include <chrono>
#include <cstring>

#include "common/protocol/server_query.h"

namespace sr::server {
namespace {

PeerId id_of(const ENetPeer* peer) { return static_cast<PeerId>(reinterpret_cast<std::uintptr_t>(peer->data)); }

// The gate of the host whose enet_host_service runs on this thread (the only ENet call that reads datagrams).
thread_local ConnectGate* t_servicing_gate = nullptr;
thread_local std::int64_t t_servicing_since_us = 0;
thread_local QueryResponder* t_servicing_queries = nullptr;

// The gate's clock (ENet's own is milliseconds from gettimeofday, which wraps and may step back).
std::int64_t steady_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string text_of(std::uint32_t address) {
  char text[32] = {};
  ENetAddress a{};
  a.host = address;
  if (enet_address_get_host_ip(&a, text, sizeof text) != 0) return "?";
  return text;
}

}  // namespace

NetHost::~NetHost() {
  if (host_ != nullptr) {
    enet_host_destroy(host_);
    enet_deinitialize();
  }
}

sr::Status<std::string> NetHost::open(const std::string& bind_address, std::uint16_t port, std::size_t channels,
                                      const NetLimits& limits) {
  if (enet_initialize() != 0) return "could not initialise ENet";
  ENetAddress address{};
  address.port = port;
  if (bind_address.empty() || bind_address == "0.0.0.0" || bind_address == "*") {
    address.host = ENET_HOST_ANY;
  } else if (enet_address_set_host_ip(&address, bind_address.c_str()) != 0 &&
             enet_address_set_host(&address, bind_address.c_str()) != 0) {
    enet_deinitialize();
    return "cannot resolve bind address '" + bind_address + "'";
  }
  host_ = enet_host_create(&address, limits.max_peers, channels, 0, 0);
  if (host_ == nullptr) {
    enet_deinitialize();
    return "cannot listen on " + bind_address + ":" + std::to_string(port) + " (port in use or not permitted)";
  }
  transport::apply_limits(*host_, limits.host);
  host_->duplicatePeers = limits.max_peers_per_ip;
  gate_.emplace(limits.connect_gate);
  host_->intercept = &NetHost::intercept;
  (void)enet_socket_set_option(host_->socket, ENET_SOCKOPT_RCVBUF, limits.socket_buffer_bytes);
  (void)enet_socket_set_option(host_->socket, ENET_SOCKOPT_SNDBUF, limits.socket_buffer_bytes);
  int granted = 0;
  socklen_t length = sizeof granted;
  // Linux reports twice the usable size (it counts its bookkeeping too).
  if (getsockopt(host_->socket, SOL_SOCKET, SO_RCVBUF, &granted, &length) == 0) receive_buffer_bytes_ = granted / 2;
  // enet_host_create binds; read back the port in case 0 asked for any free one.
  ENetAddress bound{};
  if (enet_socket_get_address(host_->socket, &bound) == 0) port_ = bound.port;
  silence_ = transport::SilenceWatch(limits.host.peer_timeout_ms);
  return {};
}

void NetHost::poll(std::uint32_t timeout_ms, std::vector<NetEvent>& out) {
  if (host_ == nullptr) return;
  ENetEvent event;
  t_servicing_gate = gate_ ? &*gate_ : nullptr;
  t_servicing_queries = queries_;
  t_servicing_since_us = steady_us();  // a datagram read during the wait is judged as of its start (≤ timeout_ms)
  int status = enet_host_service(host_, &event, timeout_ms);
  t_servicing_gate = nullptr;
  t_servicing_queries = nullptr;
  while (status > 0) {
    NetEvent e;
    e.connection = event.peer != nullptr ? event.peer->connectID : 0;
    switch (event.type) {
      case ENET_EVENT_TYPE_CONNECT: {
        const PeerId id = next_id_++;
        event.peer->data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(id));
        silence_.start(*host_, *event.peer);
        peers_[id] = event.peer;
        e.kind = NetEvent::Kind::kConnect;
        e.peer = id;
        e.connect_data = event.data;
        out.push_back(std::move(e));
        break;
      }
      case ENET_EVENT_TYPE_RECEIVE: {
        e.kind = NetEvent::Kind::kReceive;
        e.peer = id_of(event.peer);
        e.channel = event.channelID;
        e.bytes.assign(event.packet->data, event.packet->data + event.packet->dataLength);
        enet_packet_destroy(event.packet);
        out.push_back(std::move(e));
        break;
      }
      case ENET_EVENT_TYPE_DISCONNECT: {
        const PeerId id = id_of(event.peer);
        if (id != 0) {
          peers_.erase(id);
          e.kind = NetEvent::Kind::kDisconnect;
          e.peer = id;
          e.connect_data = event.data;
          out.push_back(std::move(e));
        }
        event.peer->data = nullptr;
        break;
      }
      case ENET_EVENT_TYPE_NONE: break;
    }
    status = enet_host_check_events(host_, &event);
  }
  drop_silent(out);
}

int NetHost::intercept(ENetHost* host, ENetEvent* /*event*/) {
  // Server queries and hub challenges (DIRECTORY.md, section 1) first: their prefix is no ENet datagram's, and they
  // never go on to ENet, answered or not.
  const std::span<const std::uint8_t> datagram(host->receivedData, host->receivedDataLength);
  if (protocol::has_query_prefix(datagram)) {
    if (t_servicing_queries == nullptr) return 1;
    const auto reply =
        t_servicing_queries->handle(datagram, ipv4_address(host->receivedAddress.host), t_servicing_since_us);
    if (reply) {
      ENetBuffer buffer{};
      buffer.data = const_cast<std::uint8_t*>(reply->data());
      buffer.dataLength = reply->size();
      (void)enet_socket_send(host->socket, &host->receivedAddress, &buffer, 1);
    }
    return 1;
  }
  // A datagram addressed to no peer (the header's peer id is ENet's "none") can only be a CONNECT. Anything else
  // goes on to ENet, which checks it.
  if (t_servicing_gate == nullptr || host->receivedDataLength < sizeof(enet_uint16)) return 0;
  enet_uint16 header = 0;
  std::memcpy(&header, host->receivedData, sizeof header);
  const auto peer_id = static_cast<enet_uint16>(ENET_NET_TO_HOST_16(header) &
                                                ~(ENET_PROTOCOL_HEADER_FLAG_MASK | ENET_PROTOCOL_HEADER_SESSION_MASK));
  if (peer_id != ENET_PROTOCOL_MAXIMUM_PEER_ID) return 0;
  return t_servicing_gate->allow(host->receivedAddress.host, t_servicing_since_us) ? 0 : 1;
}

std::vector<std::pair<std::string, std::uint64_t>> NetHost::take_refused_connects() {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  if (!gate_ || host_ == nullptr) return out;
  for (const auto& [address, count] : gate_->take_dropped(steady_us())) {
    out.emplace_back(text_of(address), count);
  }
  return out;
}

void NetHost::drop_silent(std::vector<NetEvent>& out) {
  // A peer that has acknowledged nothing for the limit is gone, as if ENet had timed it out (limits.h says why we
  // time it).
  const std::uint32_t now = host_->serviceTime;
  if (!silence_.judge_now(now)) return;
  for (auto it = peers_.begin(); it != peers_.end();) {
    ENetPeer* peer = it->second;
    if (!silence_.silent(*peer, now)) {
      ++it;
      continue;
    }
    NetEvent e;
    e.kind = NetEvent::Kind::kDisconnect;
    e.peer = it->first;
    e.connection = peer->connectID;
    out.push_back(std::move(e));
    peer->data = nullptr;
    enet_peer_reset(peer);
    it = peers_.erase(it);
  }
}

void NetHost::flush() {
  if (host_ != nullptr) enet_host_flush(host_);
}

bool NetHost::send(PeerId peer, std::uint8_t channel, std::span<const std::uint8_t> bytes, bool reliable) {
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return false;
  ENetPacket* packet = enet_packet_create(bytes.data(), bytes.size(), reliable ? ENET_PACKET_FLAG_RELIABLE : 0);
  if (packet == nullptr) return false;
  if (enet_peer_send(it->second, channel, packet) != 0) {
    enet_packet_destroy(packet);
    return false;
  }
  ++messages_sent_;
  return true;
}

void NetHost::send_many(std::span<const PeerId> to, std::uint8_t channel, std::span<const std::uint8_t> bytes,
                        bool reliable) {
  ENetPacket* packet = enet_packet_create(bytes.data(), bytes.size(), reliable ? ENET_PACKET_FLAG_RELIABLE : 0);
  if (packet == nullptr) return;
  for (PeerId peer : to) {
    const auto it = peers_.find(peer);
    if (it != peers_.end() && enet_peer_send(it->second, channel, packet) == 0) ++messages_sent_;
  }
  // Nobody took it (every peer gone, or every queue refused it): it is ours to free.
  if (packet->referenceCount == 0) enet_packet_destroy(packet);
}

void NetHost::disconnect(PeerId peer, std::uint32_t reason) {
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return;
  enet_peer_disconnect_later(it->second, reason);
}

void NetHost::rebind(PeerId keep, PeerId from) {
  const auto moved = peers_.find(from);
  if (keep == from || moved == peers_.end()) return;
  ENetPeer* peer = moved->second;
  peers_.erase(moved);
  if (const auto old = peers_.find(keep); old != peers_.end()) {
    // Closed once what was queued for it has gone (the lobby may have said why); its events are nobody's from now.
    old->second->data = nullptr;
    enet_peer_disconnect_later(old->second, 0);
  }
  peer->data = reinterpret_cast<void*>(static_cast<std::uintptr_t>(keep));
  peers_[keep] = peer;
}

bool NetHost::is_stale(PeerId peer, std::uint32_t connection) const {
  const auto it = peers_.find(peer);
  return it != peers_.end() && it->second->connectID != connection;
}

std::string NetHost::address_of(PeerId peer) const {
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return "?";
  char ip[64] = {};
  enet_address_get_host_ip(&it->second->address, ip, sizeof ip);
  return std::string(ip) + ":" + std::to_string(it->second->address.port);
}

void NetHost::hold_address(PeerId peer, std::uint32_t ms) {
  const auto it = peers_.find(peer);
  if (it == peers_.end() || !gate_) return;
  gate_->hold(it->second->address.host, steady_us() + std::int64_t{ms} * 1000);
}

std::size_t NetHost::queued_bytes(PeerId peer) const {
  const auto it = peers_.find(peer);
  if (it == peers_.end()) return 0;
  std::size_t bytes = 0;
  // ENet keeps no running total: walk the commands. A peer's queue is short unless it is downloading or not reading,
  // which is what this is asked about.
  for (ENetList* list : {&it->second->outgoingCommands, &it->second->sentReliableCommands}) {
    for (ENetListIterator c = enet_list_begin(list); c != enet_list_end(list); c = enet_list_next(c)) {
      bytes += reinterpret_cast<const ENetOutgoingCommand*>(c)->fragmentLength;
    }
  }
  return bytes;
}

std::int64_t NetHost::steady_now_us() { return steady_us(); }

std::uint64_t NetHost::bytes_sent() const { return host_ ? host_->totalSentData : 0; }
std::uint64_t NetHost::bytes_received() const { return host_ ? host_->totalReceivedData : 0; }
std::uint64_t NetHost::socket_drops() const {
  if (host_ == nullptr) return 0;
  std::array<std::uint32_t, SK_MEMINFO_VARS> info{};
  socklen_t length = sizeof info;
  if (getsockopt(host_->socket, SOL_SOCKET, SO_MEMINFO, info.data(), &length) != 0 ||
      length < (SK_MEMINFO_DROPS + 1) * sizeof(std::uint32_t)) {
    return 0;
  }
  return info[SK_MEMINFO_DROPS];
}

std::uint64_t NetHost::datagrams_sent() const { return host_ ? host_->totalSentPackets : 0; }
std::uint64_t NetHost::datagrams_received() const { return host_ ? host_->totalReceivedPackets : 0; }

}  // namespace sr::server
