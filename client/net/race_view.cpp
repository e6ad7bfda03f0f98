#include "client/net/race_view.h"

#include <fmt/format.h>

namespace sr::net {
namespace {

engine::GameConfig with_handling(engine::GameConfig config, const engine::Handling& handling) {
  config.handling = handling;
  return config;
}

}  // namespace

RaceView::RaceView(const protocol::CountdownStart& start, std::uint32_t me)
    : race_id_(start.race_id), seed_(start.seed), config_(start.config) {
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
  boards_.push_back(RacerBoard{entrant, engine::Game(with_handling(config_, entrant.handling), seed_), {}, {},
                               protocol::RacerStatus::kRacing, 0, 0, {}, {}});
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

void RaceView::feed(RacerBoard& board, TimeUs t, std::optional<engine::Buttons> buttons,
                    std::vector<std::int64_t>* locks) {
  if (board.game.over() || t < board.game.now()) return;
  const engine::UpdateResult result = board.game.update(t, buttons);
  for (const engine::Event& e : result.events) {
    if (board.digest.add(e) && locks != nullptr) locks->push_back(e.time_us);
  }
}

void RaceView::press(TimeUs t, engine::Buttons buttons, std::vector<protocol::Message>& out) {
  if (!racing()) return;
  RacerBoard& me = boards_[mine_];
  if (me.game.over() || t < me.game.now() || t < sent_now_us_) return;
  std::vector<std::int64_t> locks;
  feed(me, t, buttons, &locks);
  const protocol::InputChange change{t, buttons};
  (void)me.stream.accept(sent_seq_, t, std::span<const protocol::InputChange>(&change, 1));
  out.push_back(protocol::RaceInput{race_id_, sent_seq_, t, {change}});
  ++sent_seq_;
  sent_now_us_ = t;
  for (TimeUs lock_time : locks) {
    my_digests_.push_back(me.digest.value());
    lock_times_.emplace_back(static_cast<std::int64_t>(my_digests_.size()), lock_time);
  }
  advance(t, out);
}

void RaceView::advance(TimeUs t, std::vector<protocol::Message>& out) {
  if (!racing()) return;
  RacerBoard& me = boards_[mine_];
  if (t < sent_now_us_) return;
  std::vector<std::int64_t> locks;
  feed(me, t, std::nullopt, &locks);
  for (TimeUs lock_time : locks) {
    my_digests_.push_back(me.digest.value());
    lock_times_.emplace_back(static_cast<std::int64_t>(my_digests_.size()), lock_time);
  }
  const bool reports_due = !lock_times_.empty();
  if (t >= sent_now_us_ + kHeartbeatUs || (reports_due && t > sent_now_us_)) {
    (void)me.stream.accept(sent_seq_, t, {});
    out.push_back(protocol::RaceInput{race_id_, sent_seq_, t, {}});
    sent_now_us_ = t;
  }
  // Reports go after the RaceInput that covers their lock, on the same channel.
  for (const auto& [pieces, time_us] : lock_times_) {
    if (pieces % kReportEveryPieces == 0) {
      out.push_back(protocol::StateHashReport{race_id_, pieces, time_us,
                                              my_digests_[static_cast<std::size_t>(pieces - 1)]});
    }
  }
  lock_times_.clear();
}

bool RaceView::on_inputs(const protocol::RacerInputs& m, std::string& error) {
  for (std::size_t i = 0; i < boards_.size(); ++i) {
    RacerBoard& b = boards_[i];
    if (b.entrant.player_id != m.player_id) continue;
    if (i == mine_) return true;  // our own inputs, echoed in a catch-up: we have them
    const protocol::StreamError e = b.stream.accept(m.first_seq, m.now_us, m.changes);
    if (e != protocol::StreamError::kOk) {
      error = fmt::format("inputs of racer {}: {}", m.player_id, protocol::stream_error_name(e));
      return false;
    }
    for (const protocol::InputChange& c : m.changes) feed(b, c.time_us, c.buttons, nullptr);
    feed(b, m.now_us, std::nullopt, nullptr);
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
