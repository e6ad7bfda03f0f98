// Internal: the text forms shared by JSON and the tools: hashes as 16 lower-case hex digits, piece sequences as
// letters (IJLOSTZ), board rows as 10 letters ('.' empty, G garbage). No Cereal here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/types.h"

namespace sr::replay::detail {

[[nodiscard]] std::string hash_hex(std::uint64_t v);
[[nodiscard]] std::string pieces_text(const std::vector<engine::Piece>& pieces);
[[nodiscard]] std::string row_text(const engine::BoardRow& row);

}  // namespace sr::replay::detail
