#include "web/wasm/api.h"

#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <span>
#include <string>

#include "web/wasm/digest.h"
#include "web/wasm/json_views.h"
#include "web/wasm/live_race.h"
#include "web/wasm/replay_session.h"

namespace {

using sr::web::RacerCursor;
using sr::web::ReplaySession;

// Everything the API keeps between calls. JavaScript is single-threaded, and so is this.
struct ApiState {
  std::map<std::int32_t, std::unique_ptr<ReplaySession>> replays;
  std::int32_t next_handle = 1;
  std::map<std::int32_t, std::unique_ptr<sr::web::LiveRace>> races;
  std::int32_t next_race = 1;
  std::string text;     // what the last text-returning call returned
  std::string message;  // sr_message()
};

ApiState& api() {
  static ApiState state;
  return state;
}

const char* give(std::string text) {
  api().text = std::move(text);
  return api().text.c_str();
}

std::span<const std::uint8_t> bytes_of(const std::uint8_t* bytes, std::uint32_t size) {
  if (bytes == nullptr) return {};
  return {bytes, size};
}

sr::replay::JsonOptions json_options(std::int32_t flags) {
  return sr::replay::JsonOptions{.record_missing = (flags & 1) != 0};
}

ReplaySession* find(std::int32_t handle) {
  const auto it = api().replays.find(handle);
  return it == api().replays.end() ? nullptr : it->second.get();
}

RacerCursor* cursor_of(std::int32_t handle, std::int32_t racer) {
  ReplaySession* s = find(handle);
  if (s == nullptr || racer < 0 || static_cast<std::size_t>(racer) >= s->racer_count()) return nullptr;
  return &s->cursor(static_cast<std::size_t>(racer));
}

// A time from JavaScript: NaN and negatives are 0; anything past the longest game is cut there (seeks clamp to the
// racer's end anyway).
sr::engine::TimeUs time_of(double t) {
  if (!(t > 0)) return 0;
  constexpr double kMax = 1e18;
  return t >= kMax ? sr::engine::TimeUs{1'000'000'000'000'000'000} : static_cast<sr::engine::TimeUs>(t);
}

std::int32_t moved(bool ok) { return ok ? 1 : 0; }

}  // namespace

extern "C" {

std::uint8_t* sr_alloc(std::uint32_t size) { return static_cast<std::uint8_t*>(std::malloc(size == 0 ? 1 : size)); }

void sr_free(std::uint8_t* bytes) { std::free(bytes); }

const char* sr_engine_info() { return give(sr::web::engine_info_json()); }

std::int32_t sr_open(const std::uint8_t* bytes, std::uint32_t size, std::int32_t flags) {
  ApiState& a = api();
  if (a.next_handle == std::numeric_limits<std::int32_t>::max()) {
    a.message = "too many replays opened in this page";
    return 0;
  }
  auto opened = ReplaySession::open(bytes_of(bytes, size), json_options(flags));
  if (!opened) {
    a.message = opened.error();
    return 0;
  }
  a.message = opened.value()->report().message;
  const std::int32_t handle = a.next_handle++;
  a.replays.emplace(handle, std::move(opened.value()));
  return handle;
}

void sr_close(std::int32_t replay) { api().replays.erase(replay); }

const char* sr_message() { return api().message.c_str(); }

std::int32_t sr_verify(const std::uint8_t* bytes, std::uint32_t size, std::int32_t flags) {
  auto decoded = sr::web::decode_replay(bytes_of(bytes, size), json_options(flags));
  if (!decoded) {
    api().message = decoded.error().describe();
    return -1;
  }
  const sr::replay::VerifyReport report = sr::replay::verify(decoded.value());
  api().message = report.message;
  return static_cast<std::int32_t>(report.verdict);
}

const char* sr_digest(const std::uint8_t* bytes, std::uint32_t size, std::int32_t flags) {
  return give(sr::web::replay_digest(bytes_of(bytes, size), json_options(flags)));
}

const char* sr_summary(std::int32_t replay) {
  const ReplaySession* s = find(replay);
  if (s == nullptr) return give("");
  api().message = s->report().message;
  return give(sr::web::summary_json(*s));
}

const char* sr_frame(std::int32_t replay, std::int32_t racer) {
  const RacerCursor* c = cursor_of(replay, racer);
  return give(c == nullptr ? std::string() : sr::web::frame_json(*c));
}

const char* sr_track(std::int32_t replay, std::int32_t racer) {
  const RacerCursor* c = cursor_of(replay, racer);
  return give(c == nullptr ? std::string() : sr::web::track_json(*c));
}

std::int32_t sr_seek_time(std::int32_t replay, std::int32_t racer, double time_us) {
  RacerCursor* c = cursor_of(replay, racer);
  if (c == nullptr) return 0;
  c->seek_time(time_of(time_us));
  return 1;
}

std::int32_t sr_seek_piece(std::int32_t replay, std::int32_t racer, std::int32_t piece) {
  RacerCursor* c = cursor_of(replay, racer);
  return moved(c != nullptr && c->seek_piece(piece));
}

std::int32_t sr_seek_change(std::int32_t replay, std::int32_t racer, std::int32_t change) {
  RacerCursor* c = cursor_of(replay, racer);
  return moved(c != nullptr && change >= 0 && c->seek_change(static_cast<std::size_t>(change)));
}

std::int32_t sr_step_piece(std::int32_t replay, std::int32_t racer, std::int32_t direction) {
  RacerCursor* c = cursor_of(replay, racer);
  return moved(c != nullptr && direction != 0 && c->step_piece(direction > 0 ? 1 : -1));
}

std::int32_t sr_step_change(std::int32_t replay, std::int32_t racer, std::int32_t direction) {
  RacerCursor* c = cursor_of(replay, racer);
  return moved(c != nullptr && direction != 0 && c->step_change(direction > 0 ? 1 : -1));
}

double sr_time_us(std::int32_t replay, std::int32_t racer) {
  const RacerCursor* c = cursor_of(replay, racer);
  return c == nullptr ? -1.0 : static_cast<double>(c->position().time_us);
}

std::int32_t sr_changes(std::int32_t replay, std::int32_t racer) {
  const RacerCursor* c = cursor_of(replay, racer);
  return c == nullptr ? -1 : static_cast<std::int32_t>(c->position().changes);
}

double sr_end_us(std::int32_t replay, std::int32_t racer) {
  const ReplaySession* s = find(replay);
  if (s == nullptr || racer < 0 || static_cast<std::size_t>(racer) >= s->racer_count()) return -1.0;
  return static_cast<double>(s->replay().racers[static_cast<std::size_t>(racer)].result.stats.time_us);
}

double sr_replay_end_us(std::int32_t replay) {
  const ReplaySession* s = find(replay);
  return s == nullptr ? -1.0 : static_cast<double>(s->end_us());
}

}  // extern "C"

namespace {

sr::web::LiveRace* find_race(std::int32_t handle) {
  const auto it = api().races.find(handle);
  return it == api().races.end() ? nullptr : it->second.get();
}

bool racer_in(const sr::web::LiveRace* race, std::int32_t racer) {
  return race != nullptr && racer >= 0 && static_cast<std::size_t>(racer) < race->racer_count();
}

}  // namespace

extern "C" {

std::int32_t sr_live_open(const std::uint8_t* bytes, std::uint32_t size) {
  ApiState& a = api();
  if (a.next_race == std::numeric_limits<std::int32_t>::max()) {
    a.message = "too many live races opened in this page";
    return 0;
  }
  auto opened = sr::web::LiveRace::open(bytes_of(bytes, size));
  if (!opened) {
    a.message = opened.error();
    return 0;
  }
  const std::int32_t handle = a.next_race++;
  a.races.emplace(handle, std::move(opened.value()));
  return handle;
}

void sr_live_close(std::int32_t race) { api().races.erase(race); }

std::int32_t sr_live_push(std::int32_t race, std::int32_t racer, double first_seq, double now_us, const double* pairs,
                          std::int32_t count) {
  sr::web::LiveRace* r = find_race(race);
  if (!racer_in(r, racer) || count < 0 || (count > 0 && pairs == nullptr) || !(first_seq >= 0) ||
      first_seq > 4294967295.0) {
    api().message = "bad live race, racer or arguments";
    return 0;
  }
  std::vector<sr::engine::InputChange> changes;
  changes.reserve(static_cast<std::size_t>(count));
  for (std::int32_t i = 0; i < count; ++i) {
    const double b = pairs[2 * i + 1];
    if (!(b >= 0) || b > 65535) {
      api().message = "unknown buttons";
      return 0;
    }
    changes.push_back({time_of(pairs[2 * i]), static_cast<sr::engine::Buttons>(b)});
  }
  const auto pushed =
      r->push(static_cast<std::size_t>(racer), static_cast<std::uint32_t>(first_seq), time_of(now_us), changes);
  if (!pushed) {
    api().message = pushed.error();
    return 0;
  }
  return 1;
}

std::int32_t sr_live_end(std::int32_t race, std::int32_t racer, double time_us) {
  sr::web::LiveRace* r = find_race(race);
  return moved(racer_in(r, racer) && r->end(static_cast<std::size_t>(racer), time_of(time_us)));
}

const char* sr_live_frame(std::int32_t race, std::int32_t racer) {
  const sr::web::LiveRace* r = find_race(race);
  if (!racer_in(r, racer)) return give("");
  const sr::web::LiveRacer& lr = r->racer(static_cast<std::size_t>(racer));
  const sr::engine::Buttons held = lr.log.empty() ? sr::engine::Buttons{0} : lr.log.back().buttons;
  return give(sr::web::frame_json(lr.game, sr::web::Position{lr.log.size(), lr.game.now()}, held));
}

std::int32_t sr_live_changes(std::int32_t race, std::int32_t racer) {
  const sr::web::LiveRace* r = find_race(race);
  return racer_in(r, racer) ? static_cast<std::int32_t>(r->racer(static_cast<std::size_t>(racer)).log.size()) : -1;
}

}  // extern "C"
