#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bot/tbp_coords.h"
#include "bot/tbp_messages.h"
#include "common/bot/bitboard.h"
#include "common/engine/game.h"

namespace sr::botcli::tbp {
namespace {

using engine::Piece;
using engine::Rotation;

// The TBP centre cell is always one of the piece's own cells, and the conversion is exact both ways.
TEST(TbpCoords, CentreIsACellOfThePieceAndRoundTrips) {
  for (int p = 1; p <= 7; ++p) {
    for (int r = 0; r < 4; ++r) {
      const auto piece = static_cast<Piece>(p);
      const auto rot = static_cast<Rotation>(r);
      const engine::Cell c = centre_offset(piece, rot);
      bool own = false;
      for (const engine::Cell cell : engine::piece_cells(piece, rot)) own = own || cell == c;
      EXPECT_TRUE(own) << engine::piece_letter(piece) << " " << orientation_name(rot);
      const bot::PieceState s{piece, rot, 3, 7};
      EXPECT_EQ(to_state(to_location(s)), s);
    }
  }
}

// Spec examples: the centre cells named in the TBP spec for I and O.
TEST(TbpCoords, MatchesTheSpecForIAndO) {
  // I north on the floor at the left wall covers (0..3, 0); the centre is the middle-left mino (1, 0).
  EXPECT_EQ(to_location(bot::PieceState{Piece::kI, Rotation::kNorth, 0, -2}),
            (Location{Piece::kI, Rotation::kNorth, 1, 0}));
  // I east in column 0 covers (0, 0..3); the centre is the middle-top mino (0, 2).
  EXPECT_EQ(to_location(bot::PieceState{Piece::kI, Rotation::kEast, -2, 0}),
            (Location{Piece::kI, Rotation::kEast, 0, 2}));
  // I south covers row 0 too; middle-right mino: (2, 0). I west: middle-bottom (0, 1).
  EXPECT_EQ(to_location(bot::PieceState{Piece::kI, Rotation::kSouth, 0, -1}),
            (Location{Piece::kI, Rotation::kSouth, 2, 0}));
  EXPECT_EQ(to_location(bot::PieceState{Piece::kI, Rotation::kWest, -1, 0}),
            (Location{Piece::kI, Rotation::kWest, 0, 1}));
  // O in the corner covers (0..1, 0..1): bottom-left for north, top-left east, top-right south, bottom-right west.
  const auto o = [](Rotation r) { return to_location(bot::PieceState{Piece::kO, r, 0, 0}); };
  EXPECT_EQ(o(Rotation::kNorth), (Location{Piece::kO, Rotation::kNorth, 0, 0}));
  EXPECT_EQ(o(Rotation::kEast), (Location{Piece::kO, Rotation::kEast, 0, 1}));
  EXPECT_EQ(o(Rotation::kSouth), (Location{Piece::kO, Rotation::kSouth, 1, 1}));
  EXPECT_EQ(o(Rotation::kWest), (Location{Piece::kO, Rotation::kWest, 1, 0}));
  // T north on the floor: centre is the middle of the flat side, one row up from the box bottom.
  EXPECT_EQ(to_location(bot::PieceState{Piece::kT, Rotation::kNorth, 3, -1}),
            (Location{Piece::kT, Rotation::kNorth, 4, 0}));
}

TEST(TbpMessages, EncodesStartWithRowsBottomUp) {
  engine::Matrix m;
  m.set(0, 0, Piece::kGarbage);
  m.set(9, 1, Piece::kT);
  Start s;
  s.hold = Piece::kNone;
  s.queue = {Piece::kS, Piece::kZ};
  s.combo = 2;
  s.back_to_back = true;
  s.board = &m;
  const std::string json = encode_start(s);
  EXPECT_EQ(json.rfind("{\"type\":\"start\",\"hold\":null,\"queue\":[\"S\",\"Z\"],\"combo\":2,\"back_to_back\":true,"
                       "\"board\":[[\"G\",null,null,null,null,null,null,null,null,null],"
                       "[null,null,null,null,null,null,null,null,null,\"T\"],",
                       0),
            0u)
      << json;
  EXPECT_EQ(json.back(), '}');
}

TEST(TbpMessages, EncodesTheRandomizerExtension) {
  EXPECT_EQ(encode_rules(randomizer_name(engine::GeneratorKind::kBag7)),
            "{\"type\":\"rules\",\"randomizer\":\"seven_bag\"}");
  EXPECT_STREQ(randomizer_name(engine::GeneratorKind::kUniform), "uniform");
  EXPECT_STREQ(randomizer_name(engine::GeneratorKind::kRecency), "unknown");
  EXPECT_STREQ(randomizer_name(engine::GeneratorKind::kFixed), "unknown");
  Start s;
  s.queue = {Piece::kS};
  s.bag_state = std::vector<Piece>{Piece::kJ, Piece::kT};
  const std::string json = encode_start(s);
  const std::string tail = "]],\"randomizer\":{\"type\":\"seven_bag\",\"bag_state\":[\"J\",\"T\"]}}";
  ASSERT_GE(json.size(), tail.size());
  EXPECT_EQ(json.substr(json.size() - tail.size()), tail) << json;
  s.bag_state.reset();
  EXPECT_EQ(encode_start(s).find("randomizer"), std::string::npos);
}

TEST(TbpMessages, SevenBagStateIsWhatIsLeftAfterTheQueue) {
  using P = Piece;
  // Pieces 0..5 of the first bag: only the seventh is left.
  const std::vector<P> six = {P::kT, P::kI, P::kZ, P::kO, P::kS, P::kL};
  EXPECT_EQ(seven_bag_state(0, six), std::vector<P>{P::kJ});
  // A whole bag: the next one is full.
  std::vector<P> seven = six;
  seven.push_back(P::kJ);
  EXPECT_EQ(seven_bag_state(0, seven), (std::vector<P>{P::kI, P::kJ, P::kL, P::kO, P::kS, P::kT, P::kZ}));
  // Pieces 3..8: the second bag has given pieces 7 and 8 (O, I).
  const std::vector<P> across = {P::kZ, P::kS, P::kL, P::kJ, P::kO, P::kI};
  EXPECT_EQ(seven_bag_state(3, across), (std::vector<P>{P::kJ, P::kL, P::kS, P::kT, P::kZ}));
  // Pieces 8..12: the bag began at piece 7, which is not in the queue.
  EXPECT_EQ(seven_bag_state(8, std::vector<P>(5, P::kI)), std::nullopt);
}

// Against the engine: the piece after the first start message's queue is the one piece its bag state names.
TEST(TbpMessages, SevenBagStateMatchesTheEngine) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    engine::Game g(engine::make_sprint(), seed);
    (void)g.update(0);
    std::vector<Piece> queue = {g.active()->piece};
    for (const Piece p : g.preview()) queue.push_back(p);
    ASSERT_EQ(queue.size(), 6u);
    EXPECT_EQ(seven_bag_state(0, queue), std::vector<Piece>{g.state().queue[5]}) << "seed " << seed;
  }
}

TEST(TbpMessages, EncodesTheSimpleMessages) {
  EXPECT_EQ(encode_rules("seven_bag"), "{\"type\":\"rules\",\"randomizer\":\"seven_bag\"}");
  EXPECT_EQ(encode_suggest(), "{\"type\":\"suggest\"}");
  EXPECT_EQ(encode_stop(), "{\"type\":\"stop\"}");
  EXPECT_EQ(encode_quit(), "{\"type\":\"quit\"}");
  EXPECT_EQ(encode_new_piece(Piece::kL), "{\"type\":\"new_piece\",\"piece\":\"L\"}");
  EXPECT_EQ(encode_play(Move{Location{Piece::kT, Rotation::kSouth, 4, 1}, engine::SpinKind::kFull}),
            "{\"type\":\"play\",\"move\":{\"location\":{\"type\":\"T\",\"orientation\":\"south\",\"x\":4,\"y\":1},"
            "\"spin\":\"full\"}}");
}

TEST(TbpMessages, DecodesBotMessages) {
  const BotMessage info =
      decode_bot_message(R"({"type":"info","name":"Cold Clear","version":"2","author":"MinusKelvin","features":[]})");
  EXPECT_EQ(info.kind, BotMessage::Kind::kInfo);
  EXPECT_EQ(info.name, "Cold Clear");
  EXPECT_TRUE(info.features.empty());
  EXPECT_EQ(decode_bot_message(R"({"type":"info","features":["randomizer",3]})").features,
            std::vector<std::string>{"randomizer"});
  EXPECT_EQ(decode_bot_message(R"({"type":"ready"})").kind, BotMessage::Kind::kReady);
  const BotMessage error = decode_bot_message(R"({"type":"error","reason":"unsupported_rules"})");
  EXPECT_EQ(error.kind, BotMessage::Kind::kError);
  EXPECT_EQ(error.reason, "unsupported_rules");
  EXPECT_EQ(decode_bot_message(R"({"type":"something_new","x":1})").kind, BotMessage::Kind::kOther);
  EXPECT_EQ(decode_bot_message("not json").kind, BotMessage::Kind::kInvalid);
  EXPECT_EQ(decode_bot_message(R"({"kind":"ready"})").kind, BotMessage::Kind::kInvalid);
}

TEST(TbpMessages, DecodesSuggestionsAndSkipsMalformedMoves) {
  const BotMessage m =
      decode_bot_message(R"({"type":"suggestion","moves":[)"
                         R"({"location":{"type":"I","orientation":"east","x":0,"y":2},"spin":"none"},)"
                         R"({"location":{"type":"Q","orientation":"east","x":0,"y":2},"spin":"none"},)"
                         R"({"location":{"type":"T","orientation":"up","x":0,"y":2},"spin":"none"},)"
                         R"({"location":{"type":"T","orientation":"south","x":4,"y":1},"spin":"full","extra":true}]})");
  ASSERT_EQ(m.kind, BotMessage::Kind::kSuggestion);
  ASSERT_EQ(m.moves.size(), 2u);
  EXPECT_EQ(m.skipped_moves, 2);
  EXPECT_EQ(m.moves[0], (Move{Location{Piece::kI, Rotation::kEast, 0, 2}, engine::SpinKind::kNone}));
  EXPECT_EQ(m.moves[1], (Move{Location{Piece::kT, Rotation::kSouth, 4, 1}, engine::SpinKind::kFull}));
}

}  // namespace
}  // namespace sr::botcli::tbp
