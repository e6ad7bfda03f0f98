#include "bot/recorded_runner.h"

#include <enet/enet.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/protocol/codec.h"
#include "common/protocol/messages.h"
#include "net/identity/run_signature.h"

namespace sr::botcli {
namespace {

using Clock = std::chrono::steady_clock;
using engine::TimeUs;

constexpr TimeUs kHeartbeatUs = 50'000;      // a RaceInput at least this often while racing (PROTOCOL.md)
constexpr std::uint32_t kTickUs = 1'000;     // racers are looked at once a millisecond
constexpr int kSocketBufferBytes = 8 << 20;  // thousands of racers' relays arrive at once

enum class Phase { kConnecting, kHello, kLobby, kCreating, kJoining, kInRoom, kReady, kRacing, kDone };

struct Racer {
  std::string name;
  std::optional<net::PlayerKey> key;  // bot_key(), the one its Hello proved: it signs the racer's runs
  ENetPeer* peer = nullptr;
  Phase phase = Phase::kConnecting;
  std::uint32_t player_id = 0;
  std::size_t group = 0;
  // The race.
  std::uint32_t race_id = 0;
  Clock::time_point zero;  // game time 0: countdown_us after CountdownStart arrived, as the game counts it
  const RecordedGames::Game* game = nullptr;
  std::size_t next = 0;     // the next recorded change to send (= the stream's next sequence number)
  TimeUs sent_now_us = -1;  // now_us of the last RaceInput sent
  bool ended = false;       // the server ended our game (RacerEnded)
  // The recorded game's signature, made at the countdown (not in the burst of finishes), when the game ended by the
  // engine: sent once every input has gone and the clock has reached its end, after which nothing more goes out.
  std::optional<protocol::RunSigned> run_signed;
  bool signed_off = false;
};

struct Group {
  std::vector<std::size_t> racers;
  std::string room_name;
  std::uint32_t room_id = 0;
  std::optional<protocol::RaceResults> results;
  bool replay_known = false;
  std::string replay;  // "replay ID" or "replay not stored: why"
  bool printed = false;
};

class Generator {
 public:
  Generator(const OnlineOptions& options, const RecordedGames& games) : options_(options), games_(games) {}
  ~Generator() {
    if (host_ != nullptr) enet_host_destroy(host_);
    enet_deinitialize();
  }
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  int run();

 private:
  bool send(Racer& r, const protocol::Message& m);
  void on_message(Racer& r, const protocol::Message& m);
  void tick(Clock::time_point now);
  void setup_rooms();
  // Stops the run: says why on stderr, returns the exit code.
  int fail(int code, const std::string& why);

  const OnlineOptions& options_;
  const RecordedGames& games_;
  ENetHost* host_ = nullptr;
  std::vector<Racer> racers_;
  std::vector<Group> groups_;
  std::vector<std::int64_t> lateness_us_;
  std::optional<std::pair<int, std::string>> failed_;
  std::int64_t sent_changes_ = 0;
  std::string lost_;  // the first racer whose connection ended, and how many did
  std::size_t lost_count_ = 0;
};

bool Generator::send(Racer& r, const protocol::Message& m) {
  if (r.peer == nullptr) return false;  // its connection has ended
  const std::uint8_t channel = protocol::message_channel(protocol::message_id(m));
  const std::vector<std::uint8_t> bytes = protocol::encode(m);
  ENetPacket* packet = enet_packet_create(bytes.data(), bytes.size(),
                                          protocol::channel_reliable(channel) ? ENET_PACKET_FLAG_RELIABLE : 0);
  if (packet == nullptr) return false;
  if (enet_peer_send(r.peer, channel, packet) != 0) {
    enet_packet_destroy(packet);
    return false;
  }
  return true;
}

int Generator::fail(int code, const std::string& why) {
  if (!failed_) failed_ = {code, why};
  return code;
}

void Generator::on_message(Racer& r, const protocol::Message& m) {
  Group& g = groups_[r.group];
  if (const auto* c = std::get_if<protocol::KeyChallenge>(&m)) {
    if (!r.key) r.key = bot_key(options_, r.name);
    (void)send(r, protocol::Hello{r.name, "stackrace-bot 0.1.0 (recorded)", r.key->public_key(),
                                  r.key->sign(protocol::key_proof_message(c->challenge))});
  } else if (const auto* w = std::get_if<protocol::Welcome>(&m)) {
    r.player_id = w->player_id;
    r.phase = Phase::kLobby;
  } else if (const auto* rej = std::get_if<protocol::Reject>(&m)) {
    fail(2, fmt::format("{} could not join {}:{}: {}", r.name, options_.host, options_.port, rej->text));
  } else if (const auto* d = std::get_if<protocol::Disconnecting>(&m)) {
    fail(1, fmt::format("{} lost the server: {}", r.name, d->text));
  } else if (const auto* p = std::get_if<protocol::Ping>(&m)) {
    const auto now_us = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch());
    (void)send(r, protocol::Pong{p->sent_us, static_cast<std::uint64_t>(now_us.count())});
  } else if (const auto* joined = std::get_if<protocol::RoomJoined>(&m)) {
    if (g.racers.front() == static_cast<std::size_t>(&r - racers_.data())) g.room_id = joined->room.room_id;
    r.phase = Phase::kInRoom;
  } else if (const auto* n = std::get_if<protocol::Notice>(&m)) {
    if (r.phase == Phase::kCreating || r.phase == Phase::kJoining) {
      fail(2, fmt::format("{} could not create or join '{}': {}", r.name, g.room_name, n->text));
    }
  } else if (const auto* c = std::get_if<protocol::CountdownStart>(&m)) {
    engine::GameConfig config = c->config;
    for (const auto& e : c->racers) {
      if (e.player_id == r.player_id) config.handling = e.handling;
    }
    r.game = games_.find(c->seed, config);
    if (r.game == nullptr) {
      fail(1,
           fmt::format("race abandoned: no recorded game for seed {} with this race's rules (and our handling) in {}",
                       c->seed, options_.recorded));
      return;
    }
    r.race_id = c->race_id;
    r.zero = Clock::now() + std::chrono::microseconds(c->countdown_us);
    r.next = 0;
    r.sent_now_us = -1;
    r.ended = false;
    r.signed_off = false;
    r.run_signed.reset();
    if (r.game->end_us && r.key) {
      // The run exactly as the referee will log it: the recorded log is a run's log (no change that changed nothing,
      // none after the end), played with the race's rules, our handling and the seed.
      const net::RunDigest digest = net::run_digest(engine::kRulesVersion, r.game->config, c->seed, r.game->inputs);
      r.run_signed = protocol::RunSigned{c->race_id, net::sign_run(*r.key, digest)};
    }
    r.phase = Phase::kRacing;
  } else if (const auto* e = std::get_if<protocol::RacerEnded>(&m)) {
    if (e->player_id == r.player_id && e->race_id == r.race_id) r.ended = true;
  } else if (const auto* res = std::get_if<protocol::RaceResults>(&m)) {
    r.phase = Phase::kDone;
    if (!g.results) g.results = *res;
  } else if (const auto* s = std::get_if<protocol::ReplayStored>(&m)) {
    if (!g.replay_known) g.replay = fmt::format("replay {:016x}", s->game_id);
    g.replay_known = true;
  } else if (const auto* ns = std::get_if<protocol::ReplayNotStored>(&m)) {
    if (!g.replay_known) g.replay = "replay not stored: " + ns->reason;
    g.replay_known = true;
  }
}

void Generator::setup_rooms() {
  for (Group& g : groups_) {
    Racer& leader = racers_[g.racers.front()];
    if (leader.phase == Phase::kLobby) {
      protocol::RoomSettings settings;
      settings.name = g.room_name.substr(0, protocol::kMaxRoomNameBytes);
      settings.config = *options_.create;
      settings.max_racers = static_cast<std::uint8_t>(std::min<std::size_t>(protocol::kMaxRacers, g.racers.size()));
      settings.auto_start = true;
      if (send(leader, protocol::CreateRoom{settings, protocol::Role::kRacer})) leader.phase = Phase::kCreating;
    }
    if (g.room_id == 0) continue;
    bool all_in = true;
    for (std::size_t i : g.racers) {
      Racer& r = racers_[i];
      if (r.phase == Phase::kLobby && send(r, protocol::JoinRoom{g.room_id, "", protocol::Role::kRacer})) {
        r.phase = Phase::kJoining;
      }
      all_in = all_in && r.phase == Phase::kInRoom;
    }
    // Everyone in before anyone is ready: the room starts its race when every racer in it is.
    if (!all_in) continue;
    for (std::size_t i : g.racers) {
      if (send(racers_[i], protocol::SetReady{true})) racers_[i].phase = Phase::kReady;
    }
  }
}

void Generator::tick(Clock::time_point now) {
  for (Racer& r : racers_) {
    if (r.phase != Phase::kRacing || r.ended || r.signed_off || r.peer == nullptr) continue;
    // Race time on the 1 ms grid, as a game stamps its keys.
    const TimeUs t = std::chrono::duration_cast<std::chrono::milliseconds>(now - r.zero).count() * 1000;
    if (t < 0) continue;
    protocol::RaceInput input{r.race_id, static_cast<std::uint32_t>(r.next), t, {}};
    const auto& inputs = r.game->inputs;
    while (r.next < inputs.size() && inputs[r.next].time_us <= t &&
           input.changes.size() < protocol::kMaxInputsPerBatch) {
      lateness_us_.push_back(t - inputs[r.next].time_us);
      input.changes.push_back(inputs[r.next++]);
    }
    if (input.changes.empty() && t < r.sent_now_us + kHeartbeatUs) continue;
    if (!input.changes.empty() && r.next < inputs.size() && inputs[r.next].time_us <= t) {
      input.now_us = inputs[r.next - 1].time_us;  // more are due than one batch holds: the rest follow at once
    }
    sent_changes_ += static_cast<std::int64_t>(input.changes.size());
    if (send(r, input)) r.sent_now_us = input.now_us;
    // Every input sent and the clock at the recorded end: the server's game is over too, and the run is signed.
    if (r.run_signed && r.next == inputs.size() && r.sent_now_us >= *r.game->end_us && send(r, *r.run_signed)) {
      r.signed_off = true;
    }
  }
}

int Generator::run() {
  if (enet_initialize() != 0) return fail(2, "could not initialise ENet");
  const auto count = static_cast<std::size_t>(options_.count);
  host_ = enet_host_create(nullptr, count, protocol::kChannelCount, 0, 0);
  if (host_ == nullptr) return fail(2, "could not create a network socket");
  (void)enet_socket_set_option(host_->socket, ENET_SOCKOPT_RCVBUF, kSocketBufferBytes);
  (void)enet_socket_set_option(host_->socket, ENET_SOCKOPT_SNDBUF, kSocketBufferBytes);
  ENetAddress address{};
  address.port = options_.port;
  if (enet_address_set_host(&address, options_.host.c_str()) != 0) {
    return fail(2, "cannot resolve '" + options_.host + "'");
  }
  const std::size_t size = static_cast<std::size_t>(options_.room_size);
  racers_.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    Racer& r = racers_[i];
    r.name = fmt::format("{}{}", options_.name_prefix, i + 1);
    r.group = i / size;
    if (r.group == groups_.size()) {
      Group g;
      g.room_name = fmt::format("{}-room-{}", options_.name_prefix, r.group + 1);
      groups_.push_back(std::move(g));
    }
    groups_[r.group].racers.push_back(i);
    r.peer = enet_host_connect(host_, &address, protocol::kChannelCount, protocol::kProtocolVersion);
    if (r.peer == nullptr) return fail(2, "cannot start connecting to " + options_.host);
    r.peer->data = reinterpret_cast<void*>(i);
  }

  const auto deadline = Clock::now() + std::chrono::seconds(options_.timeout_s);
  const double cpu_start = process_cpu_seconds();
  bool connected_said = false, rooms_said = false;
  Clock::time_point next_tick = Clock::now();
  while (!failed_ && Clock::now() < deadline) {
    ENetEvent event;
    // Wait for traffic until the next tick (rounded up: ENet waits whole milliseconds, and a wait of 0 would spin).
    const auto wait_us = std::chrono::duration_cast<std::chrono::microseconds>(next_tick - Clock::now()).count();
    const auto wait_ms = static_cast<enet_uint32>(std::clamp<long long>((wait_us + 999) / 1000, 0, 5));
    int serviced = enet_host_service(host_, &event, wait_ms);
    while (serviced > 0) {
      Racer& r = racers_[reinterpret_cast<std::size_t>(event.peer->data)];
      if (event.type == ENET_EVENT_TYPE_CONNECT) {
        r.phase = Phase::kHello;  // the server's KeyChallenge comes first; on_message answers it with Hello
      } else if (event.type == ENET_EVENT_TYPE_DISCONNECT) {
        // One racer's connection ending does not stop the others (the server's figures under load are the point);
        // it is counted, and the run fails at its end.
        if (r.phase == Phase::kConnecting) {
          fail(2, fmt::format("{} could not join {}:{}: nothing answered", r.name, options_.host, options_.port));
        } else if (r.peer != nullptr) {
          if (lost_.empty()) lost_ = r.name;
          ++lost_count_;
          r.peer = nullptr;
          r.phase = Phase::kDone;
          if (lost_count_ == racers_.size()) fail(1, "every racer lost the server");
        }
      } else if (event.type == ENET_EVENT_TYPE_RECEIVE) {
        const std::span<const std::uint8_t> bytes(event.packet->data, event.packet->dataLength);
        // Other racers' relayed inputs, live statistics, acknowledgements and chat are not read: nobody watches
        // these racers' screens (ENet has acknowledged them already).
        const auto id = bytes.empty() ? 0 : bytes[0];
        const bool skip = id == static_cast<std::uint8_t>(protocol::MessageId::kRacerInputs) ||
                          id == static_cast<std::uint8_t>(protocol::MessageId::kLiveStats) ||
                          id == static_cast<std::uint8_t>(protocol::MessageId::kRaceInputAck) ||
                          id == static_cast<std::uint8_t>(protocol::MessageId::kChat) ||
                          id == static_cast<std::uint8_t>(protocol::MessageId::kRoomUpdate);
        if (!skip) {
          protocol::DecodeResult decoded = protocol::decode(bytes);
          if (!decoded.ok()) {
            fail(1, fmt::format("{}: the server sent a message this client cannot read ({})", r.name,
                                decoded.error().message));
          } else {
            on_message(r, decoded.value());
          }
        }
        enet_packet_destroy(event.packet);
      }
      serviced = enet_host_check_events(host_, &event);
    }
    const Clock::time_point now = Clock::now();
    if (now < next_tick) continue;
    next_tick = now + std::chrono::microseconds(kTickUs);
    tick(now);
    if (!connected_said &&
        std::all_of(racers_.begin(), racers_.end(), [](const Racer& r) { return r.phase >= Phase::kLobby; })) {
      connected_said = true;
      fmt::print("{} racers connected to {}:{}\n", racers_.size(), options_.host, options_.port);
      std::fflush(stdout);
    }
    if (connected_said && !rooms_said) {
      setup_rooms();
      if (std::all_of(racers_.begin(), racers_.end(), [](const Racer& r) { return r.phase >= Phase::kReady; })) {
        rooms_said = true;
        fmt::print("{} rooms ready; racing 1 race each\n", groups_.size());
        std::fflush(stdout);
      }
    }
    bool all_done = true;
    for (Group& g : groups_) {
      if (g.results && g.replay_known && !g.printed) {
        g.printed = true;
        std::string line = fmt::format("race {} in '{}':", g.results->race_id, g.room_name);
        for (const auto& res : g.results->racers) {
          line += fmt::format(" {}. {} {} {} lines |", res.place == 0 ? std::string("-") : std::to_string(res.place),
                              res.name, race_time_text(res.time_us), res.lines);
        }
        fmt::print("{} {}\n", line, g.replay);
        std::fflush(stdout);
      }
      const bool all_lost =
          std::all_of(g.racers.begin(), g.racers.end(), [&](std::size_t i) { return racers_[i].peer == nullptr; });
      all_done = all_done && (g.printed || all_lost);
    }
    if (all_done) break;
  }
  std::int64_t races = 0, finishers = 0, entries = 0;
  for (const Group& g : groups_) {
    if (!g.results) continue;
    ++races;
    for (const auto& res : g.results->racers) {
      ++entries;
      finishers += res.status == protocol::RacerStatus::kFinished;
    }
  }
  for (Racer& r : racers_) {
    if (r.peer != nullptr) enet_peer_disconnect(r.peer, protocol::kClientLeaving);
  }
  enet_host_flush(host_);
  if (failed_) {
    fmt::print(stderr, "stackrace-bot: {}\n", failed_->second);
    return failed_->first;
  }
  fmt::print(
      "summary: {} races, {} of {} racers finished; relay delay not measured (recorded racers); racers used "
      "{:.1f} s CPU for {} changes sent\n",
      races, finishers, entries, process_cpu_seconds() - cpu_start, sent_changes_);
  std::sort(lateness_us_.begin(), lateness_us_.end());
  const auto at = [&](double p) { return sorted_percentile_ms(lateness_us_, p); };
  fmt::print("generator lateness: median {:.2f} ms, p99 {:.2f} ms, max {:.2f} ms over {} changes sent\n", at(0.5),
             at(0.99), lateness_us_.empty() ? 0.0 : static_cast<double>(lateness_us_.back()) / 1000.0,
             lateness_us_.size());
  if (lost_count_ > 0) {
    fmt::print(stderr, "stackrace-bot: {} racers lost the server ({} first)\n", lost_count_, lost_);
    return 1;
  }
  if (races < static_cast<std::int64_t>(groups_.size())) {
    fmt::print(stderr, "stackrace-bot: timed out after {} s with {} of {} rooms done\n", options_.timeout_s, races,
               groups_.size());
    return 1;
  }
  return 0;
}

}  // namespace

int run_recorded(const OnlineOptions& options) {
  auto loaded = RecordedGames::load(options.recorded);
  if (!loaded) {
    fmt::print(stderr, "stackrace-bot: {}\n", loaded.error());
    return 2;
  }
  const RecordedGames& games = loaded.value();
  fmt::print("{} recorded games read from {}\n", games.size(), options.recorded);
  Generator generator(options, games);
  return generator.run();
}

}  // namespace sr::botcli
