#include "net/race_view.h"

#include <fmt/format.h>

#include "common/engine/config.h"
#include "net/identity/run_signature.h"

namespace sr::net {
namespace {

engine::GameConfig with_handling(engine::GameConfig config, const engine::Handling& handling) {
  config.handling = handling;
  return config;
}

}  // namespace

RaceView::RaceView(const protocol::CountdownStart& start, std::uint32_t me, std::optional<PlayerKey> key)
    : race_id_(start.race_id), seed_(start.seed), config_(start.config), key_(std::move(key)) {
  boards_.reserve(start.racers.size());
  for (const auto& entrant : start.racers) add_board(entrant, me);
}

RaceView::RaceView(const protocol::CatchUpStart& start, std::uint32_t me)
    : race_id_(start.race_id), seed_(start.seed), config_(start.config) {
  boards_.reserve(start.racers.size());
  for (const auto& racer : start.racers) {
    RacerBoard& board = add_board(racer.entrant, me);
    board.status = racer.status;
    board.place = racer.place;
    board.end_time_us = racer.end_time_us;
  }
  // A client catching up cannot race this race, even if it was in it before (it reconnected).
  mine_ = SIZE_MAX;
}

RacerBoard& RaceView::add_board(const protocol::RaceEntrant& entrant, std::uint32_t me) {
  boards_.push_back(RacerBoard{entrant,
                               engine::RacerRun(with_handling(config_, entrant.handling), seed_),
                               protocol::RacerStatus::kRacing,
                               0,
                               0,
                               {},
                               {}});
  boards_.back().live.player_id = entrant.player_id;
  if (entrant.player_id == me) mine_ = boards_.size() - 1;
  return boards_.back();
}

const RacerBoard* RaceView::board(std::uint32_t player_id) const {
  for (const RacerBoard& b : boards_) {
    if (b.entrant.player_id == player_id) return &b;
  }
  return nullptr;
}

void RaceView::press(TimeUs t, engine::Buttons buttons, std::vector<protocol::Message>& out) {
  own_events_.clear();
  ++own_calls_;
  if (!racing() || own_end_sent_) return;
  engine::RacerRun& run = boards_[mine_].run;
  // Unknown buttons are dropped before the run counts them, or the next RaceInput would skip a sequence number.
  if (run.game().over() || t < run.now_us() || buttons == run.held() || (buttons & ~engine::button::kAll) != 0) return;
  const std::uint32_t seq = run.next_seq();
  const engine::UpdateResult pressed =
      run.press(t, buttons);  // cannot fail: no earlier than the run's time, known buttons
  own_events_.insert(own_events_.end(), pressed.events.begin(), pressed.events.end());
  out.push_back(protocol::RaceInput{race_id_, seq, t, {engine::InputChange{t, buttons}}});
  sent_now_us_ = t;
  (void)advance_run(t, out);
  copy_unacked(out);
  if (run.game().over()) send_own_end(out);
}

void RaceView::advance(TimeUs t, std::vector<protocol::Message>& out) {
  own_events_.clear();
  ++own_calls_;
  if (!racing() || own_end_sent_) return;
  if (advance_run(t, out)) copy_unacked(out);
  if (boards_[mine_].run.game().over()) send_own_end(out);
}

void RaceView::send_own_end(std::vector<protocol::Message>& out) {
  const engine::RacerRun& run = boards_[mine_].run;
  // The referee ends our game when a RaceInput vouches for its end: the last one must reach it.
  if (sent_now_us_ < run.now_us()) {
    out.push_back(protocol::RaceInput{race_id_, run.next_seq(), run.now_us(), {}});
    sent_now_us_ = run.now_us();
    copy_unacked(out);
  }
  own_end_sent_ = true;
  if (!key_) return;
  // The run as the referee logs it and the replay keeps it: the room's rules with our handling, the seed, our log.
  const RunDigest digest = run_digest(engine::kRulesVersion, run.game().config(), seed_, run.log());
  run_signed_ = protocol::RunSigned{race_id_, sign_run(*key_, digest)};
  out.push_back(*run_signed_);
}

bool RaceView::advance_run(TimeUs t, std::vector<protocol::Message>& out) {
  if (!racing()) return false;
  engine::RacerRun& run = boards_[mine_].run;
  if (t < sent_now_us_ || t < run.now_us()) return false;
  const engine::UpdateResult advanced = run.advance(t);
  own_events_.insert(own_events_.end(), advanced.events.begin(), advanced.events.end());
  const bool reports_due = locks_reported_ < run.locks().size();
  bool sent = false;
  if (t >= sent_now_us_ + kHeartbeatUs || (reports_due && t > sent_now_us_)) {
    out.push_back(protocol::RaceInput{race_id_, run.next_seq(), t, {}});
    sent_now_us_ = t;
    sent = true;
  }
  report_locks(out);
  return sent;
}

void RaceView::copy_unacked(std::vector<protocol::Message>& out) {
  const engine::RacerRun& run = boards_[mine_].run;
  if (sent_now_us_ < copied_at_us_ + kCopyEveryUs) return;
  const auto& log = run.log();
  const std::size_t from = std::min<std::size_t>(acked_seq_, log.size());
  const std::size_t n = std::min(protocol::kMaxInputsPerBatch, log.size() - from);
  const bool all = from + n == log.size();
  protocol::RaceInputCopy m{
      race_id_,
      static_cast<std::uint32_t>(from),
      all ? sent_now_us_ : log[from + n - 1].time_us,
      {log.begin() + static_cast<std::ptrdiff_t>(from), log.begin() + static_cast<std::ptrdiff_t>(from + n)}};
  out.push_back(std::move(m));
  copied_at_us_ = sent_now_us_;
}

void RaceView::on_ack(const protocol::RaceInputAck& m) {
  if (!racing() || m.race_id != race_id_) return;
  if (m.next_seq <= boards_[mine_].run.log().size()) acked_seq_ = std::max(acked_seq_, m.next_seq);
}

void RaceView::report_locks(std::vector<protocol::Message>& out) {
  // Reports go after the RaceInput that covers their lock, on the same channel.
  const auto& locks = boards_[mine_].run.locks();
  for (; locks_reported_ < locks.size(); ++locks_reported_) {
    const auto pieces = static_cast<std::int64_t>(locks_reported_ + 1);
    if (pieces % kReportEveryPieces != 0) continue;
    const engine::LockRecord& lock = locks[locks_reported_];
    out.push_back(protocol::StateHashReport{race_id_, pieces, lock.time_us, lock.digest});
  }
}

std::vector<protocol::RelayPosition> RaceView::relay_positions() const {
  std::vector<protocol::RelayPosition> out;
  for (std::size_t i = 0; i < boards_.size(); ++i) {
    if (i != mine_) out.push_back({boards_[i].entrant.player_id, boards_[i].run.next_seq()});
  }
  return out;
}

bool RaceView::resume(std::uint32_t next_seq, TimeUs server_now_us, std::vector<protocol::Message>& out) {
  if (!racing()) return false;
  const engine::RacerRun& run = boards_[mine_].run;
  const auto& log = run.log();
  if (next_seq > log.size() || server_now_us > run.now_us()) return false;
  // Our log holds exactly what we sent (no no-ops), so its index is the stream's numbering.
  std::size_t from = next_seq;
  do {
    const std::size_t n = std::min(protocol::kMaxInputsPerBatch, log.size() - from);
    const bool last = from + n == log.size();
    protocol::RaceInput m{
        race_id_,
        static_cast<std::uint32_t>(from),
        last ? run.now_us() : log[from + n - 1].time_us,
        {log.begin() + static_cast<std::ptrdiff_t>(from), log.begin() + static_cast<std::ptrdiff_t>(from + n)}};
    out.push_back(std::move(m));
    from += n;
  } while (from < log.size());
  sent_now_us_ = run.now_us();
  acked_seq_ = std::max(acked_seq_, next_seq);
  // Our game ended while we were away (what was queued then was never sent): its signature follows our stream.
  if (run_signed_) out.push_back(*run_signed_);
  return true;
}

bool RaceView::on_inputs(const protocol::RacerInputs& m, std::string& error) {
  for (std::size_t i = 0; i < boards_.size(); ++i) {
    RacerBoard& b = boards_[i];
    if (b.entrant.player_id != m.player_id) continue;
    if (i == mine_) return true;  // our own inputs, echoed in a catch-up: we have them
    const engine::StreamError e = b.run.accept(m.first_seq, m.now_us, m.changes);
    if (e != engine::StreamError::kOk) {
      error = fmt::format("inputs of racer {}: {}", m.player_id, engine::stream_error_name(e));
      return false;
    }
    return true;
  }
  error = fmt::format("inputs for racer {}, who is not in race {}", m.player_id, race_id_);
  return false;
}

void RaceView::on_live(const protocol::LiveStats& m) {
  for (const protocol::RacerLive& live : m.racers) {
    for (RacerBoard& b : boards_) {
      if (b.entrant.player_id == live.player_id) b.live = live;
    }
  }
}

void RaceView::on_ended(const protocol::RacerEnded& m) {
  for (RacerBoard& b : boards_) {
    if (b.entrant.player_id != m.player_id) continue;
    b.status = m.status;
    b.place = m.place;
    b.end_time_us = m.time_us;
    b.end_reason = m.reason;
  }
}

}  // namespace sr::net
