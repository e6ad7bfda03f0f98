// common/ascii.h: ASCII case folding and HTTP's optional whitespace, whatever the locale.
#include "common/ascii.h"

#include <gtest/gtest.h>

namespace sr {
namespace {

TEST(Ascii, LowerFoldsAToZOnlyAndKeepsEveryOtherByte) {
  EXPECT_EQ(ascii_lower("Content-Length"), "content-length");
  EXPECT_EQ(ascii_lower("0123456789ABCDEF"), "0123456789abcdef");
  EXPECT_EQ(ascii_lower("@[`{ az AZ"), "@[`{ az az");                // the bytes either side of A-Z and a-z stay
  EXPECT_EQ(ascii_lower("\xC3\x89t\xC3\xA9"), "\xC3\x89t\xC3\xA9");  // "Été" in UTF-8: not ASCII, unchanged
  EXPECT_EQ(ascii_lower(std::string_view("A\0B", 3)), std::string("a\0b", 3));
  EXPECT_EQ(ascii_lower(""), "");
}

TEST(Ascii, TrimBlanksRemovesSpacesAndTabsAtBothEndsOnly) {
  EXPECT_EQ(trim_blanks(" \t chunked \t "), "chunked");
  EXPECT_EQ(trim_blanks("gzip, chunked"), "gzip, chunked");
  EXPECT_EQ(trim_blanks("a \t b"), "a \t b");
  EXPECT_EQ(trim_blanks("\r\nkeep\n"), "\r\nkeep\n");  // line ends are not HTTP's optional whitespace
  EXPECT_EQ(trim_blanks(" \t "), "");
  EXPECT_EQ(trim_blanks(""), "");
  static_assert(trim_blanks("  x ") == "x");
}

}  // namespace
}  // namespace sr
