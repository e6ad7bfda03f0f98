#include "common/replay/error.h"

namespace sr::replay {

std::string Error::describe() const {
  std::string out;
  if (!field.empty()) out += field;
  if (offset >= 0) {
    if (!out.empty()) out += " ";
    out += "at byte " + std::to_string(offset);
  }
  if (!out.empty()) out += ": ";
  return out + message;
}

}  // namespace sr::replay
