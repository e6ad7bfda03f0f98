// The game's sound effects, synthesised at start-up: short mono 16-bit PCM, one clip per cue. Nothing is loaded
// from disk or downloaded. Each clip is a few notes (sine, triangle, square or noise voices with a pitch glide and a
// short attack/exponential decay envelope), so the sounds are small, distinct and free of clicks.
//
// # Reproducibility
// A clip depends only on its cue and the sample rate (the noise comes from a fixed linear congruential generator):
// the same build makes the same samples, which the wave-writer test relies on to find each clip in the output.
#pragma once

#include <cstdint>
#include <vector>

#include "client/audio/cue.h"

namespace sr::client::audio {

inline constexpr int kSampleRateHz = 48'000;

// The samples of `cue` at `rate_hz` (8,000..192,000). A clip sounds from its first sample (its onset), is at most
// 1.5 s long, and peaks at no more than half of full scale, so several mixed together do not clip.
[[nodiscard]] std::vector<std::int16_t> synthesise(Cue cue, int rate_hz = kSampleRateHz);

}  // namespace sr::client::audio
