#include "client/settings/settings.h"

#include <fmt/format.h>

#include <algorithm>

namespace sr::client {
namespace {

// Clamps `v` into [lo, hi]; a change is noted in `changes` as "path 99999 -> 2000".
template <typename T>
void clamp_field(std::vector<std::string>& changes, const char* path, T& v, T lo, T hi) {
  const T c = std::clamp(v, lo, hi);
  if (c == v) return;
  changes.push_back(fmt::format("{} {} -> {}", path, v, c));
  v = c;
}

}  // namespace

const char* skin_name(Skin s) {
  switch (s) {
    case Skin::kGuideline: return "guideline";
    case Skin::kFlat: return "flat";
    case Skin::kMonochrome: return "monochrome";
  }
  return "guideline";
}

std::vector<std::string> clamp_settings(Settings& s) {
  std::vector<std::string> changes;
  clamp_field(changes, "handling.das_ms", s.handling.das_ms, 0, 2000);
  clamp_field(changes, "handling.arr_ms", s.handling.arr_ms, 0, 1000);
  clamp_field(changes, "handling.sdf", s.handling.sdf, 0, 1000);
  clamp_field(changes, "handling.dcd_ms", s.handling.dcd_ms, 0, 1000);
  if (!(s.visuals.board_scale >= 0.5f && s.visuals.board_scale <= 1.5f)) {  // also catches NaN
    const float was = s.visuals.board_scale;
    s.visuals.board_scale = was > 1.5f ? 1.5f : (was < 0.5f ? 0.5f : 1.0f);
    changes.push_back(fmt::format("visuals.board_scale {} -> {}", was, s.visuals.board_scale));
  }
  if (static_cast<int>(s.visuals.skin) >= kSkinCount) {
    s.visuals.skin = Skin::kGuideline;
    changes.emplace_back("visuals.skin -> guideline");
  }
  clamp_field(changes, "sound.master_volume", s.sound.master_volume, 0, 100);
  clamp_field(changes, "sound.effects_volume", s.sound.effects_volume, 0, 100);
  clamp_field(changes, "keep_given_up_after_s", s.keep_given_up_after_s, 0, 600);
  clamp_field(changes, "countdown_ms", s.countdown_ms, 0, 5000);
  if (s.frame_cap != 0 && (s.frame_cap < 30 || s.frame_cap > 1000)) {
    // Not clamped: 5 or 100000 is no choice of a cap near it; the default follows the monitor.
    changes.push_back(fmt::format("frame_cap {} -> 0 (the monitor's rate)", s.frame_cap));
    s.frame_cap = 0;
  }
  if (s.player_name.empty()) {
    s.player_name = "player";
    changes.emplace_back("player_name (empty) -> \"player\"");
  }
  if (s.player_name.size() > 24) {
    s.player_name.resize(24);
    changes.push_back(fmt::format("player_name cut to 24 bytes (\"{}\")", s.player_name));
  }
  if (s.servers.size() > 32) {
    changes.push_back(fmt::format("servers: {} -> the first 32", s.servers.size()));
    s.servers.resize(32);
  }
  for (auto& server : s.servers) {
    if (server.name.empty() || server.name.size() > 32) {
      server.name = server.address.substr(0, 32);
      changes.push_back(fmt::format("servers: a name -> \"{}\"", server.name));
    }
  }
  const auto cap = [&](std::vector<std::string>& list, const char* field, std::size_t most) {
    const auto bad = [](const std::string& t) { return t.empty() || t.size() > 200; };
    if (const auto n = std::erase_if(list, bad); n > 0)
      changes.push_back(fmt::format("{}: {} empty or too long", field, n));
    if (list.size() > most) {
      changes.push_back(fmt::format("{}: {} -> the first {}", field, list.size(), most));
      list.resize(most);
    }
  };
  cap(s.directories, "directories", kMaxDirectories);
  cap(s.recent_servers, "recent_servers", kMaxRecentServers);
  return changes;
}

void note_recent_server(Settings& s, const std::string& address) {
  std::erase(s.recent_servers, address);
  s.recent_servers.insert(s.recent_servers.begin(), address);
  if (s.recent_servers.size() > kMaxRecentServers) s.recent_servers.resize(kMaxRecentServers);
}

float effects_gain(const SoundSettings& s) {
  return static_cast<float>(std::clamp(s.master_volume, 0, 100) * std::clamp(s.effects_volume, 0, 100)) / 10000.0f;
}

engine::Handling to_engine(const HandlingSettings& h) {
  engine::Handling out;
  out.das_us = h.das_ms * 1000;
  out.arr_us = h.arr_ms * 1000;
  out.sdf = h.sdf;
  out.dcd_us = h.dcd_ms * 1000;
  return out;
}

}  // namespace sr::client
