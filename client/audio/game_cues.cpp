#include "client/audio/game_cues.h"

#include <cmath>

namespace sr::client::audio {

void append_cues(const std::optional<engine::ActivePiece>& before, std::span<const engine::Event> events,
                 const std::optional<engine::ActivePiece>& after, std::vector<Cue>& out) {
  bool same_piece = before && after && before->piece == after->piece;
  bool hard_dropped = false;
  for (const engine::Event& e : events) {
    switch (e.kind) {
      case engine::EventKind::kSpawn: same_piece = false; break;
      case engine::EventKind::kHold:
        same_piece = false;
        out.push_back(Cue::kHold);
        break;
      case engine::EventKind::kHardDrop:
        hard_dropped = true;
        out.push_back(Cue::kHardDrop);
        break;
      case engine::EventKind::kLock:
        same_piece = false;
        if (!hard_dropped) out.push_back(Cue::kLock);
        hard_dropped = false;
        break;
      case engine::EventKind::kClear:
        if (e.lines >= 1 && e.lines <= 4) out.push_back(clear_cue(e.lines));
        if (e.spin == engine::SpinKind::kFull) out.push_back(Cue::kSpin);
        if (e.spin == engine::SpinKind::kMini) out.push_back(Cue::kSpinMini);
        if (e.b2b) out.push_back(Cue::kBackToBack);
        if (e.combo >= 1) out.push_back(combo_cue(e.combo));
        if (e.perfect_clear) out.push_back(Cue::kPerfectClear);
        break;
      case engine::EventKind::kGameOver: out.push_back(Cue::kTopOut); break;
      case engine::EventKind::kFinished: out.push_back(Cue::kFinish); break;
      case engine::EventKind::kLevelUp: break;
    }
  }
  if (!same_piece) return;
  // Motion is read from the piece, not the buttons: a press against a wall moves nothing and makes no sound.
  if (before->rotation != after->rotation) {
    out.push_back(Cue::kRotate);
  } else if (before->x != after->x) {
    out.push_back(Cue::kMove);
  }
}

std::optional<Cue> CountdownBeeps::at(double left_s) {
  const int whole = left_s > 0 ? static_cast<int>(std::ceil(left_s)) : 0;
  if (whole >= shown_) return std::nullopt;
  shown_ = whole;
  return whole > 0 ? Cue::kCountdownTick : Cue::kGo;
}

}  // namespace sr::client::audio
