// The replay browser's local list: the store's games, newest first, filtered by mode and by player.
#include "client/replay/replay_list.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "client/replay/replay_link.h"

namespace sr::client {
namespace {

namespace fs = std::filesystem;

class ReplayList : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("stackrace-replay-list-" + std::to_string(::getpid()) + "-" +
                                       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  // A short game (two hard drops) of `config` by `player`, played at `unix_ms`.
  void save(const engine::GameConfig& config, const std::string& player, std::int64_t unix_ms) {
    ReplayLink link(dir);
    engine::RacerRun run(config, 5);
    for (const engine::InputChange c : std::vector<engine::InputChange>{
             {0, engine::button::kHardDrop}, {100'000, 0}, {200'000, engine::button::kHardDrop}, {300'000, 0}}) {
      ASSERT_EQ(run.press(c.time_us, c.buttons).error, engine::UpdateError::kOk);
    }
    (void)run.advance(1'000'000);
    const SoloRecord r{run, player, unix_ms, "local", false, std::nullopt};
    const SaveOutcome saved = link.save(r);
    ASSERT_EQ(saved.error, "");
  }
  static std::vector<std::string> players(const ReplayListing& l) {
    std::vector<std::string> out;
    for (const auto& g : l.games) out.push_back(g.results.at(0).player + " " + engine::mode_name(g.mode));
    return out;
  }
  fs::path dir;
};

TEST_F(ReplayList, NoStoreYetIsAnEmptyListNotAnError) {
  const ReplayListing l = list_local_replays(dir, std::nullopt, "");
  EXPECT_TRUE(l.games.empty());
  EXPECT_EQ(l.error, "");
}

TEST_F(ReplayList, FiltersByModeAndPlayerNewestFirst) {
  save(engine::make_sprint(40), "ann", 1'000);
  save(engine::make_ultra(120), "bob", 2'000);
  save(engine::make_sprint(20), "bob", 3'000);
  EXPECT_EQ(players(list_local_replays(dir, std::nullopt, "")),
            (std::vector<std::string>{"bob sprint", "bob ultra", "ann sprint"}));
  EXPECT_EQ(players(list_local_replays(dir, engine::ModeKind::kSprint, "")),
            (std::vector<std::string>{"bob sprint", "ann sprint"}));
  EXPECT_EQ(players(list_local_replays(dir, std::nullopt, "bob")),
            (std::vector<std::string>{"bob sprint", "bob ultra"}));
  EXPECT_EQ(players(list_local_replays(dir, engine::ModeKind::kSprint, "ann")),
            (std::vector<std::string>{"ann sprint"}));
  EXPECT_TRUE(list_local_replays(dir, engine::ModeKind::kMarathon, "").games.empty());
  for (const auto& g : list_local_replays(dir, std::nullopt, "").games) {
    EXPECT_TRUE(g.verified) << g.verify_note;
    EXPECT_TRUE(fs::exists(dir / g.file)) << g.file;
  }
}

}  // namespace
}  // namespace sr::client
