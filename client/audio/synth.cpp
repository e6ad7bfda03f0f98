#include "client/audio/synth.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <numbers>

namespace sr::client::audio {
namespace {

enum class Wave : std::uint8_t { kSine, kTriangle, kSquare, kNoise };

// One voice of a clip. Frequencies glide exponentially from f0 to f1 over the note; the envelope rises linearly over
// attack_s, decays as exp(-decay_per_s * t), and fades out over the last 4 ms (no click at the end).
struct Note {
  double start_s;
  double dur_s;
  double f0_hz;
  double f1_hz;
  double amp;
  Wave wave = Wave::kSine;
  double attack_s = 0.002;
  double decay_per_s = 20;
};

struct Clip {
  double loudness;  // peak as a fraction of full scale (<= 0.5)
  std::vector<Note> notes;
};

constexpr double kC5 = 523.25, kE5 = 659.26, kG5 = 783.99, kA4 = 440.0, kA5 = 880.0, kC6 = 1046.50, kE6 = 1318.51,
                 kG6 = 1567.98, kB6 = 1975.53, kC7 = 2093.00, kE7 = 2637.02, kD5 = 587.33, kG4 = 392.00;

double semitones(double hz, int n) { return hz * std::pow(2.0, n / 12.0); }

Clip clip_of(Cue cue) {
  const int i = static_cast<int>(cue);
  if (i >= static_cast<int>(Cue::kCombo1)) {
    // Rising steps of a major pentatonic scale from C5: each combo step is higher than the last.
    static constexpr std::array<int, kComboSteps> kSteps = {0, 2, 4, 7, 9, 12, 14, 16, 19, 21, 24, 26};
    const double f = semitones(kC5, kSteps[static_cast<std::size_t>(i - static_cast<int>(Cue::kCombo1))]);
    return {0.36, {{0, 0.14, f, f, 1.0, Wave::kTriangle, 0.002, 22}, {0, 0.10, 2 * f, 2 * f, 0.25, Wave::kSine}}};
  }
  switch (cue) {
    case Cue::kMove: return {0.20, {{0, 0.03, 1400, 1250, 1.0, Wave::kTriangle, 0.001, 110}}};
    case Cue::kRotate: return {0.24, {{0, 0.05, 900, 1500, 1.0, Wave::kTriangle, 0.002, 50}}};
    case Cue::kHardDrop:
      return {0.45, {{0, 0.13, 220, 55, 1.0, Wave::kSine, 0.001, 22}, {0, 0.04, 1, 1, 0.35, Wave::kNoise, 0.001, 90}}};
    case Cue::kLock:
      return {0.30,
              {{0, 0.07, 330, 250, 1.0, Wave::kSine, 0.001, 45}, {0, 0.03, 660, 660, 0.3, Wave::kTriangle, 0.001, 90}}};
    case Cue::kHold:
      return {0.28, {{0, 0.05, kD5, kD5, 0.7, Wave::kSquare, 0.002, 30}, {0.045, 0.07, kA5, kA5, 0.7, Wave::kSquare}}};
    case Cue::kClear1: return {0.36, {{0, 0.20, kC5, kC5, 1.0, Wave::kTriangle, 0.003, 12}}};
    case Cue::kClear2:
      return {0.40,
              {{0, 0.22, kC5, kC5, 1.0, Wave::kTriangle, 0.003, 12}, {0.04, 0.2, kE5, kE5, 1.0, Wave::kTriangle}}};
    case Cue::kClear3:
      return {0.44,
              {{0, 0.24, kC5, kC5, 1.0, Wave::kTriangle, 0.003, 10},
               {0.04, 0.22, kE5, kE5, 1.0, Wave::kTriangle, 0.003, 10},
               {0.08, 0.2, kG5, kG5, 1.0, Wave::kTriangle, 0.003, 10}}};
    case Cue::kClear4:
      return {0.50,
              {{0, 0.35, kC5, kC5, 1.0, Wave::kTriangle, 0.003, 6},
               {0.04, 0.33, kE5, kE5, 1.0, Wave::kTriangle, 0.003, 6},
               {0.08, 0.31, kG5, kG5, 1.0, Wave::kTriangle, 0.003, 6},
               {0.12, 0.35, kC6, kC6, 1.0, Wave::kTriangle, 0.003, 6},
               {0.12, 0.2, kC7, kC7, 0.2, Wave::kSquare, 0.003, 15}}};
    case Cue::kSpin:
      return {
          0.42,
          {{0, 0.22, 300, 1800, 1.0, Wave::kTriangle, 0.004, 4}, {0.2, 0.15, 1800, 1800, 0.6, Wave::kSine, 0.002, 20}}};
    case Cue::kSpinMini: return {0.32, {{0, 0.12, 500, 1200, 1.0, Wave::kTriangle, 0.003, 10}}};
    case Cue::kBackToBack:
      return {0.34,
              {{0, 0.22, kG4, kG4, 0.8, Wave::kSquare, 0.003, 12}, {0, 0.22, 2 * kG4, 2 * kG4, 0.6, Wave::kSquare}}};
    case Cue::kPerfectClear: {
      Clip c{0.48, {}};
      const std::array<double, 7> up = {kC5, kE5, kG5, kC6, kE6, kG6, kC7};
      for (std::size_t k = 0; k < up.size(); ++k) {
        c.notes.push_back({0.06 * static_cast<double>(k), 0.45, up[k], up[k], 1.0, Wave::kTriangle, 0.003, 6});
      }
      return c;
    }
    case Cue::kCountdownTick: return {0.36, {{0, 0.12, kA4, kA4, 1.0, Wave::kSine, 0.002, 14}}};
    case Cue::kGo:
      return {0.44,
              {{0, 0.35, kA5, kA5, 1.0, Wave::kSine, 0.002, 6}, {0, 0.35, 1.5 * kA5, 1.5 * kA5, 0.5, Wave::kSine}}};
    case Cue::kFinish:
      return {0.46,
              {{0, 0.12, kG5, kG5, 1.0, Wave::kTriangle, 0.003, 10},
               {0.1, 0.12, kC6, kC6, 1.0, Wave::kTriangle, 0.003, 10},
               {0.2, 0.12, kE6, kE6, 1.0, Wave::kTriangle, 0.003, 10},
               {0.3, 0.5, kG6, kG6, 1.0, Wave::kTriangle, 0.003, 5}}};
    case Cue::kPersonalBest: {
      Clip c{0.42, {}};
      const std::array<double, 5> up = {kC6, kE6, kG6, kC7, kE7};
      for (std::size_t k = 0; k < up.size(); ++k) {
        c.notes.push_back({0.05 * static_cast<double>(k), 0.3, up[k], up[k], 1.0, Wave::kSine, 0.002, 8});
      }
      c.notes.push_back({0.25, 0.6, kC7, kC7, 0.6, Wave::kSine, 0.01, 5});
      return c;
    }
    case Cue::kTopOut:
      return {0.44, {{0, 0.75, kG4, 98, 1.0, Wave::kSquare, 0.003, 3}, {0, 0.2, 1, 1, 0.25, Wave::kNoise, 0.002, 15}}};
    case Cue::kRacerFinished:
      return {0.30, {{0, 0.2, kE6, kE6, 1.0, Wave::kSine, 0.002, 14}, {0.08, 0.25, kB6, kB6, 1.0, Wave::kSine}}};
    case Cue::kCombo1: break;  // handled above
  }
  return {0.3, {{0, 0.05, kA4, kA4, 1.0}}};
}

double wave_at(Wave w, double phase, std::uint32_t& noise) {
  switch (w) {
    case Wave::kSine: return std::sin(2 * std::numbers::pi * phase);
    case Wave::kTriangle: return 4 * std::abs(phase - std::floor(phase + 0.5)) - 1;
    case Wave::kSquare: return phase - std::floor(phase) < 0.5 ? 0.6 : -0.6;  // softer than a full square
    case Wave::kNoise:
      noise = noise * 1664525u + 1013904223u;
      return static_cast<double>(noise >> 8) / static_cast<double>(1u << 23) - 1.0;
  }
  return 0;
}

}  // namespace

std::vector<std::int16_t> synthesise(Cue cue, int rate_hz) {
  assert(rate_hz >= 8'000 && rate_hz <= 192'000);
  const Clip clip = clip_of(cue);
  const double rate = static_cast<double>(rate_hz);
  double end_s = 0;
  for (const Note& n : clip.notes) end_s = std::max(end_s, n.start_s + n.dur_s);
  std::vector<double> mix(static_cast<std::size_t>(std::min(end_s, 1.5) * rate), 0.0);
  std::uint32_t noise = 0x5EED;
  for (const Note& n : clip.notes) {
    const auto first = static_cast<std::size_t>(n.start_s * rate);
    const auto count = static_cast<std::size_t>(n.dur_s * rate);
    double phase = 0;
    for (std::size_t k = 0; k < count && first + k < mix.size(); ++k) {
      const double t = static_cast<double>(k) / rate;
      const double left = n.dur_s - t;
      double env = std::min(1.0, (t + 1 / rate) / n.attack_s) * std::exp(-n.decay_per_s * t);
      if (left < 0.004) env *= left / 0.004;
      mix[first + k] += n.amp * env * wave_at(n.wave, phase, noise);
      phase += n.f0_hz * std::pow(n.f1_hz / n.f0_hz, t / n.dur_s) / rate;
    }
  }
  double peak = 0;
  for (double v : mix) peak = std::max(peak, std::abs(v));
  const double scale = peak > 0 ? clip.loudness * 32767.0 / peak : 0;
  std::vector<std::int16_t> out(mix.size());
  for (std::size_t k = 0; k < mix.size(); ++k) out[k] = static_cast<std::int16_t>(std::lround(mix[k] * scale));
  return out;
}

}  // namespace sr::client::audio
