// A Status<std::string> (common/result.h) as tests compare it: nullopt when ok, else the error sentence, so that
// EXPECT_EQ(problem_of(check(x)), std::nullopt) prints the sentence when it fails and EXPECT_EQ(..., "text") is exact.
#pragma once

#include <optional>
#include <string>

#include "common/result.h"

namespace sr::test {

inline std::optional<std::string> problem_of(const sr::Status<std::string>& status) {
  if (status.ok()) return std::nullopt;
  return status.error();
}

}  // namespace sr::test
