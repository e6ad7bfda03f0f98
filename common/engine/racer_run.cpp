#include "common/engine/racer_run.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace sr::engine {

const char* stream_error_name(StreamError e) {
  switch (e) {
    case StreamError::kOk: return "ok";
    case StreamError::kGap: return "changes missing before this batch";
    case StreamError::kOverlap: return "changes sent twice";
    case StreamError::kTimeBackwards: return "a change is stamped before the previous batch's game time";
    case StreamError::kNowBackwards: return "game time went backwards";
    case StreamError::kTooLong: return "input log too long";
    case StreamError::kBadBatch:
      return "a batch's changes are out of order, past its game time, or hold unknown buttons";
  }
  return "unknown stream error";
}

RacerRun::RacerRun(GameConfig config, std::uint64_t seed, std::int32_t checkpoint_every)
    : game_(std::move(config), seed), checkpoint_every_(checkpoint_every) {
  assert(checkpoint_every >= 0);
}

UpdateResult RacerRun::feed(TimeUs t, std::optional<Buttons> buttons) {
  const UpdateResult result = game_.update(t, buttons);
  if (result.error != UpdateError::kOk) return result;
  now_us_ = std::max(now_us_, t);
  const std::size_t checkpoints_before = checkpoints_.size();
  for (const Event& e : result.events) {
    if (!digest_.add(e)) continue;
    locks_.push_back(LockRecord{e.time_us, digest_.value()});
    if (checkpoint_every_ > 0 && static_cast<std::int64_t>(locks_.size()) % checkpoint_every_ == 0) {
      checkpoints_.push_back(Checkpoint{e.time_us, 0});
    }
  }
  // A checkpoint's hash is the state once the whole call has run (simulate.h), whichever lock of the call it is for.
  if (checkpoints_.size() > checkpoints_before) {
    const std::uint64_t hash = game_.state_hash();
    for (std::size_t i = checkpoints_before; i < checkpoints_.size(); ++i) checkpoints_[i].state_hash = hash;
  }
  return result;
}

UpdateResult RacerRun::press(TimeUs t, Buttons buttons) {
  ++next_seq_;
  if (buttons == held() || game_.over()) return feed(t, std::nullopt);
  const UpdateResult result = feed(t, buttons);
  // The game can end in the events up to `t`, before the buttons apply (the game then leaves its held buttons as
  // they were): such a change came after the end and is not logged, however often the run was advanced before.
  if (result.error == UpdateError::kOk && game_.state().held == buttons) log_.push_back(InputChange{t, buttons});
  return result;
}

UpdateResult RacerRun::advance(TimeUs t) { return feed(t, std::nullopt); }

StreamError RacerRun::accept(std::uint32_t first_seq, TimeUs now_us, std::span<const InputChange> changes) {
  if (first_seq > next_seq_) return StreamError::kGap;
  if (first_seq < next_seq_) return StreamError::kOverlap;
  if (changes.size() > std::numeric_limits<std::uint32_t>::max() - next_seq_) return StreamError::kTooLong;
  if (now_us < now_us_) return StreamError::kNowBackwards;
  if (!changes.empty() && changes.front().time_us < now_us_) return StreamError::kTimeBackwards;
  TimeUs previous = now_us_;
  for (const InputChange& c : changes) {
    if (c.time_us < previous || c.time_us > now_us || (c.buttons & ~button::kAll) != 0) return StreamError::kBadBatch;
    previous = c.time_us;
  }
  // Checked above: every call below is at or after the game's time, with known buttons, so none can fail.
  for (const InputChange& c : changes) (void)press(c.time_us, c.buttons);
  (void)advance(now_us);
  return StreamError::kOk;
}

std::optional<std::uint64_t> RacerRun::digest_after(std::int64_t pieces) const {
  if (pieces < 1 || pieces > static_cast<std::int64_t>(locks_.size())) return std::nullopt;
  return locks_[static_cast<std::size_t>(pieces - 1)].digest;
}

}  // namespace sr::engine
