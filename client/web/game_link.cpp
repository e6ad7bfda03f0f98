#include "client/web/game_link.h"

#include <cstdio>

namespace sr::client {
namespace {

bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

}  // namespace

std::optional<protocol::WebUrl> web_pages(const protocol::Welcome& welcome, std::string_view connected_host) {
  std::string text;
  if (!welcome.web_url.empty()) {
    text = welcome.web_url;
  } else if (welcome.web_port != 0 && !connected_host.empty()) {
    text = protocol::to_string(protocol::WebUrl{false, std::string(connected_host), welcome.web_port, ""});
  } else {
    return std::nullopt;
  }
  auto url = protocol::parse_web_url(text);
  if (!url) return std::nullopt;
  return url.value();
}

std::string game_link(const protocol::WebUrl& pages, std::uint64_t game_id) {
  std::string base = protocol::to_string(pages);
  while (!base.empty() && base.back() == '/') base.pop_back();
  char id[17];
  std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(game_id));
  return base + "/games/" + id;
}

bool looks_like_link(std::string_view text) {
  return starts_with_ignoring_case(text, "http://") || starts_with_ignoring_case(text, "https://");
}

sr::Result<GameLink, std::string> parse_game_link(std::string_view text) {
  if (starts_with_ignoring_case(text, "https://")) {
    return "https links are not supported, use http://" + std::string(text.substr(8)) +
           " if the server serves its pages over http too";
  }
  const std::string quoted = "\"" + std::string(text.substr(0, 100)) + (text.size() > 100 ? "...\"" : "\"");
  auto url = protocol::parse_web_url(text);
  if (!url) return quoted + " is not a web address: " + url.error();
  GameLink link{url.value(), 0};
  std::string& path = link.page.path;
  if (path.size() >= 4 && path.compare(path.size() - 4, 4, ".srr") == 0) path.resize(path.size() - 4);
  static constexpr std::string_view kGames = "/games/";
  constexpr std::size_t kIdDigits = 16;
  const bool shaped = path.size() >= kGames.size() + kIdDigits &&
                      path.compare(path.size() - kIdDigits - kGames.size(), kGames.size(), kGames) == 0;
  bool hex = shaped;
  for (std::size_t i = path.size() - (shaped ? kIdDigits : 0); hex && i < path.size(); ++i) hex = is_lower_hex(path[i]);
  if (!hex) {
    return quoted + " is not a game's web link: its path must end in /games/ and the game's 16 lower-case hex digits";
  }
  for (std::size_t i = path.size() - kIdDigits; i < path.size(); ++i) {
    const char c = path[i];
    link.game_id = link.game_id * 16 + static_cast<std::uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  if (link.game_id == 0) return quoted + " is not a game's web link: game ids start at 1";
  return link;
}

}  // namespace sr::client
