// The records hub's HTTP routes on the hub's cpp-httplib server (common/protocol/RECORDS.md sections 3 and 5):
// `POST /api/records/submit`; the read API `/api/records`, `/api/records/<board>`, `/api/records/<board>/place`,
// `/api/records/run/<record>`, `/api/players/<key>`; the pages `/records`, `/records/<board>`,
// `/records/run/<record>`, `/players/<key>`; and the replay page of a record's game, `/games/<id>` with `<id>.srr`,
// `<id>.json` and `/api/v1/games/<id>` (the site's page, hub_site.h), plus `/verify`.
//
// Without a records hub (no --data-dir) the submit route answers 503 "this hub keeps no records: start it with
// --data-dir", and so do the read API and the pages. Addresses and query strings are checked strictly
// (records_query.h): anything out of form is a 400 with a sentence, as JSON for the API and as a page for the pages.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "hub/hub_site.h"
#include "hub/records/records_hub.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace sr::hub::records {

// Which counter of the hub's requests a route adds to (hub_pages.h, RequestCounts).
enum class RecordsRoute : std::uint8_t { kSubmit, kApi, kPage, kGame, kSite };

// The sentence every records route answers with when the hub keeps no records.
inline constexpr const char* kNoRecords = "this hub keeps no records: start it with --data-dir";

struct RecordsRouteContext {
  RecordsHub* hub = nullptr;      // null: records are off
  const HubSite* site = nullptr;  // null or not loaded: no replay page, no /verify
  std::function<void(RecordsRoute)> count;
  // Counts a submission refused when the hub keeps no records (it has no RecordsHub to count it).
  std::function<void(SubmitResult)> count_off;
};

// The routes' handlers. install() adds every route above to a server, whose handlers then call this object: it must
// outlive the server's serving.
class RecordsHttp {
 public:
  explicit RecordsHttp(RecordsRouteContext context) : c_(std::move(context)) {}
  void install(httplib::Server& http);

 private:
  bool on(httplib::Response& res, bool page, const std::string& root);
  void refuse(httplib::Response& res, bool page, int status, const std::string& sentence, const std::string& root);
  void submit(const httplib::Request& req, httplib::Response& res);
  void api_boards(const httplib::Request& req, httplib::Response& res);
  void page_boards(const httplib::Request& req, httplib::Response& res);
  void board(const httplib::Request& req, httplib::Response& res, bool page);
  void api_place(const httplib::Request& req, httplib::Response& res);
  void run(const httplib::Request& req, httplib::Response& res, bool page);
  void player(const httplib::Request& req, httplib::Response& res, bool page);
  void game(const httplib::Request& req, httplib::Response& res);
  void api_game(const httplib::Request& req, httplib::Response& res);
  void site_file(httplib::Response& res, const char* name);

  RecordsRouteContext c_;
};

}  // namespace sr::hub::records
