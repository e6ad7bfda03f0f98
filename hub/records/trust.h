// Which game servers the hub's operator trusts (common/protocol/RECORDS.md section 4, "Two lists"): server keys given
// with `stackrace-hub --trust KEYHEX` and `--trust-file FILE`. A run submitted by a trusted server whose referee
// vouched for the whole run against the real clock goes on a board's trusted list; every other verified run on its
// other list.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "net/identity/player_key.h"
#include "net/identity/submission.h"

namespace sr::hub::records {

inline constexpr std::size_t kMaxTrustNameBytes = 64;

class TrustList {
 public:
  // Adds a key: 64 hex digits (either case). `name` is the operator's name for the server ("" for none; printable
  // text of at most kMaxTrustNameBytes, shown on record pages). A key given twice keeps the first name given.
  // # Errors: "\"KEY\" is not a server key (64 hexadecimal digits)", or a sentence about the name.
  [[nodiscard]] sr::Status<std::string> add(std::string_view key_hex, std::string_view name = {});
  // Adds every key of a trust file: one key per line, optionally followed by spaces and a name; '#' starts a comment
  // to the end of its line; blank lines are skipped. # Errors: "cannot read the trust file F: ...", or
  // "F line 3: ..." with add()'s sentence. Nothing of the file is added when it has an error.
  [[nodiscard]] sr::Status<std::string> add_file(const std::filesystem::path& file);

  [[nodiscard]] bool trusts(const net::PublicKey& key) const { return keys_.count(net::to_hex(key)) != 0; }
  [[nodiscard]] bool trusts_hex(const std::string& key_hex) const { return keys_.count(key_hex) != 0; }
  // The operator's name for a trusted server ("" when none was given or the key is not trusted).
  [[nodiscard]] std::string name_of(const std::string& key_hex) const;
  [[nodiscard]] std::size_t size() const { return keys_.size(); }
  // Lower-case key hex -> name, in key order.
  [[nodiscard]] const std::map<std::string, std::string>& keys() const { return keys_; }

 private:
  std::map<std::string, std::string> keys_;
};

// The trust list of the command line: every --trust, then every --trust-file, in order. # Errors: "--trust: ..."
// or add_file()'s sentence.
[[nodiscard]] sr::Result<TrustList, std::string> load_trust(const std::vector<std::string>& keys,
                                                            const std::vector<std::string>& files);

}  // namespace sr::hub::records
