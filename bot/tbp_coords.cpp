#include "bot/tbp_coords.h"

#include <array>

namespace sr::botcli::tbp {

using engine::Piece;
using engine::Rotation;

engine::Cell centre_offset(Piece piece, Rotation orientation) {
  const auto r = static_cast<std::size_t>(orientation);
  switch (piece) {
    case Piece::kI: {
      constexpr std::array<engine::Cell, 4> kI = {{{1, 2}, {2, 2}, {2, 1}, {1, 1}}};
      return kI[r];
    }
    case Piece::kO: {
      constexpr std::array<engine::Cell, 4> kO = {{{0, 0}, {0, 1}, {1, 1}, {1, 0}}};
      return kO[r];
    }
    default: return {1, 1};
  }
}

bot::PieceState to_state(const Location& l) {
  const engine::Cell c = centre_offset(l.piece, l.orientation);
  return bot::PieceState{l.piece, l.orientation, static_cast<std::int8_t>(l.x - c.x),
                         static_cast<std::int8_t>(l.y - c.y)};
}

Location to_location(const bot::PieceState& s) {
  const engine::Cell c = centre_offset(s.piece, s.rotation);
  return Location{s.piece, s.rotation, s.x + c.x, s.y + c.y};
}

namespace {
constexpr std::array<const char*, 4> kOrientations = {"north", "east", "south", "west"};
constexpr std::array<const char*, 3> kSpins = {"none", "mini", "full"};
}  // namespace

const char* orientation_name(Rotation r) { return kOrientations[static_cast<std::size_t>(r) & 3]; }

std::optional<Rotation> orientation_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kOrientations.size(); ++i) {
    if (name == kOrientations[i]) return static_cast<Rotation>(i);
  }
  return std::nullopt;
}

const char* spin_name(engine::SpinKind s) { return kSpins[static_cast<std::size_t>(s) % 3]; }

std::optional<engine::SpinKind> spin_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kSpins.size(); ++i) {
    if (name == kSpins[i]) return static_cast<engine::SpinKind>(i);
  }
  return std::nullopt;
}

}  // namespace sr::botcli::tbp
