// The hub challenge datagram (common/protocol/DIRECTORY.md, "1. Server queries (UDP, on the game port)", KIND 'h')
// and the UDP sockets the directory sends it from.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sr::hub {

inline constexpr std::uint8_t kChallengeVersion = 1;
inline constexpr std::size_t kChallengeBytes = 7 + 1 + 32;  // prefix, version, token

// FF FF FF FF 's' 'r' 'h', the version (1), the token's 32 lower-case hex digits. Precondition: is_token(token).
[[nodiscard]] std::vector<std::uint8_t> challenge_datagram(std::string_view token);

// Sends challenge datagrams from one IPv4 and one IPv6 UDP socket (either may be missing on a host without that
// family). Not copyable; the sockets close with it. send() is safe from several threads (sendto on one socket).
class ChallengeSender {
 public:
  ChallengeSender();
  ~ChallengeSender();
  ChallengeSender(const ChallengeSender&) = delete;
  ChallengeSender& operator=(const ChallengeSender&) = delete;

  // Sends the challenge with `token` to address:port; `address` is an IPv4 or IPv6 address in text.
  // # Errors
  // A sentence: the address is not one, no socket of its family, or sendto failed (errno's text).
  [[nodiscard]] sr::Status<std::string> send(const std::string& address, std::uint16_t port, std::string_view token);

 private:
  int v4_ = -1;
  int v6_ = -1;
};

}  // namespace sr::hub
