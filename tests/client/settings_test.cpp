#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>

#include "client/settings/paths.h"
#include "client/settings/settings_io.h"
#include "tests/support/status.h"

namespace sr::client {
namespace {

namespace fs = std::filesystem;

class SettingsFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("stackrace-settings-test-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path path() const { return dir_ / "stackrace" / "settings.json"; }
  void write(const std::string& text) {
    fs::create_directories(path().parent_path());
    std::ofstream(path()) << text;
  }
  std::string read() const {
    std::ifstream in(path());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
};

Settings changed_settings() {
  Settings s;
  s.handling = {100, 0, 0, 17};
  s.bindings.bind_key(Action::kHardDrop, GLFW_KEY_W);
  s.bindings.bind_pad(Action::kRestart, GLFW_GAMEPAD_BUTTON_START);
  s.bindings.clear(Action::kRotate180);
  s.visuals = {false, false, 1.25f, Skin::kMonochrome};
  s.player_name = "Ünïcode name";
  s.frame_cap = 240;
  s.sound = {35, 60, false};
  s.keep_given_up_after_s = 30;
  s.countdown_ms = 500;
  return s;
}

TEST_F(SettingsFile, MissingFileGivesDefaultsWithoutProblem) {
  const auto load = load_settings(path());
  EXPECT_EQ(load.settings, Settings{});
  EXPECT_TRUE(load.problem.empty());
  EXPECT_FALSE(load.from_file);
}

TEST_F(SettingsFile, SaveThenLoadGivesTheSameSettings) {
  const Settings s = changed_settings();
  ASSERT_EQ(sr::test::problem_of(save_settings(path(), s)), std::nullopt);
  const auto load = load_settings(path());
  EXPECT_TRUE(load.problem.empty()) << load.problem;
  EXPECT_TRUE(load.from_file);
  EXPECT_EQ(load.settings, s);
}

TEST_F(SettingsFile, JsonNamesKeysReadably) {
  const std::string json = settings_to_json(Settings{});
  EXPECT_NE(json.find("\"hard_drop\": [\n"), std::string::npos) << json;
  EXPECT_NE(json.find("\"Space\""), std::string::npos);
  EXPECT_NE(json.find("\"Left Shift\""), std::string::npos);
  EXPECT_NE(json.find("\"das_ms\": 167"), std::string::npos);
}

TEST_F(SettingsFile, DamagedFileIsReportedAndReplacedByDefaults) {
  write("{ \"version\": 1, \"player_name\": \"x\", \"handling\": { \"das_ms\": ");
  const auto load = load_settings(path());
  EXPECT_EQ(load.settings, Settings{});
  EXPECT_NE(load.problem.find("damaged"), std::string::npos) << load.problem;
  EXPECT_TRUE(fs::exists(path().string() + ".damaged"));
  // The file now holds the defaults and loads cleanly.
  const auto again = load_settings(path());
  EXPECT_TRUE(again.problem.empty()) << again.problem;
  EXPECT_EQ(again.settings, Settings{});
}

std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  std::string s = text;
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

TEST_F(SettingsFile, AFileThatIsNoSettingsFileGivesEveryDefault) {
  const std::string good = settings_to_json(changed_settings());
  const std::vector<std::string> damaged = {
      "",
      "not json at all",
      "[1, 2, 3]",
      "\x89PNG\r\n\x1a\n\0\0\0",
      "{\"player_name\": \"x\"}",  // no version
      replaced(good, "\"version\": 4", "\"version\": 99"),
      replaced(good, "\"version\": 4", "\"version\": \"3\""),
      good.substr(0, good.size() / 2),
      std::string(100000, '['),  // the parser recursed once per level
      "{\"version\": 2, \"deep\": " + std::string(5000, '[') + std::string(5000, ']') + "}",
  };
  for (const auto& text : damaged) {
    write(text);
    const auto load = load_settings(path());
    EXPECT_EQ(load.settings, Settings{}) << text;
    EXPECT_NE(load.problem.find("every setting is back to its default"), std::string::npos) << load.problem;
  }
}

// One bad value (an unknown skin, an unknown key name, a word where a number goes) resets that setting alone, names
// it, and keeps every other one, key bindings included; the file is rewritten with what is used.
TEST_F(SettingsFile, ABadFieldIsResetAloneAndNamed) {
  const std::string good = settings_to_json(changed_settings());
  struct Case {
    std::string from, to;
    std::string named;
    std::function<void(Settings&)> reset;
  };
  const Settings defaults;
  const std::vector<Case> cases = {
      {"\"das_ms\": 100", "\"das_ms\": \"fast\"", "handling.das_ms is not a whole number",
       [&](Settings& s) { s.handling.das_ms = defaults.handling.das_ms; }},
      {"\"das_ms\": 100", "\"das_ms\": 1.5", "handling.das_ms is not a whole number",
       [&](Settings& s) { s.handling.das_ms = defaults.handling.das_ms; }},
      {"\"das_ms\": 100,", "", "handling.das_ms is missing",
       [&](Settings& s) { s.handling.das_ms = defaults.handling.das_ms; }},
      {"\"frame_cap\": 240", "\"frame_cap\": \"vsync\"", "frame_cap is not a whole number",
       [](Settings& s) { s.frame_cap = 0; }},
      {"\"monochrome\"", "\"neon\"", "visuals.skin names no skin (\"neon\")",
       [](Settings& s) { s.visuals.skin = Skin::kGuideline; }},
      {"\"Space\"", "\"NoSuchKey\"", "keys.hard_drop names an unknown key (\"NoSuchKey\")",
       [&](Settings& s) {
         s.bindings.keys[static_cast<std::size_t>(Action::kHardDrop)] = defaults.bindings.keys_for(Action::kHardDrop);
       }},
      {"\"ghost\": false", "\"ghost\": 3", "visuals.ghost is not true or false",
       [](Settings& s) { s.visuals.ghost = true; }},
      {"\"player_name\": \"", "\"player_name\": 7, \"x\": \"", "player_name is not text",
       [](Settings& s) { s.player_name = "player"; }},
  };
  for (const Case& c : cases) {
    write(replaced(good, c.from, c.to));
    const auto load = load_settings(path());
    Settings expected = changed_settings();
    c.reset(expected);
    EXPECT_EQ(load.settings, expected) << c.named;
    EXPECT_EQ(load.reset, std::vector<std::string>{c.named});
    EXPECT_NE(
        load.problem.find("1 setting was reset to the default:\n- " + c.named + "\nEvery other setting was kept."),
        std::string::npos)
        << load.problem;
    EXPECT_TRUE(fs::exists(path().string() + ".damaged")) << c.named;
    const auto again = load_settings(path());  // rewritten with what is used
    EXPECT_TRUE(again.problem.empty()) << again.problem;
    EXPECT_EQ(again.settings, expected) << c.named;
  }
}

TEST_F(SettingsFile, SeveralBadFieldsAreEachNamed) {
  std::string text = settings_to_json(changed_settings());
  text = replaced(text, "\"monochrome\"", "\"neon\"");
  text = replaced(text, "\"Space\"", "\"NoSuchKey\"");
  write(text);
  const auto load = load_settings(path());
  EXPECT_EQ(load.reset, (std::vector<std::string>{"visuals.skin names no skin (\"neon\")",
                                                  "keys.hard_drop names an unknown key (\"NoSuchKey\")"}));
  EXPECT_NE(load.problem.find("2 settings were reset"), std::string::npos) << load.problem;
  EXPECT_EQ(load.settings.handling, changed_settings().handling);
  EXPECT_EQ(load.settings.player_name, changed_settings().player_name);
  EXPECT_EQ(load.settings.bindings.keys_for(Action::kRestart), changed_settings().bindings.keys_for(Action::kRestart));
}

// Number shapes that broke RapidJSON's reader in the replay fuzzer (a fraction of hundreds of zeros, "NaNe1"), and
// other extremes: a settings file holding them is reported and gives sane settings, never a crash.
TEST_F(SettingsFile, HostileNumbersAreReportedNeverACrash) {
  const std::string good = settings_to_json(changed_settings());
  const auto at = good.find("\"board_scale\": ");
  ASSERT_NE(at, std::string::npos);
  const auto value_end = good.find_first_of(",\n}", at + 15);
  const std::vector<std::string> numbers = {
      "0." + std::string(400, '0'),
      "0." + std::string(400, '0') + "1",
      "NaN",
      "NaNe1",
      "-Infinity",
      "1e999",
      "1" + std::string(400, '0'),
      "-0.0e-99999",
  };
  for (const std::string& n : numbers) {
    std::string text = good;
    text.replace(at + 15, value_end - (at + 15), n);
    write(text);
    const auto load = load_settings(path());
    EXPECT_FALSE(load.problem.empty()) << n;
    EXPECT_GE(load.settings.visuals.board_scale, 0.5f) << n;  // false for NaN too
    EXPECT_LE(load.settings.visuals.board_scale, 1.5f) << n;
  }
}

TEST_F(SettingsFile, OutOfRangeValuesAreClampedAndReported) {
  Settings s;
  s.handling.das_ms = 99'999;
  s.handling.arr_ms = -5;
  s.visuals.board_scale = 9.0f;
  s.player_name = "";
  write(settings_to_json(s));
  const auto load = load_settings(path());
  EXPECT_EQ(load.settings.handling.das_ms, 2000);
  EXPECT_EQ(load.settings.handling.arr_ms, 0);
  EXPECT_EQ(load.settings.visuals.board_scale, 1.5f);
  EXPECT_EQ(load.settings.player_name, "player");
  // The notice names each value it changed, from what to what.
  EXPECT_EQ(load.problem, path().string() +
                              " had values out of range; they were clamped:\n- handling.das_ms 99999 -> 2000\n- "
                              "handling.arr_ms -5 -> 0\n- visuals.board_scale 9 -> 1.5\n- player_name (empty) -> "
                              "\"player\"");
}

TEST_F(SettingsFile, FrameCapOutOfRangeIsReportedAndOnlyItReset) {
  for (const int cap : {1, 29, 1001, -60, 100'000}) {
    Settings s = changed_settings();
    s.frame_cap = cap;
    write(settings_to_json(s));
    const auto load = load_settings(path());
    Settings expected = changed_settings();
    expected.frame_cap = 0;  // the monitor's refresh rate
    EXPECT_EQ(load.settings, expected) << cap;
    EXPECT_NE(load.problem.find("out of range"), std::string::npos) << cap;
  }
  for (const int cap : {0, 30, 144, 1000}) {
    Settings s = changed_settings();
    s.frame_cap = cap;
    write(settings_to_json(s));
    const auto load = load_settings(path());
    EXPECT_EQ(load.settings.frame_cap, cap);
    EXPECT_TRUE(load.problem.empty()) << cap << ": " << load.problem;
  }
}

// settings.json of `s` as an older version wrote it: `version` in place of 4, without the lines from the first
// occurrence of each of `cut` to the end of its line, or of its block when the line opens one.
std::string older_json(const Settings& s, int version, const std::vector<std::string>& cut) {
  std::string text = settings_to_json(s);
  const auto at = text.find("\"version\": 4");
  EXPECT_NE(at, std::string::npos);
  text.replace(at, 12, "\"version\": " + std::to_string(version));
  for (const auto& from : cut) {
    const auto start = text.find(from);
    EXPECT_NE(start, std::string::npos) << from;
    if (start == std::string::npos) continue;
    auto end = text.find('\n', start);
    if (text[end - 1] == '{') end = text.find('\n', text.find('}', start));
    text.erase(start, end + 1 - start);
  }
  return text;
}

TEST_F(SettingsFile, Version2FileHasTheDefaultFrameCapAndSound) {
  write(older_json(changed_settings(), 2, {"\"frame_cap\": 240,", "\"sound\": {"}));
  const auto load = load_settings(path());
  Settings expected = changed_settings();
  expected.frame_cap = 0;
  expected.sound = SoundSettings{};
  EXPECT_EQ(load.settings, expected);
  EXPECT_TRUE(load.problem.empty()) << load.problem;
}

TEST_F(SettingsFile, Version3FileHasTheDefaultSoundAndIsWrittenBackAsVersion4) {
  write(older_json(changed_settings(), 3, {"\"sound\": {"}));
  ASSERT_EQ(read().find("volume"), std::string::npos) << read();
  const auto load = load_settings(path());
  Settings expected = changed_settings();
  expected.sound = SoundSettings{};
  EXPECT_EQ(load.settings, expected);
  EXPECT_EQ(load.settings.sound.master_volume, 80);
  EXPECT_EQ(load.settings.sound.effects_volume, 80);
  EXPECT_TRUE(load.settings.sound.mute_unfocused);
  EXPECT_TRUE(load.problem.empty()) << load.problem;
  ASSERT_EQ(sr::test::problem_of(save_settings(path(), load.settings)), std::nullopt);
  const std::string text = read();
  EXPECT_NE(text.find("\"version\": 4,"), std::string::npos) << text;
  EXPECT_NE(text.find("\"sound\": {\n        \"master_volume\": 80,\n        \"effects_volume\": 80,\n"
                      "        \"mute_unfocused\": true\n    },"),
            std::string::npos)
      << text;
}

TEST_F(SettingsFile, SoundVolumesOutOfRangeAreClampedAndReported) {
  Settings s = changed_settings();
  s.sound = {101, -5, true};
  write(settings_to_json(s));
  const auto load = load_settings(path());
  Settings expected = changed_settings();
  expected.sound = {100, 0, true};
  EXPECT_EQ(load.settings, expected);
  EXPECT_NE(load.problem.find("out of range"), std::string::npos) << load.problem;
}

TEST(Settings, EffectsGainIsMasterTimesEffects) {
  EXPECT_FLOAT_EQ(effects_gain({100, 100, true}), 1.0f);
  EXPECT_FLOAT_EQ(effects_gain({80, 80, true}), 0.64f);
  EXPECT_FLOAT_EQ(effects_gain({50, 20, false}), 0.1f);
  EXPECT_FLOAT_EQ(effects_gain({0, 100, true}), 0.0f);
  EXPECT_FLOAT_EQ(effects_gain({100, 0, true}), 0.0f);
  EXPECT_FLOAT_EQ(effects_gain({250, -3, true}), 0.0f);  // out of range: clamped first
}

// Added without a format version: a file without it has the default, unnamed; a bad one is named; out of range is
// clamped.
TEST_F(SettingsFile, KeepGivenUpAfterIsOptional) {
  const std::string good = settings_to_json(changed_settings());
  write(replaced(good, "\"keep_given_up_after_s\": 30,", ""));
  auto load = load_settings(path());
  EXPECT_EQ(load.settings.keep_given_up_after_s, 10);
  EXPECT_TRUE(load.problem.empty()) << load.problem;
  write(replaced(good, "\"keep_given_up_after_s\": 30", "\"keep_given_up_after_s\": \"never\""));
  load = load_settings(path());
  EXPECT_EQ(load.settings.keep_given_up_after_s, 10);
  EXPECT_EQ(load.reset, std::vector<std::string>{"keep_given_up_after_s is not a whole number"});
  write(replaced(good, "\"keep_given_up_after_s\": 30", "\"keep_given_up_after_s\": 9999"));
  load = load_settings(path());
  EXPECT_EQ(load.settings.keep_given_up_after_s, 600);
  EXPECT_NE(load.problem.find("clamped"), std::string::npos) << load.problem;
}

// The countdown (a quick restart at 0) was added the same way: absent is 3000 ms, out of range is clamped and said.
TEST_F(SettingsFile, CountdownIsOptionalAndClamped) {
  const std::string good = settings_to_json(changed_settings());
  ASSERT_NE(good.find("\"countdown_ms\": 500"), std::string::npos) << good;
  write(replaced(good, "\"countdown_ms\": 500", "\"countdown_ms\": 0"));
  auto load = load_settings(path());
  EXPECT_EQ(load.settings.countdown_ms, 0);
  EXPECT_TRUE(load.problem.empty()) << load.problem;
  write(replaced(good, "\"countdown_ms\": 500,", ""));
  load = load_settings(path());
  EXPECT_EQ(load.settings.countdown_ms, 3000);
  EXPECT_TRUE(load.problem.empty()) << load.problem;
  write(replaced(good, "\"countdown_ms\": 500", "\"countdown_ms\": 60000"));
  load = load_settings(path());
  EXPECT_EQ(load.settings.countdown_ms, 5000);
  EXPECT_NE(load.problem.find("- countdown_ms 60000 -> 5000"), std::string::npos) << load.problem;
}

// The browser's lists and the hosting choices came without a format change too: a file from before them loads with
// the defaults and no complaint, they round-trip, and a hostile list is cut to its bounds and said.
TEST_F(SettingsFile, BrowserFieldsAreOptionalRoundTripAndAreBounded) {
  Settings s = changed_settings();
  s.directories = {"http://hub.example.org:8470"};
  s.recent_servers = {"10.0.0.2:7878", "race.example.org"};
  s.host_public = true;
  s.host_lan = false;
  EXPECT_EQ(settings_from_json(settings_to_json(s)), s);

  std::string old = settings_to_json(changed_settings());
  for (const char* field : {"directories", "recent_servers", "host_public", "host_lan"}) {
    const auto at = old.find(std::string("\"") + field + "\"");
    ASSERT_NE(at, std::string::npos) << field;
    const auto end = old.find('\n', at);
    old.erase(at, end - at + 1);
  }
  write(old);
  auto load = load_settings(path());
  EXPECT_TRUE(load.problem.empty()) << load.problem;
  EXPECT_EQ(load.settings, changed_settings());

  Settings many = changed_settings();
  for (int i = 0; i < 20; ++i) many.recent_servers.push_back("10.0.0." + std::to_string(i) + ":7878");
  many.directories.assign(9, "http://hub");
  many.directories[0] = "";
  write(settings_to_json(many));
  load = load_settings(path());
  EXPECT_EQ(load.settings.recent_servers.size(), kMaxRecentServers);
  EXPECT_EQ(load.settings.recent_servers.front(), "10.0.0.0:7878");
  EXPECT_EQ(load.settings.directories, std::vector<std::string>(8, "http://hub"));
  EXPECT_NE(load.problem.find("recent_servers: 20 -> the first 16"), std::string::npos) << load.problem;
  EXPECT_NE(load.problem.find("directories: 1 empty or too long"), std::string::npos) << load.problem;
}

TEST(Settings, RecentServersKeepTheNewestFirstOnceEach) {
  Settings s;
  note_recent_server(s, "a:1");
  note_recent_server(s, "b:2");
  note_recent_server(s, "a:1");
  EXPECT_EQ(s.recent_servers, (std::vector<std::string>{"a:1", "b:2"}));
  for (int i = 0; i < 20; ++i) note_recent_server(s, "h" + std::to_string(i) + ":1");
  ASSERT_EQ(s.recent_servers.size(), kMaxRecentServers);
  EXPECT_EQ(s.recent_servers.front(), "h19:1");
  EXPECT_EQ(s.recent_servers.back(), "h4:1");
}

TEST(Settings, HandlingConvertsToEngineMicroseconds) {
  const auto h = to_engine({133, 0, 0, 20});
  EXPECT_EQ(h.das_us, 133'000);
  EXPECT_EQ(h.arr_us, 0);
  EXPECT_EQ(h.sdf, 0);
  EXPECT_EQ(h.dcd_us, 20'000);
}

TEST(Paths, OverridesWin) {
  const auto p = resolve_paths(fs::path("/tmp/cfg"), fs::path("/tmp/data"));
  EXPECT_EQ(p.settings_file(), fs::path("/tmp/cfg/settings.json"));
  EXPECT_EQ(p.replay_dir(), fs::path("/tmp/data/replays"));
}

TEST(Paths, HonourXdgVariables) {
  ::setenv("XDG_CONFIG_HOME", "/xdg/config", 1);
  ::setenv("XDG_DATA_HOME", "/xdg/data", 1);
  const auto p = resolve_paths(std::nullopt, std::nullopt);
  EXPECT_EQ(p.config_dir, fs::path("/xdg/config/stackrace"));
  EXPECT_EQ(p.data_dir, fs::path("/xdg/data/stackrace"));
  ::setenv("XDG_CONFIG_HOME", "relative/is/ignored", 1);
  ::unsetenv("XDG_DATA_HOME");
  ::setenv("HOME", "/home/someone", 1);
  const auto q = resolve_paths(std::nullopt, std::nullopt);
  EXPECT_EQ(q.config_dir, fs::path("/home/someone/.config/stackrace"));
  EXPECT_EQ(q.data_dir, fs::path("/home/someone/.local/share/stackrace"));
}

}  // namespace
}  // namespace sr::client

TEST(SettingsJson, SavedServersRoundTrip) {
  sr::client::Settings s;
  s.servers = {{"home", "192.168.1.5:7878"}, {"club", "race.example.org"}};
  EXPECT_EQ(sr::client::settings_from_json(sr::client::settings_to_json(s)), s);
}
