#include "tests/server/net_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/replay/verify.h"
#include "replays/store/file_io.h"
#include "tests/support/test_keys.h"

namespace sr::test {

ServerFixture::ServerFixture(server::ServerOptions options) {
  data_dir_ = std::filesystem::temp_directory_path() /
              ("stackrace-test-" + std::to_string(::getpid()) + "-" +
               std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  options.bind = "127.0.0.1";
  options.port = 0;
  options.data_dir = data_dir_;
  if (options.lobby.server_name == server::LobbyOptions{}.server_name) options.lobby.server_name = "test";
  options_ = std::move(options);
  (void)start();
}

bool ServerFixture::start() {
  server_ = std::make_unique<server::Server>(options_);
  if (const auto started = server_->start(); !started) {
    ADD_FAILURE() << "server did not start: " << started.error();
    return false;
  }
  port_ = server_->port();
  stop_.store(false);
  thread_ = std::thread([this] { server_->run(stop_); });
  return true;
}

bool ServerFixture::restart() {
  (void)stop();
  server_.reset();
  return start();
}

ServerFixture::~ServerFixture() {
  (void)stop();
  server_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(data_dir_, ignored);
}

server::ServerStats ServerFixture::stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  return server_->stats();
}

std::vector<ServerFixture::StoredReplay> ServerFixture::stored_replays() const {
  std::vector<StoredReplay> out;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir_)) {
    if (entry.path().extension() != replay::ReplayStore::kExtension) continue;
    auto loaded = replay::load_replay_file(entry.path());
    if (!loaded.ok()) {
      ADD_FAILURE() << entry.path() << ": " << loaded.error().describe();
      continue;
    }
    const replay::VerifyReport report = replay::verify(loaded.value());
    out.push_back(
        {entry.path(), std::move(loaded).value(), report.verdict == replay::Verdict::kVerified, report.message});
  }
  return out;
}

botcli::OnlineBot BotClient::make_bot(const std::string& name, std::uint16_t port, int pps_milli) {
  net::SessionOptions options;
  options.port = port;
  options.name = name;
  options.key = test_key(name);  // the same name, the same key: a client that comes back keeps its name
  bot::BotSettings settings;
  settings.weights = *bot::weights_by_name("sprint");
  settings.pps_milli = pps_milli;
  settings.chooser.lookahead = 0;  // cheap: the tests are about the network, not the bot's strength
  settings.timing_seed = std::hash<std::string>{}(name);
  return botcli::OnlineBot(options, settings);
}

BotClient::BotClient(std::string name, std::uint16_t port, ClientQuirks quirks, int pps_milli)
    : quirks_(quirks), bot_(make_bot(name, port, pps_milli)), rng_(std::hash<std::string>{}(name)) {
  bot_.set_clock_rate(quirks_.clock_rate);
  if (quirks_.jitter_us > 0 || quirks_.loss_percent > 0) {
    session().divert_race_messages([this](protocol::Message m) {
      std::int64_t delay_us = quirks_.jitter_us > 0 ? rng_.below(static_cast<std::uint32_t>(quirks_.jitter_us) + 1) : 0;
      if (static_cast<int>(rng_.below(100)) < quirks_.loss_percent) delay_us += 250'000;
      auto at = std::chrono::steady_clock::now() + std::chrono::microseconds(delay_us);
      if (!delayed_.empty()) at = std::max(at, delayed_.back().first);  // a reliable channel keeps the order
      delayed_.emplace_back(at, std::move(m));
    });
  }
}

bool BotClient::connect(std::chrono::milliseconds timeout) {
  if (!bot_.open()) return false;
  return pump_until(
             {this},
             [this] {
               return session().state() == net::Session::State::kLobby ||
                      session().state() == net::Session::State::kClosed;
             },
             timeout) &&
         session().state() == net::Session::State::kLobby;
}

const protocol::Notice* BotClient::notice(protocol::NoticeCode code) const {
  for (const auto& m : received_) {
    if (const auto* n = std::get_if<protocol::Notice>(&m); n != nullptr && n->code == code) return n;
  }
  return nullptr;
}

std::vector<engine::InputChange> BotClient::sent_log() const {
  const net::RaceView* race = bot_.session().race();
  if (race == nullptr || race->mine() == nullptr) return {};
  return race->mine()->run.log();
}

void BotClient::kill() {
  killed_ = true;
  session().divert_race_messages([](protocol::Message) {});
}

std::optional<std::int64_t> BotClient::pump() {
  if (killed_) return std::nullopt;
  for (auto& m : bot_.pump(0)) received_.push_back(std::move(m));
  const auto now = std::chrono::steady_clock::now();
  while (!delayed_.empty() && delayed_.front().first <= now) {
    session().send(delayed_.front().second);
    delayed_.pop_front();
  }
  std::optional<std::int64_t> due_us = bot_.us_until_due();
  if (!delayed_.empty()) {
    const std::int64_t send_us =
        std::chrono::duration_cast<std::chrono::microseconds>(delayed_.front().first - now).count();
    due_us = std::min(due_us.value_or(send_us), send_us);
  }
  return due_us;
}

bool BotClient::pump_until(const std::vector<BotClient*>& clients, const std::function<bool()>& done,
                           std::chrono::milliseconds timeout) {
  // A killed client reads nothing more: its socket is left out, or its unread traffic would wake the pump at once.
  std::vector<BotClient*> live;
  for (BotClient* c : clients) {
    if (!c->killed()) live.push_back(c);
  }
  net::SessionPump pump(
      live.size(), [&live](std::size_t i) -> const net::Session& { return live[i]->session(); },
      [&live](std::size_t i) { return live[i]->pump(); });
  return pump.until(done, std::chrono::steady_clock::now() + timeout);
}

}  // namespace sr::test
