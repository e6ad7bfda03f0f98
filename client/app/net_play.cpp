#include "client/app/net_play.h"

#include <spdlog/spdlog.h>

#include <charconv>
#include <chrono>

#include "common/protocol/server_query.h"
#include "net/host_port.h"
#include "server/server.h"

namespace sr::client {

namespace {

std::int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

NetPlay::NetPlay(ReplayLink& replays) : session_(std::make_unique<net::Session>()), own_(replays) {}

NetPlay::~NetPlay() {
  disconnect();
  stop_hosting();
}

sr::Status<std::string> NetPlay::host(std::uint16_t port, const std::filesystem::path& data_dir,
                                      const HostChoice& choice) {
  stop_hosting();
  server::ServerOptions options;
  options.port = port;
  options.data_dir = data_dir;
  // Players on the same network find a hosted game in their server browser (common/protocol/DIRECTORY.md, "2. LAN
  // discovery (UDP broadcast and IPv6 multicast)"); another program on the port is no reason not to host (Server::start
  // logs it).
  options.lan_port = choice.lan ? protocol::kDiscoveryPort : 0;
  for (const std::string& url : choice.directories) {
    if (auto checked = server::DirectoryAgent::check_url(url); !checked) return "cannot host: " + checked.error();
  }
  for (std::size_t i = 0; i < choice.directories.size(); ++i) {
    directory_links_.push_back(std::make_unique<server::DirectoryLink>());
    options.directories.push_back(directory_links_.back().get());
  }
  options.lobby.shutdown_text = "the host closed their game, which ran this server";
  auto server = std::make_unique<server::Server>(options);
  if (auto started = server->start(); !started) {
    directory_links_.clear();
    return "cannot host: " + started.error();
  }
  hosted_port_ = server->port();
  server_ = std::move(server);
  stop_ = false;
  thread_ = std::thread([this] { server_->run(stop_); });
  spdlog::info("hosting a server on port {} (replays in {}; {})", hosted_port_, data_dir.string(),
               choice.lan ? "found on this network" : "not announced on this network");
  for (std::size_t i = 0; i < choice.directories.size(); ++i) {
    server::DirectoryAgentOptions agent;
    agent.url = choice.directories[i];
    agent.game_port = hosted_port_;
    directory_agents_.push_back(std::make_unique<server::DirectoryAgent>(agent, *directory_links_[i]));
    directory_agents_.back()->start();
    spdlog::info("hosting: registering with the directory {}", agent.url);
  }
  return {};
}

std::size_t NetPlay::hosted_others() const {
  if (!server_) return 0;
  const std::size_t online = server_->players_online();
  const bool us = address_ == "127.0.0.1:" + std::to_string(hosted_port_) &&
                  session_->state() != net::Session::State::kIdle && session_->state() != net::Session::State::kClosed;
  return us && online > 0 ? online - 1 : online;
}

void NetPlay::stop_hosting() {
  for (auto& agent : directory_agents_) agent->stop();
  directory_agents_.clear();
  if (!server_) {
    directory_links_.clear();
    return;
  }
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  server_.reset();
  directory_links_.clear();  // after the server: its loop hands them challenges and the info
  hosted_port_ = 0;
}

sr::Status<std::string> NetPlay::connect(const std::string& host, std::uint16_t port, const std::string& name) {
  disconnect();
  lost_.reset();
  messages_.clear();  // what was said of an earlier server or attempt does not belong to this one
  name_ = name;
  address_ = host + ":" + std::to_string(port);
  saves_at_connect_ = own_.saves();
  session_ = std::make_unique<net::Session>();
  net::SessionOptions options;
  options.host = host;
  options.port = port;
  options.name = name;
  options.resume_window = resume_window_;
  options.key = key_;
  if (auto opened = session_->open(options); !opened) return opened;
  spdlog::info("connecting to {}", address_);
  was_open_ = true;
  return {};
}

void NetPlay::disconnect() {
  save_own_game();
  if (session_->state() != net::Session::State::kIdle && session_->state() != net::Session::State::kClosed) {
    session_->close();
  }
  was_open_ = false;
}

void NetPlay::follow_own_race() {
  own_.follow(session_->race(), name_, session_->welcome().server_name, unix_ms_now());
}

void NetPlay::save_own_game() {
  follow_own_race();
  (void)own_.save(false);
}

void NetPlay::race_press(engine::TimeUs t, engine::Buttons buttons) {
  const auto* race = session_->race();
  if (race == nullptr || !race->racing()) return;
  // An unbound key, or a second key of a held action, changes nothing: our run drops it (nothing is sent).
  session_->race_press(t, buttons);
  follow_own_race();
  if (own_.over()) (void)own_.save(false);
}

void NetPlay::race_advance(engine::TimeUs t) {
  // Only while our game is on: heartbeats after it (the race may be over, we may have left the room) would make
  // the server drop us for race messages out of a race.
  const auto* race = session_->race();
  if (race == nullptr || !race->racing() || race->mine()->game().over()) return;
  const auto& results = session_->results();
  if (results && results->race_id == race->race_id()) return;
  session_->race_advance(t);
  follow_own_race();
  if (own_.over()) (void)own_.save(false);
}

void NetPlay::say(std::string text) {
  spdlog::info("server: {}", text);
  messages_.push_back(std::move(text));
  while (messages_.size() > 8) messages_.pop_front();
}

std::vector<net::Session::Received> NetPlay::poll() {
  if (session_->state() == net::Session::State::kIdle) return {};
  const bool open_before = session_->state() != net::Session::State::kClosed;
  const bool welcomed = session_->state() == net::Session::State::kLobby || session_->in_room();
  const bool reconnecting_before = session_->state() == net::Session::State::kReconnecting;
  // Our game of a race still being played (by us or the others) is what a lost connection can cut short; a race
  // whose results came is over, and its game was saved then.
  const auto* race_before = session_->race();
  const bool race_on_before = race_before != nullptr && race_before->racing() &&
                              !(session_->results() && session_->results()->race_id == race_before->race_id()) &&
                              own_.race_id() == race_before->race_id();
  follow_own_race();  // before the messages: a RoomLeft drops the session's race
  auto received = session_->poll(0);
  const bool reconnecting = session_->state() == net::Session::State::kReconnecting;
  if (!reconnecting_before && reconnecting) {
    say("connection lost mid-race: reconnecting to take your seat back (keep playing)");
  } else if (reconnecting_before && session_->state() == net::Session::State::kRoom) {
    say("reconnected: the race goes on");
  }
  bool said_goodbye = false;
  follow_own_race();  // a race that has just started
  for (const auto& m : received) {
    if (const auto* n = std::get_if<protocol::Notice>(&m)) {
      if (n->code != protocol::NoticeCode::kInfo || !n->text.empty()) {
        say(n->text.empty() ? net::describe(n->code) : net::describe(n->code) + ": " + n->text);
      }
    } else if (const auto* left = std::get_if<protocol::RoomLeft>(&m)) {
      if (!left->text.empty()) say("left the room: " + left->text);
      (void)own_.save(false);  // kicked or left mid-race: the game so far
    } else if (const auto* u = std::get_if<protocol::ReplayUnavailable>(&m)) {
      say(net::describe(u->code) + (u->text.empty() ? "" : ": " + u->text));
    } else if (std::holds_alternative<protocol::Disconnecting>(m)) {
      said_goodbye = true;
    } else if (const auto* results = std::get_if<protocol::RaceResults>(&m)) {
      // The race is over, whether or not our game had ended; aborted (the server is going away): cut short.
      (void)own_.save(results->reason == protocol::RaceEndReason::kAborted);
    }
  }
  // The server said goodbye (shutting down, kicked us, ...): gone now, not after ENet's timeout.
  if (said_goodbye && session_->state() != net::Session::State::kClosed) session_->close();
  if (was_open_ && open_before && session_->state() == net::Session::State::kClosed) {
    const std::string saved_now = own_.save(true);
    const std::string reason =
        session_->closed_reason().empty() ? "the connection to the server ended" : session_->closed_reason();
    if (!welcomed) {
      // Refused or unreachable: the server list says why, once (a Reject's text is the closed reason, not said
      // when it arrives), and nothing else changes.
      say("could not join: " + reason);
    } else {
      say("connection lost: " + reason);
      // Our game is told of when the loss cut it short, or when it had ended in the race still going on; not for a
      // race that was over (its results told where it went).
      const bool told = !saved_now.empty() || (race_on_before && own_.saves() > saves_at_connect_);
      lost_ = Lost{reason, told ? own_.last_sentence() : std::string()};
    }
    was_open_ = false;
  }
  return received;
}

std::optional<std::pair<std::string, std::uint16_t>> parse_address(const std::string& text) {
  if (text.find_first_of(" \t") != std::string::npos) return std::nullopt;
  auto hp = net::split_host_port(text, 7878);
  if (!hp) return std::nullopt;
  return std::make_pair(std::move(hp->host), hp->port);
}

}  // namespace sr::client
