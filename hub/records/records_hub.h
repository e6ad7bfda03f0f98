// The records hub (common/protocol/RECORDS.md sections 3-5): `POST /api/records/submit` without its HTTP, and what
// the read API and the pages read, over the record book (record_book.h) and the replay store of DATA_DIR.
//
// # A submission, in the contract's order
// 1. net::parse_submission: the body's form and the server's signature (400, 403, 413);
// 2. the flood limits: a token bucket per source address group (an IPv4 address, an IPv6 /64) and one per server
//    key (429 with Retry-After);
// 3. the replay decodes (400) with rules this build plays (422);
// 4. the same replay (the same bytes) was not submitted before (409 with its game);
// 5. replay::verify agrees with every recorded result and checkpoint (422 with the first disagreement), on one of
//    the VerifyGate's slots (503 with Retry-After when none is free), held until the answer;
// 6. each run named: the racer exists and has a key, the run signature is that key's over the run's digest, the
//    result counts on its board, the run is not in the book already; a run that fails is refused alone;
// 7. the replay goes to the replay store, the submission and its runs to the book (503 when either cannot be
//    written), and the answer says where each run went (200), or that none was accepted (422).
// Every answer is counted by result, every run by outcome (SubmitCounts, the hub's /metrics).
//
// # Threads
// Any number of request threads may call submit() and the reads at once: the limiters, the book and the replay store
// each have a mutex, held only for their own calls; re-simulation holds none of them. At most verify_slots
// submissions are past step 4 at once, so the others' threads (and the reads) are never all taken by submissions.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hub/address_limiter.h"
#include "hub/records/record_book.h"
#include "hub/records/trust.h"
#include "hub/records/verify_gate.h"
#include "replays/store/replay_store.h"

namespace sr::hub::records {

struct RecordsOptions {
  std::filesystem::path data_dir;            // records.sqlite and replays/ are made here ...
  std::string database;                      // ... unless this is a postgresql:// locator: both are kept there
  TrustList trust;                           // the servers the operator trusts
  std::int64_t submissions_per_second = 10;  // per source address group and per server key ...
  std::int64_t submission_burst = 20;        // ... after a burst of this many (RECORDS.md section 3, "Limits")
  std::size_t rate_table_size = 65'536;      // address groups and server keys each limiter remembers
  std::size_t verify_slots = 8;              // re-simulations at once: half the request threads (>= 1)
};

// What a submission's answer was. Values name metrics (submit_result_name): never rename one.
enum class SubmitResult : std::uint8_t {
  kAccepted,      // 200
  kDuplicate,     // 409: the replay is held already
  kMalformed,     // 400: not a submission, or a replay that does not decode
  kBadSignature,  // 403: not server_key's signature of the body
  kTooLarge,      // 413
  kUnknownRules,  // 422: a rules version this build does not play
  kMismatch,      // 422: the replay does not verify
  kNoRuns,        // 422: no run accepted
  kCollision,     // 422: another replay holds the replay store's id of this one (replay_store.h, content_id)
  kFlood,         // 429
  kBusy,          // 503: every re-simulation slot is taken
  kUnavailable,   // 503: the store or the book cannot be written, or this hub keeps no records
};
inline constexpr int kSubmitResultCount = 12;
// "accepted", "duplicate", "malformed", "bad_signature", "too_large", "unknown_rules", "mismatch", "no_runs",
// "collision", "flood", "busy", "unavailable".
[[nodiscard]] const char* submit_result_name(SubmitResult result);

// What happened to one run a submission named. Values name metrics: never rename one.
enum class RunOutcome : std::uint8_t {
  kAccepted,
  kNoSuchRacer,   // the replay has no racer of that index
  kNoKey,         // the racer has no player key in the replay
  kBadSignature,  // the run signature is not the racer's key's over this run
  kNotFinished,   // the result does not count on its board (board.h, counts_on_board)
  kDuplicateRun,  // the book holds this run (the same key and digest) already
  kNoBoard,       // the game's config has no records board (no limit, or a limit that is its goal's measure)
};
inline constexpr int kRunOutcomeCount = 7;
// "accepted", "no_such_racer", "no_key", "bad_signature", "not_finished", "duplicate_run", "no_board".
[[nodiscard]] const char* run_outcome_name(RunOutcome outcome);

struct SubmitCounts {
  std::array<std::uint64_t, kSubmitResultCount> submissions{};  // by SubmitResult
  std::array<std::uint64_t, kRunOutcomeCount> runs{};           // by RunOutcome
};

struct SubmitAnswer {
  SubmitResult result = SubmitResult::kMalformed;
  int status = 400;
  std::string body;                // JSON: the answer, or {"error":"<one sentence>"[,"game":...]}
  std::int64_t retry_after_s = 0;  // > 0 for 429 and 503: the Retry-After header's seconds
};

// The JSON body of a refusal: {"error":"<sentence>"}.
[[nodiscard]] std::string error_json(const std::string& sentence);

class RecordsHub {
 public:
  // Milliseconds: monotonic ones for the flood limits, unix ones for the times stored.
  using Clock = std::function<std::int64_t()>;

  // Opens DATA_DIR/records.sqlite and the replay store DATA_DIR/replays (made when missing; reconciled with its
  // files). # Errors: a sentence naming what could not be opened.
  [[nodiscard]] static sr::Result<std::unique_ptr<RecordsHub>, std::string> open(RecordsOptions options,
                                                                                 Clock steady_ms, Clock unix_ms);
  ~RecordsHub();
  RecordsHub(const RecordsHub&) = delete;
  RecordsHub& operator=(const RecordsHub&) = delete;

  // Answers one submission from `source` (the connection's address): body and X-Stackrace-Signature.
  [[nodiscard]] SubmitAnswer submit(const std::string& source, std::string_view body, std::string_view signature_hex);
  // Counts a refusal made before submit() could be called (the HTTP server's own 413 for a body over the limit).
  void count(SubmitResult result);
  [[nodiscard]] SubmitCounts counts() const;

  [[nodiscard]] const TrustList& trust() const { return options_.trust; }
  [[nodiscard]] VerifyGate& verify_gate() { return gate_; }
  [[nodiscard]] const std::filesystem::path& data_dir() const { return options_.data_dir; }

  // Calls f(book) under the book's mutex and returns what it returns.
  template <class F>
  auto with_book(F&& f) {
    std::lock_guard lock(book_mutex_);
    return f(book_);
  }
  // The stored bytes of game `id` (16 hex digits). # Errors: "no game ID on this hub".
  [[nodiscard]] sr::Result<std::vector<std::uint8_t>, std::string> replay_bytes(const std::string& id);
  // The replay store's row of game `id`, if it has one.
  [[nodiscard]] sr::Result<std::optional<replay::StoredGame>, std::string> game(const std::string& id);

 private:
  RecordsHub(RecordsOptions options, Clock steady_ms, Clock unix_ms, RecordBook book, replay::ReplayStore store);
  SubmitAnswer answer(SubmitResult result, int status, std::string body, std::int64_t retry_after_s = 0);
  void count_run(RunOutcome outcome);

  RecordsOptions options_;
  Clock steady_ms_;
  Clock unix_ms_;
  VerifyGate gate_;

  std::mutex limit_mutex_;  // guards by_address_ and by_key_
  AddressRateLimiter by_address_;
  AddressRateLimiter by_key_;

  std::mutex book_mutex_;
  RecordBook book_;
  std::mutex store_mutex_;
  replay::ReplayStore store_;

  mutable std::mutex count_mutex_;
  SubmitCounts counts_;
};

}  // namespace sr::hub::records
