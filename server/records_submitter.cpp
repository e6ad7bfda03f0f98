#include "server/records_submitter.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "common/replay/codec.h"

namespace sr::server {

std::vector<net::RunClaim> signed_runs(const replay::Replay& completed,
                                       const std::vector<std::optional<net::Signature>>& run_signatures) {
  std::vector<net::RunClaim> runs;
  const std::size_t racers = std::min(run_signatures.size(), completed.racers.size());
  for (std::size_t i = 0; i < racers && runs.size() < net::kMaxSubmissionRuns; ++i) {
    if (run_signatures[i]) runs.push_back(net::RunClaim{static_cast<std::uint32_t>(i), *run_signatures[i]});
  }
  return runs;
}

std::optional<net::Submission> make_submission(const replay::Replay& completed, const std::string& game_id,
                                               const std::vector<std::optional<net::Signature>>& run_signatures,
                                               const RecordsIdentity& identity, std::uint64_t sequence) {
  net::Submission s;
  s.runs = signed_runs(completed, run_signatures);
  if (s.runs.empty()) return std::nullopt;
  s.server_key = identity.key.public_key();
  s.server_name = identity.server_name;
  s.web_url = identity.web_url;
  s.game_id = game_id;
  s.sequence = sequence;
  // The bytes the store holds: ReplayStore::add() stores encode_binary() of this same replay (and names it by them).
  s.replay = replay::encode_binary(completed);
  return s;
}

void RecordsSubmitter::on_stored(const ReplayWriter::Job& job, const std::string& game_id) {
  // A race nobody signed: nothing to number, build or write.
  if (signed_runs(job.replay, job.run_signatures).empty()) return;
  auto queued = queue_.append([&](std::uint64_t sequence) {
    const net::Submission submission = *make_submission(job.replay, game_id, job.run_signatures, identity_, sequence);
    RecordsQueue::Signed out;
    out.body = net::encode_submission(submission);
    out.signature = net::sign_submission(identity_.key, out.body);
    return out;
  });
  if (queued) {
    spdlog::debug("records: game {} (race {} in room {}) queued for the hub", game_id, job.race_id, job.room_id);
  }
}

}  // namespace sr::server
