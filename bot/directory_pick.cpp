#include "bot/directory_pick.h"

#include <fmt/format.h>
#include <httplib.h>

#include "common/protocol/web_url.h"

namespace sr::botcli {

sr::Result<net::ListedServer, std::string> pick_server(const std::vector<net::ListedServer>& listed,
                                                       const std::optional<std::string>& name, std::uint32_t protocol) {
  const net::ListedServer* best = nullptr;
  const net::ListedServer* other_protocol = nullptr;
  for (const net::ListedServer& s : listed) {
    if (name && s.info.name != *name) continue;
    if (s.info.protocol != protocol) {
      if (other_protocol == nullptr) other_protocol = &s;
      continue;
    }
    if (best == nullptr || s.info.players > best->info.players) best = &s;
  }
  if (best != nullptr) return *best;
  if (other_protocol != nullptr) {
    return sr::fail(fmt::format("the directory's server '{}' at {}:{} speaks protocol {}, this bot {}",
                                other_protocol->info.name, other_protocol->address, other_protocol->info.port,
                                other_protocol->info.protocol, protocol));
  }
  if (name) return sr::fail(fmt::format("the directory lists no server named '{}'", *name));
  return sr::fail(std::string("the directory lists no server"));
}

sr::Result<std::vector<net::ListedServer>, std::string> fetch_directory(const std::string& url) {
  std::string base = url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  auto parsed = protocol::parse_web_url(base + "/api/servers");
  if (!parsed) return sr::fail(fmt::format("--directory {}: {}", url, parsed.error()));
  if (parsed.value().https) return sr::fail(fmt::format("--directory {}: https is not supported", url));
  httplib::Client client(parsed.value().host, parsed.value().port);
  client.set_connection_timeout(10, 0);
  client.set_read_timeout(10, 0);
  const auto answer = client.Get(parsed.value().path.c_str());
  if (!answer) {
    return sr::fail(fmt::format("the directory {} did not answer ({})", url, httplib::to_string(answer.error())));
  }
  if (answer->status != 200) return sr::fail(fmt::format("the directory {} answered {}", url, answer->status));
  auto list = net::parse_directory_servers(answer->body);
  if (!list) return sr::fail(fmt::format("the directory {} sent a list this bot cannot read: {}", url, list.error()));
  return list;
}

}  // namespace sr::botcli
