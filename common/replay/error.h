// Error values of the replay library: every expected failure (bad bytes, bad JSON, a request outside a replay)
// comes back as an Error inside a Result, never as an exception or a crash.
#pragma once

#include <cstdint>
#include <string>

#include "common/result.h"

namespace sr::replay {

enum class ErrorKind : std::uint8_t {
  kTruncated = 0,      // the input ended inside a field
  kBadMagic = 1,       // not a replay file (the first bytes are not "SRRP")
  kNewerVersion = 2,   // a format or class version newer than this build reads
  kBadValue = 3,       // a field is out of range, malformed or inconsistent
  kBadJson = 4,        // JSON syntax error, wrong JSON type or missing member
  kTrailingBytes = 5,  // bytes after the end of the replay body
  kOutOfRange = 6,     // a request (racer, piece, time) that the replay does not have
  kIo = 7,             // a file or database operation failed (store/, never the pure part)
};

struct Error {
  ErrorKind kind = ErrorKind::kBadValue;
  std::string message;       // what was wrong, as a sentence fragment ("count 900 exceeds ...")
  std::string field;         // where in the replay: "racers[1].inputs" (empty when not inside a field)
  std::int64_t offset = -1;  // binary input only: byte offset (from the file start) of the failing field, else -1

  // "racers[1].inputs at byte 345: count 900 exceeds ..." (the parts that are known).
  [[nodiscard]] std::string describe() const;
};

// A value or an Error. Callers must look at it (docs/CONVENTIONS.md, "Three kinds of failure").
template <class T>
using Result = sr::Result<T, Error>;

}  // namespace sr::replay
