// client/web/game_link.h: where a server's pages are (from its Welcome and the host we connected to), the link of a
// stored game, and `stackrace LINK`'s reading of one.
#include "client/web/game_link.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

protocol::Welcome welcome(std::uint16_t web_port, std::string web_url) {
  return protocol::Welcome{7, "srv", "", web_port, std::move(web_url)};
}

std::string link_of(const protocol::Welcome& w, std::string_view host, std::uint64_t id) {
  const auto pages = web_pages(w, host);
  return pages ? game_link(*pages, id) : "(no pages)";
}

TEST(GameLink, BuiltFromTheHostWeConnectedToAndTheWebPort) {
  EXPECT_EQ(link_of(welcome(7880, ""), "192.168.1.5", 255), "http://192.168.1.5:7880/games/00000000000000ff");
  EXPECT_EQ(link_of(welcome(80, ""), "races.example.org", 0x0123456789abcdefULL),
            "http://races.example.org/games/0123456789abcdef");
  EXPECT_EQ(link_of(welcome(7880, ""), "::1", 1), "http://[::1]:7880/games/0000000000000001");
}

TEST(GameLink, TheOperatorsAddressWinsWithItsPrefix) {
  EXPECT_EQ(link_of(welcome(7880, "https://races.example.org/stackrace"), "10.0.0.1", 0xffffffffffffffffULL),
            "https://races.example.org/stackrace/games/ffffffffffffffff");
  EXPECT_EQ(link_of(welcome(0, "http://example.org:8080/"), "10.0.0.1", 16),
            "http://example.org:8080/games/0000000000000010");
}

TEST(GameLink, NoPagesOrABrokenAddressGiveNoLink) {
  EXPECT_EQ(link_of(welcome(0, ""), "10.0.0.1", 1), "(no pages)");
  EXPECT_EQ(link_of(welcome(7880, ""), "", 1), "(no pages)");
  EXPECT_EQ(link_of(welcome(7880, ""), "bad host", 1), "(no pages)");
  EXPECT_EQ(link_of(welcome(7880, "javascript:alert(1)"), "10.0.0.1", 1), "(no pages)")
      << "a Welcome the decoder would refuse is still never shown";
}

TEST(GameLink, ReadBackFromALinkOrItsReplaysAddress) {
  auto link = parse_game_link("http://127.0.0.1:7880/sr/games/0123456789abcdef");
  ASSERT_TRUE(link.ok()) << link.error();
  EXPECT_EQ(link.value().page, (protocol::WebUrl{false, "127.0.0.1", 7880, "/sr/games/0123456789abcdef"}));
  EXPECT_EQ(link.value().game_id, 0x0123456789abcdefULL);
  EXPECT_EQ(link.value().replay_path(), "/sr/games/0123456789abcdef.srr");
  link = parse_game_link("http://h/games/00000000000000ff.srr");
  ASSERT_TRUE(link.ok()) << link.error();
  EXPECT_EQ(link.value().game_id, 255u);
  EXPECT_EQ(link.value().replay_path(), "/games/00000000000000ff.srr");
}

TEST(GameLink, WhatIsNotAGamesLinkSaysWhy) {
  EXPECT_EQ(parse_game_link("https://h/games/00000000000000ff").error(),
            "https links are not supported, use http://h/games/00000000000000ff if the server serves its pages over "
            "http too");
  const std::string not_game =
      " is not a game's web link: its path must end in /games/ and the game's 16 lower-case "
      "hex digits";
  EXPECT_EQ(parse_game_link("http://h/games/ff").error(), "\"http://h/games/ff\"" + not_game);
  EXPECT_EQ(parse_game_link("http://h/games/0123456789ABCDEF").error(),
            "\"http://h/games/0123456789ABCDEF\"" + not_game);
  EXPECT_EQ(parse_game_link("http://h/0123456789abcdef").error(), "\"http://h/0123456789abcdef\"" + not_game);
  EXPECT_EQ(parse_game_link("http://h").error(), "\"http://h\"" + not_game);
  EXPECT_EQ(parse_game_link("http://h/games/0000000000000000").error(),
            "\"http://h/games/0000000000000000\" is not a game's web link: game ids start at 1");
  EXPECT_EQ(parse_game_link("http://h/games/00000000000000ff?x").error(),
            "\"http://h/games/00000000000000ff?x\" is not a web address: it has a query ('?')");
  EXPECT_EQ(parse_game_link("http://" + std::string(300, 'a')).error(),
            "\"http://" + std::string(93, 'a') + "...\" is not a web address: it has 307 bytes, at most 200");
}

TEST(GameLink, LinksAreToldFromFilesByTheirScheme) {
  EXPECT_TRUE(looks_like_link("http://h/games/00000000000000ff"));
  EXPECT_TRUE(looks_like_link("HTTPS://h/"));
  EXPECT_FALSE(looks_like_link("race.srr"));
  EXPECT_FALSE(looks_like_link("./http:/x.srr"));
}

}  // namespace
}  // namespace sr::client
