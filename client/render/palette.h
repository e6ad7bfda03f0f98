// Cell colours per skin. Guideline colours: I cyan, J blue, L orange, O yellow, S green, T purple, Z red.
#pragma once

#include "client/render/quad_batch.h"
#include "client/settings/settings.h"
#include "common/engine/types.h"

namespace sr::client {

[[nodiscard]] Rgba piece_colour(engine::Piece p, Skin skin);

namespace palette {
inline constexpr Rgba kBackground{16, 17, 24, 255};
inline constexpr Rgba kMatrix{6, 6, 10, 255};
inline constexpr Rgba kGrid{34, 36, 48, 255};
inline constexpr Rgba kBorder{120, 124, 150, 255};
inline constexpr Rgba kSkyline{118, 40, 45, 255};  // opaque: drawn in the opaque pass
inline constexpr Rgba kPanel{12, 12, 18, 255};
inline constexpr Rgba kWhite{255, 255, 255, 255};
}  // namespace palette

}  // namespace sr::client
