// hub/hub_pages.h: the HTML page escapes every text a server sent, and the metrics text is exact.
#include "hub/hub_pages.h"

#include <gtest/gtest.h>

#include "tests/hub/hub_test_support.h"

namespace sr::hub::test {
namespace {

TEST(HubPage, EveryTextIsEscaped) {
  EXPECT_EQ(html_escape(R"(<a href="x">&'</a>)"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  ServerInfo info;
  info.name = "<script>x</script>";
  info.version = "1\"2";
  info.players = 3;
  info.capacity = 16;
  info.racing = true;
  info.web = "http://example.org/a'b";
  info.rooms = {RoomSummary{"r&d", "sprint", 1, 8, "racing"}, RoomSummary{"two", "ultra", 0, 4, "waiting"}};
  const std::string page = servers_html({ListedServer{"2001:db8::1", 7777, info, 3}});
  EXPECT_EQ(page.find("<script>"), std::string::npos);
  EXPECT_NE(page.find("<tr><td><a href=\"http://example.org/a&#39;b\" rel=\"nofollow\">&lt;script&gt;x&lt;/script&gt;"
                      "</a></td><td>[2001:db8::1]:7777</td><td>3/16</td><td>r&amp;d (sprint, racing, 1/8)<br>two "
                      "(ultra, waiting, 0/4)</td><td>yes</td><td>1&quot;2</td></tr>"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<p>1 public server (the same list"), std::string::npos);
  EXPECT_NE(servers_html({}).find("<p>0 public servers"), std::string::npos);
}

TEST(HubMetrics, TheTextIsExact) {
  Registry r(HubLimits{}, CountingTokens());
  (void)list_server(r, "203.0.113.7", 7777, 0);
  (void)r.register_server("203.0.113.7", body(7778), 0);
  (void)r.register_server("203.0.113.7", "{}", 0);
  RequestCounts requests;
  requests.register_requests = 4;
  requests.servers = 2;
  requests.metrics = 1;
  requests.challenge_send_failures = 1;
  EXPECT_EQ(metrics_text(r, requests),
            "# HELP stackrace_hub_servers_listed Game servers listed (proven and not expired).\n"
            "# TYPE stackrace_hub_servers_listed gauge\n"
            "stackrace_hub_servers_listed 1\n"
            "# HELP stackrace_hub_open_challenges Hub challenges sent and not yet answered or lapsed.\n"
            "# TYPE stackrace_hub_open_challenges gauge\n"
            "stackrace_hub_open_challenges 1\n"
            "# HELP stackrace_hub_registrations_total Registrations answered, by outcome (refusals by reason).\n"
            "# TYPE stackrace_hub_registrations_total counter\n"
            "stackrace_hub_registrations_total{outcome=\"listed\"} 1\n"
            "stackrace_hub_registrations_total{outcome=\"renewed\"} 0\n"
            "stackrace_hub_registrations_total{outcome=\"challenged\"} 2\n"
            "stackrace_hub_registrations_total{outcome=\"refused\",reason=\"bad_request\"} 1\n"
            "stackrace_hub_registrations_total{outcome=\"refused\",reason=\"wrong_token\"} 0\n"
            "stackrace_hub_registrations_total{outcome=\"refused\",reason=\"wrong_secret\"} 0\n"
            "stackrace_hub_registrations_total{outcome=\"refused\",reason=\"rate_limited\"} 0\n"
            "stackrace_hub_registrations_total{outcome=\"refused\",reason=\"address_servers\"} 0\n"
            "stackrace_hub_registrations_total{outcome=\"refused\",reason=\"address_challenges\"} 0\n"
            "stackrace_hub_registrations_total{outcome=\"refused\",reason=\"full\"} 0\n"
            "# HELP stackrace_hub_requests_total HTTP requests answered, by route.\n"
            "# TYPE stackrace_hub_requests_total counter\n"
            "stackrace_hub_requests_total{route=\"register\"} 4\n"
            "stackrace_hub_requests_total{route=\"servers\"} 2\n"
            "stackrace_hub_requests_total{route=\"page\"} 0\n"
            "stackrace_hub_requests_total{route=\"metrics\"} 1\n"
            "stackrace_hub_requests_total{route=\"healthz\"} 0\n"
            "stackrace_hub_requests_total{route=\"submit\"} 0\n"
            "stackrace_hub_requests_total{route=\"records_api\"} 0\n"
            "stackrace_hub_requests_total{route=\"records_pages\"} 0\n"
            "stackrace_hub_requests_total{route=\"games\"} 0\n"
            "stackrace_hub_requests_total{route=\"site\"} 0\n"
            "stackrace_hub_requests_total{route=\"other\"} 0\n"
            "# HELP stackrace_hub_challenge_send_failures_total Challenge datagrams the socket could not send.\n"
            "# TYPE stackrace_hub_challenge_send_failures_total counter\n"
            "stackrace_hub_challenge_send_failures_total 1\n");
}

}  // namespace
}  // namespace sr::hub::test
