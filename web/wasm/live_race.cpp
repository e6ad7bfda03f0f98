#include "web/wasm/live_race.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "common/replay/codec.h"

namespace sr::web {

sr::Result<std::unique_ptr<LiveRace>, std::string> LiveRace::open(std::span<const std::uint8_t> json) {
  auto decoded = replay::decode_json(std::string_view(reinterpret_cast<const char*>(json.data()), json.size()));
  if (!decoded) return decoded.error().describe();
  return std::unique_ptr<LiveRace>(new LiveRace(std::move(decoded.value())));
}

LiveRace::LiveRace(replay::Replay start) : start_(std::move(start)) {
  for (std::size_t i = 0; i < start_.racers.size(); ++i) {
    auto racer =
        std::make_unique<LiveRacer>(LiveRacer{engine::Game(replay::racer_config(start_, i), start_.seed), {}, 0});
    (void)racer->game.update(0);  // the first piece comes out at the start, as in the game's own view
    racers_.push_back(std::move(racer));
  }
  // Inputs in the start (a page that opens a race from a replay of it so far) are fed at once.
  for (std::size_t i = 0; i < start_.racers.size(); ++i) {
    const auto& inputs = start_.racers[i].inputs;
    if (!inputs.empty()) (void)push(i, 0, inputs.back().time_us, inputs);
  }
}

sr::Status<std::string> LiveRace::push(std::size_t racer, std::uint32_t first_seq, engine::TimeUs now_us,
                                       std::span<const engine::InputChange> changes) {
  if (racer >= racers_.size()) return std::string("no racer ") + std::to_string(racer);
  LiveRacer& r = *racers_[racer];
  if (first_seq > r.log.size()) {
    return "a gap in racer " + std::to_string(racer) + "'s inputs: change " + std::to_string(first_seq) +
           " arrived with " + std::to_string(r.log.size()) + " held";
  }
  const std::size_t known = r.log.size() - first_seq;
  const auto fresh = changes.subspan(std::min(known, changes.size()));
  // Checked before anything is fed, so a bad relay leaves the game as it was.
  engine::TimeUs t = r.game.now();
  for (const engine::InputChange& c : fresh) {
    if (c.time_us < t) return "racer " + std::to_string(racer) + "'s inputs go back in time";
    if ((c.buttons & ~engine::button::kAll) != 0) return "racer " + std::to_string(racer) + " pressed unknown buttons";
    t = c.time_us;
  }
  for (const engine::InputChange& c : fresh) {
    (void)r.game.update(c.time_us, c.buttons);
    r.log.push_back(c);
  }
  if (now_us > r.game.now()) (void)r.game.update(now_us);
  r.known_us = std::max(r.known_us, r.game.now());
  return {};
}

bool LiveRace::end(std::size_t racer, engine::TimeUs time_us) {
  if (racer >= racers_.size()) return false;
  LiveRacer& r = *racers_[racer];
  if (time_us > r.game.now()) (void)r.game.update(time_us);
  r.known_us = std::max(r.known_us, r.game.now());
  return true;
}

}  // namespace sr::web
