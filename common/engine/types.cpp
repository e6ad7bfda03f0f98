#include "common/engine/types.h"

#include <cstddef>

namespace sr::engine {

char piece_letter(Piece p) {
  constexpr char kLetters[] = ".IJLOSTZG";
  const auto i = static_cast<std::size_t>(p);
  return i < sizeof(kLetters) - 1 ? kLetters[i] : '?';
}

bool piece_from_letter(char c, Piece& out) {
  if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  constexpr char kLetters[] = ".IJLOSTZG";
  for (std::size_t i = 0; i < sizeof(kLetters) - 1; ++i) {
    if (kLetters[i] == c) {
      out = static_cast<Piece>(i);
      return true;
    }
  }
  return false;
}

}  // namespace sr::engine
