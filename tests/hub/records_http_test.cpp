// The records hub end to end (hub/hub_http.h with hub/records/records_routes.h): the hub's HTTP server on a free
// loopback port in this process with a records hub on a temporary data directory and fake clocks, httplib clients
// submitting real races and reading the API, the pages (escaping), the replay page and its files, hostile addresses
// and query strings, the hub without records, and a restart on the same data directory.
#include <gtest/gtest.h>
#include <httplib.h>
#include <sodium.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "hub/hub_http.h"
#include "tests/hub/records_support.h"

namespace sr::hub::records::test {
namespace {

class RecordsHttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_GE(sodium_init(), 0);
    dir_ = std::filesystem::temp_directory_path() / ("stackrace-records-http-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override {
    stop();
    std::filesystem::remove_all(dir_);
  }
  void start(bool records = true, RecordsOptions o = {}) {
    stop();
    if (records) {
      o.data_dir = dir_;
      auto h = RecordsHub::open(
          std::move(o), [this] { return now_ms_.load(); }, [] { return std::int64_t{1'764'700'000'000}; });
      ASSERT_TRUE(h) << h.error();
      records_ = std::move(h).value();
    }
    http_ = std::make_unique<HubHttpServer>(
        HubLimits{}, random_token, [this] { return now_ms_.load(); }, records_.get());
    HubHttpOptions options;
    options.bind = "127.0.0.1";
    options.port = 0;
    options.threads = 4;
    options.site_dir = STACKRACE_WEB_SITE_DIR;
    ASSERT_TRUE(http_->start(options));
    client_ = std::make_unique<httplib::Client>("127.0.0.1", http_->port());
    client_->set_read_timeout(30, 0);
  }
  void stop() {
    client_.reset();
    http_.reset();
    records_.reset();
  }
  httplib::Result post(const SignedSubmission& s) {
    return client_->Post("/api/records/submit", {{net::kSubmissionSignatureHeader, s.signature}}, s.body,
                         "application/json");
  }
  // The body of GET path, expecting `status`.
  std::string get(const std::string& path, int status = 200) {
    const httplib::Result r = client_->Get(path.c_str());
    EXPECT_TRUE(r) << path;
    if (!r) return "";
    EXPECT_EQ(r->status, status) << path << ": " << r->body;
    return r->body;
  }
  long long metric(const std::string& line) {
    const std::string text = get("/metrics");
    const std::size_t at = text.find("\n" + line + " ");
    return at == std::string::npos ? -1 : std::stoll(text.substr(at + line.size() + 2));
  }

  std::filesystem::path dir_;
  std::atomic<std::int64_t> now_ms_{5'000'000};
  std::unique_ptr<RecordsHub> records_;
  std::unique_ptr<HubHttpServer> http_;
  std::unique_ptr<httplib::Client> client_;
};

replay::Replay race(const std::string& a = "ada", const std::string& b = "bo") {
  return with_players(base_race(2), {a, b});
}

TEST_F(RecordsHttpTest, ASubmittedRaceIsOnTheBoardsOfTheApi) {
  start();
  const replay::Replay r = race();
  const httplib::Result posted = post(sign(submission_of(r, {0, 1})));
  ASSERT_TRUE(posted);
  ASSERT_EQ(posted->status, 200) << posted->body;
  EXPECT_EQ(posted->get_header_value("Content-Type"), "application/json");
  const std::string game = replay::content_id(replay::encode_binary(r));
  EXPECT_EQ(get("/api/records"),
            R"({"boards":[{"board":"sprint-40l","mode":"sprint","limit":"40 lines","goal":"time","custom":false,)"
            R"("trusted":0,"other":2}]})");

  const bool ada_first = r.racers[0].result.stats.time_us <= r.racers[1].result.stats.time_us;
  const auto entry = [&](int racer, int place) {
    const replay::Racer& x = r.racers[static_cast<std::size_t>(racer)];
    const engine::Stats& s = x.result.stats;
    return R"({"record":")" + game + "-" + std::to_string(racer) + R"(","place":)" + std::to_string(place) +
           R"(,"board":"sprint-40l","list":"other","player":")" + x.name + R"(","key":")" + replay::key_hex(*x.key) +
           R"(","key_id":")" + sr::test::test_key(x.name).short_id() + R"(","time_us":)" + std::to_string(s.time_us) +
           R"(,"score":)" + std::to_string(s.score) + R"(,"lines":40,"pieces":)" + std::to_string(s.pieces) +
           R"(,"rules_version":1,"server":"Ada's server","server_key_id":")" +
           sr::test::test_key("server:Ada's server").short_id() +
           R"(","server_web":"http://example.org:8080/","played_unix_ms":1764612345678,"game":")" + game + R"("})";
  };
  const std::string first = ada_first ? entry(0, 1) : entry(1, 1);
  const std::string second = ada_first ? entry(1, 2) : entry(0, 2);
  EXPECT_EQ(get("/api/records/sprint-40l?list=other"),
            R"({"board":"sprint-40l","list":"other","total":2,"offset":0,"entries":[)" + first + "," + second + "]}");
  EXPECT_EQ(get("/api/records/sprint-40l"),
            R"({"board":"sprint-40l","list":"trusted","total":0,"offset":0,"entries":[]})");
  EXPECT_EQ(get("/api/records/sprint-40l?list=other&offset=1&limit=1"),
            R"({"board":"sprint-40l","list":"other","total":2,"offset":1,"entries":[)" + second + "]}");

  EXPECT_EQ(get("/api/records/sprint-40l/place?time_us=1&list=other"),
            R"({"board":"sprint-40l","list":"other","place":1,"of":2})");
  EXPECT_EQ(get("/api/records/sprint-40l/place?time_us=999999999999"),
            R"({"board":"sprint-40l","list":"trusted","place":1,"of":0})");
  EXPECT_EQ(get("/api/records/sprint-40l/place?list=other&time_us=999999999999"),
            R"({"board":"sprint-40l","list":"other","place":3,"of":2})");

  const std::string run = get("/api/records/run/" + game + "-0");
  const std::string ada = entry(0, ada_first ? 1 : 2);
  EXPECT_EQ(run.rfind(ada.substr(0, ada.size() - 1) + R"(,"best":true,"best_record":")" + game + "-0", 0), 0u) << run;
  EXPECT_NE(
      run.find(R"("why":["re-simulated by this hub: the result is its own","signed by the player's key )" +
               sr::test::test_key("ada").short_id() + R"(","submitted by server \"Ada's server\" (key )" +
               sr::test::test_key("server:Ada's server").short_id() +
               R"a(), which this hub's operator does not trust: no one the operator trusts watched its pace, so it )a"
               R"(is on the other list","the player's best on the other list of sprint-40l, at place )"),
      std::string::npos)
      << run;

  const std::string ada_key = replay::key_hex(*r.racers[0].key);
  const std::string player = get("/api/players/" + ada_key);
  EXPECT_EQ(player, R"({"key":")" + ada_key + R"(","key_id":")" + sr::test::test_key("ada").short_id() +
                        R"(","names":["ada"],"records":[)" + entry(0, ada_first ? 1 : 2) + "]}");
  EXPECT_EQ(get("/api/players/" + sr::test::test_key("ada").short_id()), player);

  EXPECT_EQ(metric(R"(stackrace_hub_submissions_total{result="accepted"})"), 1);
  EXPECT_EQ(metric(R"(stackrace_hub_runs_total{result="accepted"})"), 2);
  EXPECT_EQ(metric(R"(stackrace_hub_requests_total{route="submit"})"), 1);
  EXPECT_EQ(metric("stackrace_hub_records_enabled"), 1);
  EXPECT_EQ(metric("stackrace_hub_verify_slots"), 8);
}

TEST_F(RecordsHttpTest, HostileSubmissionsGetTheirStatusSentenceAndCount) {
  RecordsOptions o;
  o.submissions_per_second = 1;
  o.submission_burst = 3;
  start(true, o);
  const SignedSubmission good = sign(submission_of(race(), {0, 1}));
  ASSERT_EQ(post(good)->status, 200);

  const httplib::Result again = post(good);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->status, 409);

  SignedSubmission forged = good;
  forged.signature = net::sign_submission(sr::test::test_key("mallory"), forged.body);
  const httplib::Result refused = post(forged);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 403);
  EXPECT_EQ(refused->body, R"({"error":"the signature is not server_key's signature of this body"})");

  const httplib::Result big =
      client_->Post("/api/records/submit", std::string(net::kMaxSubmissionBytes + 1, ' '), "application/json");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  EXPECT_EQ(big->body, R"({"error":"the submission is larger than 1 MiB"})");

  // The bucket held 3: the accepted one and the duplicate took two (the refusals before it took none).
  EXPECT_EQ(post(sign(submission_of(race("cy", "di"), {0, 1})))->status, 200);
  const httplib::Result flood = post(sign(submission_of(race("ed", "fa"), {0, 1})));
  ASSERT_TRUE(flood);
  EXPECT_EQ(flood->status, 429);
  EXPECT_EQ(flood->get_header_value("Retry-After"), "1");

  EXPECT_EQ(metric(R"(stackrace_hub_submissions_total{result="accepted"})"), 2);
  EXPECT_EQ(metric(R"(stackrace_hub_submissions_total{result="duplicate"})"), 1);
  EXPECT_EQ(metric(R"(stackrace_hub_submissions_total{result="bad_signature"})"), 1);
  EXPECT_EQ(metric(R"(stackrace_hub_submissions_total{result="too_large"})"), 1);
  EXPECT_EQ(metric(R"(stackrace_hub_submissions_total{result="flood"})"), 1);

  // A registration keeps its own limit of 8 KiB.
  const httplib::Result registration =
      client_->Post("/api/register", std::string(kMaxBodyBytes + 1, ' '), "application/json");
  ASSERT_TRUE(registration);
  EXPECT_EQ(registration->status, 413);
  EXPECT_EQ(registration->body, R"({"error":"the body is larger than 8 KiB"})");
}

TEST_F(RecordsHttpTest, HostileAddressesAndQueriesAreRefusedWith400) {
  start();
  ASSERT_EQ(post(sign(submission_of(race(), {0, 1})))->status, 200);
  const std::pair<const char*, const char*> cases[] = {
      {"/api/records/sprint-40l?list=mine", R"j({"error":"list must be trusted or other"})j"},
      {"/api/records/sprint-40l?offset=-1", R"j({"error":"offset must be a whole number 0..1000000000"})j"},
      {"/api/records/sprint-40l?limit=1000", R"j({"error":"limit must be a whole number 1..100"})j"},
      {"/api/records/sprint-40l?limit=", R"j({"error":"limit must be a whole number 1..100"})j"},
      {"/api/records/sprint-40l?list=other&list=trusted",
       R"j({"error":"the parameter list is given more than once"})j"},
      {"/api/records/sprint-40l?%3Cscript%3E=1",
       R"j({"error":"unknown parameter \"\u003cscript\u003e\": use list, offset, limit"})j"},
      {"/api/records/%3Cscript%3E", R"j({"error":"that is not a board id (sprint-40l, ultra-120s, ...)"})j"},
      {"/api/records/sprint-40l/place?score=1",
       R"j({"error":"sprint-40l ranks by time: ask with time_us=N alone (and list= if you like)"})j"},
      {"/api/records/sprint-40l/place?time_us=1&score=1",
       R"j({"error":"sprint-40l ranks by time: ask with time_us=N alone (and list= if you like)"})j"},
      {"/api/records/sprint-40l/place?time_us=12abc",
       R"j({"error":"time_us must be a whole number of at most 18 digits"})j"},
      {"/api/records/run/zz",
       R"j({"error":"that is not a record id (\u003c16 hex digits of a game\u003e-\u003cracer\u003e)"})j"},
      {"/api/records/run/0123456789abcdef-64",
       R"j({"error":"that is not a record id (\u003c16 hex digits of a game\u003e-\u003cracer\u003e)"})j"},
      {"/api/players/xyz", R"j({"error":"that is not a player key (64 hex digits) or its short id (8)"})j"},
      {"/api/records?x=1", R"j({"error":"/api/records takes no parameters"})j"},
  };
  for (const auto& [path, body] : cases) EXPECT_EQ(get(path, 400), body) << path;
  EXPECT_EQ(get("/api/records/sprint-20l", 404), R"j({"error":"no board sprint-20l on this hub"})j");
  EXPECT_EQ(get("/api/records/run/0123456789abcdef-0", 404),
            R"j({"error":"no record 0123456789abcdef-0 on this hub"})j");
  EXPECT_EQ(get("/api/players/" + std::string(64, '0'), 404),
            R"({"error":"no records of player )" + std::string(64, '0') + R"( on this hub"})");
  EXPECT_EQ(get("/api/records/submit", 405), R"j({"error":"POST a submission to /api/records/submit"})j");

  const std::string page = get("/records/sprint-40l?list=%3Cscript%3Ealert(1)%3C/script%3E", 400);
  EXPECT_NE(page.find("<p>list must be trusted or other</p>"), std::string::npos) << page;
  EXPECT_EQ(page.find("<script>"), std::string::npos) << page;
  const std::string bad_board = get("/records/%3Cimg%20src=x%3E", 400);
  EXPECT_EQ(bad_board.find("<img"), std::string::npos) << bad_board;
  const std::string unknown = get("/records/sprint-40l?%22%3E%3Cb%3E=1", 400);
  EXPECT_NE(unknown.find("unknown parameter &quot;&quot;&gt;&lt;b&gt;&quot;"), std::string::npos) << unknown;
  EXPECT_EQ(unknown.find("<b>"), std::string::npos) << unknown;
}

TEST_F(RecordsHttpTest, ThePagesSayWhoWhereWhenAndWhyWithEveryTextEscaped) {
  RecordsOptions o;
  ASSERT_TRUE(o.trust.add(server_key_hex("<Ada & Bo's>"), "the <b>club</b>"));
  start(true, o);
  const replay::Replay r = race("<i>ada</i>", "bo");
  const httplib::Result posted = post(sign(submission_of(r, {0, 1}, 1, "<Ada & Bo's>"), "<Ada & Bo's>"));
  ASSERT_TRUE(posted);
  ASSERT_EQ(posted->status, 200) << posted->body;
  const std::string game = replay::content_id(replay::encode_binary(r));

  const httplib::Result boards = client_->Get("/records");
  ASSERT_TRUE(boards);
  EXPECT_EQ(boards->status, 200);
  EXPECT_EQ(boards->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_EQ(boards->get_header_value("Content-Security-Policy"), kPagePolicy);
  EXPECT_NE(boards->body.find("<a href=\"records/sprint-40l\" class=\"mono\">sprint-40l</a>"), std::string::npos)
      << boards->body;
  EXPECT_NE(boards->body.find("<link rel=\"stylesheet\" href=\"./css/site.css\">"), std::string::npos);

  const std::string board = get("/records/sprint-40l");
  EXPECT_NE(board.find("&lt;i&gt;ada&lt;/i&gt;"), std::string::npos) << board;
  EXPECT_NE(board.find("&lt;Ada &amp; Bo&#39;s&gt;"), std::string::npos) << board;
  EXPECT_NE(board.find("<a href=\"run/" + game + "-0\">record</a>"), std::string::npos) << board;
  EXPECT_NE(board.find("<a href=\"../games/" + game + "\">replay</a>"), std::string::npos) << board;
  EXPECT_NE(board.find("2025-12-01 18:05:45 UTC"), std::string::npos) << board;
  EXPECT_EQ(board.find("<i>"), std::string::npos);

  const std::string run = get("/records/run/" + game + "-0");
  EXPECT_EQ(run.find("<i>"), std::string::npos);
  EXPECT_EQ(run.find("<b>club"), std::string::npos);
  for (const std::string& sentence :
       {std::string("<li>re-simulated by this hub: the result is its own</li>"),
        "<li>signed by the player&#39;s key " + sr::test::test_key("<i>ada</i>").short_id() + "</li>",
        "<li>submitted by server &quot;&lt;Ada &amp; Bo&#39;s&gt;&quot; (key " +
            sr::test::test_key("server:<Ada & Bo's>").short_id() +
            "), which this hub&#39;s operator trusts (as &quot;the &lt;b&gt;club&lt;/b&gt;&quot;), whose referee "
            "vouched for the whole run against the real clock</li>",
        std::string("played 2025-12-01 18:05:45 UTC"), "<a href=\"../../games/" + game + "\">watch it</a>",
        std::string("<a href=\"http://example.org:8080/\" rel=\"nofollow noopener\">"), std::string("version 1")}) {
    EXPECT_NE(run.find(sentence), std::string::npos) << sentence << "\n" << run;
  }

  const std::string player = get("/players/" + replay::key_hex(*r.racers[0].key));
  EXPECT_NE(player.find("Names: <bdi>&lt;i&gt;ada&lt;/i&gt;</bdi>."), std::string::npos) << player;
  EXPECT_NE(player.find("<a href=\"../records/run/" + game + "-0\">record</a>"), std::string::npos) << player;
  EXPECT_NE(get("/records/run/" + game + "-9", 404).find("<p>no record " + game + "-9 on this hub</p>"),
            std::string::npos);
}

TEST_F(RecordsHttpTest, TheReplayPageAndItsFilesComeFromTheHub) {
  start();
  const replay::Replay r = race();
  ASSERT_EQ(post(sign(submission_of(r, {0, 1})))->status, 200);
  const std::string game = replay::content_id(replay::encode_binary(r));

  const httplib::Result page = client_->Get(("/games/" + game).c_str());
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<script type=\"module\" src=\"../js/game.js\"></script>"), std::string::npos)
      << page->body;
  EXPECT_EQ(page->get_header_value("Content-Security-Policy"), kSitePolicy);
  const httplib::Result srr = client_->Get(("/games/" + game + ".srr").c_str());
  ASSERT_TRUE(srr);
  EXPECT_EQ(srr->status, 200);
  const std::vector<std::uint8_t> bytes = replay::encode_binary(r);
  EXPECT_EQ(srr->body, std::string(bytes.begin(), bytes.end()));
  const std::string json = get("/games/" + game + ".json");
  auto decoded = replay::decode_json(json);
  ASSERT_TRUE(decoded.ok()) << decoded.error().describe();
  EXPECT_EQ(decoded.value(), r);
  const std::string meta = get("/api/v1/games/" + game);
  EXPECT_EQ(meta.rfind(R"({"id":")" + game +
                       R"(","played_unix_ms":1764612345678,"place":"Ada's server",)"
                       R"("mode":{"mode":"sprint","limit":"lines","limit_value":40,"goal":"time"},)"
                       R"("rules_version":1,"verified":true,)"),
            0u)
      << meta;
  get("/games/0000000000000000", 404);
  get("/games/0000000000000000.srr", 404);
  get("/games/../records", 404);
  const httplib::Result css = client_->Get("/css/site.css");
  ASSERT_TRUE(css);
  EXPECT_EQ(css->status, 200);
  EXPECT_EQ(css->get_header_value("Content-Type"), "text/css; charset=utf-8");
  EXPECT_EQ(css->get_header_value("Content-Security-Policy"), kSitePolicy);
  const httplib::Result script = client_->Get("/js/game.js");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->status, 200);
  EXPECT_NE(get("/verify").find("verify.js"), std::string::npos);
  get("/js/../../CMakeLists.txt", 404);
}

TEST_F(RecordsHttpTest, WithoutADataDirectoryTheHubSaysItKeepsNoRecords) {
  start(false);
  const httplib::Result posted = post(sign(submission_of(race(), {0})));
  ASSERT_TRUE(posted);
  EXPECT_EQ(posted->status, 503);
  EXPECT_EQ(posted->body, R"({"error":"this hub keeps no records: start it with --data-dir"})");
  EXPECT_EQ(get("/api/records", 503), R"({"error":"this hub keeps no records: start it with --data-dir"})");
  EXPECT_NE(get("/records", 503).find("this hub keeps no records: start it with --data-dir"), std::string::npos);
  EXPECT_EQ(metric(R"(stackrace_hub_submissions_total{result="unavailable"})"), 1);
  EXPECT_EQ(metric("stackrace_hub_records_enabled"), 0);
  EXPECT_EQ(get("/api/servers"), R"({"servers":[]})") << "the directory works as before";
}

TEST_F(RecordsHttpTest, TheRecordsOutliveARestartOnTheSameDataDirectory) {
  start();
  const replay::Replay r = race();
  ASSERT_EQ(post(sign(submission_of(r, {0, 1})))->status, 200);
  const std::string before = get("/api/records/sprint-40l?list=other");
  start();
  EXPECT_EQ(get("/api/records/sprint-40l?list=other"), before);
  EXPECT_EQ(post(sign(submission_of(r, {0, 1})))->status, 409);
  const std::string game = replay::content_id(replay::encode_binary(r));
  EXPECT_EQ(client_->Get(("/games/" + game + ".srr").c_str())->status, 200);
}

}  // namespace
}  // namespace sr::hub::records::test
