#include "client/settings/settings.h"

#include <algorithm>

namespace sr::client {
namespace {

template <typename T>
bool clamp_field(T& v, T lo, T hi) {
  const T c = std::clamp(v, lo, hi);
  if (c == v) return false;
  v = c;
  return true;
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

bool clamp_settings(Settings& s) {
  bool changed = false;
  changed |= clamp_field(s.handling.das_ms, 0, 2000);
  changed |= clamp_field(s.handling.arr_ms, 0, 1000);
  changed |= clamp_field(s.handling.sdf, 0, 1000);
  changed |= clamp_field(s.handling.dcd_ms, 0, 1000);
  if (!(s.visuals.board_scale >= 0.5f && s.visuals.board_scale <= 1.5f)) {  // also catches NaN
    s.visuals.board_scale = s.visuals.board_scale > 1.5f ? 1.5f : (s.visuals.board_scale < 0.5f ? 0.5f : 1.0f);
    changed = true;
  }
  if (static_cast<int>(s.visuals.skin) >= kSkinCount) {
    s.visuals.skin = Skin::kGuideline;
    changed = true;
  }
  changed |= clamp_field(s.sound.master_volume, 0, 100);
  changed |= clamp_field(s.sound.effects_volume, 0, 100);
  changed |= clamp_field(s.keep_given_up_after_s, 0, 600);
  if (s.frame_cap != 0 && (s.frame_cap < 30 || s.frame_cap > 1000)) {
    s.frame_cap = 0;  // not clamped: 5 or 100000 is no choice of a cap near it; the default follows the monitor
    changed = true;
  }
  if (s.player_name.empty()) {
    s.player_name = "player";
    changed = true;
  }
  if (s.player_name.size() > 24) {
    s.player_name.resize(24);
    changed = true;
  }
  if (s.servers.size() > 32) {
    s.servers.resize(32);
    changed = true;
  }
  for (auto& server : s.servers) {
    if (server.name.empty() || server.name.size() > 32) {
      server.name = server.address.substr(0, 32);
      changed = true;
    }
  }
  return changed;
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
