#include "server/server.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <random>
#include <thread>

#include "common/protocol/codec.h"
#include "common/protocol/server_query.h"
#include "server/server_info.h"

namespace sr::server {
namespace {

std::int64_t wall_clock_unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// A long batch sends what it has every so often, so the relays of its first inputs do not wait for the last ones.
// (Each flush walks every ENet peer, so it is by time, not by event.) In a burst at 1,000 racers a pass takes 100-150
// packets whose relays cost 1-2 ms to send; sending them in slices of 250 us lowered the load test's median relay
// delay for the busy generator's bots by 1.5 ms (tests/load/load_test.sh).
constexpr TimeUs kFlushEveryUs = 250;
// The loop waits at least this long between polls: each poll and flush walks every peer, so under load a step
// should take a batch of packets rather than one at a time. It adds at most this much to a relay's delay.
constexpr TimeUs kMinPollPeriodUs = 500;
// The LAN port is read on every pass without waiting (the loop waits in ENet on the game socket: at most kIdlePollMs
// when idle, so a probe is answered within about 10 ms). A pass reads at most this many datagrams there, so a flood
// of the LAN port costs the game a bounded time; the kernel drops the rest when the socket's queue is full.
constexpr int kLanReadsPerPass = 64;
// Registration agents get the info JSON this often.
constexpr TimeUs kInfoPublishEveryUs = 1'000'000;

std::uint64_t next_race_seed(void* ctx) { return static_cast<RaceSeeds*>(ctx)->next(); }

}  // namespace

Server::Server(ServerOptions options)
    : options_(std::move(options)), queries_(options_.queries), epoch_(std::chrono::steady_clock::now()) {}

Server::~Server() { shut_down(); }

TimeUs Server::now_us() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - epoch_).count();
}

sr::Status<std::string> Server::start() {
  if (!options_.database.empty()) {
    // The replay store makes data_dir when it is the folder; the ladder and the names are kept there either way.
    std::error_code ec;
    std::filesystem::create_directories(options_.data_dir, ec);
    if (ec) return "cannot create the directory " + options_.data_dir.string() + ": " + ec.message();
    // A race the database does not take waits here until it does (ReplayWriter, "The spool").
    if (options_.writer.spool_dir.empty()) options_.writer.spool_dir = options_.data_dir / "spool";
  }
  if (!options_.records.hub.empty()) {
    // Set before the writer's thread starts; records_submitter_ is there (open_records below) before any race is.
    options_.writer.on_stored = [this](const ReplayWriter::Job& job, const std::string& game_id) {
      if (records_submitter_) records_submitter_->on_stored(job, game_id);
    };
  }
  if (auto started = writer_.start(options_.replay_store(), options_.writer); !started) return started;
  if (!options_.records.hub.empty()) {
    if (auto opened = open_records(); !opened) return opened;
  }
  if (auto opened = replays_.open(options_.replay_store()); !opened) {
    return "cannot open the replay store: " + opened.error();
  }
  if (auto bound = net_.open(options_.bind, options_.port, protocol::kChannelCount, options_.net); !bound) return bound;

  RoomServices services;
  services.outbox = this;
  services.writer = &writer_;
  services.server_name = options_.lobby.server_name;
  services.pace = options_.pace;
  services.unix_ms = &wall_clock_unix_ms;
  services.countdown_us = options_.countdown_us;
  services.relay_every_us = options_.relay_every_us;
  std::random_device entropy;
  seeds_ = engine::Random((static_cast<std::uint64_t>(entropy()) << 32) ^ entropy());
  race_seeds_ = RaceSeeds(options_.race_seeds_from);
  if (options_.race_seeds_from != 0) {
    spdlog::warn("race seeds are {}, {}, ... (--race-seeds): every race's pieces are known in advance",
                 options_.race_seeds_from, options_.race_seeds_from + 1);
  }
  services.next_seed = &next_race_seed;
  services.seed_ctx = &race_seeds_;
  services.live = options_.live;
  services.on_replay_job = options_.on_replay_job;
  if (options_.ladder.enabled) {
    ladder_ = std::make_unique<Ladder>(options_.ladder);
    // In the fleet's database when there is one: a name and its ranked games hold on every server of it.
    auto opened = options_.database.empty() ? ladder_->open(options_.data_dir / "ladder.sqlite")
                                            : ladder_->open_database(options_.database, options_.lobby.server_name);
    if (!opened) return "cannot open the contest ladder: " + opened.error();
  }
  lobby_ = std::make_unique<Lobby>(options_.lobby, services, &replays_, seeds_.next());
  lobby_->set_ladder(ladder_.get());
  if (auto opened = lobby_->names().open(options_.data_dir / "names.sqlite"); !opened) {
    return "cannot open the names' keys: " + opened.error();
  }

  queries_.set_info_source([this] { return info_json(); });
  queries_.set_directories(options_.directories);
  net_.set_queries(&queries_);
  if (options_.lan_port != 0) {
    if (auto opened = lan_.open(options_.lan_port); !opened) {
      spdlog::warn("no LAN discovery: {}", opened.error());
    } else if (!lan_.has_ipv6()) {
      spdlog::info("LAN discovery on UDP port {} (IPv4 only)", lan_.port());
    } else {
      spdlog::info("LAN discovery on UDP port {} (IPv4 and IPv6)", lan_.port());
    }
  }
  return {};
}

sr::Status<std::string> Server::open_records() {
  const std::filesystem::path key_file = options_.data_dir / "server.key";
  bool created = false;
  auto key = net::load_or_create_key(key_file, created);
  if (!key.ok()) return "cannot read the server key: " + key.error();
  auto queue = std::make_unique<RecordsQueue>();
  if (auto opened = queue->open(options_.data_dir, options_.records.queue); !opened) return opened;
  // The whole public key too: what a hub's operator trusts (stackrace-hub --trust KEY).
  spdlog::info("records: submitting to {} as server key {} (public key {}, in {}{})", options_.records.hub,
               key.value().short_id(), net::to_hex(key.value().public_key()), key_file.string(),
               created ? ", made now" : "");
  records_queue_ = std::move(queue);
  records_submitter_ = std::make_unique<RecordsSubmitter>(
      RecordsIdentity{key.value(), options_.lobby.server_name, options_.lobby.web_url}, *records_queue_);
  return {};
}

std::string Server::server_key_id() const {
  return records_submitter_ ? records_submitter_->identity().key.short_id() : std::string();
}

std::string Server::info_json() const {
  ServerInfoFields fields;
  fields.name = options_.lobby.server_name;
  fields.players = lobby_->player_count();
  fields.capacity = options_.lobby.max_players;
  fields.ladder = ladder_ != nullptr;
  fields.web = options_.lobby.web_url;
  fields.port = net_.port();
  return server_info_json(fields, lobby_->public_rooms());
}

void Server::serve_lan() {
  if (!lan_.is_open()) return;
  std::array<std::uint8_t, protocol::kQueryBytes + 1> buffer;
  for (int i = 0; i < kLanReadsPerPass; ++i) {
    const auto datagram = lan_.receive(buffer);
    if (!datagram) return;
    if (datagram->bytes > protocol::kQueryBytes) continue;  // no query: queries are exactly kQueryBytes
    const std::span<const std::uint8_t> bytes(buffer.data(), datagram->bytes);
    if (!protocol::has_query_prefix(bytes)) continue;
    if (const auto reply = queries_.handle(bytes, datagram->address, NetHost::steady_now_us())) {
      lan_.reply(*datagram, *reply);
    }
  }
}

void Server::send(PlayerId player, const protocol::Message& message, std::uint8_t channel) {
  if (dropping_.count(player) != 0 && !std::holds_alternative<protocol::Disconnecting>(message) &&
      !std::holds_alternative<protocol::Reject>(message)) {
    return;
  }
  const std::vector<std::uint8_t> bytes = protocol::encode(message);
  net_.send(player, channel, bytes, protocol::channel_reliable(channel));
  // Told the server is full, a client's address may not come straight back: its retries are dropped at the gate
  // for a moment (ConnectGate::hold) rather than each costing a handshake, a Hello and another Reject.
  if (const auto* r = std::get_if<protocol::Reject>(&message); r && r->reason == protocol::RejectReason::kServerFull) {
    net_.hold_address(player, kFullHoldMs);
  }
}

void Server::send_many(std::span<const PlayerId> players, const protocol::Message& message, std::uint8_t channel) {
  std::vector<PlayerId>& to = send_scratch_;
  to.clear();
  for (PlayerId p : players) {
    if (dropping_.count(p) == 0) to.push_back(p);
  }
  if (to.empty()) return;
  const std::vector<std::uint8_t> bytes = protocol::encode(message);
  net_.send_many(to, channel, bytes, protocol::channel_reliable(channel));
}

void Server::rebind(PlayerId keep, PlayerId from) {
  dropping_.erase(keep);
  net_.rebind(keep, from);
}

void Server::drop(PlayerId player, protocol::DisconnectReason reason, const std::string& text) {
  if (!dropping_.insert(player).second) return;
  send(player, protocol::Disconnecting{reason, text.substr(0, protocol::kMaxReasonBytes)}, protocol::kChannelControl);
  net_.disconnect(player, static_cast<std::uint32_t>(reason));
  to_forget_.push_back(player);
}

void Server::close_quietly(PlayerId player) {
  if (!dropping_.insert(player).second) return;
  net_.disconnect(player, static_cast<std::uint32_t>(protocol::DisconnectReason::kOther));
  to_forget_.push_back(player);
}

std::size_t Server::queued_bytes(PlayerId player) const { return net_.queued_bytes(player); }

void Server::on_receive(const NetEvent& event, TimeUs now_us) {
  if (dropping_.count(event.peer) != 0) return;
  if (!lobby_->receive_bytes(event.peer, event.bytes.size(), now_us)) return;
  const protocol::DecodeResult decoded = protocol::decode(event.bytes);
  if (!decoded.ok()) {
    ++protocol_errors_;
    spdlog::info("{}: undecodable message: {}", net_.address_of(event.peer), decoded.error().message);
    return drop(event.peer, protocol::DisconnectReason::kProtocolError, "bad message: " + decoded.error().message);
  }
  const protocol::Message& message = decoded.value();
  const protocol::MessageId id = protocol::message_id(message);
  if (const auto route = protocol::check_route(id, event.channel, protocol::Sender::kClient); !route) {
    ++protocol_errors_;
    spdlog::info("{}: {}", net_.address_of(event.peer), route.error());
    return drop(event.peer, protocol::DisconnectReason::kProtocolError, route.error());
  }
  lobby_->handle(event.peer, message, now_us);
}

void Server::step(std::uint32_t timeout_ms) {
  if (!lobby_) return;
  if (const TimeUs wait = last_poll_us_ + kMinPollPeriodUs - now_us(); wait > 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(wait));
  }
  last_poll_us_ = now_us();
  events_.clear();
  net_.poll(timeout_ms, events_);
  const TimeUs now = now_us();
  TimeUs flushed = now;
  for (const NetEvent& e : events_) {
    if (now_us() - flushed >= kFlushEveryUs) {
      net_.flush();
      flushed = now_us();
    }
    if (e.kind != NetEvent::Kind::kConnect && net_.is_stale(e.peer, e.connection)) continue;
    switch (e.kind) {
      case NetEvent::Kind::kConnect: (void)lobby_->connect(e.peer, e.connect_data, net_.address_of(e.peer), now); break;
      case NetEvent::Kind::kReceive: on_receive(e, now); break;
      case NetEvent::Kind::kDisconnect:
        // A connection that timed out (not closed by the player, nor dropped by us) may come back with a Resume.
        lobby_->disconnect(e.peer, now, dropping_.erase(e.peer) == 0 && e.connect_data != protocol::kClientLeaving);
        break;
    }
    for (PlayerId id : to_forget_) lobby_->disconnect(id, now);
    to_forget_.clear();
  }
  serve_lan();
  lobby_->tick(now);
  if (!options_.directories.empty() && now >= next_info_publish_us_) {
    next_info_publish_us_ = now + kInfoPublishEveryUs;
    const std::string& info = queries_.info(NetHost::steady_now_us());
    for (DirectoryLink* link : options_.directories) link->publish_info(info);
  }
  // Web pages (server/web): the lobby as the front page shows it.
  if (options_.live != nullptr && now >= next_lobby_snapshot_us_) {
    next_lobby_snapshot_us_ = now + LiveTap::kLobbyEveryUs;
    publish_lobby();
  }
  if (now >= next_gate_count_us_) {
    next_gate_count_us_ = now + kGateCountEveryUs;
    for (const auto& [host, attempts] : net_.take_refused_connects())
      lobby_->count_refused_connects(host, attempts, now);
  }
  for (const ReplayWriter::Done& done : writer_.collect()) lobby_->on_replay_written(done);
  if (replays_.asynchronous()) lobby_->on_replay_answers(replays_.collect(), now);
  if (ladder_ && ladder_->asynchronous()) {
    lobby_->on_ladder_answers(ladder_->collect(), now);
    if (now >= next_ladder_refresh_us_) {
      next_ladder_refresh_us_ = now + Ladder::kRefreshEveryUs;
      ladder_->refresh();  // the other servers' games, on the board from a later collect()
    }
  }
  for (PlayerId id : to_forget_) lobby_->disconnect(id, now);
  to_forget_.clear();
  net_.flush();
  players_online_.store(lobby_->player_count(), std::memory_order_relaxed);
}

void Server::publish_lobby() {
  LobbySnapshot snapshot;
  snapshot.server_name = options_.lobby.server_name;
  snapshot.motd = options_.lobby.motd;
  snapshot.game_port = net_.port();
  snapshot.players = lobby_->player_count();
  snapshot.rooms = lobby_->public_rooms();
  if (ladder_) snapshot.ladder = ladder_->board();
  snapshot.unix_ms = wall_clock_unix_ms();
  options_.live->lobby(std::move(snapshot));
}

std::uint32_t Server::poll_timeout_ms() {
  if (!lobby_) return 1;
  if (const TimeUs now = now_us(); now >= next_idle_check_us_) {
    next_idle_check_us_ = now + 50'000;
    rooms_busy_ = lobby_->rooms_in(protocol::RoomPhase::kWaiting) < lobby_->room_count();
  }
  return rooms_busy_ ? 1 : kIdlePollMs;
}

void Server::run(const std::atomic<bool>& stop) {
  while (!stop.load()) step(poll_timeout_ms());
  shut_down();
}

void Server::shut_down() {
  if (shut_down_ || !lobby_) return;
  shut_down_ = true;
  // Every race's results go out before the goodbyes, and only once its replay is durable: stop() writes them all.
  lobby_->abort_races(now_us());
  writer_.stop();
  for (const ReplayWriter::Done& done : writer_.collect()) lobby_->on_replay_written(done);
  if (ladder_) ladder_->stop();  // the scores and replays of the races just ended, into the database
  lobby_->shut_down(now_us());
  net_.flush();
  // Give ENet a moment to deliver the goodbyes.
  for (int i = 0; i < 20 && net_.peer_count() > 0; ++i) {
    events_.clear();
    net_.poll(10, events_);
  }
}

ServerStats Server::stats() const {
  ServerStats s;
  if (lobby_) {
    s.players = lobby_->player_count();
    s.rooms = lobby_->room_count();
    for (std::size_t p = 0; p < s.rooms_by_phase.size(); ++p) {
      s.rooms_by_phase[p] = lobby_->rooms_in(static_cast<protocol::RoomPhase>(p));
    }
    s.rooms_total = lobby_->counters();
    s.refused = lobby_->addresses().refused();
    s.pending_connections = lobby_->addresses().pending_total();
    s.addresses = lobby_->addresses().address_count();
  }
  s.protocol_errors = protocol_errors_;
  s.bytes_sent = net_.bytes_sent();
  s.bytes_received = net_.bytes_received();
  s.datagrams_sent = net_.datagrams_sent();
  s.datagrams_received = net_.datagrams_received();
  s.messages_sent = net_.messages_sent();
  s.socket_drops = net_.socket_drops();
  s.queries_answered = queries_.answered();
  s.queries_dropped = queries_.dropped();
  s.replays_written = writer_.written();
  s.replays_failed = writer_.failed();
  s.replays_spooled = writer_.spooled();
  s.replay_spool_pending = writer_.spool_pending();
  s.replay_disk_free_bytes = writer_.free_bytes();
  s.replay_disk_low = writer_.low_space();
  s.replay_wait_us_total = writer_.wait_us_total();
  s.replay_wait_us_max = writer_.wait_us_max();
  if (ladder_) s.ladder = ladder_->stats();
  if (records_queue_) s.records = records_queue_->stats();
  return s;
}

}  // namespace sr::server
