#include "bot/options.h"

#include <fmt/format.h>

#include <cctype>

#include "common/bot/weights.h"
#include "common/replay/names.h"

namespace sr::botcli {

std::optional<std::int32_t> parse_milli(const std::string& text) {
  std::int64_t whole = 0, frac = 0;
  int frac_digits = 0;
  bool dot = false, any = false;
  for (const char c : text) {
    if (c == '.' && !dot) {
      dot = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    any = true;
    if (dot) {
      if (++frac_digits > 3) return std::nullopt;
      frac = frac * 10 + (c - '0');
    } else {
      whole = whole * 10 + (c - '0');
      if (whole > 1000) return std::nullopt;
    }
  }
  if (!any) return std::nullopt;
  while (frac_digits++ < 3) frac *= 10;
  const std::int64_t v = whole * 1000 + frac;
  if (v > 1'000'000) return std::nullopt;
  return static_cast<std::int32_t>(v);
}

std::optional<MsRange> parse_ms_range(const std::string& text) {
  auto number = [](const std::string& s) -> std::optional<std::int32_t> {
    if (s.empty() || s.size() > 4) return std::nullopt;
    std::int32_t v = 0;
    for (const char c : s) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      v = v * 10 + (c - '0');
    }
    if (v < 1 || v > 1000) return std::nullopt;
    return v;
  };
  const auto dash = text.find('-');
  const auto lo = number(text.substr(0, dash));
  const auto hi = dash == std::string::npos ? lo : number(text.substr(dash + 1));
  if (!lo || !hi || *hi < *lo) return std::nullopt;
  return MsRange{*lo, *hi};
}

sr::Result<engine::GameConfig, std::string> config_for(const ModeRequest& r) {
  const auto kind = engine::mode_from_name(r.mode);
  if (!kind || *kind == engine::ModeKind::kCustom) {
    return sr::fail("--mode must be one of sprint, ultra, marathon, master, contest, endless (got '" + r.mode + "')");
  }
  if (r.lines && (*r.lines < 1 || *r.lines > 1'000'000)) return sr::fail("--lines must be 1..1000000");
  if (r.seconds && (*r.seconds < 1 || *r.seconds > 86'400)) return sr::fail("--seconds must be 1..86400");
  engine::GameConfig c;
  switch (*kind) {
    case engine::ModeKind::kSprint:
      if (r.seconds) return sr::fail("sprint is a race to a number of lines: use --lines, not --seconds");
      c = engine::make_sprint(r.lines.value_or(40));
      break;
    case engine::ModeKind::kMaster:
      if (r.seconds) return sr::fail("master is a race to a number of lines: use --lines, not --seconds");
      c = engine::make_master(r.lines.value_or(100));
      break;
    case engine::ModeKind::kUltra:
      if (r.lines) return sr::fail("ultra is timed: use --seconds, not --lines");
      c = engine::make_ultra(r.seconds.value_or(120));
      break;
    case engine::ModeKind::kContest:
      if (r.lines) return sr::fail("contest is timed: use --seconds, not --lines");
      c = engine::make_contest();
      if (r.seconds) c.limit_value = *r.seconds;
      break;
    case engine::ModeKind::kMarathon:
      if (r.lines || r.seconds) return sr::fail("marathon always ends after level 15: drop --lines/--seconds");
      c = engine::make_marathon();
      break;
    case engine::ModeKind::kEndless:
      if (r.lines && r.seconds) return sr::fail("endless takes one limit: --lines or --seconds, not both");
      if (!r.lines && !r.seconds) {
        return sr::fail("endless never ends by itself: give it --lines N or --seconds N");
      }
      c = engine::make_endless();
      c.limit = r.lines ? engine::LimitKind::kLines : engine::LimitKind::kTime;
      c.limit_value = r.lines ? *r.lines : *r.seconds;
      break;
    case engine::ModeKind::kCustom: break;
  }
  if (r.level) {
    // Marathon ends after level 15, so a later start would be a game that is over before it begins.
    const std::int32_t top = *kind == engine::ModeKind::kMarathon ? 15 : 30;
    if (*r.level < 1 || *r.level > top) return sr::fail(fmt::format("--level must be 1..{} for {}", top, r.mode));
    if (c.gravity == engine::Gravity::k20G) return sr::fail(r.mode + " is 20G from the start: drop --level");
    c.start_level = *r.level;
  }
  if (!r.rotation.empty()) {
    const auto rotation = replay::names::index_of(replay::names::kRotation, r.rotation);
    if (!rotation) {
      return sr::fail("--rotation must be one of srs, srs_no180, classic, ocular (got '" + r.rotation + "')");
    }
    c.rotation = static_cast<engine::RotationSystem>(*rotation);
  }
  if (auto s = engine::check_config(c); !s) return sr::fail(s.error());
  return c;
}

sr::Result<PlayerChoice, std::string> check_player(const PlayerRequest& request, const std::string& default_weights) {
  PlayerChoice out;
  const auto pps = parse_milli(request.pps);
  if (!pps || *pps > 30'000) return sr::fail("--pps must be a number from 0 to 30 (e.g. 3 or 2.5)");
  if (request.lookahead != 0 && request.lookahead != 1) return sr::fail("--lookahead must be 0 or 1");
  if (request.search != "full" && request.search != "drops") {
    return sr::fail("--search must be full or drops");
  }
  out.weights_name = request.weights.empty() ? default_weights : request.weights;
  if (!out.weights_name.empty()) {
    const auto weights = bot::weights_by_name(out.weights_name);
    if (!weights) {
      return sr::fail(
          fmt::format("--weights must be one of sprint, survival, score, contest (got '{}')", out.weights_name));
    }
    out.bot.weights = *weights;
  }
  out.bot.pps_milli = *pps;
  out.bot.chooser.lookahead = request.lookahead;
  out.bot.chooser.tucks = request.search == "full";
  if (request.think_ms < 0 || request.think_ms > 60'000) return sr::fail("--think-ms must be 0..60000");
  if (request.answer_ms < 1 || request.answer_ms > 600'000) {
    return sr::fail("--answer-ms must be 1..600000");
  }
  if (!request.external.empty()) out.external = ExternalOptions{request.external, request.think_ms, request.answer_ms};
  return out;
}

}  // namespace sr::botcli
