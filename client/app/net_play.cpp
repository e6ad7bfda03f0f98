#include "client/app/net_play.h"

#include <spdlog/spdlog.h>

#include <charconv>

#include "server/server.h"

namespace sr::client {

NetPlay::NetPlay() : session_(std::make_unique<net::Session>()) {}

NetPlay::~NetPlay() {
  disconnect();
  stop_hosting();
}

std::string NetPlay::host(std::uint16_t port, const std::filesystem::path& data_dir) {
  stop_hosting();
  server::ServerOptions options;
  options.port = port;
  options.data_dir = data_dir;
  auto server = std::make_unique<server::Server>(options);
  if (auto error = server->start()) return "cannot host: " + *error;
  hosted_port_ = server->port();
  server_ = std::move(server);
  stop_ = false;
  thread_ = std::thread([this] { server_->run(stop_); });
  spdlog::info("hosting a server on port {} (replays in {})", hosted_port_, data_dir.string());
  return {};
}

void NetPlay::stop_hosting() {
  if (!server_) return;
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  server_.reset();
  hosted_port_ = 0;
}

std::string NetPlay::connect(const std::string& host, std::uint16_t port, const std::string& name) {
  disconnect();
  session_ = std::make_unique<net::Session>();
  net::SessionOptions options;
  options.host = host;
  options.port = port;
  options.name = name;
  if (auto error = session_->open(options)) return *error;
  was_open_ = true;
  return {};
}

void NetPlay::disconnect() {
  if (session_->state() != net::Session::State::kIdle && session_->state() != net::Session::State::kClosed) {
    session_->close();
  }
  was_open_ = false;
}

void NetPlay::say(std::string text) {
  spdlog::info("server: {}", text);
  messages_.push_back(std::move(text));
  while (messages_.size() > 8) messages_.pop_front();
}

std::vector<net::Session::Received> NetPlay::poll() {
  if (session_->state() == net::Session::State::kIdle) return {};
  const bool open_before = session_->state() != net::Session::State::kClosed;
  auto received = session_->poll(0);
  for (const auto& m : received) {
    if (const auto* n = std::get_if<protocol::Notice>(&m)) {
      if (n->code != protocol::NoticeCode::kInfo || !n->text.empty()) {
        say(n->text.empty() ? net::describe(n->code) : net::describe(n->code) + ": " + n->text);
      }
    } else if (const auto* r = std::get_if<protocol::Reject>(&m)) {
      say(r->text.empty() ? net::describe(r->reason) : net::describe(r->reason) + ": " + r->text);
    } else if (const auto* left = std::get_if<protocol::RoomLeft>(&m)) {
      if (!left->text.empty()) say("left the room: " + left->text);
    } else if (const auto* u = std::get_if<protocol::ReplayUnavailable>(&m)) {
      say(net::describe(u->code));
    }
  }
  if (was_open_ && open_before && session_->state() == net::Session::State::kClosed) {
    say("connection lost: " + session_->closed_reason());
  }
  return received;
}

std::optional<std::pair<std::string, std::uint16_t>> parse_address(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) return std::make_pair(text, std::uint16_t{7878});
  unsigned port = 0;
  const char* first = text.data() + colon + 1;
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, port);
  if (ec != std::errc() || ptr != last || port == 0 || port > 65535 || colon == 0) return std::nullopt;
  return std::make_pair(text.substr(0, colon), static_cast<std::uint16_t>(port));
}

}  // namespace sr::client
