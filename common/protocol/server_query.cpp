#include "common/protocol/server_query.h"

#include <cassert>

namespace sr::protocol {
namespace {

constexpr std::array<std::uint8_t, 6> kMagic = {0xFF, 0xFF, 0xFF, 0xFF, 's', 'r'};

void put_header(std::vector<std::uint8_t>& out, QueryKind kind) {
  out.insert(out.end(), kMagic.begin(), kMagic.end());
  out.push_back(static_cast<std::uint8_t>(kind));
  out.push_back(kQueryVersion);
}

bool has_header(std::span<const std::uint8_t> datagram, QueryKind kind) {
  return datagram.size() >= kQueryHeaderBytes && has_query_prefix(datagram) &&
         datagram[6] == static_cast<std::uint8_t>(kind) && datagram[7] == kQueryVersion;
}

void put_nonce(std::vector<std::uint8_t>& out, std::uint64_t nonce) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(nonce >> shift));
}

std::uint64_t get_nonce(std::span<const std::uint8_t> datagram) {
  std::uint64_t nonce = 0;
  for (std::size_t i = 0; i < kNonceBytes; ++i) nonce = (nonce << 8) | datagram[kQueryHeaderBytes + i];
  return nonce;
}

}  // namespace

bool has_query_prefix(std::span<const std::uint8_t> datagram) {
  if (datagram.size() < kQueryPrefixBytes) return false;
  for (std::size_t i = 0; i < kMagic.size(); ++i) {
    if (datagram[i] != kMagic[i]) return false;
  }
  return true;
}

std::vector<std::uint8_t> encode_query(std::uint64_t nonce) {
  std::vector<std::uint8_t> out;
  out.reserve(kQueryBytes);
  put_header(out, QueryKind::kQuery);
  put_nonce(out, nonce);
  out.resize(kQueryBytes, 0);
  return out;
}

std::optional<std::uint64_t> decode_query(std::span<const std::uint8_t> datagram) {
  if (datagram.size() != kQueryBytes || !has_header(datagram, QueryKind::kQuery)) return std::nullopt;
  return get_nonce(datagram);
}

std::vector<std::uint8_t> encode_info(std::uint64_t nonce, std::string_view info_json) {
  assert(info_json.size() <= kMaxInfoJsonBytes);
  std::vector<std::uint8_t> out;
  out.reserve(kQueryHeaderBytes + kNonceBytes + info_json.size());
  put_header(out, QueryKind::kInfo);
  put_nonce(out, nonce);
  out.insert(out.end(), info_json.begin(), info_json.end());
  return out;
}

std::optional<InfoDatagram> decode_info(std::span<const std::uint8_t> datagram) {
  if (datagram.size() < kQueryHeaderBytes + kNonceBytes || datagram.size() > kMaxInfoDatagramBytes ||
      !has_header(datagram, QueryKind::kInfo)) {
    return std::nullopt;
  }
  InfoDatagram info;
  info.nonce = get_nonce(datagram);
  const auto json = datagram.subspan(kQueryHeaderBytes + kNonceBytes);
  info.json.assign(json.begin(), json.end());
  return info;
}

std::vector<std::uint8_t> encode_challenge(std::string_view token) {
  assert(token.size() == kChallengeTokenChars);
  std::vector<std::uint8_t> out;
  put_header(out, QueryKind::kChallenge);
  out.insert(out.end(), token.begin(), token.end());
  return out;
}

std::optional<std::string> decode_challenge(std::span<const std::uint8_t> datagram) {
  if (datagram.size() != kQueryHeaderBytes + kChallengeTokenChars || !has_header(datagram, QueryKind::kChallenge)) {
    return std::nullopt;
  }
  std::string token;
  for (std::uint8_t c : datagram.subspan(kQueryHeaderBytes)) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
    token.push_back(static_cast<char>(c));
  }
  return token;
}

}  // namespace sr::protocol
