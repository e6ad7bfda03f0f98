// Internal: the member names every JSON object of a replay may have, taken from the schema itself (schema.h), so
// that the importer can refuse unknown members: a typo in a hand-written file ("lock_delay" for "lock_delay_us")
// must be an error, not a silent fallback to the default. An object's "cereal_class_version" selects the members of
// that version: a member a later version added is refused in an older object (it would otherwise be dropped unread).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sr::replay::detail {

struct JsonShape {
  std::vector<std::string> members;  // of the current class version
  // Members that an older class version does not have, and the first version that has each.
  std::map<std::string, std::uint32_t> since;
  // Members whose value is an object, or an array of objects, and the shape of those objects.
  std::map<std::string, std::shared_ptr<const JsonShape>> nested;
};

// The shape of a whole JSON replay (the root object).
[[nodiscard]] const JsonShape& replay_shape();

// Walks a syntactically valid JSON replay: ok if the shape names every member and the object's class version has
// each, otherwise "<path>: unknown member \"x\"" for the first member that the shape does not name, or
// "<path>: member \"x\" needs cereal_class_version N or later, the object has M" for one the version does not have.
[[nodiscard]] sr::Status<std::string> check_members(std::string_view json);

}  // namespace sr::replay::detail
