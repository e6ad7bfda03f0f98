#include "common/engine/pieces.h"

namespace sr::engine {

Cell spawn_position(Piece piece) {
  switch (piece) {
    case Piece::kI: return {3, 18};
    case Piece::kO: return {4, 20};
    default: return {3, 19};
  }
}

}  // namespace sr::engine
