// Room membership, settings, readiness and the start of a race. The race itself: room_race.cpp.
#include "server/room.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>

namespace sr::server {
std::uint64_t secret64() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

TimeUs stagger(RoomId id, TimeUs period) {
  if (period <= 0) return 0;
  // The fractional part of id * (golden ratio), in 32-bit fixed point, scaled to the period.
  const std::uint64_t fraction = static_cast<std::uint32_t>(static_cast<std::uint64_t>(id) * 0x9E3779B9u);
  return static_cast<TimeUs>((fraction * static_cast<std::uint64_t>(period)) >> 32);
}

using protocol::NoticeCode;
using protocol::Role;
using protocol::RoomPhase;

Room::Room(RoomId id, protocol::RoomSettings settings, std::string code, RoomServices services, RoomCounters& counters)
    : id_(id), settings_(std::move(settings)), code_(std::move(code)), services_(services), counters_(counters) {}

std::size_t Room::racer_count() const {
  return static_cast<std::size_t>(
      std::count_if(members_.begin(), members_.end(), [](const Member& m) { return m.role == Role::kRacer; }));
}

bool Room::has_member(PlayerId id) const {
  return std::any_of(members_.begin(), members_.end(), [id](const Member& m) { return m.id == id; });
}

std::vector<PlayerId> Room::member_ids() const {
  std::vector<PlayerId> ids;
  for (const Member& m : members_) ids.push_back(m.id);
  return ids;
}

Room::Member* Room::find_member(PlayerId id) {
  for (Member& m : members_) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

protocol::RoomSummary Room::summary() const {
  protocol::RoomSummary s;
  s.room_id = id_;
  s.name = settings_.name;
  s.mode = protocol::summarize(settings_.config);
  s.racers = static_cast<std::uint8_t>(racer_count());
  s.max_racers = settings_.max_racers;
  s.spectators = static_cast<std::uint32_t>(members_.size() - racer_count());
  s.phase = phase_;
  s.is_private = settings_.is_private;
  return s;
}

protocol::RoomInfo Room::info() const {
  protocol::RoomInfo info;
  info.room_id = id_;
  info.settings = settings_;
  info.code = code_;
  info.host_id = host_;
  info.phase = phase_;
  info.race_id = race_counter_;
  for (const Member& m : members_) info.members.push_back({m.id, m.name, m.role, m.ready});
  return info;
}

void Room::broadcast(const protocol::Message& message, std::uint8_t channel, PlayerId except) const {
  broadcast_except(message, channel, except, except);
}

void Room::broadcast_except(const protocol::Message& message, std::uint8_t channel, PlayerId a, PlayerId b) const {
  // Web pages (server/web): the live page of a public room sees what its spectators see.
  if (services_.live != nullptr) services_.live->room_message(id_, settings_.is_private, message);
  std::vector<PlayerId>& to = recipients_;
  to.clear();
  for (const Member& m : members_) {
    if (m.id != a && m.id != b) to.push_back(m.id);
  }
  if (!to.empty()) services_.outbox->send_many(to, message, channel);
}

void Room::send_update() const { broadcast(protocol::RoomUpdate{info()}, protocol::kChannelControl); }

std::optional<NoticeCode> Room::join(Player& player, Role role, TimeUs now_us) {
  if (members_.size() >= protocol::kMaxRoomMembers) return NoticeCode::kSpectatorsFull;
  if (role == Role::kRacer && racer_count() >= settings_.max_racers) return NoticeCode::kRoomFull;
  members_.push_back(Member{player.id, player.name, role, false, &player});
  player.room = id_;
  idle_since_us_ = std::max(idle_since_us_, now_us);
  if (host_ == 0) host_ = player.id;
  services_.outbox->send(player.id, protocol::RoomJoined{info()}, protocol::kChannelControl);
  send_update();
  if (race_ && services_.catch_ups != nullptr) {
    services_.catch_ups->request(player.id, id_, race_->race_id, player.host, player.trusted, now_us);
  } else if (race_) {
    (void)catch_up(player.id, now_us);
  }
  return std::nullopt;
}

void Room::leave(Player& player, protocol::RoomLeftReason reason, const std::string& text, TimeUs now_us) {
  const auto it = std::find_if(members_.begin(), members_.end(), [&](const Member& m) { return m.id == player.id; });
  if (it == members_.end()) return;
  members_.erase(it);
  if (services_.catch_ups != nullptr) services_.catch_ups->forget(player.id);
  player.room = 0;
  player.left_race = race_counter_;
  services_.outbox->send(player.id, protocol::RoomLeft{id_, reason, text}, protocol::kChannelControl);
  if (race_) {
    race_->race->disconnect(player.id);
    announce_endings();
  }
  if (host_ == player.id) pick_new_host();
  if (!members_.empty()) send_update();
  (void)now_us;
}

void Room::pick_new_host() {
  host_ = 0;
  // The longest-present racer, else the longest-present spectator.
  for (const Member& m : members_) {
    if (m.role == Role::kRacer) {
      host_ = m.id;
      return;
    }
  }
  if (!members_.empty()) host_ = members_.front().id;
}

RequestResult Room::handle(Player& player, const protocol::Message& message, TimeUs now_us) {
  Member* me = find_member(player.id);
  if (me == nullptr) return RequestRefusal::refused(NoticeCode::kNotInRoom);
  const bool waiting = phase_ == RoomPhase::kWaiting;

  if (const auto* m = std::get_if<protocol::RaceInput>(&message)) {
    return on_race_input(player, {m->race_id, m->first_seq, m->now_us, m->changes, false}, now_us);
  }
  if (const auto* m = std::get_if<protocol::RaceInputCopy>(&message)) {
    return on_race_input(player, {m->race_id, m->first_seq, m->now_us, m->changes, true}, now_us);
  }
  if (const auto* m = std::get_if<protocol::StateHashReport>(&message)) return on_hash_report(player, *m);
  if (const auto* m = std::get_if<protocol::RunSigned>(&message)) {
    on_run_signed(player, *m);
    return {};
  }
  if (locked_) return RequestRefusal::refused(NoticeCode::kInvalidRequest);
  if (const auto* m = std::get_if<protocol::ChangeSettings>(&message)) {
    if (player.id != host_) return RequestRefusal::refused(NoticeCode::kNotHost);
    if (!waiting) return RequestRefusal::refused(NoticeCode::kRaceInProgress);
    if (m->settings.max_racers < racer_count()) return RequestRefusal::refused(NoticeCode::kInvalidSettings);
    const bool was_private = settings_.is_private;
    settings_ = m->settings;
    settings_.is_private = was_private;  // a room's visibility (and code) is fixed when it is created
    for (Member& member : members_) member.ready = false;
    send_update();
    return {};
  }
  if (const auto* m = std::get_if<protocol::SetReady>(&message)) {
    if (!waiting) return RequestRefusal::refused(NoticeCode::kRaceInProgress);
    if (me->role != Role::kRacer) return RequestRefusal::refused(NoticeCode::kInvalidRequest);
    me->ready = m->ready;
    send_update();
    maybe_auto_start(now_us);
    return {};
  }
  if (const auto* m = std::get_if<protocol::SetRole>(&message)) {
    if (!waiting) return RequestRefusal::refused(NoticeCode::kRaceInProgress);
    if (m->role == me->role) return {};
    if (m->role == Role::kRacer && racer_count() >= settings_.max_racers) {
      return RequestRefusal::refused(NoticeCode::kRoomFull);
    }
    me->role = m->role;
    me->ready = false;
    send_update();
    maybe_auto_start(now_us);
    return {};
  }
  if (std::holds_alternative<protocol::StartRace>(message)) {
    if (player.id != host_) return RequestRefusal::refused(NoticeCode::kNotHost);
    if (!waiting) return RequestRefusal::refused(NoticeCode::kRaceInProgress);
    if (racer_count() == 0) return RequestRefusal::refused(NoticeCode::kNoRacers);
    start_countdown(now_us);
    return {};
  }
  return RequestRefusal::refused(NoticeCode::kInvalidRequest);
}

bool Room::start(TimeUs now_us) {
  if (phase_ != RoomPhase::kWaiting || racer_count() == 0) return false;
  start_countdown(now_us);
  return true;
}

void Room::maybe_auto_start(TimeUs now_us) {
  if (!settings_.auto_start || phase_ != RoomPhase::kWaiting || racer_count() == 0) return;
  const bool all_ready =
      std::all_of(members_.begin(), members_.end(), [](const Member& m) { return m.role != Role::kRacer || m.ready; });
  if (all_ready) start_countdown(now_us);
}

void Room::start_countdown(TimeUs now_us) {
  idle_since_us_ = std::max(idle_since_us_, now_us);
  ++race_counter_;
  ++counters_.races_started;
  phase_ = RoomPhase::kCountdown;
  const std::uint64_t seed = services_.next_seed(services_.seed_ctx);
  ActiveRace active;
  active.race_id = race_counter_;
  active.start_us = now_us + services_.countdown_us;
  // Rooms that start together (a tournament, a load test) would otherwise send their live stats and run their pace
  // checks in the same loop pass every time: a burst of a datagram per member of every room that delays the relays
  // queued behind it. Each room keeps its own phase instead.
  active.next_stats_us = active.start_us + stagger(id_, services_.live_stats_every_us);
  active.next_pace_us = now_us + stagger(id_, kPaceCheckEveryUs);
  active.next_relay_us = active.start_us + stagger(id_, services_.relay_every_us);
  PaceLimits pace = services_.pace;
  pace.stall_budget_us = TimeUs{settings_.stall_budget_s} * 1'000'000;
  active.race = std::make_unique<Race>(settings_.config, seed, pace);

  protocol::CountdownStart start;
  start.race_id = active.race_id;
  start.seed = seed;
  start.countdown_us = services_.countdown_us;
  start.start_server_us = static_cast<std::uint64_t>(active.start_us);
  start.config = settings_.config;
  for (Member& m : members_) {
    m.ready = false;
    if (m.role != Role::kRacer) continue;
    const engine::Handling& handling = m.player->handling;
    // Every welcomed player has proved a key (PROTOCOL.md "Player keys"); all zero only where a test made a player
    // without the handshake.
    const bool keyed = std::any_of(m.player->key.begin(), m.player->key.end(), [](std::uint8_t b) { return b != 0; });
    active.race->add_racer(m.id, m.name, handling,
                           keyed ? std::optional<replay::RacerKey>(m.player->key) : std::nullopt);
    active.sessions[m.id] = RacerSession{};
    active.sessions[m.id].token_hi = secret64();
    active.sessions[m.id].token_lo = secret64();
    start.racers.push_back(protocol::RaceEntrant{m.id, m.name, handling});
  }
  race_ = std::move(active);
  spdlog::info("room {} '{}': race {} starts in {} ms with {} racers (seed {})", id_, settings_.name, race_counter_,
               services_.countdown_us / 1000, start.racers.size(), seed);
  broadcast(start, protocol::kChannelRace);
  for (const auto& [id, session] : race_->sessions) {
    services_.outbox->send(id, protocol::RaceSeat{race_->race_id, session.token_hi, session.token_lo},
                           protocol::kChannelRace);
  }
  send_update();
}

}  // namespace sr::server
