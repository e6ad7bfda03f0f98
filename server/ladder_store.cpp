#include "server/ladder_store.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <optional>

namespace sr::server {
namespace {

using replay::sqlite::Statement;

constexpr const char* kSchema = R"sql(
PRAGMA journal_mode = WAL;
PRAGMA synchronous = FULL;
CREATE TABLE IF NOT EXISTS entrants (
  name TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,
  salt TEXT NOT NULL,         -- 16 random bytes, hex ('' for an entrant claimed by a key)
  secret_hash TEXT NOT NULL,  -- BLAKE2b-256 (libsodium crypto_generichash) of the secret, keyed by the salt, hex ('')
  created_unix_ms INTEGER NOT NULL,
  key TEXT                    -- the holder's player key, 64 hex digits; NULL: held by the secret (before keys)
);
CREATE TABLE IF NOT EXISTS games (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  entrant TEXT NOT NULL COLLATE NOCASE REFERENCES entrants(name),
  ranked INTEGER NOT NULL,
  scored INTEGER NOT NULL DEFAULT 0,
  score INTEGER NOT NULL DEFAULT 0,
  lines INTEGER NOT NULL DEFAULT 0,
  game_id INTEGER NOT NULL DEFAULT 0,  -- the stored replay's id as a number (two's complement above 2^63)
  started_unix_ms INTEGER NOT NULL
);
)sql";

std::string hex(const unsigned char* bytes, std::size_t n) {
  std::string out(n * 2 + 1, '\0');
  sodium_bin2hex(out.data(), out.size(), bytes, n);
  out.pop_back();
  return out;
}

std::array<unsigned char, 16> secret_bytes(const LadderSecret& s) {
  std::array<unsigned char, 16> b{};
  for (int i = 0; i < 8; ++i) {
    b[static_cast<std::size_t>(i)] = static_cast<unsigned char>(s.hi >> (56 - 8 * i));
    b[static_cast<std::size_t>(8 + i)] = static_cast<unsigned char>(s.lo >> (56 - 8 * i));
  }
  return b;
}

std::string secret_hash(const LadderSecret& secret, const std::string& salt_hex) {
  std::array<unsigned char, 16> salt{};
  std::size_t salt_len = 0;
  if (sodium_hex2bin(salt.data(), salt.size(), salt_hex.data(), salt_hex.size(), nullptr, &salt_len, nullptr) != 0 ||
      salt_len != salt.size()) {
    return {};
  }
  const auto in = secret_bytes(secret);
  std::array<unsigned char, 32> out{};
  crypto_generichash(out.data(), out.size(), in.data(), in.size(), salt.data(), salt.size());
  return hex(out.data(), out.size());
}

sr::Status<std::string> run(replay::sqlite::Db& db, std::optional<Statement>& s) {
  if (!s) return db.last_error();
  if (s->step() == Statement::Step::kError) return db.last_error();
  return {};
}

}  // namespace

sr::Status<std::string> LadderStore::open(const std::filesystem::path& file) {
  file_ = file;
  if (sodium_init() < 0) return "the ladder cannot start: libsodium did not initialise";
  if (auto opened = db_.open(file); !opened) return opened.error();
  if (auto made = db_.exec(kSchema); !made) return "cannot set up " + file.string() + ": " + made.error();
  // A ladder made before player keys has no key column: it is added (every entrant then held by its secret).
  auto has_key = db_.prepare("SELECT 1 FROM pragma_table_info('entrants') WHERE name = 'key'");
  if (!has_key) return "cannot read " + file.string() + ": " + db_.last_error();
  const auto step = has_key->step();
  if (step == Statement::Step::kError) return "cannot read " + file.string() + ": " + db_.last_error();
  if (step == Statement::Step::kDone) {
    if (auto added = db_.exec("ALTER TABLE entrants ADD COLUMN key TEXT"); !added) {
      return "cannot add player keys to " + file.string() + ": " + added.error();
    }
  }
  return {};
}

sr::Result<LadderStore::Claim, std::string> LadderStore::claim(const std::string& name,
                                                               const protocol::PublicKeyBytes& key,
                                                               const std::optional<LadderSecret>& legacy_secret,
                                                               std::int64_t unix_ms) {
  const std::string key_hex = protocol::key_hex(key);
  auto find = db_.prepare("SELECT salt, secret_hash, key FROM entrants WHERE name = ?1");
  if (!find) return sr::fail(db_.last_error());
  find->bind(1, name);
  const auto step = find->step();
  if (step == Statement::Step::kError) return sr::fail(db_.last_error());
  if (step == Statement::Step::kRow) {
    const std::string holder = find->text_at(2);
    if (!holder.empty()) return holder == key_hex ? Claim::kHeld : Claim::kOtherKey;
    if (!legacy_secret) return Claim::kNeedsSecret;
    const std::string expected = find->text_at(1);
    const std::string got = secret_hash(*legacy_secret, find->text_at(0));
    const bool same =
        got.size() == expected.size() && !got.empty() && sodium_memcmp(got.data(), expected.data(), got.size()) == 0;
    if (!same) return Claim::kNeedsSecret;
    auto pass = db_.prepare("UPDATE entrants SET key = ?2 WHERE name = ?1");
    if (pass) {
      pass->bind(1, name);
      pass->bind(2, key_hex);
    }
    if (auto done = run(db_, pass); !done) return sr::fail(done.error());
    return Claim::kPassed;
  }
  auto add =
      db_.prepare("INSERT INTO entrants (name, salt, secret_hash, created_unix_ms, key) VALUES (?1, '', '', ?2, ?3)");
  if (add) {
    add->bind(1, name);
    add->bind(2, unix_ms);
    add->bind(3, key_hex);
  }
  if (auto done = run(db_, add); !done) return sr::fail(done.error());
  return Claim::kNew;
}

sr::Result<std::int64_t, std::string> LadderStore::add_game(const std::string& entrant, bool ranked,
                                                            std::int64_t unix_ms) {
  auto add = db_.prepare("INSERT INTO games (entrant, ranked, started_unix_ms) VALUES (?1, ?2, ?3) RETURNING seq");
  if (!add) return sr::fail(db_.last_error());
  add->bind(1, entrant);
  add->bind(2, std::int64_t{ranked ? 1 : 0});
  add->bind(3, unix_ms);
  if (add->step() != Statement::Step::kRow) return sr::fail(db_.last_error());
  const std::int64_t seq = add->int_at(0);
  if (add->step() == Statement::Step::kError) return sr::fail(db_.last_error());
  return seq;
}

sr::Status<std::string> LadderStore::set_result(std::int64_t seq, std::int64_t score, std::int64_t lines) {
  auto set = db_.prepare("UPDATE games SET scored = 1, score = ?2, lines = ?3 WHERE seq = ?1");
  if (set) {
    set->bind(1, seq);
    set->bind(2, score);
    set->bind(3, lines);
  }
  return run(db_, set);
}

sr::Status<std::string> LadderStore::set_replay(std::int64_t seq, std::uint64_t game_id) {
  auto set = db_.prepare("UPDATE games SET game_id = ?2 WHERE seq = ?1");
  if (set) {
    set->bind(1, seq);
    set->bind(2, static_cast<std::int64_t>(game_id));
  }
  return run(db_, set);
}

sr::Result<LadderStore::Contents, std::string> LadderStore::load() {
  Contents out;
  auto names = db_.prepare("SELECT name FROM entrants ORDER BY created_unix_ms, rowid");
  auto games = db_.prepare(
      "SELECT seq, entrant, ranked, scored, score, lines, game_id FROM games WHERE ranked != 0 ORDER BY seq");
  auto practice = db_.prepare("SELECT count(*) FROM games WHERE ranked = 0");
  if (!names || !games || !practice) return sr::fail(db_.last_error());
  if (practice->step() != Statement::Step::kRow) return sr::fail(db_.last_error());
  out.practice_games = static_cast<std::uint64_t>(std::max<std::int64_t>(0, practice->int_at(0)));
  for (;;) {
    const auto step = names->step();
    if (step == Statement::Step::kError) return sr::fail(db_.last_error());
    if (step == Statement::Step::kDone) break;
    out.entrants.push_back(names->text_at(0));
  }
  for (;;) {
    const auto step = games->step();
    if (step == Statement::Step::kError) return sr::fail(db_.last_error());
    if (step == Statement::Step::kDone) break;
    LadderEntry e;
    e.seq = games->int_at(0);
    e.entrant = games->text_at(1);
    e.ranked = games->int_at(2) != 0;
    e.scored = games->int_at(3) != 0;
    e.score = std::max<std::int64_t>(0, games->int_at(4));
    e.lines = std::max<std::int64_t>(0, games->int_at(5));
    e.game_id = static_cast<std::uint64_t>(games->int_at(6));
    out.games.push_back(std::move(e));
  }
  return out;
}

}  // namespace sr::server
