// What a server that submits records (--records URL) does once a race is stored (common/protocol/RECORDS.md,
// "3. Submitting (server to hub)"): when at least one racer's run signature was kept, it builds the submission (the
// stored replay's exact bytes, the store's game id, the signed runs, the server's name and web address, the next
// sequence number), signs it with the server's key and appends it to the records queue (records_queue.h), from which
// the records agent (records_agent.h) sends it. It runs on the replay writer's thread (ReplayWriter::Options::
// on_stored), never on the game loop; a submission that cannot be queued is logged and counted by the queue, and the
// race is unaffected.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/replay/replay.h"
#include "net/identity/player_key.h"
#include "net/identity/submission.h"
#include "server/records_queue.h"
#include "server/replay_writer.h"

namespace sr::server {

// Who submits: the server's key (DATA_DIR/server.key), its name and its pages' address (empty: none).
struct RecordsIdentity {
  net::PlayerKey key;
  std::string server_name;  // protocol::kServerNameText
  std::string web_url;      // protocol::kWebUrlText
};

// The runs a submission of `completed` names: each racer whose entry in `run_signatures` (ReplayWriter::Job::
// run_signatures: one per racer, racer for racer; entries beyond the replay's racers are ignored) holds a signature,
// in racer order, at most net::kMaxSubmissionRuns.
[[nodiscard]] std::vector<net::RunClaim> signed_runs(const replay::Replay& completed,
                                                     const std::vector<std::optional<net::Signature>>& run_signatures);

// The submission of the stored race `completed` (its results recorded: ReplayWriter::complete), stored as `game_id`,
// numbered `sequence`, naming signed_runs(). None when that names no run.
[[nodiscard]] std::optional<net::Submission> make_submission(
    const replay::Replay& completed, const std::string& game_id,
    const std::vector<std::optional<net::Signature>>& run_signatures, const RecordsIdentity& identity,
    std::uint64_t sequence);

class RecordsSubmitter {
 public:
  RecordsSubmitter(RecordsIdentity identity, RecordsQueue& queue) : identity_(std::move(identity)), queue_(queue) {}

  // The replay writer's hook: queues the race `job` (completed) stored as `game_id`, if any racer signed their run.
  void on_stored(const ReplayWriter::Job& job, const std::string& game_id);

  [[nodiscard]] const RecordsIdentity& identity() const { return identity_; }

 private:
  RecordsIdentity identity_;
  RecordsQueue& queue_;
};

}  // namespace sr::server
