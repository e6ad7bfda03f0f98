// Who holds each name on this server (PROTOCOL.md "Player keys"): a name is bound to the first player key that says
// Hello with it, and from then on only that key may use it, from any address. Kept in memory for the Hello path and
// in `names.sqlite` in the server's data directory (WAL, synchronous = NORMAL: a binding costs no disk flush on the
// game loop; a power cut may forget the last bindings, never corrupt the file). Used from the server's main loop only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>

#include "common/protocol/records.h"
#include "common/result.h"
#include "replays/store/sqlite_db.h"

namespace sr::server {

class NameBook {
 public:
  explicit NameBook(std::size_t max_names = 1'000'000) : max_names_(max_names) {}

  // Loads the bindings from `file` (made if missing). Without open() the book lives in memory only (tests, a server
  // without a data directory). Ok, or a sentence naming the file and the problem.
  [[nodiscard]] sr::Status<std::string> open(const std::filesystem::path& file);

  enum class Check : std::uint8_t {
    kFree,   // nobody holds the name: binding it to this key is allowed (unless the book is full)
    kOwn,    // this key holds it
    kOther,  // another key holds it
    kFull,   // nobody holds it, but the book holds max_names names already
  };
  // Names compare ignoring ASCII case, as the lobby's.
  [[nodiscard]] Check check(const std::string& name, const protocol::PublicKeyBytes& key) const;
  [[nodiscard]] bool held(const std::string& name) const;
  // Binds a free name to `key` (a no-op for its own key). Precondition: check() said kFree or kOwn. The binding
  // holds in memory even if writing it fails (the error is returned to be logged: the server goes on).
  [[nodiscard]] sr::Status<std::string> bind(const std::string& name, const protocol::PublicKeyBytes& key,
                                             std::int64_t unix_ms);
  [[nodiscard]] std::size_t size() const { return owners_.size(); }

 private:
  std::size_t max_names_;
  std::unordered_map<std::string, protocol::PublicKeyBytes> owners_;  // by lower-case name
  std::optional<replay::sqlite::Db> db_;
  std::filesystem::path file_;
};

}  // namespace sr::server
