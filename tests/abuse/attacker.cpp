#include "tests/abuse/attacker.h"

#include <enet/enet.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <span>

#include "common/engine/config.h"
#include "common/protocol/codec.h"
#include "common/protocol/messages.h"
#include "net/identity/player_key.h"
#include "net/session.h"

namespace sr::abuse {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// A client whose connection dropped (or was refused) tries again after this: an attacker keeps up the pressure.
constexpr auto kReconnectAfter = 1s;
// With other attacks at once, the silent connections start this much later.
constexpr auto kSilentLater = 2s;
// Join/leave: one request per this, so a spectator sends 190 messages a second, under the server's 200 a second per
// player (server/player.h).
constexpr auto kJoinLeaveEvery = std::chrono::microseconds(1'000'000 / 190);
// A refused join is asked again after this.
constexpr auto kRetryRefused = 100ms;
constexpr auto kRetryCreate = 1s;
// How often an attack host other than the slow reader's is serviced.
constexpr auto kServiceEvery = 2ms;
// The slow reader tells the server it takes at most this many bytes a second, so the server gives it the smallest
// reliable window (ENet's 4 KiB) and throttles it: with acknowledgements only every download_read_every_ms the
// server can send little, and everything asked for waits in its queues.
constexpr enet_uint32 kSlowReaderBandwidth = 16 * 1024;

struct Client {
  enum class State : std::uint8_t { kIdle, kConnecting, kConnected, kWelcomed };
  ENetPeer* peer = nullptr;
  State state = State::kIdle;
  std::string name;
  Clock::time_point next_send{};
  Clock::time_point reconnect_at{};
  bool asked = false;       // a request waits for its answer
  bool in_room = false;     // rooms: created
  bool leave_next = false;  // joinleave: the next request is a LeaveRoom
  std::uint32_t target_room = 0;
};

std::string disconnect_name(std::uint32_t data) {
  switch (static_cast<protocol::DisconnectReason>(data)) {
    case protocol::DisconnectReason::kOther: return "none/other";
    case protocol::DisconnectReason::kServerShutdown: return "shutdown";
    case protocol::DisconnectReason::kKicked: return "kicked";
    case protocol::DisconnectReason::kBanned: return "banned";
    case protocol::DisconnectReason::kProtocolError: return "protocol error";
    case protocol::DisconnectReason::kRateLimited: return "rate limited";
    case protocol::DisconnectReason::kTimeout: return "timeout";
    case protocol::DisconnectReason::kRejected: return "rejected";
    case protocol::DisconnectReason::kIdle: return "idle";
  }
  return fmt::format("code {}", data);
}

std::string counts_text(const std::map<std::string, std::int64_t>& counts) {
  std::string out;
  for (const auto& [what, n] : counts) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, what);
  return out;
}

}  // namespace

const char* attack_name(AttackKind kind) {
  switch (kind) {
    case AttackKind::kSilent: return "silent";
    case AttackKind::kDownload: return "download";
    case AttackKind::kList: return "list";
    case AttackKind::kJoinLeave: return "joinleave";
    case AttackKind::kRooms: return "rooms";
    case AttackKind::kIdle: return "idle";
    case AttackKind::kListRooms: return "listrooms";
    case AttackKind::kCatchUp: return "catchup";
    case AttackKind::kTheft: return "theft";
  }
  return "?";
}

std::optional<AttackKind> attack_by_name(const std::string& name) {
  for (AttackKind k :
       {AttackKind::kSilent, AttackKind::kDownload, AttackKind::kList, AttackKind::kJoinLeave, AttackKind::kRooms,
        AttackKind::kIdle, AttackKind::kListRooms, AttackKind::kCatchUp, AttackKind::kTheft}) {
    if (name == attack_name(k)) return k;
  }
  return std::nullopt;
}

std::string describe(const AttackCounters& c) {
  std::string out = fmt::format("{} connects, {} connected (at most {} open), {} welcomed, {} requests", c.connects,
                                c.connected, c.open_peak, c.welcomed, c.requests);
  if (c.game_lists > 0) out += fmt::format(", {} game lists", c.game_lists);
  if (c.chunk_bytes > 0) out += fmt::format(", {} KiB of replay received", c.chunk_bytes / 1024);
  if (c.rooms_joined > 0 || c.rooms_left > 0)
    out += fmt::format(", {} rooms joined, {} left", c.rooms_joined, c.rooms_left);
  if (c.room_lists > 0) out += fmt::format(", {} room lists", c.room_lists);
  if (c.catch_ups > 0 || c.race_bytes > 0) {
    out += fmt::format(", {} catch-ups, {} KiB on the race channel ({:.0f} KiB/s)", c.catch_ups, c.race_bytes / 1024,
                       c.seconds > 0 ? static_cast<double>(c.race_bytes) / 1024.0 / c.seconds : 0.0);
  }
  if (c.seats_taken > 0) out += fmt::format(", {} SEATS TAKEN with a seen token", c.seats_taken);
  if (!c.rejects.empty()) out += "; rejected: " + counts_text(c.rejects);
  if (!c.notices.empty()) out += "; notices: " + counts_text(c.notices);
  if (!c.disconnects.empty()) out += "; dropped: " + counts_text(c.disconnects);
  return out;
}

// One ENet host (one source address) with the clients of one attack kind on it.
struct Attacker::Group {
  AttackKind kind = AttackKind::kSilent;
  ENetHost* host = nullptr;
  std::vector<Client> clients;  // never resized after start: each peer's `data` points at its client
  Clock::duration service_every = kServiceEvery;
  Clock::time_point next_service{};
};

Attacker::Attacker(AttackPlan plan) : plan_(std::move(plan)) {}

Attacker::~Attacker() { (void)stop(); }

sr::Status<std::string> Attacker::start() {
  if (enet_initialize() != 0) return std::string("could not initialise ENet");
  if (plan_.addresses.empty()) return std::string("no attacker address");
  for (AttackKind kind : plan_.kinds) {
    int count = 0;
    switch (kind) {
      case AttackKind::kSilent: count = plan_.silent_connections; break;
      case AttackKind::kDownload: count = plan_.download_players; break;
      case AttackKind::kList: count = plan_.list_players; break;
      case AttackKind::kJoinLeave: count = plan_.joinleave_spectators; break;
      case AttackKind::kRooms: count = plan_.room_players; break;
      case AttackKind::kIdle: count = plan_.idle_players; break;
      case AttackKind::kListRooms: count = plan_.listroom_players; break;
      case AttackKind::kCatchUp: count = plan_.catchup_spectators; break;
      case AttackKind::kTheft: count = plan_.theft_players; break;
    }
    const auto addresses = plan_.addresses.size();
    for (std::size_t a = 0; a < addresses; ++a) {
      auto group = std::make_unique<Group>();
      group->kind = kind;
      for (int i = static_cast<int>(a); i < count; i += static_cast<int>(addresses)) {
        Client c;
        c.name = fmt::format("{}{}", attack_name(kind), i);
        c.name = c.name.substr(0, protocol::kMaxPlayerNameBytes);
        // All at once: the players connect first, then the silent connections take what slots are left (opened
        // together, the silent ones would leave the players none, and the row would show the silent attack alone).
        if (kind == AttackKind::kSilent && plan_.kinds.size() > 1) c.reconnect_at = Clock::now() + kSilentLater;
        if (!plan_.target_rooms.empty()) {
          c.target_room = plan_.target_rooms[static_cast<std::size_t>(i) % plan_.target_rooms.size()];
        }
        group->clients.push_back(std::move(c));
      }
      if (group->clients.empty()) continue;
      ENetAddress bind{};
      if (enet_address_set_host_ip(&bind, plan_.addresses[a].c_str()) != 0) {
        return "not an address: " + plan_.addresses[a];
      }
      const bool slow = kind == AttackKind::kDownload;
      group->host =
          enet_host_create(&bind, group->clients.size(), protocol::kChannelCount, slow ? kSlowReaderBandwidth : 0, 0);
      if (group->host == nullptr) return "cannot bind an ENet host to " + plan_.addresses[a];
      group->host->maximumPacketSize = 1 << 20;
      group->host->maximumWaitingData = 64 << 20;
      if (slow) group->service_every = std::chrono::milliseconds(plan_.download_read_every_ms);
      groups_.push_back(std::move(group));
    }
  }
  started_ = Clock::now();
  thread_ = std::thread([this] { loop(); });
  return {};
}

AttackCounters Attacker::stop() {
  stop_ = true;
  if (thread_.joinable()) {
    thread_.join();
    counters_.seconds = std::chrono::duration<double>(Clock::now() - started_).count();
  }
  for (auto& g : groups_) {
    if (g->host == nullptr) continue;
    for (Client& c : g->clients) {
      if (c.peer != nullptr) enet_peer_reset(c.peer);  // gone without a word, as a killed script
      c.peer = nullptr;
    }
    enet_host_destroy(g->host);
    g->host = nullptr;
  }
  return counters_;
}

namespace {

// What one attack client does with what the server said.
void on_message(Client& c, const protocol::Message& m, AttackCounters& counters) {
  const auto now = Clock::now();
  if (std::holds_alternative<protocol::Welcome>(m)) {
    c.state = Client::State::kWelcomed;
    ++counters.welcomed;
  } else if (const auto* reject = std::get_if<protocol::Reject>(&m)) {
    ++counters.rejects[net::describe(reject->reason)];
  } else if (const auto* notice = std::get_if<protocol::Notice>(&m)) {
    ++counters.notices[net::describe(notice->code)];
    c.asked = false;
    // A refused room creation is asked again now and then, to take a room the moment one frees up.
    c.next_send = now + (notice->about == protocol::MessageId::kCreateRoom ? kRetryCreate : kRetryRefused);
  } else if (std::holds_alternative<protocol::GameList>(m)) {
    ++counters.game_lists;
  } else if (const auto* chunk = std::get_if<protocol::ReplayChunk>(&m)) {
    counters.chunk_bytes += static_cast<std::int64_t>(chunk->data.size());
  } else if (std::holds_alternative<protocol::RoomJoined>(m)) {
    ++counters.rooms_joined;
    c.in_room = true;
    c.asked = false;
  } else if (std::holds_alternative<protocol::RoomLeft>(m)) {
    ++counters.rooms_left;
    c.in_room = false;
    c.asked = false;
  } else if (std::holds_alternative<protocol::RoomList>(m)) {
    ++counters.room_lists;
  } else if (std::holds_alternative<protocol::CatchUpStart>(m)) {
    ++counters.catch_ups;
  } else if (std::holds_alternative<protocol::RaceResumed>(m)) {
    ++counters.seats_taken;
  }
}

bool send(Client& c, const protocol::Message& m, AttackCounters& counters) {
  const std::vector<std::uint8_t> bytes = protocol::encode(m);
  const std::uint8_t channel = protocol::message_channel(protocol::message_id(m));
  ENetPacket* packet = enet_packet_create(bytes.data(), bytes.size(),
                                          protocol::channel_reliable(channel) ? ENET_PACKET_FLAG_RELIABLE : 0);
  if (packet == nullptr) return false;
  if (enet_peer_send(c.peer, channel, packet) != 0) {
    enet_packet_destroy(packet);
    return false;
  }
  ++counters.requests;
  return true;
}

// The attack's next requests of one welcomed client, paced by time.
void act(AttackKind kind, Client& c, const AttackPlan& plan, AttackCounters& counters) {
  const auto now = Clock::now();
  // A client that fell behind (a slow loop) does not burst to catch up: bursts could pass the server's limit.
  if (c.next_send < now - 1s) c.next_send = now;
  switch (kind) {
    case AttackKind::kSilent: break;
    case AttackKind::kDownload: {
      const auto every = std::chrono::microseconds(1'000'000 / std::max(1, plan.downloads_per_s));
      while (c.next_send <= now && send(c, protocol::DownloadReplay{plan.download_game_id}, counters)) {
        c.next_send += every;
      }
      break;
    }
    case AttackKind::kList: {
      const auto every = std::chrono::microseconds(1'000'000 / std::max(1, plan.lists_per_s));
      protocol::ListGames list;
      list.before_game_id = plan.list_marker;
      list.limit = static_cast<std::uint8_t>(protocol::kMaxGamesListed);
      while (c.next_send <= now && send(c, list, counters)) c.next_send += every;
      break;
    }
    case AttackKind::kJoinLeave: {
      // Join, leave, join, ... without waiting for the answers (the control channel keeps them in order), as fast as
      // the server's per-player limit allows.
      if (c.target_room == 0) break;
      while (c.next_send <= now) {
        const bool sent = c.leave_next
                              ? send(c, protocol::LeaveRoom{}, counters)
                              : send(c, protocol::JoinRoom{c.target_room, "", protocol::Role::kSpectator}, counters);
        if (!sent) break;
        c.leave_next = !c.leave_next;
        c.next_send += kJoinLeaveEvery;
      }
      break;
    }
    case AttackKind::kIdle: break;
    case AttackKind::kListRooms: {
      const auto every = std::chrono::microseconds(1'000'000 / std::max(1, plan.listrooms_per_s));
      while (c.next_send <= now && send(c, protocol::ListRooms{0}, counters)) c.next_send += every;
      break;
    }
    case AttackKind::kCatchUp: {
      // Join, leave, join, ...: at the join rate the server allows an address, evenly spaced.
      if (c.target_room == 0) break;
      const auto every = std::chrono::microseconds(1'000'000 / std::max(1, 2 * plan.catchup_joins_per_s));
      while (c.next_send <= now) {
        const bool sent = c.leave_next
                              ? send(c, protocol::LeaveRoom{}, counters)
                              : send(c, protocol::JoinRoom{c.target_room, "", protocol::Role::kSpectator}, counters);
        if (!sent) break;
        c.leave_next = !c.leave_next;
        c.next_send += every;
      }
      break;
    }
    case AttackKind::kTheft: break;  // it never says Hello (loop())
    case AttackKind::kRooms: {
      if (c.asked || c.in_room || c.next_send > now) break;
      protocol::CreateRoom create;
      create.settings.name = c.name;
      create.settings.config = engine::make_sprint(40);
      create.settings.max_racers = 8;
      c.asked = send(c, create, counters);
      break;
    }
  }
}

}  // namespace

void Attacker::loop() {
  // The attack stands for other machines, but here it shares this machine's cores with the server and the honest
  // bots, whose relay delays are the measurement. On 2 cores its ENet hosts (hundreds of peers, under the sanitizers)
  // would otherwise delay the bots' own thread and show as the server's delay: the attack thread yields (nice 10;
  // raising one's own niceness needs no privilege). It still sends what it plans whenever a core is free.
  if (setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10) != 0) {
    fmt::print(stderr, "stackrace-abuse: could not lower the attack thread's priority; relay delays include it\n");
  }
  ENetAddress server{};
  (void)enet_address_set_host_ip(&server, "127.0.0.1");
  server.port = plan_.port;
  std::int64_t open = 0;
  while (!stop_) {
    const auto now = Clock::now();
    for (auto& g : groups_) {
      if (now < g->next_service) continue;
      g->next_service = now + g->service_every;
      // Connections to open (again).
      const bool theft = g->kind == AttackKind::kTheft;
      const auto seat = theft && plan_.seen_seat ? plan_.seen_seat->get() : std::nullopt;
      for (Client& c : g->clients) {
        if (c.state != Client::State::kIdle || now < c.reconnect_at) continue;
        if (theft && !seat) continue;  // nothing seen yet
        c.peer = enet_host_connect(g->host, &server, protocol::kChannelCount, protocol::kProtocolVersion);
        if (c.peer == nullptr) continue;  // every peer of the host busy: later
        c.peer->data = &c;
        c.state = Client::State::kConnecting;
        c.asked = c.in_room = c.leave_next = false;
        ++counters_.connects;
      }
      ENetEvent event;
      while (enet_host_service(g->host, &event, 0) > 0) {
        auto* c = event.peer != nullptr ? static_cast<Client*>(event.peer->data) : nullptr;
        if (c == nullptr) {
          if (event.type == ENET_EVENT_TYPE_RECEIVE) enet_packet_destroy(event.packet);
          continue;
        }
        switch (event.type) {
          case ENET_EVENT_TYPE_CONNECT:
            c->state = Client::State::kConnected;
            ++counters_.connected;
            counters_.open_peak = std::max(counters_.open_peak, ++open);
            break;  // the server's KeyChallenge comes first: answered below
          case ENET_EVENT_TYPE_RECEIVE: {
            if (event.channelID == protocol::kChannelRace) {
              counters_.race_bytes += static_cast<std::int64_t>(event.packet->dataLength);
            }
            const auto decoded =
                protocol::decode(std::span<const std::uint8_t>(event.packet->data, event.packet->dataLength));
            if (const auto* challenge =
                    decoded.ok() ? std::get_if<protocol::KeyChallenge>(&decoded.value()) : nullptr) {
              // Each attacker has a key of its own (a thief signs with its own: the seat's racer's key it has not).
              const net::PlayerKey key = net::PlayerKey::generate();
              const protocol::SignatureBytes signature = key.sign(protocol::key_proof_message(challenge->challenge));
              if (g->kind == AttackKind::kTheft) {
                if (seat) {
                  (void)send(*c,
                             protocol::Resume{
                                 seat->race_id, seat->hi, seat->lo, "stackrace-abuse", {}, key.public_key(), signature},
                             counters_);
                }
              } else if (g->kind != AttackKind::kSilent) {
                (void)send(*c, protocol::Hello{c->name, "stackrace-abuse", key.public_key(), signature}, counters_);
              }
            } else if (decoded.ok()) {
              on_message(*c, decoded.value(), counters_);
            }
            enet_packet_destroy(event.packet);
            break;
          }
          case ENET_EVENT_TYPE_DISCONNECT:
            if (c->state != Client::State::kConnecting) --open;
            ++counters_.disconnects[disconnect_name(event.data)];
            c->state = Client::State::kIdle;
            c->peer = nullptr;
            c->reconnect_at = Clock::now() + kReconnectAfter;
            break;
          case ENET_EVENT_TYPE_NONE: break;
        }
      }
      for (Client& c : g->clients) {
        if (c.state == Client::State::kWelcomed) act(g->kind, c, plan_, counters_);
      }
      enet_host_flush(g->host);
    }
    std::this_thread::sleep_for(1ms);  // pacing the attack by time; the harness's own loop, not a test's wait
  }
}

}  // namespace sr::abuse
