// The datagrams of server queries, LAN discovery and hub challenges (common/protocol/DIRECTORY.md, "1. Server
// queries (UDP, on the game port)"): their bytes only, no sockets. The server, the browsing library (net/discovery)
// and the directory (hub/) all read and write them here.
//
// Every datagram starts with the 7-byte prefix FF FF FF FF 's' 'r' KIND, then a version byte (kQueryVersion).
// Values are sent: never change them (a new layout gets a new version).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sr::protocol {

inline constexpr std::uint8_t kQueryVersion = 1;
inline constexpr std::size_t kQueryPrefixBytes = 7;         // FF FF FF FF 's' 'r' KIND
inline constexpr std::size_t kQueryHeaderBytes = 8;         // the prefix and the version
inline constexpr std::size_t kQueryBytes = 1024;            // a query is exactly this long (zero padded)
inline constexpr std::size_t kMaxInfoDatagramBytes = 1024;  // an info datagram is never longer
inline constexpr std::size_t kNonceBytes = 8;
// The info JSON's room in an info datagram: the whole less the header and the nonce.
inline constexpr std::size_t kMaxInfoJsonBytes = kMaxInfoDatagramBytes - kQueryHeaderBytes - kNonceBytes;
inline constexpr std::size_t kChallengeTokenChars = 32;  // lower-case hex digits
inline constexpr std::uint16_t kDiscoveryPort =
    47777;  // LAN discovery (DIRECTORY.md, "2. LAN discovery (UDP broadcast and IPv6 multicast)")

enum class QueryKind : std::uint8_t {
  kQuery = 'q',
  kInfo = 'i',
  kChallenge = 'h',
};

// True when `datagram` starts with FF FF FF FF 's' 'r' (any kind): it is ours, never ENet's, and never answered
// unless it is exactly a valid query.
[[nodiscard]] bool has_query_prefix(std::span<const std::uint8_t> datagram);

// A query datagram: the prefix with 'q', the version, `nonce` (big-endian), zeros up to kQueryBytes.
[[nodiscard]] std::vector<std::uint8_t> encode_query(std::uint64_t nonce);
// The nonce of a valid query (exactly kQueryBytes, kind 'q', version kQueryVersion; the padding is not looked at),
// nullopt for anything else.
[[nodiscard]] std::optional<std::uint64_t> decode_query(std::span<const std::uint8_t> datagram);

// An info datagram answering the query with `nonce`. Precondition: info_json.size() <= kMaxInfoJsonBytes.
[[nodiscard]] std::vector<std::uint8_t> encode_info(std::uint64_t nonce, std::string_view info_json);
struct InfoDatagram {
  std::uint64_t nonce = 0;
  std::string json;  // as sent; not checked here (the reader parses it tolerantly)
};
// A valid info datagram (kind 'i', version kQueryVersion, at most kMaxInfoDatagramBytes, a nonce), nullopt otherwise.
[[nodiscard]] std::optional<InfoDatagram> decode_info(std::span<const std::uint8_t> datagram);

// A hub challenge datagram carrying `token` (kChallengeTokenChars lower-case hex digits; precondition).
[[nodiscard]] std::vector<std::uint8_t> encode_challenge(std::string_view token);
// The token of a valid challenge (kind 'h', version kQueryVersion, exactly 32 lower-case hex digits after it),
// nullopt otherwise.
[[nodiscard]] std::optional<std::string> decode_challenge(std::span<const std::uint8_t> datagram);

}  // namespace sr::protocol
