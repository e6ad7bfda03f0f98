#include "server/web/web_limits.h"

namespace sr::server::web {

const char* refusal_text(WebRefusal refusal) {
  switch (refusal) {
    case WebRefusal::kNone: return "ok";
    case WebRefusal::kConnections: return "the server has too many connections open; try again later";
    case WebRefusal::kConnectionsFromAddress: return "too many connections from your address";
    case WebRefusal::kStreams: return "the server has too many live pages open; try again later";
    case WebRefusal::kStreamsFromAddress: return "too many live pages open from your address";
    case WebRefusal::kRequestRate: return "too many requests from your address; try again in a moment";
  }
  return "refused";
}

AddressLimits::AddressLimits(WebLimits limits)
    : limits_(std::move(limits)), trusted_(limits_.trusted.begin(), limits_.trusted.end()), refused_(6, 0) {}

AddressLimits::Address& AddressLimits::at(const std::string& address) {
  auto it = by_address_.find(address);
  if (it == by_address_.end()) {
    it =
        by_address_.emplace(address, Address{0, 0, RateLimiter(limits_.request_burst, limits_.requests_per_second), -1})
            .first;
  }
  return it->second;
}

WebRefusal AddressLimits::refuse(WebRefusal why) {
  ++refused_[static_cast<std::size_t>(why)];
  return why;
}

WebRefusal AddressLimits::open_connection(const std::string& address) {
  if (connections_ >= limits_.max_connections) return refuse(WebRefusal::kConnections);
  Address& a = at(address);
  if (!trusted(address) && a.connections >= limits_.max_connections_per_address) {
    return refuse(WebRefusal::kConnectionsFromAddress);
  }
  ++a.connections;
  ++connections_;
  return WebRefusal::kNone;
}

void AddressLimits::close_connection(const std::string& address) {
  const auto it = by_address_.find(address);
  if (it == by_address_.end() || it->second.connections == 0) return;
  --it->second.connections;
  --connections_;
}

WebRefusal AddressLimits::open_stream(const std::string& address) {
  if (streams_ >= limits_.max_streams) return refuse(WebRefusal::kStreams);
  Address& a = at(address);
  if (!trusted(address) && a.streams >= limits_.max_streams_per_address) {
    return refuse(WebRefusal::kStreamsFromAddress);
  }
  ++a.streams;
  ++streams_;
  return WebRefusal::kNone;
}

void AddressLimits::close_stream(const std::string& address) {
  const auto it = by_address_.find(address);
  if (it == by_address_.end() || it->second.streams == 0) return;
  --it->second.streams;
  --streams_;
}

WebRefusal AddressLimits::allow_request(const std::string& address, std::int64_t now_us) {
  if (trusted(address)) return WebRefusal::kNone;
  Address& a = at(address);
  a.last_request_us = now_us;
  if (!a.requests.allow(now_us)) return refuse(WebRefusal::kRequestRate);
  return WebRefusal::kNone;
}

void AddressLimits::forget_idle(std::int64_t now_us) {
  // A bucket is full again this long after its last request.
  const std::int64_t refill_us =
      limits_.requests_per_second > 0 ? limits_.request_burst * 1'000'000 / limits_.requests_per_second + 1 : 0;
  for (auto it = by_address_.begin(); it != by_address_.end();) {
    const Address& a = it->second;
    if (a.connections == 0 && a.streams == 0 && (a.last_request_us < 0 || now_us - a.last_request_us >= refill_us)) {
      it = by_address_.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace sr::server::web
