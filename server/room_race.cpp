// A room's race: inputs in, relays and live stats out, desync checks, the end of the race and its replay.
#include "server/room.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/protocol/codec.h"
#include "common/protocol/streams.h"
#include "common/replay/simulate.h"

namespace sr::server {
namespace {

// Relays carry at most this long a gap in a racer's clock without inputs, so watchers' boards keep moving.
constexpr TimeUs kRelayHeartbeatUs = 250'000;

// The next time of a periodic job that was due at `due`: one period on, keeping the room's phase (stagger()), unless
// the loop fell so far behind that it would be due again at once.
TimeUs next_in_phase(TimeUs due, TimeUs period, TimeUs now_us) {
  const TimeUs next = due + period;
  return next > now_us ? next : now_us + period;
}

bool ranked(protocol::RacerStatus s) {
  return s == protocol::RacerStatus::kFinished || s == protocol::RacerStatus::kToppedOut;
}

}  // namespace

RequestResult Room::on_race_input(const Player& player, const InputBatch& m, TimeUs now_us) {
  if (!race_ || m.race_id != race_->race_id) {
    // A late batch for a race that has ended is harmless; one for a race that never existed is not.
    if (m.race_id >= 1 && m.race_id <= race_counter_) return {};
    return RequestRefusal::dropped("inputs for a race that does not exist");
  }
  const auto session = race_->sessions.find(player.id);
  const Race::Entry* entry = race_->race->find(player.id);
  if (session == race_->sessions.end() || entry == nullptr) {
    return RequestRefusal::dropped("inputs from a player who is not racing in this race");
  }
  if (entry->referee.status() != protocol::RacerStatus::kRacing) return {};
  // A copy and its RaceInput carry the same changes: whichever arrives first is applied, the other skipped. A copy
  // that would leave a gap follows a lost one; the reliable stream fills the gap.
  const std::uint32_t next_seq = entry->referee.next_seq();
  if (m.first_seq > next_seq) {
    if (m.copy) return {};
    return RequestRefusal::dropped("input sequence has a gap");
  }
  const std::size_t known = next_seq - m.first_seq;
  // A copy starting before what we hold means the racer missed our last ack.
  const bool ack_missed = m.copy && known > 0;
  const auto changes = m.changes.subspan(std::min(known, m.changes.size()));
  if (known > m.changes.size() || (changes.empty() && m.now_us <= entry->referee.clock_us())) {
    if (ack_missed) owe_relay(player.id, false, true);
    return {};  // nothing new
  }

  const Violation v = race_->race->on_batch(player.id, now_us - race_->start_us, changes, m.now_us);
  counters_.inputs += changes.size();
  // The room hears what the referee logged, and at least every heartbeat its clock.
  const RacerSession& relayed = session->second;
  owe_relay(player.id,
            entry->referee.log().size() > relayed.relayed_seq ||
                entry->referee.clock_us() >= relayed.relayed_now_us + kRelayHeartbeatUs,
            entry->referee.next_seq() > next_seq || ack_missed);
  if (v != Violation::kNone) {
    counters_.count_removal(v);
    spdlog::warn("room {} race {}: removed {} ({}; {})", id_, race_->race_id, player.name, violation_text(v),
                 entry->referee.pace_summary(now_us - race_->start_us));
  }
  announce_endings();
  return {};
}

void Room::owe_relay(PlayerId racer, bool relay, bool ack) {
  if (!relay && !ack) return;
  RacerSession& session = race_->sessions[racer];
  session.relay_due = session.relay_due || relay;
  session.ack_due = session.ack_due || ack;
  race_->relays_pending = true;
  if (services_.relay_every_us <= 0) send_relays();
}

bool Room::send_relays(PlayerId except) {
  if (!race_ || !race_->relays_pending) return false;
  race_->relays_pending = false;
  bool relayed = false;
  for (auto& [id, session] : race_->sessions) {
    if (!session.relay_due && !session.ack_due) continue;
    const Race::Entry* e = race_->race->find(id);
    if (e == nullptr) continue;
    const RacerReferee& referee = e->referee;
    if (session.ack_due) {  // in the datagram that carries the others' relays to this racer
      session.ack_due = false;
      services_.outbox->send(id, protocol::RaceInputAck{race_->race_id, referee.next_seq()},
                             protocol::kChannelRaceFast);
    }
    if (!session.relay_due) continue;
    session.relay_due = false;
    relayed = true;
    const auto& log = referee.log();
    const std::span<const engine::InputChange> fresh(log.data() + session.relayed_seq,
                                                     log.size() - session.relayed_seq);
    if (fresh.size() <= protocol::kMaxInputsPerRelay) {
      const protocol::Message relayed = protocol::RacerInputs{
          race_->race_id, id, session.relayed_seq, referee.clock_us(), {fresh.begin(), fresh.end()}};
      broadcast_except(relayed, protocol::kChannelRace, id, except);
    } else {  // a resumed racer's backlog, say
      for (const auto& chunk :
           protocol::split_racer_inputs(race_->race_id, id, session.relayed_seq, fresh, referee.clock_us())) {
        broadcast_except(chunk, protocol::kChannelRace, id, except);
      }
    }
    session.relayed_seq = static_cast<std::uint32_t>(log.size());
    session.relayed_now_us = referee.clock_us();
  }
  return relayed;
}

RequestResult Room::on_hash_report(const Player& player, const protocol::StateHashReport& m) {
  if (!race_ || m.race_id != race_->race_id) return {};
  const Race::Entry* entry = race_->race->find(player.id);
  if (entry == nullptr) return RequestRefusal::dropped("state hash from a player who is not racing in this race");
  if (entry->referee.status() == protocol::RacerStatus::kRemoved) return {};
  const auto server_digest = entry->referee.run().digest_after(m.pieces);
  if (server_digest && *server_digest == m.hash) return {};
  std::string what = server_digest ? fmt::format("digest {:016x}, server {:016x}", m.hash, *server_digest)
                                   : fmt::format("server has only {} pieces", entry->referee.game().stats().pieces);
  std::string line = fmt::format("racer {} at piece {} (game time {} us): {}", player.name, m.pieces, m.time_us, what);
  spdlog::warn("room {} race {}: desync: {}", id_, race_->race_id, line);
  ++counters_.desyncs;
  race_->desyncs.push_back(std::move(line));
  services_.outbox->send(player.id,
                         protocol::Notice{protocol::NoticeCode::kDesync, protocol::MessageId::kStateHashReport,
                                          "your game disagrees with the server's; the server's result counts"},
                         protocol::kChannelControl);
  return {};
}

protocol::RacerEnded Room::ended_message(const Race::Entry& e, const std::vector<Standing>& standings) const {
  const protocol::RacerStatus status = e.referee.status();
  protocol::RacerEnded ended;
  ended.race_id = race_->race_id;
  ended.player_id = e.id;
  ended.status = status;
  ended.time_us = e.referee.game().stats().time_us;
  for (const Standing& s : standings) {
    if (s.id == e.id && status == protocol::RacerStatus::kFinished) ended.place = static_cast<std::uint8_t>(s.place);
  }
  if (status == protocol::RacerStatus::kRemoved) ended.reason = violation_text(e.referee.removal_reason());
  if (status == protocol::RacerStatus::kDisconnected) ended.reason = "left the race";
  if (status == protocol::RacerStatus::kUnfinished) ended.reason = "still racing when the race ended";
  return ended;
}

void Room::announce_endings() {
  if (!race_) return;
  std::vector<Standing> standings;
  for (const Race::Entry& e : race_->race->racers()) {
    if (e.referee.status() == protocol::RacerStatus::kRacing) continue;  // (called for every input: no lookup then)
    RacerSession& session = race_->sessions[e.id];
    if (session.end_announced) continue;
    if (standings.empty()) {
      send_relays();  // the racer's last inputs before their ending
      standings = race_->race->standings();
    }
    session.end_announced = true;
    broadcast(ended_message(e, standings), protocol::kChannelRace);
  }
}

bool Room::suspend_racer(PlayerId id) {
  if (!race_) return false;
  const Race::Entry* e = race_->race->find(id);
  if (e == nullptr || e->referee.status() != protocol::RacerStatus::kRacing) return false;
  race_->race->suspend(id);
  spdlog::info("room {} race {}: racer {} is away; their seat is kept", id_, race_->race_id, e->name);
  return true;
}

std::optional<PlayerId> Room::seat_holder(std::uint32_t race_id, std::uint64_t token_hi, std::uint64_t token_lo) const {
  if (!race_ || race_->race_id != race_id) return std::nullopt;
  for (const auto& [id, session] : race_->sessions) {
    if (session.token_hi != token_hi || session.token_lo != token_lo) continue;
    const Race::Entry* e = race_->race->find(id);
    if (e != nullptr && e->referee.status() == protocol::RacerStatus::kRacing) return id;
  }
  return std::nullopt;
}

bool Room::seat_kept(PlayerId id) const {
  if (!race_) return false;
  const Race::Entry* e = race_->race->find(id);
  return e != nullptr && e->referee.status() == protocol::RacerStatus::kRacing && e->referee.suspended();
}

void Room::resume_racer(const Player& player, const protocol::Resume& resume, TimeUs now_us) {
  if (!race_) return;
  const Race::Entry* me = race_->race->find(player.id);
  if (me == nullptr) return;
  race_->race->resume(player.id, now_us - race_->start_us);
  // The others hear what is owed; the racer gets the rest of every log from where their client has it (below).
  send_relays(player.id);
  spdlog::info("room {} race {}: {} resumed at race time {} ms with their game at {} ms ({} changes)", id_,
               race_->race_id, me->name, (now_us - race_->start_us) / 1000, me->referee.clock_us() / 1000,
               me->referee.next_seq());
  services_.outbox->send(player.id,
                         protocol::RaceResumed{race_->race_id, me->referee.next_seq(), me->referee.clock_us()},
                         protocol::kChannelRace);
  if (const auto session = race_->sessions.find(player.id); session != race_->sessions.end()) {
    session->second.token_hi = secret64();
    session->second.token_lo = secret64();
    services_.outbox->send(player.id,
                           protocol::RaceSeat{race_->race_id, session->second.token_hi, session->second.token_lo},
                           protocol::kChannelRace);
  }
  // What the racer missed of the others: their inputs from where the client has them (a position beyond what
  // exists is taken as "all of it"), and how each one who ended did.
  const auto standings = race_->race->standings();
  for (const Race::Entry& e : race_->race->racers()) {
    if (e.id == player.id) continue;
    std::size_t from = 0;
    for (const protocol::RelayPosition& p : resume.boards) {
      if (p.player_id == e.id) from = std::min<std::size_t>(p.next_seq, e.referee.log().size());
    }
    const std::span<const engine::InputChange> missing(e.referee.log().data() + from, e.referee.log().size() - from);
    for (const auto& chunk : protocol::split_racer_inputs(race_->race_id, e.id, static_cast<std::uint32_t>(from),
                                                          missing, e.referee.clock_us())) {
      services_.outbox->send(player.id, chunk, protocol::kChannelRace);
    }
    if (e.referee.status() != protocol::RacerStatus::kRacing) {
      services_.outbox->send(player.id, ended_message(e, standings), protocol::kChannelRace);
    }
  }
}

void Room::send_live_stats(TimeUs now_us) {
  protocol::LiveStats live;
  live.race_id = race_->race_id;
  live.race_time_us = std::max<TimeUs>(0, now_us - race_->start_us);
  for (const Standing& s : race_->race->standings()) {
    protocol::RacerLive r;
    r.player_id = s.id;
    r.status = s.status;
    r.place = static_cast<std::uint8_t>(s.place);
    r.time_us = s.time_us;
    r.lines = s.lines;
    r.lines_left = s.lines_left;
    r.score = s.score;
    r.pieces = s.pieces;
    r.pps_x100 = static_cast<std::uint32_t>(std::clamp<std::int64_t>(s.pps_x100, 0, UINT32_MAX));
    live.racers.push_back(r);
  }
  broadcast(live, protocol::kChannelLive);
}

void Room::tick(TimeUs now_us) {
  if (!ended_races_.empty()) announce_overdue_results(now_us);
  if (!race_) return;
  if (phase_ == protocol::RoomPhase::kCountdown && now_us >= race_->start_us) {
    phase_ = protocol::RoomPhase::kRacing;
    broadcast(protocol::RaceStart{race_->race_id, static_cast<std::uint64_t>(now_us)}, protocol::kChannelRace);
    send_update();
    spdlog::info("room {} race {}: go", id_, race_->race_id);
  }
  if (phase_ == protocol::RoomPhase::kRacing && now_us >= race_->next_stats_us) {
    if (race_->stats_owed_since < 0) race_->stats_owed_since = race_->next_stats_us;
    race_->next_stats_us = next_in_phase(race_->next_stats_us, services_.live_stats_every_us, now_us);
  }
  bool relayed = false;
  if (now_us >= race_->next_relay_us) {
    relayed = send_relays();
    race_->next_relay_us = next_in_phase(race_->next_relay_us, services_.relay_every_us, now_us);
  }
  const TimeUs race_time = now_us - race_->start_us;
  if (now_us >= race_->next_pace_us) {
    race_->next_pace_us = next_in_phase(race_->next_pace_us, kPaceCheckEveryUs, now_us);
    for (const Race::Removal& r : race_->race->tick(race_time)) {
      counters_.count_removal(r.reason);
      const Race::Entry* e = race_->race->find(r.id);
      spdlog::warn("room {} race {}: removed racer {} ({}; {})", id_, race_->race_id, r.id, violation_text(r.reason),
                   e != nullptr ? e->referee.pace_summary(race_time) : std::string("gone"));
    }
    announce_endings();
  }
  // Owed stats go with a relay of news (in the same datagram to each member), or once they have waited long enough.
  const TimeUs hold = services_.relay_every_us > 0 ? kLiveStatsHoldUs : 0;
  if (race_->stats_owed_since >= 0 && (relayed || now_us >= race_->stats_owed_since + hold)) {
    race_->stats_owed_since = -1;
    send_live_stats(now_us);
  }
  if (race_->race->over()) {
    const bool timed = settings_.config.limit == engine::LimitKind::kTime;
    finish_race(timed ? protocol::RaceEndReason::kTimeUp : protocol::RaceEndReason::kAllDone, now_us);
  } else if (race_time > services_.max_race_us) {
    finish_race(protocol::RaceEndReason::kTimeUp, now_us);
  }
}

void Room::abort_race(TimeUs now_us) {
  if (race_) finish_race(protocol::RaceEndReason::kAborted, now_us);
}

ReplayWriter::Job Room::replay_job() const {
  ReplayWriter::Job job;
  job.room_id = id_;
  job.race_id = race_->race_id;
  job.replay = replay::replay_of(race_->race->config(), race_->race->seed(), services_.server_name,
                                 services_.unix_ms ? services_.unix_ms() : 0);
  for (const Race::Entry& e : race_->race->racers()) {
    replay::Racer racer = replay::racer_of(e.referee.run(), e.name);
    racer.key = e.key;
    // What only the live referee could measure: kept in the replay so a leaderboard can tell a clean run.
    racer.result.unverified_us = e.referee.unverified_us();
    racer.result.reconnects = static_cast<std::uint32_t>(e.referee.reconnects());
    job.replay.racers.push_back(std::move(racer));
  }
  for (const Race::Entry& e : race_->race->racers()) {
    const RacerReferee& ref = e.referee;
    replay::ResultStatus if_unfinished = replay::ResultStatus::kDisconnected;
    if (ref.status() == protocol::RacerStatus::kRemoved) if_unfinished = replay::ResultStatus::kForfeited;
    if (ref.status() == protocol::RacerStatus::kUnfinished) if_unfinished = replay::ResultStatus::kUnfinished;
    job.ends.push_back({ref.clock_us(), if_unfinished});
  }
  // Racer for racer, as the replay lists them; none at all when nobody signed.
  const auto& racers = race_->race->racers();
  if (std::any_of(racers.begin(), racers.end(), [](const Race::Entry& e) { return e.run_signature.has_value(); })) {
    for (const Race::Entry& e : racers) job.run_signatures.push_back(e.run_signature);
  }
  return job;
}

void Room::finish_race(protocol::RaceEndReason reason, TimeUs now_us) {
  idle_since_us_ = std::max(idle_since_us_, now_us);
  send_relays();
  // Still racing at the server's cap or at a shutdown: they did not leave, the race left them.
  for (const Race::Entry& e : race_->race->racers()) {
    if (e.referee.status() == protocol::RacerStatus::kRacing) race_->race->stop_unfinished(e.id);
  }
  announce_endings();
  protocol::RaceResults results;
  results.race_id = race_->race_id;
  results.reason = reason;
  results.duration_us = std::clamp<TimeUs>(now_us - race_->start_us, 0, protocol::kMaxTimeUs);
  for (const Standing& s : race_->race->standings()) {
    protocol::RacerResult r;
    r.player_id = s.id;
    r.name = s.name;
    r.place = ranked(s.status) ? static_cast<std::uint8_t>(s.place) : 0;
    r.status = s.status;
    r.time_us = s.time_us;
    r.lines = s.lines;
    r.score = s.score;
    r.pieces = s.pieces;
    r.pps_x100 = static_cast<std::uint32_t>(std::clamp<std::int64_t>(s.pps_x100, 0, UINT32_MAX));
    r.kpp_x100 = static_cast<std::uint32_t>(std::clamp<std::int64_t>(s.kpp_x100, 0, UINT32_MAX));
    r.unverified_us = s.unverified_us;
    r.reconnects = static_cast<std::uint32_t>(s.reconnects);
    results.racers.push_back(std::move(r));
  }
  ++counters_.races_finished;
  spdlog::info("room {} race {} ended ({} racers)", id_, race_->race_id, results.racers.size());
  if (services_.on_race_end) services_.on_race_end(id_, results);

  // The results wait for the replay to be durable, so that a crash between the two never loses a race whose
  // results anyone saw (on_replay_written); the room is free for the next race meanwhile.
  if (services_.on_replay_job) services_.on_replay_job(replay_job());
  if (services_.writer != nullptr) {
    ended_races_[race_->race_id] = EndedRace{std::move(results), race_->desyncs, now_us + services_.results_wait_us};
    services_.writer->submit(replay_job());
  } else {
    broadcast(results, protocol::kChannelRace);
  }
  race_.reset();
  phase_ = protocol::RoomPhase::kWaiting;
  for (Member& m : members_) m.ready = false;
  send_update();
}

void Room::on_replay_written(const ReplayWriter::Done& done) {
  const auto it = ended_races_.find(done.race_id);
  if (it == ended_races_.end()) return;
  EndedRace& ended = it->second;
  if (!ended.announced) broadcast(ended.results, protocol::kChannelRace);
  if (done.game_id) {
    broadcast(protocol::ReplayStored{done.race_id, game_id_number(*done.game_id)}, protocol::kChannelRace);
    for (const std::string& d : ended.desyncs) spdlog::warn("desync in replay {}: {}", *done.game_id, d);
    if (done.spooled)
      broadcast(protocol::Notice{protocol::NoticeCode::kInfo, protocol::MessageId::kNone, std::string(kSpooledNotice)},
                protocol::kChannelControl);
  } else {
    broadcast(protocol::ReplayNotStored{done.race_id, done.reason.substr(0, protocol::kMaxReasonBytes)},
              protocol::kChannelRace);
  }
  spdlog::info("room {} race {}: results {} {} ms after the race ended", id_, done.race_id,
               ended.announced ? "had gone out" : "went out", done.wait_us / 1000);
  ended_races_.erase(it);
}

void Room::announce_overdue_results(TimeUs now_us) {
  for (auto& [race_id, ended] : ended_races_) {
    if (ended.announced || now_us < ended.announce_by_us) continue;
    ended.announced = true;
    broadcast(ended.results, protocol::kChannelRace);
    broadcast(protocol::ReplayNotStored{race_id, "still being written"}, protocol::kChannelRace);
    spdlog::warn("room {} race {}: the replay store is slow; results went out before the replay was written", id_,
                 race_id);
  }
}

std::optional<std::size_t> Room::send_catch_up(PlayerId spectator, std::uint32_t race_id, TimeUs now_us) {
  if (!race_ || race_->race_id != race_id || !has_member(spectator)) return std::nullopt;
  return catch_up(spectator, now_us);
}

std::size_t Room::catch_up(PlayerId spectator, TimeUs now_us) {
  // The members hear what is owed; the spectator gets every log whole.
  send_relays(spectator);
  const auto standings = race_->race->standings();
  protocol::CatchUpStart start;
  start.race_id = race_->race_id;
  start.seed = race_->race->seed();
  start.config = race_->race->config();
  start.elapsed_us = std::max<TimeUs>(0, now_us - race_->start_us);
  std::vector<protocol::RacerInputs> chunks;
  for (const Race::Entry& e : race_->race->racers()) {
    protocol::CatchUpRacer racer;
    racer.entrant = {e.id, e.name, e.referee.game().config().handling};
    racer.status = e.referee.status();
    if (racer.status != protocol::RacerStatus::kRacing) racer.end_time_us = e.referee.game().stats().time_us;
    for (const Standing& s : standings) {
      if (s.id == e.id && ranked(s.status)) racer.place = static_cast<std::uint8_t>(s.place);
    }
    start.racers.push_back(std::move(racer));
    for (auto& chunk : protocol::split_racer_inputs(race_->race_id, e.id, 0, e.referee.log(), e.referee.clock_us())) {
      chunks.push_back(std::move(chunk));
    }
  }
  start.chunks = static_cast<std::uint32_t>(chunks.size());
  const protocol::CatchUpEnd end{race_->race_id};
  // What the catch-up costs the server's budget (CatchUpQueue): the bytes of its messages.
  std::size_t bytes = protocol::encode(start).size() + protocol::encode(end).size();
  services_.outbox->send(spectator, start, protocol::kChannelRace);
  for (const auto& chunk : chunks) {
    bytes += protocol::encode(chunk).size();
    services_.outbox->send(spectator, chunk, protocol::kChannelRace);
  }
  services_.outbox->send(spectator, end, protocol::kChannelRace);
  return bytes;
}

}  // namespace sr::server
