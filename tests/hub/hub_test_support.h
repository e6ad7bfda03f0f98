// Helpers of the hub tests: predictable tokens, registration bodies, and a registry walked through a challenge.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "hub/registry.h"

namespace sr::hub::test {

// Tokens "00000000000000000000000000000001", "...02", ... in the order asked for.
class CountingTokens {
 public:
  std::string operator()() {
    char text[33];
    std::snprintf(text, sizeof text, "%032x", ++n_);
    return text;
  }

 private:
  unsigned n_ = 0;
};

// The info of DIRECTORY.md's example, with `name`.
inline std::string info_json(const std::string& name = "Ada's server") {
  return R"({"name":")" + name +
         R"(","protocol":7,"version":"0.9.0","players":3,"capacity":256,)"
         R"("rooms":[{"name":"sprint 40","mode":"sprint","racers":2,"max_racers":8,"phase":"racing"}],)"
         R"("racing":true,"ladder":false,"web":"http://example.org:8080/","port":7777})";
}

// {"port":P[,"token":T][,"secret":S],"info":INFO}.
inline std::string body(int port, const std::string& token = "", const std::string& secret = "",
                        const std::string& info = info_json()) {
  std::string b = "{\"port\":" + std::to_string(port);
  if (!token.empty()) b += ",\"token\":\"" + token + "\"";
  if (!secret.empty()) b += ",\"secret\":\"" + secret + "\"";
  return b + ",\"info\":" + info + "}";
}

// Registers address:port through its challenge at now_ms; returns the secret ("" if it was not listed).
inline std::string list_server(Registry& registry, const std::string& address, int port, std::int64_t now_ms,
                               const std::string& info = info_json()) {
  const RegisterAnswer challenged = registry.register_server(address, body(port, "", "", info), now_ms);
  if (challenged.outcome != Outcome::kChallenged) return "";
  const RegisterAnswer listed =
      registry.register_server(address, body(port, challenged.challenge_token, "", info), now_ms);
  if (listed.outcome != Outcome::kListed) return "";
  const std::string key = "\"secret\":\"";
  const std::size_t at = listed.body.find(key);
  return at == std::string::npos ? "" : listed.body.substr(at + key.size(), 32);
}

}  // namespace sr::hub::test
