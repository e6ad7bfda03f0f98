#include "common/replay/sample/synthetic_log.h"

#include <algorithm>

#include "common/engine/random.h"

namespace sr::replay::sample {

std::vector<engine::InputChange> synthetic_log(int pieces, std::uint64_t seed) {
  namespace button = engine::button;
  engine::Random rng(seed);
  const auto between = [&](int lo, int hi) {
    return lo + static_cast<int>(rng.below(static_cast<std::uint32_t>(hi - lo + 1)));
  };
  std::vector<engine::InputChange> log;
  constexpr engine::TimeUs kMs = 1000;
  constexpr int kPieceMs = 333;  // 3 pieces per second
  int last = 0;
  for (int p = 0; p < pieces; ++p) {
    std::vector<engine::Buttons> taps;
    if (rng.below(2) == 1) {
      constexpr engine::Buttons kTurns[] = {button::kRotateCw, button::kRotateCcw, button::kRotate180};
      taps.push_back(kTurns[rng.below(3)]);
    }
    const engine::Buttons move = rng.below(2) == 1 ? button::kMoveLeft : button::kMoveRight;
    const int moves = static_cast<int>(rng.below(3));
    for (int i = 0; i < moves; ++i) taps.push_back(move);
    taps.push_back(button::kHardDrop);

    // Spread the taps over the piece's 333 ms: a think pause first, the rest as gaps.
    int t = std::max(p * kPieceMs + between(20, 60), last + 10);
    const int end = (p + 1) * kPieceMs;
    for (std::size_t i = 0; i < taps.size(); ++i) {
      const int hold = between(40, 90);
      const int left = static_cast<int>(taps.size() - i - 1);
      log.push_back(engine::InputChange{t * kMs, taps[i]});
      t += hold;
      log.push_back(engine::InputChange{t * kMs, 0});
      const int room = std::max(1, (end - t - left * 65) / (left + 1));
      t += std::min(between(10, 60), room);
    }
    last = t;
  }
  return log;
}

}  // namespace sr::replay::sample
