// "Where would this run place?" on the race results (common/protocol/RECORDS.md, sections 4 and 5): when our own
// result of a race counts on its board (replay::record_board of the room's config, replay::result_counts), the first
// records hub of the settings is asked GET /api/records/<board>/place?time_us=N (score=N, lines=N by the board's
// goal), and its answer becomes one line under the results. Pure: the screen (client/app/net_view.cpp) fetches in the
// background (client/web/background_get.h) and shows line().
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "client/web/http_get.h"
#include "common/engine/config.h"
#include "common/protocol/records.h"
#include "common/replay/record_board.h"
#include "common/result.h"

namespace sr::client {

// The question about one result, and what the hub said.
class RecordPlaceAsk {
 public:
  // The question for our result `own` in a race of `config`, to hub `hub` ("http://host:port", the first of
  // Settings::directories): none when there is no hub, the config has no board, or the result does not count there
  // (a sprint not finished, a forfeit). A hub address that is not http is asked anyway: the fetch says why not.
  [[nodiscard]] static std::optional<RecordPlaceAsk> make(const std::string& hub, const engine::GameConfig& config,
                                                          const protocol::RacerResult& own);

  // "http://hub.example.org/api/records/sprint-40l/place?time_us=41234000".
  [[nodiscard]] const std::string& url() const { return url_; }
  [[nodiscard]] const replay::RecordBoard& board() const { return board_; }
  [[nodiscard]] std::int64_t value() const { return value_; }

  // The hub's answer to url(): the body of a 200, or why there is none.
  void answered(const sr::Result<std::vector<std::uint8_t>, HttpError>& answer);
  // The line under the results: "Asking hub.example.org where this run would place..." until the answer, then "On
  // the records of hub.example.org this run would place #4 of 12 (sprint-40l)" ("... of 12 on its other list ..." when
  // the hub answered for that list), or "Where this run would place on the records is unknown: " and why.
  [[nodiscard]] std::string line() const;
  [[nodiscard]] bool has_answer() const { return answered_; }

 private:
  std::string hub_;
  std::string url_;
  replay::RecordBoard board_;
  std::int64_t value_ = 0;
  bool answered_ = false;
  std::string line_;
};

// Our result as the replay store and the boards count it: the server's numbers (protocol::RacerResult) in the shape
// replay::result_counts reads (finished and topped out keep their status; every other end is a forfeit there).
[[nodiscard]] replay::RacerResult counted_result(const protocol::RacerResult& result);

}  // namespace sr::client
