#include "common/replay/detail/text_codec.h"

namespace sr::replay::detail {

std::string hash_hex(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = kDigits[v & 0xF];
    v >>= 4;
  }
  return out;
}

std::string pieces_text(const std::vector<engine::Piece>& pieces) {
  std::string out;
  out.reserve(pieces.size());
  for (engine::Piece p : pieces) out += engine::piece_letter(p);
  return out;
}

std::string row_text(const engine::BoardRow& row) {
  std::string out;
  for (engine::Piece p : row) out += engine::piece_letter(p);
  return out;
}

}  // namespace sr::replay::detail
