#include "server/name_book.h"

#include <sodium.h>

namespace sr::server {
namespace {

using replay::sqlite::Statement;

constexpr const char* kSchema = R"sql(
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS names (
  name TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,  -- as first written
  key TEXT NOT NULL,                              -- the Ed25519 public key, 64 hex digits
  bound_unix_ms INTEGER NOT NULL
);
)sql";

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::optional<protocol::PublicKeyBytes> key_of(const std::string& text) {
  protocol::PublicKeyBytes key{};
  std::size_t n = 0;
  if (sodium_hex2bin(key.data(), key.size(), text.data(), text.size(), nullptr, &n, nullptr) != 0 || n != key.size() ||
      text.size() != key.size() * 2) {
    return std::nullopt;
  }
  return key;
}

}  // namespace

sr::Status<std::string> NameBook::open(const std::filesystem::path& file) {
  file_ = file;
  replay::sqlite::Db db;
  if (auto opened = db.open(file); !opened) return opened.error();
  if (auto made = db.exec(kSchema); !made) return "cannot set up " + file.string() + ": " + made.error();
  auto all = db.prepare("SELECT name, key FROM names");
  if (!all) return "cannot read " + file.string() + ": " + db.last_error();
  std::size_t bad = 0;
  for (auto step = all->step(); step != Statement::Step::kDone; step = all->step()) {
    if (step == Statement::Step::kError) return "cannot read " + file.string() + ": " + db.last_error();
    if (const auto key = key_of(all->text_at(1))) {
      owners_[lower(all->text_at(0))] = *key;
    } else {
      ++bad;
    }
  }
  if (bad > 0) return file.string() + " holds " + std::to_string(bad) + " names whose key is not 64 hex digits";
  db_.emplace(std::move(db));
  return {};
}

NameBook::Check NameBook::check(const std::string& name, const protocol::PublicKeyBytes& key) const {
  const auto it = owners_.find(lower(name));
  if (it == owners_.end()) return owners_.size() >= max_names_ ? Check::kFull : Check::kFree;
  return it->second == key ? Check::kOwn : Check::kOther;
}

bool NameBook::held(const std::string& name) const { return owners_.contains(lower(name)); }

sr::Status<std::string> NameBook::bind(const std::string& name, const protocol::PublicKeyBytes& key,
                                       std::int64_t unix_ms) {
  if (!owners_.emplace(lower(name), key).second) return {};
  if (!db_) return {};
  auto add = db_->prepare("INSERT OR IGNORE INTO names (name, key, bound_unix_ms) VALUES (?1, ?2, ?3)");
  if (!add) return "cannot write to " + file_.string() + ": " + db_->last_error();
  add->bind(1, name);
  add->bind(2, protocol::key_hex(key));
  add->bind(3, unix_ms);
  if (add->step() == Statement::Step::kError) return "cannot write to " + file_.string() + ": " + db_->last_error();
  return {};
}

}  // namespace sr::server
