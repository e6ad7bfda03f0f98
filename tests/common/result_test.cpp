// sr::Result and sr::Status (common/result.h).
#include "common/result.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace sr {
namespace {

struct Problem {
  int code = 0;
  std::string why;
  bool operator==(const Problem&) const = default;
};

Result<int, Problem> half(int n) {
  if (n % 2 != 0) return Problem{1, "odd"};
  return n / 2;
}

Status<std::string> check_positive(int n) {
  if (n <= 0) return "not positive: " + std::to_string(n);
  return {};
}

Status<std::string> check_literal(bool good) {
  if (!good) return "bad";  // a string literal converts to the error of a Status<std::string>
  return Ok{};
}

TEST(Result, HoldsAValue) {
  const auto r = half(8);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(r.value(), 4);
}

TEST(Result, HoldsAnError) {
  const auto r = half(7);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(static_cast<bool>(r));
  EXPECT_EQ(r.error(), (Problem{1, "odd"}));
}

TEST(Result, ValueIsMutableAndMovable) {
  Result<std::vector<int>, Problem> r = std::vector<int>{1, 2};
  r.value().push_back(3);
  EXPECT_EQ(r.value(), (std::vector<int>{1, 2, 3}));
  const std::vector<int> moved = std::move(r).value();
  EXPECT_EQ(moved, (std::vector<int>{1, 2, 3}));
}

TEST(Result, MoveOnlyValue) {
  Result<std::unique_ptr<int>, std::string> r = std::make_unique<int>(5);
  ASSERT_TRUE(r.ok());
  const std::unique_ptr<int> p = std::move(r).value();
  EXPECT_EQ(*p, 5);
}

TEST(Result, SameTypeNeedsFail) {
  // T == E: a plain string is a value; sr::fail says it is the error.
  const Result<std::string, std::string> value = std::string("fine");
  const Result<std::string, std::string> error = fail(std::string("broken"));
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(value.value(), "fine");
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.error(), "broken");
}

TEST(Result, FailConvertsItsArgument) {
  const Status<std::string> s = fail("from a literal");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "from a literal");
  const Result<int, long> r = fail(3);  // an int into the error, although an int would convert to the value
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), 3L);
}

TEST(Result, ErrorIsMovable) {
  Result<int, std::string> r = std::string("gone");
  const std::string taken = std::move(r).error();
  EXPECT_EQ(taken, "gone");
}

TEST(Result, Equality) {
  EXPECT_EQ(half(4), half(4));
  EXPECT_NE(half(4), half(6));
  EXPECT_EQ(half(3), half(5));  // same error
  EXPECT_NE(half(3), half(4));
}

TEST(Status, DefaultIsOk) {
  const Status<std::string> s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.value(), Ok{});
  EXPECT_TRUE(check_positive(1).ok());
  EXPECT_TRUE(check_literal(true).ok());
}

TEST(Status, CarriesTheMessage) {
  const auto s = check_positive(-2);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error(), "not positive: -2");
  const auto t = check_literal(false);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error(), "bad");
}

TEST(Status, IfInitReadsWell) {
  int errors = 0;
  for (const int n : {3, 0, -1}) {
    if (auto s = check_positive(n); !s) {
      ++errors;
      EXPECT_EQ(s.error().rfind("not positive: ", 0), 0U);
    }
  }
  EXPECT_EQ(errors, 2);
}

TEST(Status, StatusOfAStruct) {
  const Status<Problem> ok = {};
  const Status<Problem> bad = Problem{7, "seven"};
  EXPECT_TRUE(ok.ok());
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, 7);
  EXPECT_EQ(bad.error().why, "seven");
}

static_assert(std::is_same_v<Status<int>, Result<Ok, int>>);
static_assert(!std::is_default_constructible_v<Result<int, std::string>>);  // only a Status has a default
static_assert(!std::is_convertible_v<Result<int, std::string>, bool>);      // operator bool is explicit

}  // namespace
}  // namespace sr
