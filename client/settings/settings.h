// The player's settings: handling, key and pad bindings, visuals, sound, name. Stored as JSON in
// $XDG_CONFIG_HOME/stackrace/settings.json (settings_io.h reads and writes it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "client/input/bindings.h"
#include "common/engine/config.h"

namespace sr::client {

// Handling as players know it, in milliseconds; converted to the engine's microseconds by to_engine().
struct HandlingSettings {
  std::int32_t das_ms = 167;  // 0..2000: delayed auto shift
  std::int32_t arr_ms = 33;   // 0..1000: auto repeat rate; 0 = to the wall at once
  std::int32_t sdf = 20;      // 0..1000: soft drop factor (x gravity); 0 = instant
  std::int32_t dcd_ms = 0;    // 0..1000: DAS cut delay after a spawn
  bool operator==(const HandlingSettings&) const = default;
};

enum class Skin : std::uint8_t { kGuideline = 0, kFlat = 1, kMonochrome = 2 };
inline constexpr int kSkinCount = 3;
[[nodiscard]] const char* skin_name(Skin s);  // "guideline", "flat", "monochrome"

struct Visuals {
  bool ghost = true;
  bool grid = true;
  float board_scale = 1.0f;  // 0.5..1.5 of the size that fits the window
  Skin skin = Skin::kGuideline;
  bool operator==(const Visuals&) const = default;
};

// Sound effects (client/README.md, "Sound"). An effect plays at master x effects of full loudness.
struct SoundSettings {
  std::int32_t master_volume = 80;   // 0..100 %
  std::int32_t effects_volume = 80;  // 0..100 %
  bool mute_unfocused = true;        // silent while the window does not have the focus
  bool operator==(const SoundSettings&) const = default;
};

// The gain of an effect for these settings: master x effects, 0..1.
[[nodiscard]] float effects_gain(const SoundSettings& s);

// A server on the multiplayer menu's list.
struct SavedServer {
  std::string name;     // 1..32 characters
  std::string address;  // "host:port" or "host" (port 7878)
  bool operator==(const SavedServer&) const = default;
};

inline constexpr std::size_t kMaxDirectories = 8;
inline constexpr std::size_t kMaxRecentServers = 16;

struct Settings {
  HandlingSettings handling;
  Bindings bindings = Bindings::defaults();
  Visuals visuals;
  SoundSettings sound;
  std::string player_name = "player";  // 1..24 characters
  std::vector<SavedServer> servers;    // at most 32
  // 0 or 30..1000: frames per second where vsync is not honoured (client/README.md, "Frame pacing"); 0 = the
  // monitor's refresh rate (144 when unknown).
  std::int32_t frame_cap = 0;
  // 0..600 s: a solo game given up (restarted, quit) before this much game time is not stored as a replay; 0 stores
  // every game given up. Optional in settings.json (absent: this default).
  std::int32_t keep_given_up_after_s = 10;
  // 0..5000 ms: the 3-2-1 countdown before a solo game (and every restart and Retry); 0 starts at once, as a quick
  // restart. `stackrace --countdown-ms` overrides it for one session. Optional in settings.json (absent: 3000).
  std::int32_t countdown_ms = 3000;
  // The server browser (Multiplayer > Browse; common/protocol/DIRECTORY.md): the directories it lists servers from
  // ("http://host:port", at most 8), the servers joined last ("host:port", newest first, at most 16), and whether a
  // server hosted from the game registers with those directories (public) and answers LAN discovery. Optional in
  // settings.json (absent: these defaults).
  std::vector<std::string> directories;
  std::vector<std::string> recent_servers;
  bool host_public = false;
  bool host_lan = true;
  bool operator==(const Settings&) const = default;
};

// Puts `address` first in s.recent_servers (once; the oldest beyond kMaxRecentServers goes).
void note_recent_server(Settings& s, const std::string& address);

// Puts every field into its documented range (out-of-range numbers are clamped, an empty name becomes "player", a
// frame cap out of range becomes 0). Returns what it changed, one line per field ("handling.das_ms 99999 -> 2000");
// empty when nothing was out of range.
std::vector<std::string> clamp_settings(Settings& s);

// The engine handling for these settings (ARE, line clear delay and IRS/IHS keep the engine defaults).
[[nodiscard]] engine::Handling to_engine(const HandlingSettings& h);

}  // namespace sr::client
