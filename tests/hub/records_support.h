// Helpers of the records tests: real races (40-line sprints played by the scripted players of common/replay/sample,
// recorded the canonical way), racers with keys from tests/support/test_keys.h, and submissions signed as a game
// server signs them (net/identity/submission.h, run_signature.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "common/replay/codec.h"
#include "common/replay/sample/scripted_player.h"
#include "common/replay/simulate.h"
#include "net/identity/run_signature.h"
#include "net/identity/submission.h"
#include "tests/support/test_keys.h"

namespace sr::hub::records::test {

inline constexpr std::int64_t kPlayedUnixMs = 1'764'612'345'678;  // 2025-12-01 18:05:45 UTC

// A race of `racers` scripted players on make_sprint(40) from `seed`, racer i playing with style seed
// style_seed + i; `clumsy` racers (by index) play at random and top out. Named "p0", "p1", ... with no keys yet.
// Played once per argument set and kept: the scripted players take a while under the sanitizers.
inline replay::Replay base_race(int racers, std::uint64_t seed = 1012, std::uint64_t style_seed = 21,
                                std::vector<int> clumsy = {}) {
  static std::mutex mutex;
  static std::map<std::tuple<int, std::uint64_t, std::uint64_t, std::vector<int>>, replay::Replay> cache;
  std::lock_guard lock(mutex);
  const auto key = std::make_tuple(racers, seed, style_seed, clumsy);
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  replay::Replay r = replay::replay_of(engine::make_sprint(40), seed, "Ada's server", kPlayedUnixMs);
  for (int i = 0; i < racers; ++i) {
    replay::sample::PlayerStyle style;
    style.seed = style_seed + static_cast<std::uint64_t>(i);
    style.clumsy = std::find(clumsy.begin(), clumsy.end(), i) != clumsy.end();
    engine::GameConfig c = r.config;
    c.handling = engine::Handling{};
    const replay::sample::PlayedGame g = replay::sample::play_scripted(c, seed, style);
    replay::Racer racer;
    racer.name = "p" + std::to_string(i);
    racer.inputs = g.inputs;
    r.racers.push_back(std::move(racer));
    replay::record_racer(r, r.racers.size() - 1, g.end_us);
  }
  cache.emplace(key, r);
  return r;
}

// `race` with racer i named names[i] and holding test_key(names[i]) (a name "" keeps the racer's name and leaves it
// without a key).
inline replay::Replay with_players(replay::Replay race, const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < race.racers.size() && i < names.size(); ++i) {
    if (names[i].empty()) {
      race.racers[i].key.reset();
      continue;
    }
    race.racers[i].name = names[i];
    race.racers[i].key = sr::test::test_key(names[i]).public_key();
  }
  return race;
}

// The run signature of racer `racer` of `race` by test_key(signer).
inline net::Signature run_signature(const replay::Replay& race, std::size_t racer, const std::string& signer) {
  return net::sign_run(sr::test::test_key(signer), net::run_digest(race, racer));
}

struct SignedSubmission {
  std::string body;
  std::string signature;  // X-Stackrace-Signature
};

inline net::Submission submission_of(const replay::Replay& race, const std::vector<std::uint32_t>& racers,
                                     std::uint64_t sequence = 1, const std::string& server = "Ada's server") {
  net::Submission s;
  s.server_key = sr::test::test_key("server:" + server).public_key();
  s.server_name = server;
  s.web_url = "http://example.org:8080/";
  s.game_id = "00000000000000aa";
  s.sequence = sequence;
  s.replay = replay::encode_binary(race);
  for (const std::uint32_t i : racers) s.runs.push_back(net::RunClaim{i, run_signature(race, i, race.racers[i].name)});
  return s;
}

// Encodes `s` and signs it with the key of `server` (test_key("server:" + server)).
inline SignedSubmission sign(const net::Submission& s, const std::string& server = "Ada's server") {
  SignedSubmission out;
  out.body = net::encode_submission(s);
  out.signature = net::sign_submission(sr::test::test_key("server:" + server), out.body);
  return out;
}

// The 64-hex key of server `server`.
inline std::string server_key_hex(const std::string& server = "Ada's server") {
  return net::to_hex(sr::test::test_key("server:" + server).public_key());
}

}  // namespace sr::hub::records::test
