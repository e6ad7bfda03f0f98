// The replay viewer's model, window-free: a replay's racers at one game time, played forward at a speed,
// seekable anywhere (replay::game_at re-simulates from the start), stepped a piece at a time, with the verifier's
// verdict. The screen (client/ui) draws it; the engine does every rule.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/game.h"
#include "common/replay/replay.h"
#include "common/result.h"

namespace sr::client {

class ReplayViewer {
 public:
  // Reads and verifies a .srr (or its JSON export). Ok or an error sentence.
  [[nodiscard]] sr::Status<std::string> open(const std::filesystem::path& path);
  // Takes a replay already in memory (a download) and verifies it. Ok or an error sentence.
  [[nodiscard]] sr::Status<std::string> open(replay::Replay replay, std::string title);

  [[nodiscard]] bool loaded() const { return !games_.empty(); }
  [[nodiscard]] const replay::Replay& replay() const { return replay_; }
  [[nodiscard]] const std::string& title() const { return title_; }
  // The racers' games at position_us(), in replay order (racers the engine cannot show are left out: the verdict
  // says why). racer_of(i) is the replay racer games()[i] belongs to.
  [[nodiscard]] const std::vector<engine::Game>& games() const { return games_; }
  [[nodiscard]] std::size_t racer_of(std::size_t game) const { return racer_of_.at(game); }
  [[nodiscard]] engine::TimeUs position_us() const { return position_us_; }
  [[nodiscard]] engine::TimeUs end_us() const { return end_us_; }
  // "verified 2 racers", or where the replay first disagrees with the simulation.
  [[nodiscard]] bool verified() const { return verified_; }
  [[nodiscard]] const std::string& verdict() const { return verdict_; }
  // How games()[game]'s racer ended, once position_us() has reached that end: "FINISHED", "TOPPED OUT", "LEFT"
  // (disconnected), "GAVE UP", "UNFINISHED" (still playing when the race ended); "" before it (the board is live).
  [[nodiscard]] const char* end_banner(std::size_t game) const;

  // Per racer, kCurvePoints samples over 0..end: pieces per second so far, and lines cleared so far.
  static constexpr int kCurvePoints = 100;
  struct Curves {
    std::vector<float> pps, lines;
  };
  [[nodiscard]] const std::vector<Curves>& curves() const { return curves_; }

  bool playing = false;
  double speed = 1.0;  // 0.25..8

  // Advances by `wall_s` seconds of real time at `speed` when playing (stops at the end).
  void tick(double wall_s);
  // Every racer's game at game time t (clamped to 0..end). Returns the time it took, in microseconds of wall time.
  std::int64_t seek(engine::TimeUs t);
  // games()[game]'s next (+1) or previous (-1) locked piece: every board moves to that lock's moment.
  void step_piece(std::size_t game, int direction);

 private:
  void feed_to(engine::TimeUs t);  // forward only, from where the games are
  void build_curves();

  replay::Replay replay_;
  std::string title_;
  std::vector<engine::Game> games_;
  std::vector<Curves> curves_;
  std::vector<std::size_t> racer_of_;    // per game: its racer in the replay
  std::vector<std::size_t> next_input_;  // per game: its racer's first input not yet fed
  engine::TimeUs position_us_ = 0;
  engine::TimeUs end_us_ = 0;
  double carry_us_ = 0;  // fractions of a microsecond of playback not yet applied
  bool verified_ = false;
  std::string verdict_;
};

}  // namespace sr::client
