// Plays the game's sound effects through OpenAL Soft: every clip is synthesised and uploaded once at start-up, and
// playing one is alSourcePlay on a free source of a small pool (stealing the one started longest ago when all
// are busy). Nothing here waits on the device: no call decodes, allocates audio memory or blocks on the mixer
// beyond OpenAL's own short internal locks.
//
// # Without a device
// When no audio device can be opened (none present, ALSOFT_DRIVERS names no working driver) or OpenAL refuses the
// clips, the player is unavailable: it logs one line saying so, and every call does nothing. It never throws and
// never shows a dialog; the game goes on in silence.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "client/audio/cue.h"

namespace sr::client::audio {

class SoundPlayer {
 public:
  // Opens OpenAL's default device (which OpenAL Soft's ALSOFT_DRIVERS and ALSOFT_CONF settings choose).
  SoundPlayer();
  ~SoundPlayer();
  SoundPlayer(const SoundPlayer&) = delete;
  SoundPlayer& operator=(const SoundPlayer&) = delete;

  [[nodiscard]] bool available() const { return device_ != nullptr; }
  // The device's name ("OpenAL Soft", "Built-in Audio Analog Stereo"), or why there is none.
  [[nodiscard]] const std::string& description() const { return description_; }

  // The gain of every effect, 0..1 (the master volume times the effects volume); out-of-range values are clamped
  // (NaN is 0). Cheap when nothing changes: the app sets it and the mute every frame.
  void set_gain(float gain);
  // Muted: nothing new starts and what plays is silenced (the window lost focus and the player asked for it).
  void set_muted(bool muted);
  [[nodiscard]] bool muted() const { return muted_; }

  // Starts each cue now, in order. Does nothing while muted, at gain 0, or when unavailable.
  void play(Cue cue);
  void play(std::span<const Cue> cues);

  // Nanoseconds of audio the device has produced since it opened (ALC_SOFT_device_clock): the timeline a sound
  // started now begins on. nullopt when unavailable or the extension is missing. For tests and diagnostics.
  [[nodiscard]] std::optional<std::int64_t> device_clock_ns() const;
  // The device's output rate in Hz (0 when unavailable).
  [[nodiscard]] int rate_hz() const { return rate_hz_; }

  // Sources in the pool: this many effects can sound at once.
  static constexpr int kSources = 16;

 private:
  void close();
  void apply_gain();

  void* device_ = nullptr;    // ALCdevice*
  void* context_ = nullptr;   // ALCcontext*
  void* clock_fn_ = nullptr;  // alcGetInteger64vSOFT
  std::string description_;
  int rate_hz_ = 0;
  std::vector<std::uint32_t> buffers_;  // one per cue
  std::vector<std::uint32_t> sources_;
  std::size_t next_source_ = 0;
  float gain_ = 1.0f;
  float applied_gain_ = -1.0f;  // the listener's gain now (-1: not set yet)
  bool muted_ = false;
};

}  // namespace sr::client::audio
