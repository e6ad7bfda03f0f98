#include "common/replay/detail/decode_context.h"

namespace sr::replay::detail {

void fail(ErrorKind kind, std::string message) { throw DecodeFailure(kind, std::move(message)); }

InBuf::InBuf(const std::uint8_t* data, std::size_t size) {
  // std::streambuf wants char*; the buffer is only ever read.
  char* p = const_cast<char*>(reinterpret_cast<const char*>(data));
  setg(p, p, p + size);
}

void DecodeContext::capture() {
  captured_ = true;
  failure_field_ = path();
  failure_offset_ = path_.back().start;
}

std::string DecodeContext::path() const {
  std::string out;
  for (const Part& p : path_) {
    if (p.name) {
      if (!out.empty()) out += '.';
      out += p.name;
    }
    if (p.index >= 0) out += "[" + std::to_string(p.index) + "]";
  }
  return out;
}

}  // namespace sr::replay::detail
