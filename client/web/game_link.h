// A game's web link (web/README.md, "A game's web link"): http://HOST:PORT[/PREFIX]/games/<id>, <id> the 16 lower-case
// hex digits of the game's id in the server's store (ReplayStored.game_id, GameSummary.game_id). The replay itself is
// the link plus ".srr". Pure string work: the server's Welcome says where its pages are, this makes and reads links.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/protocol/messages.h"
#include "common/protocol/web_url.h"
#include "common/result.h"

namespace sr::client {

// Where the server's web pages are, from its Welcome (PROTOCOL.md, "Web pages"): its web_url when it sent one, else
// http://`connected_host`:web_port when web_port is not 0 (`connected_host`: the host we connected to, as typed: a
// name or an address), else nullopt (no pages). nullopt too when the result is no well-formed http(s) URL of at most
// 200 bytes (a hostile or broken server's address is never shown or copied).
[[nodiscard]] std::optional<protocol::WebUrl> web_pages(const protocol::Welcome& welcome,
                                                        std::string_view connected_host);

// The web link of stored game `game_id` on the pages at `pages`: "http://h:8080/sr/games/00000000000000ff".
[[nodiscard]] std::string game_link(const protocol::WebUrl& pages, std::uint64_t game_id);

// A game's web link, read back.
struct GameLink {
  protocol::WebUrl page;  // the game's page (its path ends in /games/<id>)
  std::uint64_t game_id = 0;
  // The replay's address: the page's path plus ".srr".
  [[nodiscard]] std::string replay_path() const { return page.path + ".srr"; }
};

// Reads a link as `stackrace LINK` takes it: an http URL whose path ends in /games/ and 16 hex digits (a trailing
// ".srr", the replay's own address, is taken too). The link, or a sentence: https links are refused with "https links
// are not supported, use http://..." (the game has no TLS), anything else says what is wrong.
[[nodiscard]] sr::Result<GameLink, std::string> parse_game_link(std::string_view text);

// Whether a command-line argument is meant as a link rather than a file: it starts with http:// or https://
// (any case).
[[nodiscard]] bool looks_like_link(std::string_view text);

}  // namespace sr::client
