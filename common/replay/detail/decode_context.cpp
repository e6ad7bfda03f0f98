#include "common/replay/detail/decode_context.h"

namespace sr::replay::detail {

void fail(ErrorKind kind, std::string message) { throw DecodeFailure(kind, std::move(message)); }

InBuf::InBuf(const std::uint8_t* data, std::size_t size) {
  // std::streambuf wants char*; the buffer is only ever read.
  char* p = const_cast<char*>(reinterpret_cast<const char*>(data));
  setg(p, p, p + size);
}

void DecodeContext::pop(bool unwinding, std::int64_t start_offset) {
  if (unwinding && !captured_) {
    captured_ = true;
    failure_field_ = path();
    failure_offset_ = start_offset;
  }
  path_.pop_back();
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
