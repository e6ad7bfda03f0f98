// Pins the engine's behaviour as it is: varied games (every mode preset, every rotation system, handling, lock-down,
// generator and scoring variants, puzzles, the engine benchmark's sprint games, played logs and random button taps,
// scripted spins, a back-to-back and a perfect clear, top-outs, extra updates and copies mid-game) are fed through
// Game::update, and everything observable after every change is folded into one 64-bit digest per game: the update's
// error and every field of every event, state_hash(), ghost_y(), active() and preview(). The expected digests were
// computed by the engine of rules version 1 before its speed work (issue 31), so any change in what the engine does,
// however small, fails here with the name of the game that changed.
//
// # When a digest fails
// The engine's behaviour changed. That is a rules change (docs/HOWTO.md, "The three versions"): bump kRulesVersion
// and only then write the new digests printed below. A change to the log generators (tests/engine/test_player.h,
// tests/support/sprint_log.h, or random_taps() and the scripts here) also changes the digests; then say so in the
// commit that rewrites them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/puzzles.h"
#include "common/engine/random.h"
#include "tests/engine/test_player.h"
#include "tests/engine/test_support.h"
#include "tests/support/sprint_log.h"

namespace sr::engine {
namespace {

using test::Change;

class Digest {
 public:
  void add(std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) {
      hash_ ^= static_cast<std::uint8_t>(v >> (8 * i));
      hash_ *= 0x100000001B3ull;
    }
  }
  void i64(std::int64_t v) { add(static_cast<std::uint64_t>(v), 8); }
  [[nodiscard]] std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xCBF29CE484222325ull;
};

// What a corpus showed, so that it keeps covering what it claims to.
struct Seen {
  std::int64_t changes = 0, locks = 0, holds = 0, clears = 0, full_spins = 0, minis = 0, perfect_clears = 0, b2bs = 0;
  std::int64_t level_ups = 0, block_outs = 0, lock_outs = 0, finishes = 0;
};

void add_update(Digest& d, Seen& seen, const UpdateResult& r) {
  d.i64(static_cast<std::int64_t>(r.error));
  d.i64(static_cast<std::int64_t>(r.events.size()));
  for (const Event& e : r.events) {
    for (std::int64_t v :
         {e.time_us, std::int64_t{static_cast<std::uint8_t>(e.kind)}, std::int64_t{static_cast<std::uint8_t>(e.piece)},
          std::int64_t{static_cast<std::uint8_t>(e.rotation)}, std::int64_t{e.x}, std::int64_t{e.y},
          std::int64_t{e.lines}, std::int64_t{e.rows}, std::int64_t{static_cast<std::uint8_t>(e.spin)},
          std::int64_t{e.b2b}, std::int64_t{e.perfect_clear}, std::int64_t{static_cast<std::uint8_t>(e.top_out)},
          std::int64_t{e.combo}, std::int64_t{e.level}, e.rows_mask, e.points}) {
      d.i64(v);
    }
    seen.locks += e.kind == EventKind::kLock;
    seen.holds += e.kind == EventKind::kHold;
    seen.clears += e.kind == EventKind::kClear && e.lines > 0;
    seen.full_spins += e.kind == EventKind::kClear && e.spin == SpinKind::kFull;
    seen.minis += e.kind == EventKind::kClear && e.spin == SpinKind::kMini;
    seen.perfect_clears += e.kind == EventKind::kClear && e.perfect_clear;
    seen.b2bs += e.kind == EventKind::kClear && e.b2b;
    seen.level_ups += e.kind == EventKind::kLevelUp;
    seen.block_outs += e.kind == EventKind::kGameOver && e.top_out == TopOut::kBlockOut;
    seen.lock_outs += e.kind == EventKind::kGameOver && e.top_out == TopOut::kLockOut;
    seen.finishes += e.kind == EventKind::kFinished;
  }
}

void add_game(Digest& d, const Game& g) {
  d.add(g.state_hash(), 8);
  d.i64(g.ghost_y());
  const std::optional<ActivePiece> a = g.active();
  d.i64(a ? (a->x + 64) | (a->y + 64) << 8 | static_cast<int>(a->rotation) << 16 | static_cast<int>(a->piece) << 20
          : -1);
  for (Piece p : g.preview()) d.i64(static_cast<std::uint8_t>(p));
}

enum class Feed {
  kOnePerChange,   // update(t, buttons) per change, then one update at the end
  kExtraAndCopies  // also update(t) at random times in between, and go on with a copy of the game now and then
};

// Random presses and releases of all eight buttons, 0..150 ms apart; hard drops come up often so pieces lock, and
// long runs top out.
std::vector<Change> random_taps(std::uint64_t seed, int changes) {
  constexpr Buttons kWeighted[] = {button::kMoveLeft,  button::kMoveRight, button::kMoveRight, button::kSoftDrop,
                                   button::kHardDrop,  button::kHardDrop,  button::kRotateCw,  button::kRotateCcw,
                                   button::kRotate180, button::kHold};
  constexpr std::uint32_t kKinds = sizeof(kWeighted) / sizeof(kWeighted[0]);
  Random rng(seed);
  std::vector<Change> log;
  TimeUs t = 0;
  Buttons held = 0;
  for (int i = 0; i < changes; ++i) {
    t += rng.below(150'001);
    Buttons flip = kWeighted[rng.below(kKinds)];
    if (rng.below(4) == 0) flip = static_cast<Buttons>(flip ^ kWeighted[rng.below(kKinds)]);
    if (flip == 0) flip = button::kHardDrop;
    held = static_cast<Buttons>(held ^ flip);
    log.push_back({t, held});
  }
  return log;
}

std::uint64_t play(const GameConfig& config, std::uint64_t seed, const std::vector<Change>& log, Feed feed,
                   Seen& seen) {
  Digest d;
  Game g(config, seed);
  Random extra(seed ^ 0xC0FFEE);
  TimeUs prev = 0;
  for (const Change& c : log) {
    if (feed == Feed::kExtraAndCopies) {
      if (extra.below(3) == 0) {
        const TimeUs t = prev + extra.below(static_cast<std::uint32_t>(c.t - prev + 1));
        add_update(d, seen, g.update(t));
        add_game(d, g);
      }
      if (extra.below(16) == 0) {
        const Game copy = g;
        g = copy;
      }
    }
    add_update(d, seen, g.update(c.t, c.buttons));
    add_game(d, g);
    ++seen.changes;
    prev = c.t;
  }
  add_update(d, seen, g.update(prev + 30'000'000));
  add_game(d, g);
  return d.value();
}

struct PinnedGame {
  std::string name;
  GameConfig config;
  std::uint64_t seed;
  std::vector<Change> log;
  Feed feed = Feed::kOnePerChange;
};

GameConfig endless_with(auto&& edit) {
  GameConfig c = make_endless();
  edit(c);
  return c;
}

std::vector<PinnedGame> corpus() {
  std::vector<PinnedGame> games;
  auto played = [&](const std::string& name, const GameConfig& config, std::uint64_t seed, int pieces = 120) {
    games.push_back({name + "/played" + std::to_string(seed), config, seed, test::Player(config, seed).play(pieces)});
  };
  auto tapped = [&](const std::string& name, const GameConfig& config, std::uint64_t seed, int changes = 700) {
    games.push_back({name + "/taps" + std::to_string(seed), config, seed, random_taps(seed * 104'729, changes)});
  };

  // Every mode preset.
  const std::vector<std::pair<std::string, GameConfig>> modes = {
      {"sprint", make_sprint(40)},
      {"sprint_arr0",
       [] {
         GameConfig c = make_sprint(40);
         c.handling.arr_us = 0;
         return c;
       }()},
      {"ultra", make_ultra(60)},
      {"marathon", make_marathon()},
      {"marathon_variable", make_marathon(GoalSystem::kVariable)},
      {"master", make_master(100)},
      {"endless", make_endless()},
      {"contest", make_contest()},
  };
  for (const auto& [name, config] : modes) {
    played(name, config, 1, 150);
    played(name, config, 2, 150);
    tapped(name, config, 3);
  }

  // The benchmark's sprint logs (whole 40-line games).
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    std::vector<Change> log;
    for (const InputChange& c : sr::test::sprint_log(seed)) log.push_back({c.time_us, c.buttons});
    games.push_back({"bench_sprint" + std::to_string(seed), sr::test::sprint_log_config(), seed, log});
  }

  // Every rotation system, with and without 180-degree turns.
  for (RotationSystem rs :
       {RotationSystem::kSrs, RotationSystem::kSrsNo180, RotationSystem::kClassic, RotationSystem::kOcular}) {
    for (bool allow_180 : {true, false}) {
      const GameConfig c = endless_with([&](GameConfig& g) { g.rotation = rs, g.allow_180 = allow_180; });
      const std::string name = "rotation" + std::to_string(static_cast<int>(rs)) + (allow_180 ? "_180" : "_no180");
      played(name, c, 4);
      tapped(name, c, 5, 900);
    }
  }

  // Handling, lock down, gravity, generators and scoring.
  const std::vector<std::pair<std::string, GameConfig>> variants = {
      {"arr0", endless_with([](GameConfig& c) { c.handling.arr_us = 0; })},
      {"arr0_das0_dcd",
       endless_with([](GameConfig& c) { c.handling.arr_us = 0, c.handling.das_us = 0, c.handling.dcd_us = 20'000; })},
      {"das0_arr50", endless_with([](GameConfig& c) { c.handling.das_us = 0, c.handling.arr_us = 50'000; })},
      {"sdf0", endless_with([](GameConfig& c) { c.handling.sdf = 0; })},
      {"sdf0_20g_arr0",
       endless_with([](GameConfig& c) { c.handling.sdf = 0, c.gravity = Gravity::k20G, c.handling.arr_us = 0; })},
      {"are_line_clear_delay", endless_with([](GameConfig& c) {
         c.handling.are_us = 100'000, c.handling.line_clear_delay_us = 300'000, c.handling.dcd_us = 50'000;
       })},
      {"no_irs_ihs",
       endless_with([](GameConfig& c) { c.handling.are_us = 50'000, c.handling.irs = false, c.handling.ihs = false; })},
      {"infinite", endless_with([](GameConfig& c) { c.lock_down = LockDown::kInfinite; })},
      {"classic_lock", endless_with([](GameConfig& c) { c.lock_down = LockDown::kClassic, c.start_level = 8; })},
      {"timer_lock",
       endless_with([](GameConfig& c) { c.lock_down = LockDown::kTimer, c.ground_time_cap_us = 700'000; })},
      {"extended_3_resets", endless_with([](GameConfig& c) { c.max_lock_resets = 3, c.handling.sdf = 0; })},
      {"level20_zero_resets", endless_with([](GameConfig& c) { c.start_level = 20, c.max_lock_resets = 0; })},
      {"recency_tetrs_allspin", endless_with([](GameConfig& c) {
         c.generator = GeneratorKind::kRecency, c.scoring = Scoring::kTetrs, c.all_spin = true;
       })},
      {"uniform_contest_allspin", endless_with([](GameConfig& c) {
         c.generator = GeneratorKind::kUniform, c.scoring = Scoring::kContest, c.all_spin = true;
       })},
      {"fixed_tsz", endless_with([](GameConfig& c) {
         c.generator = GeneratorKind::kFixed, c.fixed_sequence = {Piece::kT, Piece::kS, Piece::kZ, Piece::kT};
       })},
      {"no_hold_no_preview", endless_with([](GameConfig& c) { c.hold_enabled = false, c.preview = 0; })},
      {"tall_board", endless_with([](GameConfig& c) {
         for (int y = 0; y < 16; ++y) {
           BoardRow row(kMatrixWidth, Piece::kGarbage);
           row[static_cast<std::size_t>((y * 3) % kMatrixWidth)] = Piece::kNone;
           c.initial_board.push_back(row);
         }
       })},
  };
  for (const auto& [name, config] : variants) {
    played(name, config, 6);
    tapped(name, config, 7);
  }

  // Spins, a back-to-back tetris and a perfect clear, scripted on prepared boards, under SRS and Ocular.
  using button::kHardDrop, button::kMoveLeft, button::kMoveRight, button::kRotateCcw, button::kRotateCw,
      button::kSoftDrop;
  const auto tsd_slot = test::board({"XXXX..XXXX", "XXX...XXXX", "XXXX.XXXXX"});
  const auto tst_slot = test::board({"...X......", "..........", "XXX.XXXXXX", "XX..XXXXXX", "XXX.XXXXXX"});
  const std::vector<BoardRow> tetris_well(8, test::board({"XXXXXXXXX."})[0]);
  struct Script {
    std::string name;
    std::string pieces;
    std::vector<BoardRow> rows;
    std::vector<Buttons> taps;
  };
  const std::vector<Script> scripts = {
      {"tspin_double", "T", tsd_slot, {kMoveRight, kRotateCcw, kSoftDrop, kRotateCcw, kHardDrop}},
      {"tspin_mini", "T", tsd_slot, {kRotateCw, kSoftDrop, kRotateCcw, kHardDrop}},
      {"tspin_triple", "T", tst_slot, {kMoveLeft, kMoveLeft, kMoveLeft, kSoftDrop, kMoveRight, kRotateCcw, kHardDrop}},
      {"b2b_tetris_perfect_clear",
       "IITSZ",
       tetris_well,
       {kRotateCw, kMoveRight, kMoveRight, kMoveRight, kMoveRight, kHardDrop, kRotateCw, kMoveRight, kMoveRight,
        kMoveRight, kMoveRight, kHardDrop}},
  };
  for (const Script& sc : scripts) {
    for (RotationSystem rs : {RotationSystem::kSrs, RotationSystem::kOcular}) {
      GameConfig c = test::rules_config(sc.pieces, sc.rows);
      c.handling.sdf = 0;
      c.rotation = rs;
      c.all_spin = rs == RotationSystem::kOcular;
      std::vector<Change> log;
      TimeUs t = 100'000;
      for (Buttons b : sc.taps) {
        log.push_back({t, b});
        log.push_back({t + 25'000, 0});
        t += 60'000;
      }
      for (const Change& ch : random_taps(11, 300)) log.push_back({t + ch.t, ch.buttons});
      games.push_back({sc.name + "/rotation" + std::to_string(static_cast<int>(rs)), c, 9, log});
    }
  }

  // Puzzle boards (Ocular, fixed sequences, initial garbage).
  const auto stages = puzzle_stages();
  for (std::size_t i = 0; i < stages.size(); i += 5) {
    played("puzzle" + std::to_string(i), make_puzzle(stages[i]), 8);
  }

  // The same logs fed with extra updates and copies of the game in between.
  const std::size_t plain = games.size();
  for (std::size_t i = 0; i < plain; i += 7) {
    PinnedGame g = games[i];
    g.name += "/extra_and_copies";
    g.feed = Feed::kExtraAndCopies;
    games.push_back(g);
  }
  return games;
}

// Today's digests, in corpus() order.
// clang-format off
const std::vector<std::uint64_t> kExpected = {
    0x96A10682CB300083ull,  // sprint/played1
    0x2A59E8D7076AD102ull,  // sprint/played2
    0x1F327B437BAF49A6ull,  // sprint/taps3
    0xB9E45392DEDBF016ull,  // sprint_arr0/played1
    0x641DD60440705E90ull,  // sprint_arr0/played2
    0x77A076EA5F3CFD2Cull,  // sprint_arr0/taps3
    0xEAA54AD1A78E6803ull,  // ultra/played1
    0xEDC04F486CBD700Cull,  // ultra/played2
    0x3F53B39E3919F3A0ull,  // ultra/taps3
    0x96A10682CB300083ull,  // marathon/played1
    0x2A59E8D7076AD102ull,  // marathon/played2
    0x1F327B437BAF49A6ull,  // marathon/taps3
    0x99B29A3926C662DAull,  // marathon_variable/played1
    0xA78B4DF08E7236C9ull,  // marathon_variable/played2
    0x1F327B437BAF49A6ull,  // marathon_variable/taps3
    0x97A0377A30DFAF20ull,  // master/played1
    0xF724EF7CBEF361D6ull,  // master/played2
    0xD2B0847A82A5B2A2ull,  // master/taps3
    0x96A10682CB300083ull,  // endless/played1
    0x2A59E8D7076AD102ull,  // endless/played2
    0x1F327B437BAF49A6ull,  // endless/taps3
    0x5BD168719A316140ull,  // contest/played1
    0xD8EE04B9CFD207DDull,  // contest/played2
    0xB16EAFD5EEE8B84Bull,  // contest/taps3
    0xBA8517FD03BD753Cull,  // bench_sprint1
    0x4F7E6707696A8B40ull,  // bench_sprint2
    0x4098BF2606F9C057ull,  // bench_sprint3
    0xD2EAA2566793505Cull,  // rotation0_180/played4
    0x599A2948A2646C14ull,  // rotation0_180/taps5
    0xB0014666A862BC53ull,  // rotation0_no180/played4
    0xE8D9C53F416FC5ADull,  // rotation0_no180/taps5
    0xD2EAA2566793505Cull,  // rotation1_180/played4
    0x465B1B720A625A23ull,  // rotation1_180/taps5
    0xB0014666A862BC53ull,  // rotation1_no180/played4
    0xE8D9C53F416FC5ADull,  // rotation1_no180/taps5
    0xD02ECFA88586453Bull,  // rotation2_180/played4
    0x46C267608C373E49ull,  // rotation2_180/taps5
    0x2CA0F021E6891E42ull,  // rotation2_no180/played4
    0x6BD00E4131A3D651ull,  // rotation2_no180/taps5
    0x9A39BD21D1DC84A4ull,  // rotation3_180/played4
    0xDC109E624AF62796ull,  // rotation3_180/taps5
    0x5809055451977951ull,  // rotation3_no180/played4
    0x8BB875EEC795CBB5ull,  // rotation3_no180/taps5
    0x1582ACD63F359C90ull,  // arr0/played6
    0x63385FFE17B92563ull,  // arr0/taps7
    0x63A9D9325BCA41F6ull,  // arr0_das0_dcd/played6
    0xE138CDFD0640E56Full,  // arr0_das0_dcd/taps7
    0x622EE4E197822DF1ull,  // das0_arr50/played6
    0xE61104F04CE6D6B8ull,  // das0_arr50/taps7
    0xF4964BA3A4B3B7EDull,  // sdf0/played6
    0xAC42B4ECE3ACFE97ull,  // sdf0/taps7
    0xF6EC41C1D919218Dull,  // sdf0_20g_arr0/played6
    0xF850C5C6A814DF64ull,  // sdf0_20g_arr0/taps7
    0xB128B544FB1AB7A9ull,  // are_line_clear_delay/played6
    0x9C7649214E2718E5ull,  // are_line_clear_delay/taps7
    0xDE3EF91CA27560B4ull,  // no_irs_ihs/played6
    0x8B1FE40C58F574A7ull,  // no_irs_ihs/taps7
    0x655EFB96DF588A57ull,  // infinite/played6
    0xD5A3ADFAB80AA7E9ull,  // infinite/taps7
    0xDFA15A24D0EFEDF8ull,  // classic_lock/played6
    0x1B5D1A46938A1AFFull,  // classic_lock/taps7
    0x655EFB96DF588A57ull,  // timer_lock/played6
    0x3D42D8792CC71B44ull,  // timer_lock/taps7
    0xF4964BA3A4B3B7EDull,  // extended_3_resets/played6
    0xCC7AEA5F826E602Aull,  // extended_3_resets/taps7
    0x7F8923E0A577E8B6ull,  // level20_zero_resets/played6
    0xBD5D5770CC7090F8ull,  // level20_zero_resets/taps7
    0x2D230A431EC9A2D1ull,  // recency_tetrs_allspin/played6
    0x80B1C4820A66B843ull,  // recency_tetrs_allspin/taps7
    0x10821E6476F42786ull,  // uniform_contest_allspin/played6
    0xE1C0DC7864D1327Full,  // uniform_contest_allspin/taps7
    0x7D21DF0A414359CDull,  // fixed_tsz/played6
    0x1C712A238B83A20Eull,  // fixed_tsz/taps7
    0xFD034B134910D8CDull,  // no_hold_no_preview/played6
    0x799A981E39E5F83Aull,  // no_hold_no_preview/taps7
    0xC25C29110FE960A8ull,  // tall_board/played6
    0xEC3664E49CA9FCCBull,  // tall_board/taps7
    0xF1E68E79242396C9ull,  // tspin_double/rotation0
    0x2091A7D7862EA4C0ull,  // tspin_double/rotation3
    0x2879BDB8FE9DD585ull,  // tspin_mini/rotation0
    0xC02DAA8D27DCC550ull,  // tspin_mini/rotation3
    0xDD9A21FF206BC385ull,  // tspin_triple/rotation0
    0x0EADF2958ECAC7F7ull,  // tspin_triple/rotation3
    0x1DCA45EB9D95C50Bull,  // b2b_tetris_perfect_clear/rotation0
    0x3F27FA3638B85150ull,  // b2b_tetris_perfect_clear/rotation3
    0x09EFB00A2EE1DAAAull,  // puzzle0/played8
    0xBE1F6264B240C9F6ull,  // puzzle5/played8
    0x322C0CA71DE87ECDull,  // puzzle10/played8
    0xD7C331652986D251ull,  // puzzle15/played8
    0xA63FDFD7F3F0886Cull,  // puzzle20/played8
    0x2B371CE75AD0B4E9ull,  // sprint/played1/extra_and_copies
    0x34B03B56D038C812ull,  // ultra/played2/extra_and_copies
    0x51F794A38CA74D4Dull,  // marathon_variable/taps3/extra_and_copies
    0xE041BC44DAB0CCB8ull,  // contest/played1/extra_and_copies
    0x5022B422469F6008ull,  // rotation0_180/taps5/extra_and_copies
    0xC048F85426902C4Dull,  // rotation2_180/played4/extra_and_copies
    0x96FD77DB367E299Cull,  // rotation3_no180/taps5/extra_and_copies
    0x7ED1AA891B10288Cull,  // sdf0/played6/extra_and_copies
    0xBDA1689D5F4A794Eull,  // no_irs_ihs/taps7/extra_and_copies
    0x7ED1AA891B10288Cull,  // extended_3_resets/played6/extra_and_copies
    0x0C02985312C2932Cull,  // uniform_contest_allspin/taps7/extra_and_copies
    0xF5C2C8ADA927EAF8ull,  // tspin_double/rotation0/extra_and_copies
    0xEFF405DDB554FA93ull,  // b2b_tetris_perfect_clear/rotation3/extra_and_copies
};
// clang-format on

TEST(BehaviourPin, EveryGameOfTheCorpusIsUnchanged) {
  const std::vector<PinnedGame> games = corpus();
  Seen seen;
  std::string table;
  for (std::size_t i = 0; i < games.size(); ++i) {
    const PinnedGame& g = games[i];
    const std::uint64_t digest = play(g.config, g.seed, g.log, g.feed, seen);
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%016llXull", static_cast<unsigned long long>(digest));
    table += "    " + std::string(hex) + ",  // " + g.name + "\n";
    if (i < kExpected.size()) {
      EXPECT_EQ(digest, kExpected[i]) << g.name;
    }
  }
  EXPECT_EQ(kExpected.size(), games.size());
  if (HasFailure()) std::printf("The digests of this build, in corpus() order:\n%s", table.c_str());
  // The corpus covers what the header says it does.
  EXPECT_GT(seen.changes, 50'000);
  const std::pair<const char*, std::int64_t> kinds[] = {
      {"locks", seen.locks},         {"holds", seen.holds},         {"line clears", seen.clears},
      {"T-spins", seen.full_spins},  {"spin minis", seen.minis},    {"perfect clears", seen.perfect_clears},
      {"back-to-backs", seen.b2bs},  {"level ups", seen.level_ups}, {"block outs", seen.block_outs},
      {"lock outs", seen.lock_outs}, {"finishes", seen.finishes}};
  for (const auto& [what, count] : kinds) EXPECT_GT(count, 0) << what;
}

}  // namespace
}  // namespace sr::engine
