#include "common/protocol/text.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/support/status.h"

namespace sr::protocol {
namespace {

TEST(Text, PlayerNamesArePrintableAsciiWithoutOuterSpaces) {
  EXPECT_TRUE(is_valid_player_name("ada"));
  EXPECT_TRUE(is_valid_player_name("Grace Hopper 42"));
  EXPECT_TRUE(is_valid_player_name(std::string(kMaxPlayerNameBytes, '~')));
  EXPECT_FALSE(is_valid_player_name(""));
  EXPECT_FALSE(is_valid_player_name(std::string(kMaxPlayerNameBytes + 1, 'a')));
  EXPECT_FALSE(is_valid_player_name(" ada"));
  EXPECT_FALSE(is_valid_player_name("ada "));
  EXPECT_FALSE(is_valid_player_name("a\tda"));
  EXPECT_FALSE(is_valid_player_name("\xC3\xA9"));
  EXPECT_EQ(sr::test::problem_of(check_text("a\x01", kPlayerNameText)), "byte 0x01 at index 1 is not printable ASCII");
}

TEST(Text, RoomCodesUseTheUnambiguousAlphabet) {
  EXPECT_TRUE(is_valid_room_code("ABC234"));
  EXPECT_TRUE(is_valid_room_code("ZZZZZZ"));
  EXPECT_FALSE(is_valid_room_code(""));
  EXPECT_FALSE(is_valid_room_code("abc234"));
  EXPECT_FALSE(is_valid_room_code("ABC23"));
  EXPECT_FALSE(is_valid_room_code("ABC2345"));
  EXPECT_FALSE(is_valid_room_code("ABCD0O"));
  EXPECT_FALSE(is_valid_room_code("ABCDI1"));
  EXPECT_EQ(kRoomCodeAlphabet.size(), 32u);
}

TEST(Text, LinesAreStrictUtf8WithoutControls) {
  EXPECT_EQ(sr::test::problem_of(check_text_content("h\xC3\xA9llo \xE2\x9C\x93 \xF0\x9F\x8E\x89", TextKind::kLine)),
            std::nullopt);
  EXPECT_NE(sr::test::problem_of(check_text_content("a\nb", TextKind::kLine)), std::nullopt);
  EXPECT_EQ(sr::test::problem_of(check_text_content("a\nb", TextKind::kMultiline)), std::nullopt);
  EXPECT_NE(sr::test::problem_of(check_text_content("a\r\nb", TextKind::kMultiline)), std::nullopt);
  EXPECT_NE(sr::test::problem_of(check_text_content("\xC2\x85", TextKind::kLine)), std::nullopt);  // C1 control (NEL)
  EXPECT_NE(sr::test::problem_of(check_text_content("\xE0\x80\xAF", TextKind::kLine)), std::nullopt);  // overlong
  // Above U+10FFFF:
  EXPECT_NE(sr::test::problem_of(check_text_content("\xF4\x90\x80\x80", TextKind::kLine)), std::nullopt);
  EXPECT_NE(sr::test::problem_of(check_text_content("\xFF", TextKind::kLine)), std::nullopt);
  EXPECT_NE(sr::test::problem_of(check_text_content("\xE2\x9C", TextKind::kLine)), std::nullopt);  // cut off
  EXPECT_NE(sr::test::problem_of(check_text_content(std::string("a\0b", 3), TextKind::kLine)), std::nullopt);
  // U+10FFFF itself:
  EXPECT_EQ(sr::test::problem_of(check_text_content("\xF4\x8F\xBF\xBF", TextKind::kLine)), std::nullopt);
}

TEST(Text, LengthsAreBytes) {
  const std::string two_byte_chars(kMaxChatBytes / 2, 'x');
  std::string s;
  for (std::size_t i = 0; i < kMaxChatBytes / 2; ++i) s += "\xC3\xA9";
  EXPECT_EQ(sr::test::problem_of(check_text(s, kChatText)), std::nullopt);
  EXPECT_EQ(sr::test::problem_of(check_text(s + "x", kChatText)), "201 bytes, limit 200");
  EXPECT_EQ(sr::test::problem_of(check_text("", kChatText)), "0 bytes, needs at least 1");
  EXPECT_EQ(sr::test::problem_of(check_text("", kReasonText)), std::nullopt);
}

}  // namespace
}  // namespace sr::protocol
