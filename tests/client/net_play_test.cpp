// NetPlay, the game's window-free link to a server, racing on an in-process stackrace-server that then goes away:
// shut down by its host, vanished from the network (it stops answering), or gone just after our game ended. Each
// time the player is told in words, lands on the multiplayer menu (the session is closed), and their own game is
// kept as a local replay that holds exactly the buttons they pressed and verifies. Also: nothing is sent after a
// race, a refusal is not a lost connection, and the replay browser's questions to a server.
#include "client/app/net_play.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>

#include "client/replay/replay_viewer.h"
#include "common/replay/codec.h"
#include "common/replay/verify.h"
#include "replays/store/file_io.h"
#include "server/server.h"
#include "tests/support/status.h"

namespace sr::replay {
// Readable failures for input logs.
void PrintTo(const engine::InputChange& c, std::ostream* os) { *os << c.time_us << ":" << c.buttons; }
}  // namespace sr::replay

namespace sr::client {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using engine::TimeUs;
namespace button = engine::button;

fs::path fresh_dir(const std::string& what) {
  const fs::path dir = fs::temp_directory_path() / ("stackrace-netplay-" + what + "-" + std::to_string(::getpid()) +
                                                    "-" + std::to_string(Clock::now().time_since_epoch().count()));
  fs::create_directories(dir);
  return dir;
}

// A stackrace-server on its own thread that can be shut down (as its host quitting does) or frozen (it stops
// stepping: no answers, no acknowledgements, like a machine gone from the network).
class TestServer {
 public:
  explicit TestServer(const fs::path& dir) {
    server::ServerOptions options;
    options.bind = "127.0.0.1";
    options.port = 0;
    options.data_dir = dir;
    options.countdown_us = 300'000;
    options.lobby.server_name = "testserver";
    server_ = std::make_unique<server::Server>(options);
    if (auto started = server_->start(); !started) {
      ADD_FAILURE() << "server did not start: " << started.error();
      return;
    }
    port_ = server_->port();
    thread_ = std::thread([this] {
      while (!stop_.load()) {
        if (frozen_.load()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        } else {
          server_->step(1);
        }
      }
    });
  }
  ~TestServer() { shut_down(); }

  [[nodiscard]] std::uint16_t port() const { return port_; }
  void freeze() { frozen_.store(true); }
  // The host quits: the server aborts the race, says goodbye and is gone.
  void shut_down() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
    if (server_) server_->shut_down();
    server_.reset();
  }

 private:
  std::unique_ptr<server::Server> server_;
  std::atomic<bool> stop_{false}, frozen_{false};
  std::thread thread_;
  std::uint16_t port_ = 0;
};

// Our side: what App does every frame (poll, advance our game to now), plus scripted hard drops.
struct Player {
  explicit Player(const fs::path& replay_dir) : link(replay_dir), net(link) {}

  ReplayLink link;
  NetPlay net;
  std::vector<engine::InputChange> pressed;  // every button change we made, in order

  std::vector<protocol::Message> received;  // everything the server said, in order

  void frame() {
    for (auto& m : net.poll()) received.push_back(std::move(m));
    if (const auto t = now_us()) net.race_advance(*t);
  }
  [[nodiscard]] std::optional<TimeUs> now_us() const {
    const auto t = net.session().race_time_us();
    if (!t || *t < 0 || !net.session().race() || !net.session().race()->racing()) return std::nullopt;
    return *t / 1000 * 1000;
  }
  void press(engine::Buttons buttons) {
    const auto t = now_us();
    ASSERT_TRUE(t.has_value());
    const TimeUs at = std::max(*t, pressed.empty() ? TimeUs{0} : pressed.back().time_us);
    const bool accepted = !our_game_over();  // a game that has ended takes no more buttons
    net.race_press(at, buttons);
    if (accepted) pressed.push_back({at, buttons});
  }
  [[nodiscard]] bool our_game_over() const {
    const auto* race = net.session().race();
    return race != nullptr && race->racing() && race->mine()->game().over();
  }
};

// Runs frames of every player (and `others`) until `done` or the timeout; false on timeout.
bool run_until(const std::vector<Player*>& players, const std::function<bool()>& done, double timeout_s,
               const std::function<void()>& each_frame = {}) {
  const auto end = Clock::now() + std::chrono::duration<double>(timeout_s);
  while (Clock::now() < end) {
    for (Player* p : players) p->frame();
    if (each_frame) each_frame();
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

void join(Player& p, std::uint16_t port, const std::string& name) {
  ASSERT_EQ(sr::test::problem_of(p.net.connect("127.0.0.1", port, name)), std::nullopt);
  ASSERT_TRUE(run_until(
      {&p}, [&] { return p.net.connected(); }, 10.0))
      << name << " was not welcomed";
}

// `host` creates a sprint room that starts when everyone is ready; `guests` join it; all get ready.
void start_race(Player& host, const std::vector<Player*>& guests,
                const engine::GameConfig& config = engine::make_sprint(40)) {
  protocol::RoomSettings settings;
  settings.name = "race";
  settings.config = config;
  settings.max_racers = 4;
  ASSERT_TRUE(host.net.session().create_room(settings));
  std::vector<Player*> all{&host};
  all.insert(all.end(), guests.begin(), guests.end());
  ASSERT_TRUE(run_until(
      all, [&] { return host.net.session().room().has_value(); }, 10.0));
  for (Player* g : guests) {
    ASSERT_TRUE(g->net.session().join_room(host.net.session().room()->room_id));
  }
  ASSERT_TRUE(run_until(
      all,
      [&] {
        for (Player* p : all) {
          if (!p->net.session().room()) return false;
        }
        return host.net.session().room()->members.size() == all.size();
      },
      10.0));
  for (Player* p : all) ASSERT_TRUE(p->net.session().set_ready(true));
  ASSERT_TRUE(run_until(
      all,
      [&] {
        for (Player* p : all) {
          if (!p->now_us()) return false;
        }
        return true;
      },
      10.0))
      << "the race did not start";
}

// `count` hard drops (press, then release), about 60 ms apart.
void hard_drops(const std::vector<Player*>& all, Player& p, int count) {
  for (int i = 0; i < count && !p.our_game_over(); ++i) {
    p.press(button::kHardDrop);
    (void)run_until(
        all, [] { return false; }, 0.03);
    p.press(0);
    (void)run_until(
        all, [] { return false; }, 0.03);
  }
}

// The one replay in `dir`, which must hold exactly `pressed` and verify.
replay::Replay only_replay(const fs::path& dir, const std::vector<engine::InputChange>& pressed) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".srr") files.push_back(e.path());
  }
  EXPECT_EQ(files.size(), 1u) << "our game should be saved exactly once in " << dir;
  if (files.empty()) return {};
  auto loaded = replay::load_replay_file(files.front());
  EXPECT_TRUE(loaded.ok()) << loaded.error().describe();
  if (!loaded.ok()) return {};
  const replay::Replay r = loaded.value();
  const auto report = replay::verify(r);
  EXPECT_EQ(report.verdict, replay::Verdict::kVerified) << report.message;
  EXPECT_EQ(r.racers.size(), 1u);
  EXPECT_EQ(r.place, "testserver");
  if (!r.racers.empty()) {
    EXPECT_EQ(r.racers[0].inputs, pressed);
  }
  return r;
}

bool said(const NetPlay& net, const std::string& start) {
  for (const auto& m : net.messages()) {
    if (m.rfind(start, 0) == 0) return true;
  }
  return false;
}

class ServerDirs : public ::testing::Test {
 protected:
  void SetUp() override {
    server_dir = fresh_dir("server");
    replay_dir = fresh_dir("replays");
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(server_dir, ignored);
    fs::remove_all(replay_dir, ignored);
  }
  fs::path server_dir, replay_dir;
};
class NetPlayLost : public ServerDirs {};     // the server goes away
class NetPlayRaces : public ServerDirs {};    // the race's own rules
class NetPlayReplays : public ServerDirs {};  // what the replay browser asks a server

TEST_F(NetPlayLost, HostShutsDownMidRaceOurGameIsKeptAndTheLossIsSaid) {
  auto server = std::make_unique<TestServer>(server_dir);
  Player me(replay_dir);
  join(me, server->port(), "me");
  start_race(me, {});
  hard_drops({&me}, me, 4);
  ASSERT_FALSE(me.our_game_over());

  server->shut_down();
  const auto gone_at = Clock::now();
  ASSERT_TRUE(run_until(
      {&me}, [&] { return me.net.session().state() == net::Session::State::kClosed; }, 10.0));
  std::printf("the server's goodbye arrived after %.2f s: %s\n",
              std::chrono::duration<double>(Clock::now() - gone_at).count(), me.net.session().closed_reason().c_str());
  ASSERT_TRUE(me.net.lost().has_value()) << "a lost connection must be told";
  EXPECT_EQ(me.net.lost()->reason, me.net.session().closed_reason());
  EXPECT_FALSE(me.net.lost()->reason.empty());
  EXPECT_EQ(me.net.lost()->own_game, "Your game is saved: " + me.net.own_saved_path().string());
  EXPECT_TRUE(said(me.net, "connection lost: "));
  EXPECT_FALSE(me.net.connected());  // the screens show the multiplayer menu

  const replay::Replay r = only_replay(replay_dir, me.pressed);
  ASSERT_EQ(r.racers.size(), 1u);
  // The server aborted the race when its host quit: our game did not end by itself.
  EXPECT_EQ(r.racers[0].result.status, replay::ResultStatus::kDisconnected);
  EXPECT_EQ(r.racers[0].result.stats.pieces, 4);
}

TEST_F(NetPlayLost, ServerVanishesMidRaceOurGameIsKeptAsDisconnected) {
  TestServer server(server_dir);
  Player me(replay_dir);
  me.net.set_resume_window(std::chrono::seconds(2));
  join(me, server.port(), "me");
  start_race(me, {});
  hard_drops({&me}, me, 3);

  server.freeze();  // no goodbye: ENet notices the silence after its timeout (5 s), then we try to resume
  const auto frozen_at = Clock::now();
  ASSERT_TRUE(run_until(
      {&me}, [&] { return me.net.session().state() == net::Session::State::kReconnecting; }, 40.0));
  EXPECT_TRUE(me.net.connected()) << "while reconnecting the race screen stays";
  ASSERT_TRUE(run_until(
      {&me}, [&] { return me.net.session().state() == net::Session::State::kClosed; }, 40.0));
  std::printf("the vanished server was noticed, and the resume given up, after %.1f s\n",
              std::chrono::duration<double>(Clock::now() - frozen_at).count());
  ASSERT_TRUE(me.net.lost().has_value());
  EXPECT_EQ(me.net.lost()->reason,
            "the connection to the server was lost, and the race could not be resumed within 2 s");
  EXPECT_FALSE(me.net.lost()->own_game.empty());

  const replay::Replay r = only_replay(replay_dir, me.pressed);
  ASSERT_EQ(r.racers.size(), 1u);
  EXPECT_EQ(r.racers[0].result.status, replay::ResultStatus::kDisconnected);
  EXPECT_EQ(r.racers[0].result.stats.pieces, 3);
  // The game ran on until the loss was noticed, as the player saw it.
  EXPECT_GT(r.racers[0].result.stats.time_us, me.pressed.back().time_us);
}

TEST_F(NetPlayLost, ServerVanishesJustAfterOurGameEndedItIsSavedOnce) {
  TestServer server(server_dir);
  Player me(replay_dir), other(fresh_dir("other"));
  join(me, server.port(), "me");
  join(other, server.port(), "other");
  start_race(me, {&other});
  // Hard drops straight down until we top out; the other racer is still racing, so the race goes on.
  for (int i = 0; i < 60 && !me.our_game_over(); ++i) hard_drops({&me, &other}, me, 1);
  ASSERT_TRUE(me.our_game_over());
  ASSERT_FALSE(me.net.own_saved().empty()) << "our game is saved the moment it ends";
  ASSERT_FALSE(me.net.session().results().has_value());

  server.freeze();
  ASSERT_TRUE(run_until(
      {&me, &other}, [&] { return me.net.session().state() == net::Session::State::kClosed; }, 40.0));
  ASSERT_TRUE(me.net.lost().has_value());
  EXPECT_EQ(me.net.lost()->own_game, me.net.own_saved());

  const replay::Replay r = only_replay(replay_dir, me.pressed);
  ASSERT_EQ(r.racers.size(), 1u);
  EXPECT_EQ(r.racers[0].result.status, replay::ResultStatus::kToppedOut);
}

// A connection lost minutes after a race ended does not say "your game is saved" of that race: its results said so.
TEST_F(NetPlayLost, AfterTheRaceEndedTheLossDoesNotTellOfItsGame) {
  auto server = std::make_unique<TestServer>(server_dir);
  Player me(replay_dir);
  join(me, server->port(), "me");
  start_race(me, {});
  for (int i = 0; i < 60 && !me.our_game_over(); ++i) hard_drops({&me}, me, 1);
  ASSERT_TRUE(run_until(
      {&me}, [&] { return me.net.session().results().has_value(); }, 10.0));
  ASSERT_FALSE(me.net.own_saved().empty());
  server->shut_down();
  ASSERT_TRUE(run_until(
      {&me}, [&] { return me.net.session().state() == net::Session::State::kClosed; }, 10.0));
  ASSERT_TRUE(me.net.lost().has_value());
  EXPECT_EQ(me.net.lost()->own_game, "");
}

class NetPlayConnect : public ServerDirs {};

// Nothing listens on the port: said within the connection timeout (ENet alone took 31 s), not as a lost connection.
TEST_F(NetPlayConnect, NobodyListeningIsSaidWithinFiveSeconds) {
  std::uint16_t port = 0;
  {
    TestServer gone(server_dir);
    port = gone.port();
  }  // a port that was free a moment ago, and is free again
  Player me(replay_dir);
  const auto started = Clock::now();
  ASSERT_EQ(sr::test::problem_of(me.net.connect("127.0.0.1", port, "me")), std::nullopt);
  ASSERT_TRUE(run_until(
      {&me}, [&] { return me.net.session().state() == net::Session::State::kClosed; }, 20.0));
  const double took_s = std::chrono::duration<double>(Clock::now() - started).count();
  std::printf("nobody listening: said after %.1f s\n", took_s);
  EXPECT_LT(took_s, 7.0);
  EXPECT_EQ(me.net.session().closed_reason(), "nothing answered at 127.0.0.1:" + std::to_string(port) + " within 5 s");
  EXPECT_TRUE(said(me.net, "could not join: nothing answered"));
  EXPECT_FALSE(me.net.lost().has_value());
}

// What was said of a failed attempt is not shown in the lobby of the next, successful one.
TEST_F(NetPlayConnect, AnEarlierFailureIsNotShownAfterAConnect) {
  TestServer server(server_dir);
  Player first(replay_dir), second(fresh_dir("second"));
  join(first, server.port(), "same");
  ASSERT_EQ(sr::test::problem_of(second.net.connect("127.0.0.1", server.port(), "same")), std::nullopt);
  ASSERT_TRUE(run_until(
      {&first, &second}, [&] { return second.net.session().state() == net::Session::State::kClosed; }, 10.0));
  ASSERT_TRUE(said(second.net, "could not join: "));
  join(second, server.port(), "other");
  EXPECT_FALSE(said(second.net, "could not join: "));
  EXPECT_FALSE(said(second.net, "that name is taken on this server"));
}

// After our game and the race are over the app still calls race_advance every frame: nothing may be sent then, or
// the server drops us for race messages once we leave the room.
TEST_F(NetPlayRaces, AfterTheRaceLeavingTheRoomKeepsTheConnection) {
  TestServer server(server_dir);
  Player me(replay_dir);
  join(me, server.port(), "me");
  start_race(me, {});
  for (int i = 0; i < 60 && !me.our_game_over(); ++i) hard_drops({&me}, me, 1);
  ASSERT_TRUE(me.our_game_over());
  ASSERT_TRUE(run_until(
      {&me}, [&] { return me.net.session().results().has_value(); }, 10.0));
  (void)run_until(
      {&me}, [] { return false; }, 0.3);  // frames after the results: heartbeats would be due
  ASSERT_TRUE(me.net.session().leave_room());
  // A frame between our leaving and the server's answer (its race is still there): a heartbeat would be due now.
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  const auto t = me.net.session().race_time_us();
  ASSERT_TRUE(t.has_value());
  me.net.race_advance(*t / 1000 * 1000);
  ASSERT_TRUE(run_until(
      {&me}, [&] { return me.net.session().state() == net::Session::State::kLobby; }, 10.0));
  (void)run_until(
      {&me}, [] { return false; }, 1.0);
  EXPECT_EQ(me.net.session().state(), net::Session::State::kLobby) << me.net.session().closed_reason();
  EXPECT_FALSE(me.net.lost().has_value());
}

TEST_F(NetPlayRaces, ARefusalIsSaidAndIsNotALostConnection) {
  TestServer server(server_dir);
  Player first(replay_dir), second(fresh_dir("second"));
  join(first, server.port(), "same");
  ASSERT_EQ(sr::test::problem_of(second.net.connect("127.0.0.1", server.port(), "same")), std::nullopt);
  ASSERT_TRUE(run_until(
      {&first, &second}, [&] { return second.net.session().state() == net::Session::State::kClosed; }, 10.0));
  EXPECT_FALSE(second.net.lost().has_value()) << "a refusal is not a lost connection: no notice over the menu";
  // Said once, with the server's reason: not the refusal and then "could not join" again.
  ASSERT_EQ(second.net.messages().size(), 1u);
  EXPECT_EQ(second.net.messages().front(), "could not join: " + second.net.session().closed_reason());
  EXPECT_NE(second.net.messages().front().find("same"), std::string::npos) << second.net.messages().front();
  EXPECT_TRUE(first.net.connected()) << "the first player is not disturbed";
}

// What the replay browser shows of a server: its recent games and personal bests, filtered by mode and player, and
// any of them downloaded into the viewer.
TEST_F(NetPlayReplays, TheServersGamesAreListedFilteredAndDownloaded) {
  TestServer server(server_dir);
  Player ann(replay_dir);
  join(ann, server.port(), "ann");
  // A custom room that ends after 5 pieces, ranked by time: hard drops finish it (and make a personal best).
  engine::GameConfig five = engine::make_custom();
  five.limit = engine::LimitKind::kPieces;
  five.limit_value = 5;
  five.goal = engine::GoalKind::kTime;
  start_race(ann, {}, five);
  hard_drops({&ann}, ann, 5);
  ASSERT_TRUE(ann.our_game_over());
  ASSERT_TRUE(ann.net.session().race()->mine()->game().state().finished);
  ASSERT_TRUE(run_until(
      {&ann}, [&] { return ann.net.session().stored_replay().has_value(); }, 10.0))
      << "the server did not say where it stored the race";
  const std::uint64_t game_id = *ann.net.session().stored_replay();

  std::optional<protocol::GameList> list;
  const auto ask = [&](protocol::GameListKind kind, const std::string& player, std::optional<engine::ModeKind> mode) {
    list.reset();
    ann.received.clear();
    EXPECT_TRUE(ann.net.session().list_games(kind, player, mode));
    EXPECT_TRUE(run_until(
        {&ann},
        [&] {
          for (const auto& m : ann.received) {
            if (const auto* l = std::get_if<protocol::GameList>(&m)) list = *l;
          }
          return list.has_value();
        },
        10.0));
    return list.value_or(protocol::GameList{});
  };
  auto recent = ask(protocol::GameListKind::kRecent, "", std::nullopt);
  ASSERT_EQ(recent.games.size(), 1u);
  EXPECT_EQ(recent.games[0].game_id, game_id);
  EXPECT_EQ(recent.games[0].racers.at(0).name, "ann");
  EXPECT_EQ(ask(protocol::GameListKind::kRecent, "ann", engine::ModeKind::kCustom).games.size(), 1u);
  EXPECT_TRUE(ask(protocol::GameListKind::kRecent, "", engine::ModeKind::kSprint).games.empty());
  EXPECT_TRUE(ask(protocol::GameListKind::kRecent, "nobody", std::nullopt).games.empty());
  // Personal bests: the asker's own when no player is given.
  const auto bests = ask(protocol::GameListKind::kPersonalBests, "", std::nullopt);
  EXPECT_EQ(bests.kind, protocol::GameListKind::kPersonalBests);
  ASSERT_EQ(bests.games.size(), 1u);
  EXPECT_EQ(bests.games[0].game_id, game_id);
  EXPECT_EQ(bests.games[0].racers.at(0).time_us, ann.net.session().race()->mine()->game().stats().time_us);
  EXPECT_EQ(ask(protocol::GameListKind::kPersonalBests, "ann", engine::ModeKind::kCustom).games.size(), 1u);
  EXPECT_TRUE(ask(protocol::GameListKind::kPersonalBests, "bob", std::nullopt).games.empty());

  ASSERT_TRUE(ann.net.session().download_replay(game_id));
  std::optional<std::vector<std::uint8_t>> bytes;
  ASSERT_TRUE(run_until(
      {&ann}, [&] { return (bytes = ann.net.session().take_download(game_id)).has_value(); }, 10.0));
  auto decoded = replay::decode_binary(*bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.error().describe();
  ReplayViewer viewer;
  ASSERT_EQ(sr::test::problem_of(viewer.open(std::move(decoded.value()), "downloaded")), std::nullopt);
  EXPECT_TRUE(viewer.verified()) << viewer.verdict();
  EXPECT_EQ(viewer.replay().racers.at(0).inputs, ann.pressed);
}

// A server hosted in the game counts the other players on it (whom closing the game cuts off: App asks first), and
// stopping it tells them the host closed the game.
TEST_F(ServerDirs, AHostedServerCountsTheOthersAndTellsThemWhenItStops) {
  Player host(replay_dir), guest(fresh_dir("guest"));
  EXPECT_EQ(host.net.hosted_others(), 0u);
  ASSERT_EQ(sr::test::problem_of(host.net.host(0, server_dir)), std::nullopt);
  join(host, host.net.hosted_port(), "host");
  ASSERT_TRUE(run_until(
      {&host}, [&] { return host.net.hosted_others() == 0; }, 5.0));  // ourselves are not counted
  join(guest, host.net.hosted_port(), "guest");
  ASSERT_TRUE(run_until(
      {&host, &guest}, [&] { return host.net.hosted_others() == 1; }, 10.0))
      << host.net.hosted_others();
  host.net.stop_hosting();
  EXPECT_EQ(host.net.hosted_others(), 0u);
  ASSERT_TRUE(run_until(
      {&guest}, [&] { return guest.net.session().state() == net::Session::State::kClosed; }, 10.0));
  EXPECT_EQ(guest.net.session().closed_reason(), "the host closed their game, which ran this server");
}

}  // namespace
}  // namespace sr::client
