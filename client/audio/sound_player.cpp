#include "client/audio/sound_player.h"

#include <AL/al.h>
#include <AL/alc.h>
#include <AL/alext.h>
#include <dlfcn.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>

#include "client/audio/synth.h"

namespace sr::client::audio {
namespace {

ALCdevice* dev(void* p) { return static_cast<ALCdevice*>(p); }

// ALSA prints every failed step of opening a missing card to stderr ("cannot find card '0'", eight lines) when
// OpenAL Soft tries it; the player says in one line of its own that there is no sound. So ALSA's messages go to a
// handler that drops them (snd_lib_error_set_handler; ALSA is looked up at run time, as OpenAL Soft does, and left
// alone where it is not installed).
void quiet_alsa_handler(const char* /*file*/, int /*line*/, const char* /*function*/, int /*err*/, const char* /*fmt*/,
                        ...) {}

void quiet_alsa() {
  void* alsa = dlopen("libasound.so.2", RTLD_LAZY | RTLD_LOCAL);
  if (alsa == nullptr) return;
  using Handler = void (*)(const char*, int, const char*, int, const char*, ...);
  using SetHandler = int (*)(Handler);
  if (void* set = dlsym(alsa, "snd_lib_error_set_handler"); set != nullptr) {
    (void)reinterpret_cast<SetHandler>(set)(&quiet_alsa_handler);
  }
  // Not closed: the handler must stay set while OpenAL Soft uses the library.
}
ALCcontext* ctx(void* p) { return static_cast<ALCcontext*>(p); }

}  // namespace

SoundPlayer::SoundPlayer() {
  quiet_alsa();
  // OpenAL Soft prints its errors ("AL lib: (EE) ... Could not open playback device") to stderr unless told not to;
  // a missing device is said once, below, in the game's log. It reads ALSOFT_LOGLEVEL on its first call (a player's
  // own setting is kept).
  (void)::setenv("ALSOFT_LOGLEVEL", "0", 0);
  ALCdevice* device = alcOpenDevice(nullptr);
  if (device == nullptr) {
    description_ = "no audio device could be opened";
    spdlog::info("sound off: {}; the game plays silently", description_);
    return;
  }
  ALCcontext* context = alcCreateContext(device, nullptr);
  if (context == nullptr || alcMakeContextCurrent(context) == ALC_FALSE) {
    if (context != nullptr) alcDestroyContext(context);
    (void)alcCloseDevice(device);
    description_ = "the audio device refused a context";
    spdlog::info("sound off: {}; the game plays silently", description_);
    return;
  }
  device_ = device;
  context_ = context;
  const ALCchar* name = alcGetString(device, ALC_DEVICE_SPECIFIER);
  description_ = name != nullptr ? name : "audio device";
  ALCint rate = 0;
  alcGetIntegerv(device, ALC_FREQUENCY, 1, &rate);
  rate_hz_ = rate;
  if (alcIsExtensionPresent(device, "ALC_SOFT_device_clock") == ALC_TRUE) {
    clock_fn_ = alcGetProcAddress(device, "alcGetInteger64vSOFT");
  }

  (void)alGetError();
  buffers_.resize(kCueCount);
  alGenBuffers(kCueCount, buffers_.data());
  for (int i = 0; i < kCueCount; ++i) {
    const std::vector<std::int16_t> pcm = synthesise(static_cast<Cue>(i), kSampleRateHz);
    alBufferData(buffers_[static_cast<std::size_t>(i)], AL_FORMAT_MONO16, pcm.data(),
                 static_cast<ALsizei>(pcm.size() * sizeof(std::int16_t)), kSampleRateHz);
  }
  sources_.resize(kSources);
  alGenSources(kSources, sources_.data());
  for (ALuint s : sources_) {
    alSourcei(s, AL_SOURCE_RELATIVE, AL_TRUE);  // at the listener: no distance or panning
    alSource3f(s, AL_POSITION, 0, 0, 0);
  }
  if (const ALenum error = alGetError(); error != AL_NO_ERROR) {
    description_ = std::string("OpenAL refused the sound clips (") + alGetString(error) + ")";
    spdlog::info("sound off: {}; the game plays silently", description_);
    close();
    return;
  }
  apply_gain();
  spdlog::info("sound: {} at {} Hz", description_, rate_hz_);
}

SoundPlayer::~SoundPlayer() { close(); }

void SoundPlayer::close() {
  if (device_ == nullptr) return;
  if (!sources_.empty()) alDeleteSources(static_cast<ALsizei>(sources_.size()), sources_.data());
  if (!buffers_.empty()) alDeleteBuffers(static_cast<ALsizei>(buffers_.size()), buffers_.data());
  sources_.clear();
  buffers_.clear();
  alcMakeContextCurrent(nullptr);
  alcDestroyContext(ctx(context_));
  (void)alcCloseDevice(dev(device_));
  device_ = nullptr;
  context_ = nullptr;
  clock_fn_ = nullptr;
}

void SoundPlayer::set_gain(float gain) {
  gain_ = gain >= 0.0f ? std::min(gain, 1.0f) : 0.0f;  // NaN -> 0
  apply_gain();
}

void SoundPlayer::set_muted(bool muted) {
  muted_ = muted;
  apply_gain();
}

void SoundPlayer::apply_gain() {
  const float gain = muted_ ? 0.0f : gain_;
  if (device_ == nullptr || gain == applied_gain_) return;  // the app sets both every frame
  alListenerf(AL_GAIN, gain);
  applied_gain_ = gain;
}

void SoundPlayer::play(Cue cue) {
  if (device_ == nullptr || muted_ || gain_ <= 0.0f) return;
  const auto index = static_cast<std::size_t>(cue);
  if (index >= buffers_.size()) return;
  // A free source if there is one, else the one started longest ago (sources are taken round-robin).
  std::size_t pick = next_source_;
  for (std::size_t k = 0; k < sources_.size(); ++k) {
    const std::size_t i = (next_source_ + k) % sources_.size();
    ALint state = AL_STOPPED;
    alGetSourcei(sources_[i], AL_SOURCE_STATE, &state);
    if (state != AL_PLAYING) {
      pick = i;
      break;
    }
  }
  next_source_ = (pick + 1) % sources_.size();
  const ALuint s = sources_[pick];
  alSourceStop(s);
  alSourcei(s, AL_BUFFER, static_cast<ALint>(buffers_[index]));
  alSourcePlay(s);
}

void SoundPlayer::play(std::span<const Cue> cues) {
  for (Cue c : cues) play(c);
}

std::optional<std::int64_t> SoundPlayer::device_clock_ns() const {
  if (device_ == nullptr || clock_fn_ == nullptr) return std::nullopt;
  ALCint64SOFT ns = 0;
  reinterpret_cast<LPALCGETINTEGER64VSOFT>(clock_fn_)(dev(device_), ALC_DEVICE_CLOCK_SOFT, 1, &ns);
  return static_cast<std::int64_t>(ns);
}

}  // namespace sr::client::audio
