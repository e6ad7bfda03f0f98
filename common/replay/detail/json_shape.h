// Internal: the member names every JSON object of a replay may have, taken from the schema itself (schema.h), so
// that the importer can refuse unknown members: a typo in a hand-written file ("lock_delay" for "lock_delay_us")
// must be an error, not a silent fallback to the default.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sr::replay::detail {

struct JsonShape {
  std::vector<std::string> members;
  // Members whose value is an object, or an array of objects, and the shape of those objects.
  std::map<std::string, std::shared_ptr<const JsonShape>> nested;
};

// The shape of a whole JSON replay (the root object).
[[nodiscard]] const JsonShape& replay_shape();

// Walks a syntactically valid JSON replay: ok if the shape names every member, otherwise "<path>: unknown member
// \"x\"" for the first member that it does not name.
[[nodiscard]] sr::Status<std::string> check_members(std::string_view json);

}  // namespace sr::replay::detail
