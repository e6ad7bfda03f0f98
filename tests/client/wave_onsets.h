// Finding known clips in a recording (tests/client/sound_device_test.cpp): the WAV the wave writer wrote, and where
// each of a list of clips starts in it, when the recording is a sum of those clips (each at its own gain) and the
// clips may overlap.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace sr::test {

// The samples of a 16-bit mono WAV file at `rate_hz` (PCM or WAVE_FORMAT_EXTENSIBLE); empty if it is not that.
inline std::vector<std::int16_t> read_wav_mono16(const std::filesystem::path& file, std::uint32_t rate_hz) {
  std::ifstream in(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = v << 8 | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(k)]);
    return v;
  };
  auto u16 = [&](std::size_t at) { return u32(at) & 0xFFFF; };
  if (bytes.size() < 12 || bytes.compare(0, 4, "RIFF") != 0 || bytes.compare(8, 4, "WAVE") != 0) return {};
  std::size_t at = 12;
  bool mono16 = false;
  while (at + 8 <= bytes.size()) {
    const std::string id = bytes.substr(at, 4);
    std::size_t size = u32(at + 4);
    if (id == "fmt " && at + 24 <= bytes.size()) {
      mono16 = u16(at + 10) == 1 && u32(at + 12) == rate_hz && u16(at + 22) == 16;
    }
    if (id == "data") {
      if (!mono16) return {};
      size = std::min(size == 0 ? bytes.size() : size, bytes.size() - at - 8);  // 0 while the writer ran
      std::vector<std::int16_t> pcm(size / 2);
      for (std::size_t i = 0; i < pcm.size(); ++i) pcm[i] = static_cast<std::int16_t>(u16(at + 8 + 2 * i));
      return pcm;
    }
    at += 8 + size + (size & 1);
  }
  return {};
}

// One clip expected in the recording near `expected` (a sample index).
struct PlacedClip {
  const std::vector<std::int16_t>* clip = nullptr;
  std::int64_t expected = 0;
  std::int64_t onset = -1;  // where it was found; -1: not found
  double score = 0;         // normalised correlation there with what the other clips leave, 0..1
  double gain = 0;          // its level in the recording
};

namespace detail {

inline double ncc(const std::vector<double>& x, const std::vector<std::int16_t>& clip, std::int64_t lag,
                  std::size_t n) {
  double dot = 0, ex = 0, ec = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double v = x[static_cast<std::size_t>(lag) + k];
    dot += v * clip[k];
    ex += v * v;
    ec += static_cast<double>(clip[k]) * clip[k];
  }
  return ex > 0 && ec > 0 ? dot / std::sqrt(ex * ec) : 0;
}

inline void add(std::vector<double>& x, const PlacedClip& p, double sign) {
  if (p.onset < 0) return;
  const auto& c = *p.clip;
  for (std::size_t k = 0; k < c.size() && static_cast<std::size_t>(p.onset) + k < x.size(); ++k) {
    x[static_cast<std::size_t>(p.onset) + k] += sign * p.gain * c[k];
  }
}

}  // namespace detail

// Finds each clip between expected - before and expected + after. Clips are searched in what the others leave (the
// recording minus every other clip at its current place, at first its expected one), three times over, so overlapping
// clips do not hide each other. The clips are played at one level, so after the first pass each is taken out at the
// median of the levels found then (a level fitted where clips overlap is a little off, and leaves some behind).
// Candidates are the peaks of a quick match (normalised correlation over the clip's first 10 ms); the place is the
// candidate whose correlation with the clip's first 0.15 s is largest: the clip's envelope tells its onset from one
// period of its tone later, or from the same clip started again a moment later once that one is taken out. A clip
// whose quick match is under 0.5 everywhere is not found.
inline void locate_clips(const std::vector<std::int16_t>& pcm, std::vector<PlacedClip>& placed, std::int64_t before,
                         std::int64_t after, std::uint32_t rate_hz) {
  std::vector<double> residual(pcm.begin(), pcm.end());
  const auto length = static_cast<std::int64_t>(residual.size());
  // Start with every clip at its expected place, at the level the recording has there: the search of each then
  // starts from the others taken out where they most likely are (two moves 25 ms apart do not both take the first).
  auto fit_gain = [&](PlacedClip& p) {
    double dot = 0, energy = 0;
    for (std::size_t k = 0; k < p.clip->size() && static_cast<std::size_t>(p.onset) + k < residual.size(); ++k) {
      dot += residual[static_cast<std::size_t>(p.onset) + k] * (*p.clip)[k];
      energy += static_cast<double>((*p.clip)[k]) * (*p.clip)[k];
    }
    p.gain = energy > 0 ? dot / energy : 0;
  };
  for (PlacedClip& p : placed) {
    p.onset = std::clamp<std::int64_t>(p.expected, 0, length);
    fit_gain(p);
  }
  for (PlacedClip& p : placed) detail::add(residual, p, -1);
  double common_gain = 0;  // from the second pass on: every clip at the level most of them have
  for (int pass = 0; pass < 3; ++pass) {
    for (PlacedClip& p : placed) {
      detail::add(residual, p, +1);  // what the others leave
      const std::vector<std::int16_t>& clip = *p.clip;
      const std::size_t n_short = std::min<std::size_t>(clip.size(), rate_hz / 100);
      const std::size_t n_full = std::min<std::size_t>(clip.size(), rate_hz * 15 / 100);
      const std::int64_t from = std::max<std::int64_t>(0, p.expected - before);
      const std::int64_t to = std::min<std::int64_t>(p.expected + after, length - static_cast<std::int64_t>(n_full));
      std::vector<double> quick;
      for (std::int64_t lag = from; lag <= to; ++lag) quick.push_back(detail::ncc(residual, clip, lag, n_short));
      const double best_quick = quick.empty() ? 0 : *std::max_element(quick.begin(), quick.end());
      p.onset = -1;
      p.score = best_quick;
      double best_dot = 0;
      for (std::size_t i = 0; i < quick.size() && best_quick >= 0.5; ++i) {
        const bool peak = (i == 0 || quick[i] >= quick[i - 1]) && (i + 1 == quick.size() || quick[i] >= quick[i + 1]);
        if (!peak || quick[i] < 0.5 * best_quick) continue;
        const std::int64_t lag = from + static_cast<std::int64_t>(i);
        double dot = 0;
        for (std::size_t k = 0; k < n_full; ++k) dot += residual[static_cast<std::size_t>(lag) + k] * clip[k];
        if (dot > best_dot) {
          best_dot = dot;
          p.onset = lag;
          p.score = quick[i];
        }
      }
      if (p.onset >= 0) {
        if (pass == 0) {
          fit_gain(p);
        } else {
          p.gain = common_gain;
        }
      }
      detail::add(residual, p, -1);
    }
    if (pass == 0) {
      std::vector<double> gains;
      for (const PlacedClip& p : placed) {
        if (p.onset >= 0) gains.push_back(p.gain);
      }
      if (gains.empty()) return;
      std::nth_element(gains.begin(), gains.begin() + static_cast<std::ptrdiff_t>(gains.size() / 2), gains.end());
      common_gain = gains[gains.size() / 2];
    }
  }
}

}  // namespace sr::test
