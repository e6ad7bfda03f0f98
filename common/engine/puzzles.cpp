#include "common/engine/puzzles.h"

#include <cassert>

namespace sr::engine {
std::span<const PuzzleStage> puzzle_stages() {
  // clang-format off
  static const std::vector<PuzzleStage> kStages = {
    {"I-spin", {"GGGGG.GGGG", "GGGGG.GGGG", "GGGGG.GGGG", "GGGGG.GGGG", "GGGG....GG"}, "II"},
    {"I-spin II", {"GGGGG..GGG", "GGGGG.GGGG", "GGGGG.GGGG", "GG....GGGG"}, "IJ"},
    {"I-spin III", {"GG..G...GG", "GG....GGGG", "GGGG.GGGGG", "GGGG.GGGGG", "GGGG.GGGGG"}, "ILO"},
    {"I-spin trial", {"GGGGG..GGG", "GGG.GG.GGG", "GGG.GG.GGG", "GGG.....GG", "GGG.GGGGGG"}, "IIL"},
    {"S-spin", {"GGGG..GGGG", "GGG..GGGGG"}, "S"},
    {"S-spin II", {"GGGG....GG", "GGG....GGG", "GGGGG..GGG", "GGGG..GGGG"}, "SSS"},
    {"Z-spin galore", {"G..GGGGGGG", "GG..GGGGGG", "GGG..GGGGG", "GGGG..GGGG", "GGGGG..GGG", "GGGGGG..GG", "GGGGGGG..G", "GGGGGGGG.."}, "ZZZZ"},
    {"SuZ-spins", {"GGGG..GGGG", "GGG..GGGGG", "GG....GGGG", "GG....GGGG", "GGG....GGG", "GG..GG..GG"}, "SSIIZ"},
    {"J-spin", {"GG.....GGG", "GGGGGG.GGG", "GGGGG..GGG"}, "JI"},
    {"L/J-spins", {"GG......GG", "GG.GGGG.GG", "GG..GG..GG"}, "JLI"},
    {"L-spin", {"GGGGG.GGGG", "GGG...GGGG"}, "L"},
    {"L/J-spins II", {"G...GG...G", "G.G.GG.G.G", "G...GG...G"}, "JLJL"},
    {"7-7", {"GGGG..GGGG", "GGGGG.GGGG", "GGG...GGGG", "GGGG.GGGGG", "GGGG.GGGGG"}, "LL"},
    {"7-turn", {"GGGGG..GGG", "GGG....GGG", "GGGG.GGGGG", "GGGG.GGGGG"}, "LO"},
    {"L-turn", {"GGGG..GGGG", "GGGG..GGGG", "GGGG...GGG", "GGGG.GGGGG"}, "LO"},
    {"L-turn trial", {"GGGG..GGGG", "GGGG..GGGG", "GG.....GGG", "GGG..GGGGG", "GGG.GGGGGG"}, "LLO"},
    {"T-spin", {"GGGG....GG", "GGG...GGGG", "GGGG.GGGGG"}, "TI"},
    {"T-spin II", {"GGGG....GG", "GGG...GGGG", "GGGG.GGGGG"}, "TL"},
    {"T-tuck", {"GG...GGGGG", "GGG..GGGGG", "GGG...GGGG"}, "TT"},
    {"T-insert", {"GGGG..GGGG", "GGGG..GGGG", "GGGGG.GGGG", "GGGG...GGG"}, "TO"},
    {"T-go-round", {"GGG..GGGGG", "GGG...GGGG", "GGGGG..GGG", "GGGGG.GGGG"}, "TO"},
    {"T-spin Tri. setup", {"GGGGG..GGG", "GGGGG..GGG", "GGG...GGGG", "GGGG.GGGGG"}, "TO"},
    {"T-spin Triple", {"GGGG...GGG", "GGGGG..GGG", "GGG...GGGG", "GGGG.GGGGG", "GGG..GGGGG", "GGGG.GGGGG"}, "TLJ"},
    {"Final Crossover", {"GGGG..GGGG", "G..G..GGGG", "..GGG.GGGG", "GGG....GGG", "GGGGGG...G", "..G....GGG", "GGGGG.GGGG", "G..G..GGGG", "GGGGG.GGGG"}, "TLOSIJZ"},
  };
  // clang-format on
  return kStages;
}

GameConfig make_puzzle(const PuzzleStage& stage) {
  GameConfig c = make_custom();
  c.limit = LimitKind::kPieces;
  c.limit_value = static_cast<std::int64_t>(stage.pieces.size());
  c.goal = GoalKind::kScore;
  c.rotation = RotationSystem::kOcular;
  c.generator = GeneratorKind::kFixed;
  for (const char letter : stage.pieces) {
    Piece p = Piece::kNone;
    const bool known = piece_from_letter(letter, p);
    assert(known && is_tetromino(p));
    (void)known;
    c.fixed_sequence.push_back(p);
  }
  for (auto row = stage.rows.rbegin(); row != stage.rows.rend(); ++row) {
    BoardRow cells;
    for (const char letter : *row) {
      Piece p = Piece::kNone;
      const bool known = piece_from_letter(letter, p);
      assert(known);
      (void)known;
      cells.push_back(p);
    }
    c.initial_board.push_back(std::move(cells));
  }
  c.hold_enabled = false;
  c.preview = 0;
  c.scoring = Scoring::kTetrs;
  return c;
}

bool puzzle_cleared(const Game& game) {
  return game.over() && game.state().top_out == TopOut::kNone && game.matrix().empty();
}

}  // namespace sr::engine
