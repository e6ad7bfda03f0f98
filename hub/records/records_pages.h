// The records hub's HTML pages (common/protocol/RECORDS.md section 5): every board, one board's list, one record with
// why it is listed where it is, and a player's records. Made on the hub, with no script: every text from a player or
// a server is HTML-escaped (hub_pages.h, html_escape), every link is the hub's own address or a server's web address
// (checked http(s) at submission). Each page takes `root`, the relative address of the hub's top from the page
// ("./" for /records, "../" for /records/<board>, "../../" for /records/run/<record>), so the pages work behind a
// reverse proxy under any prefix; the style sheet is the site's (css/site.css, when the hub serves the site).
#pragma once

#include <string>
#include <vector>

#include "hub/records/record_book.h"
#include "hub/records/records_query.h"

namespace sr::hub::records {

[[nodiscard]] std::string boards_page(const std::vector<BoardSummary>& boards);
[[nodiscard]] std::string board_page(const BoardPage& page, const ListQuery& query);
[[nodiscard]] std::string run_page(const Entry& entry, const std::vector<std::string>& why);
[[nodiscard]] std::string player_page(const PlayerRecords& player);
// A page of one sentence: "no such board", "this hub keeps no records: ...".
[[nodiscard]] std::string message_page(const std::string& title, const std::string& sentence, const std::string& root);

// "2025-12-01 18:05:45 UTC" for unix milliseconds.
[[nodiscard]] std::string utc_text(std::int64_t unix_ms);

}  // namespace sr::hub::records
