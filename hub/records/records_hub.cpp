#include "hub/records/records_hub.h"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>

#include "common/replay/codec.h"
#include "common/replay/verify.h"
#include "hub/records/board.h"
#include "net/identity/key_id.h"
#include "net/identity/run_signature.h"
#include "net/identity/submission.h"
#include "web/wasm/json_writer.h"

namespace sr::hub::records {
namespace {

constexpr std::int64_t kUnavailableRetryS = 5;

std::string blake2b_hex(const std::vector<std::uint8_t>& bytes) {
  if (sodium_init() < 0) std::abort();  // < 0 only when libsodium cannot start at all
  std::array<std::uint8_t, 32> hash{};
  crypto_generichash(hash.data(), hash.size(), bytes.data(), bytes.size(), nullptr, 0);
  return net::to_hex(hash);
}

struct Refusal {
  std::uint32_t racer = 0;
  RunOutcome outcome = RunOutcome::kBadSignature;
  std::string reason;
};

std::string racer_named(std::uint32_t index, const replay::Racer& racer) {
  return "racer " + std::to_string(index) + " (\"" + racer.name + "\")";
}

void put_refused(web::JsonWriter& w, const std::vector<Refusal>& refused) {
  w.key("refused").begin_array();
  for (const Refusal& r : refused) {
    w.begin_object();
    w.key("racer").value(static_cast<std::int64_t>(r.racer));
    w.key("code").value(run_outcome_name(r.outcome));
    w.key("reason").value(r.reason);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

const char* submit_result_name(SubmitResult result) {
  switch (result) {
    case SubmitResult::kAccepted: return "accepted";
    case SubmitResult::kDuplicate: return "duplicate";
    case SubmitResult::kMalformed: return "malformed";
    case SubmitResult::kBadSignature: return "bad_signature";
    case SubmitResult::kTooLarge: return "too_large";
    case SubmitResult::kUnknownRules: return "unknown_rules";
    case SubmitResult::kMismatch: return "mismatch";
    case SubmitResult::kNoRuns: return "no_runs";
    case SubmitResult::kCollision: return "collision";
    case SubmitResult::kFlood: return "flood";
    case SubmitResult::kBusy: return "busy";
    case SubmitResult::kUnavailable: return "unavailable";
  }
  return "unknown";
}

const char* run_outcome_name(RunOutcome outcome) {
  switch (outcome) {
    case RunOutcome::kAccepted: return "accepted";
    case RunOutcome::kNoSuchRacer: return "no_such_racer";
    case RunOutcome::kNoKey: return "no_key";
    case RunOutcome::kBadSignature: return "bad_signature";
    case RunOutcome::kNotFinished: return "not_finished";
    case RunOutcome::kDuplicateRun: return "duplicate_run";
    case RunOutcome::kNoBoard: return "no_board";
  }
  return "unknown";
}

std::string error_json(const std::string& sentence) {
  web::JsonWriter w(true);
  w.begin_object().key("error").value(sentence).end_object();
  return w.text();
}

sr::Result<std::unique_ptr<RecordsHub>, std::string> RecordsHub::open(RecordsOptions options, Clock steady_ms,
                                                                      Clock unix_ms) {
  const bool in_database = !options.database.empty();
  if (!in_database) {
    std::error_code ec;
    std::filesystem::create_directories(options.data_dir, ec);
    if (ec) return "cannot create the data directory " + options.data_dir.string() + ": " + ec.message();
  }
  // In a database, the book's tables and the replay store's (games, results) side by side: a fleet's servers
  // writing their games to the same database store each replay once for both (its id is its content's hash).
  const std::filesystem::path book_at =
      in_database ? std::filesystem::path(options.database) : options.data_dir / RecordBook::kFile;
  auto book = RecordBook::open(book_at, options.trust);
  if (!book) return book.error();
  auto store = replay::ReplayStore::open(
      in_database ? std::filesystem::path(options.database) : options.data_dir / "replays", true);
  if (!store.ok()) return "cannot open the replay store: " + store.error().describe();
  auto reconciled = store.value().reconcile();
  if (!reconciled.ok()) return "cannot reconcile the replay store: " + reconciled.error().describe();
  spdlog::info(
      "records: {} ({}), replays in {}: {}",
      in_database ? store.value().where() : (options.data_dir / RecordBook::kFile).string(),
      options.trust.size() == 1 ? "1 trusted server" : std::to_string(options.trust.size()) + " trusted servers",
      store.value().where(), reconciled.value().summary());
  return std::unique_ptr<RecordsHub>(new RecordsHub(std::move(options), std::move(steady_ms), std::move(unix_ms),
                                                    std::move(book).value(), std::move(store).value()));
}

RecordsHub::RecordsHub(RecordsOptions options, Clock steady_ms, Clock unix_ms, RecordBook book,
                       replay::ReplayStore store)
    : options_(std::move(options)),
      steady_ms_(std::move(steady_ms)),
      unix_ms_(std::move(unix_ms)),
      gate_(options_.verify_slots),
      by_address_(options_.submissions_per_second, options_.submission_burst, options_.rate_table_size),
      by_key_(options_.submissions_per_second, options_.submission_burst, options_.rate_table_size),
      book_(std::move(book)),
      store_(std::move(store)) {}

RecordsHub::~RecordsHub() = default;

void RecordsHub::count(SubmitResult result) {
  std::lock_guard lock(count_mutex_);
  ++counts_.submissions[static_cast<std::size_t>(result)];
}

void RecordsHub::count_run(RunOutcome outcome) {
  std::lock_guard lock(count_mutex_);
  ++counts_.runs[static_cast<std::size_t>(outcome)];
}

SubmitCounts RecordsHub::counts() const {
  std::lock_guard lock(count_mutex_);
  return counts_;
}

SubmitAnswer RecordsHub::answer(SubmitResult result, int status, std::string body, std::int64_t retry_after_s) {
  count(result);
  return SubmitAnswer{result, status, std::move(body), retry_after_s};
}

sr::Result<std::vector<std::uint8_t>, std::string> RecordsHub::replay_bytes(const std::string& id) {
  std::lock_guard lock(store_mutex_);
  auto bytes = store_.load(id);
  if (!bytes.ok()) return "no game " + id + " on this hub";
  return std::move(bytes).value();
}

sr::Result<std::optional<replay::StoredGame>, std::string> RecordsHub::game(const std::string& id) {
  replay::StoreQuery q;
  q.id = id;
  q.limit = 1;
  std::lock_guard lock(store_mutex_);
  auto games = store_.recent(q);
  if (!games.ok()) return games.error().describe();
  if (games.value().empty()) return std::optional<replay::StoredGame>();
  return std::optional<replay::StoredGame>(std::move(games.value().front()));
}

SubmitAnswer RecordsHub::submit(const std::string& source, std::string_view body, std::string_view signature_hex) {
  // 1. Form and signature.
  auto parsed = net::parse_submission(body, signature_hex);
  if (!parsed) {
    const net::SubmissionRefusal& r = parsed.error();
    const SubmitResult result = r.status == 403   ? SubmitResult::kBadSignature
                                : r.status == 413 ? SubmitResult::kTooLarge
                                                  : SubmitResult::kMalformed;
    spdlog::debug("submission from {} refused ({}): {}", source, r.status, r.reason);
    return answer(result, r.status, error_json(r.reason));
  }
  const net::Submission& s = parsed.value();
  const std::string server_key = net::to_hex(s.server_key);
  const std::string server_id = net::short_key_id(s.server_key);
  const std::string address = canonical_address(source);

  // 2. Flood limits: the address first, so that a key's bucket is not spent by requests its address may not make.
  {
    const std::string group = address_group(address);
    const std::int64_t now = steady_ms_();
    std::lock_guard lock(limit_mutex_);
    const std::string rate = "at most " + std::to_string(options_.submissions_per_second) + " a second after " +
                             std::to_string(options_.submission_burst) + " at once";
    if (!by_address_.allow(group, now)) {
      return answer(SubmitResult::kFlood, 429, error_json("too many submissions from " + group + ": " + rate), 1);
    }
    if (!by_key_.allow(server_key, now)) {
      return answer(SubmitResult::kFlood, 429,
                    error_json("too many submissions from server key " + server_id + ": " + rate), 1);
    }
  }

  // 3. The replay and its rules.
  auto decoded = replay::decode_binary(s.replay);
  if (!decoded.ok()) {
    return answer(SubmitResult::kMalformed, 400,
                  error_json("the replay does not decode: " + decoded.error().describe()));
  }
  const replay::Replay& replay = decoded.value();
  if (!replay::plays_rules(replay.rules_version)) {
    return answer(SubmitResult::kUnknownRules, 422,
                  error_json("the replay's rules version " + std::to_string(replay.rules_version) +
                             " is not one this hub plays (" + std::to_string(replay::kOldestRulesVersion) + " to " +
                             std::to_string(engine::kRulesVersion) + ")"));
  }

  // 4. The same replay again: the same bytes. (Other bytes of the same runs, which the replay store would call the
  // same game, are refused run by run in step 6: the book holds each run once.)
  const std::string replay_hash = blake2b_hex(s.replay);
  const auto duplicate = [&](const std::string& game) {
    web::JsonWriter w(true);
    w.begin_object().key("error").value("this replay was submitted already").key("game").value(game).end_object();
    return answer(SubmitResult::kDuplicate, 409, w.text());
  };
  const auto unavailable = [&](const std::string& why) {
    spdlog::warn("submission from {} ({}) not stored: {}", address, server_id, why);
    return answer(SubmitResult::kUnavailable, 503, error_json("the hub cannot store submissions now; try again later"),
                  kUnavailableRetryS);
  };
  {
    auto held = with_book([&](RecordBook& book) { return book.find_replay(replay_hash); });
    if (!held) return unavailable(held.error());
    if (held.value()) return duplicate(*held.value());
  }

  // 5. Re-simulation, on a slot of the gate, held to the end: storing writes to disk (the replay store indexes this
  // verdict rather than re-simulating again), so a slot bounds all the heavy work of a submission.
  VerifyGate::Pass pass(gate_);
  if (!pass.held()) {
    return answer(SubmitResult::kBusy, 503,
                  error_json("the hub is re-simulating as many submissions as it may at once; try again in 1 s"), 1);
  }
  const replay::VerifyReport verdict = replay::verify(replay);
  if (verdict.verdict != replay::Verdict::kVerified) {
    return answer(SubmitResult::kMismatch, 422, error_json("the replay does not verify: " + verdict.message));
  }

  // 6. Each run named.
  const sr::Result<Board, std::string> board = board_of(replay.config);
  std::vector<Refusal> refused;
  NewSubmission add;
  for (const net::RunClaim& claim : s.runs) {
    const auto refuse = [&](RunOutcome outcome, std::string reason) {
      refused.push_back(Refusal{claim.racer, outcome, std::move(reason)});
    };
    if (claim.racer >= replay.racers.size()) {
      refuse(RunOutcome::kNoSuchRacer, "runs names racer " + std::to_string(claim.racer) + "; the replay has " +
                                           std::to_string(replay.racers.size()) + " racers");
      continue;
    }
    const replay::Racer& racer = replay.racers[claim.racer];
    if (!racer.key) {
      refuse(RunOutcome::kNoKey, racer_named(claim.racer, racer) + " has no player key in the replay");
      continue;
    }
    const net::RunDigest digest = net::run_digest(replay, claim.racer);
    if (!net::verify_run(*racer.key, digest, claim.signature)) {
      refuse(RunOutcome::kBadSignature, "the run signature of " + racer_named(claim.racer, racer) +
                                            " is not the signature of its key " + net::short_key_id(*racer.key) +
                                            " over this run");
      continue;
    }
    if (!board) {
      refuse(RunOutcome::kNoBoard, racer_named(claim.racer, racer) + ": " + board.error());
      continue;
    }
    if (auto counts = counts_on_board(board.value(), racer.result); !counts) {
      refuse(RunOutcome::kNotFinished, racer_named(claim.racer, racer) + " " + counts.error());
      continue;
    }
    NewRun run;
    run.racer = claim.racer;
    run.board = board.value();
    run.rank_value = rank_value(board.value(), racer.result);
    run.list =
        options_.trust.trusts(s.server_key) && racer.result.unverified_us == 0 ? ListKind::kTrusted : ListKind::kOther;
    run.player_key = replay::key_hex(*racer.key);
    run.player = racer.name;
    run.run_digest = net::to_hex(digest);
    run.stats = racer.result.stats;
    run.unverified_us = racer.result.unverified_us;
    add.runs.push_back(std::move(run));
  }
  const auto by_racer = [&]() {
    std::stable_sort(refused.begin(), refused.end(),
                     [](const Refusal& a, const Refusal& b) { return a.racer < b.racer; });
  };
  const auto none_accepted = [&]() {
    by_racer();
    for (const Refusal& r : refused) count_run(r.outcome);
    web::JsonWriter w(true);
    w.begin_object();
    w.key("error").value("no run was accepted: " + refused.front().reason);
    put_refused(w, refused);
    w.end_object();
    return answer(SubmitResult::kNoRuns, 422, w.text());
  };
  const auto duplicate_run = [&](std::uint32_t racer, const std::string& record) {
    refused.push_back(Refusal{racer, RunOutcome::kDuplicateRun,
                              "racer " + std::to_string(racer) + "'s run is on this hub already, as record " + record});
  };
  {
    // Runs the book holds already: refused here when that is every one, so that no replay is stored for nothing
    // (book.add() checks again, in its transaction).
    using Held = std::vector<std::pair<std::uint32_t, std::string>>;
    auto held = with_book([&](RecordBook& book) -> sr::Result<Held, std::string> {
      Held out;
      for (const NewRun& run : add.runs) {
        auto same = book.find_run(run.player_key, run.run_digest);
        if (!same) return same.error();
        if (same.value()) out.emplace_back(run.racer, *same.value());
      }
      return out;
    });
    if (!held) return unavailable(held.error());
    if (held.value().size() == add.runs.size()) {
      for (const auto& [racer, record] : held.value()) duplicate_run(racer, record);
      add.runs.clear();
    }
  }
  if (add.runs.empty()) return none_accepted();

  // 7. Store the replay, then the submission and its runs.
  std::string game_id;
  {
    std::lock_guard lock(store_mutex_);
    auto stored = store_.add(replay, &verdict);  // re-simulated above: not again
    if (!stored.ok()) {
      const std::vector<std::uint8_t> bytes = replay::encode_binary(replay);
      const std::string id = replay::content_id(bytes);
      auto there = store_.load(id);
      if (there.ok() && there.value() != bytes) {
        spdlog::warn("submission from {} ({}): its store id {} is another replay's", address, server_id, id);
        return answer(SubmitResult::kCollision, 422,
                      error_json("another replay holds this replay's store id " + id + "; this hub cannot keep it"));
      }
      return unavailable(stored.error().describe());
    }
    game_id = std::move(stored).value();
  }
  add.replay_hash = replay_hash;
  add.game_id = game_id;
  add.server_key = server_key;
  add.server_name = s.server_name;
  add.server_web = s.web_url;
  add.server_game = s.game_id;
  add.sequence = s.sequence;
  add.received_unix_ms = unix_ms_();
  add.source = address;
  add.rules_version = replay.rules_version;
  add.played_unix_ms = replay.created_unix_ms;
  auto added = with_book([&](RecordBook& book) { return book.add(add); });
  if (!added) return unavailable(added.error());
  if (added.value().duplicate) return duplicate(added.value().game_id);
  for (const auto& [racer, record] : added.value().duplicate_runs) duplicate_run(racer, record);
  if (added.value().stored.empty()) return none_accepted();

  by_racer();
  for (const Refusal& r : refused) count_run(r.outcome);
  web::JsonWriter w(true);
  w.begin_object();
  w.key("status").value("accepted");
  w.key("game").value(game_id);
  w.key("runs").begin_array();
  for (const StoredRun& run : added.value().stored) {
    count_run(RunOutcome::kAccepted);
    w.begin_object();
    w.key("racer").value(static_cast<std::int64_t>(run.racer));
    w.key("board").value(run.board);
    w.key("list").value(list_name(run.list));
    w.key("place").value(run.place);
    w.key("best").value(run.best);
    w.key("record").value(run.record);
    w.end_object();
  }
  w.end_array();
  put_refused(w, refused);
  w.end_object();
  spdlog::info("records: game {} from \"{}\" (key {}) at {}: {} runs accepted, {} refused", game_id, s.server_name,
               server_key, address, added.value().stored.size(), refused.size());
  return answer(SubmitResult::kAccepted, 200, w.text());
}

}  // namespace sr::hub::records
