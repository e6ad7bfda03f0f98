#include "net/identity/submission.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sodium.h>

#include <cassert>
#include <cstdlib>
#include <cstring>
#include <set>

#include "common/protocol/text.h"

namespace sr::net {
namespace {

constexpr std::string_view kSubmissionTag = "stackrace submission 1\n";

std::vector<std::uint8_t> signed_bytes(std::string_view body) {
  // Sized once and copied with memcpy: g++ -O3 warned (-Warray-bounds, a false positive) on inserting the body
  // after the tag.
  std::vector<std::uint8_t> message(kSubmissionTag.size() + body.size());
  std::memcpy(message.data(), kSubmissionTag.data(), kSubmissionTag.size());
  if (!body.empty()) std::memcpy(message.data() + kSubmissionTag.size(), body.data(), body.size());
  return message;
}

bool is_lower_hex(std::string_view text) {
  for (const char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

const rapidjson::Value* member(const rapidjson::Value& v, const char* name) {
  const auto it = v.FindMember(name);
  return it == v.MemberEnd() ? nullptr : &it->value;
}

std::string_view str(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }

SubmissionRefusal bad(std::string reason) { return SubmissionRefusal{400, std::move(reason)}; }

}  // namespace

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

template <std::size_t N>
std::optional<std::array<std::uint8_t, N>> from_hex(std::string_view hex) {
  if (hex.size() != 2 * N || !is_lower_hex(hex)) return std::nullopt;
  std::array<std::uint8_t, N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    out[i] = static_cast<std::uint8_t>(nibble(hex[2 * i]) * 16 + nibble(hex[2 * i + 1]));
  }
  return out;
}
template std::optional<std::array<std::uint8_t, 32>> from_hex<32>(std::string_view);
template std::optional<std::array<std::uint8_t, 64>> from_hex<64>(std::string_view);

std::string encode_submission(const Submission& s) {
  assert(!s.runs.empty() && s.runs.size() <= kMaxSubmissionRuns);
  if (sodium_init() < 0) std::abort();
  std::string base64(sodium_base64_encoded_len(s.replay.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(base64.data(), base64.size(), s.replay.data(), s.replay.size(), sodium_base64_VARIANT_ORIGINAL);
  base64.pop_back();  // the terminating NUL
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer> w(out);
  w.StartObject();
  w.Key("version");
  w.Uint(s.version);
  w.Key("server_key");
  const std::string key = to_hex(s.server_key);
  w.String(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  w.Key("server");
  w.String(s.server_name.data(), static_cast<rapidjson::SizeType>(s.server_name.size()));
  w.Key("web");
  w.String(s.web_url.data(), static_cast<rapidjson::SizeType>(s.web_url.size()));
  w.Key("game");
  w.String(s.game_id.data(), static_cast<rapidjson::SizeType>(s.game_id.size()));
  w.Key("sequence");
  w.Uint64(s.sequence);
  w.Key("replay");
  w.String(base64.data(), static_cast<rapidjson::SizeType>(base64.size()));
  w.Key("runs");
  w.StartArray();
  for (const RunClaim& run : s.runs) {
    w.StartObject();
    w.Key("racer");
    w.Uint(run.racer);
    w.Key("signature");
    const std::string sig = to_hex(run.signature);
    w.String(sig.data(), static_cast<rapidjson::SizeType>(sig.size()));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(out.GetString(), out.GetSize());
}

std::string sign_submission(const PlayerKey& server_key, std::string_view body) {
  return to_hex(server_key.sign(signed_bytes(body)));
}

sr::Result<Submission, SubmissionRefusal> parse_submission(std::string_view body, std::string_view signature_hex) {
  if (body.size() > kMaxSubmissionBytes) {
    return SubmissionRefusal{413, "the submission is " + std::to_string(body.size()) + " bytes; at most " +
                                      std::to_string(kMaxSubmissionBytes)};
  }
  if (body.empty()) return bad("the body is empty; send the submission as JSON");
  rapidjson::Document doc;
  // Iterative: deep nesting cannot exhaust the stack. Encoding checked: every string is valid UTF-8.
  doc.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(body.data(), body.size());
  if (doc.HasParseError()) {
    return bad(std::string("the body is not JSON (") + rapidjson::GetParseError_En(doc.GetParseError()) + ") at byte " +
               std::to_string(doc.GetErrorOffset()));
  }
  if (!doc.IsObject()) return bad("the body must be a JSON object");
  {
    std::set<std::string_view> seen;
    const rapidjson::Value& root = doc;  // const iterators: clang finds the mutable ones' != ambiguous in C++20
    for (auto it = root.MemberBegin(); it != root.MemberEnd(); ++it) {
      if (!seen.insert(str(it->name)).second) {
        return bad("the member \"" + std::string(str(it->name)) + "\" appears twice");
      }
    }
  }
  Submission s;
  const rapidjson::Value* version = member(doc, "version");
  if (!version || !version->IsUint()) return bad("version is missing or not a number");
  if (version->GetUint() != kSubmissionVersion) {
    return bad("submission version " + std::to_string(version->GetUint()) + "; this hub reads version " +
               std::to_string(kSubmissionVersion));
  }
  const rapidjson::Value* key = member(doc, "server_key");
  if (!key || !key->IsString()) return bad("server_key is missing");
  auto key_bytes = from_hex<32>(str(*key));
  if (!key_bytes) return bad("server_key must be 64 lower-case hex digits");
  s.server_key = *key_bytes;

  // The signature before anything else is believed: every later refusal is then about what that key sent.
  auto signature = from_hex<64>(signature_hex);
  if (!signature) {
    return SubmissionRefusal{403, std::string(kSubmissionSignatureHeader) + " must be 128 lower-case hex digits"};
  }
  if (!verify_signature(s.server_key, signed_bytes(body), *signature)) {
    return SubmissionRefusal{403, "the signature is not server_key's signature of this body"};
  }

  const rapidjson::Value* server = member(doc, "server");
  if (!server || !server->IsString()) return bad("server (the server's name) is missing");
  if (auto ok = protocol::check_text(str(*server), protocol::kServerNameText); !ok) {
    return bad("server: " + ok.error());
  }
  s.server_name = str(*server);
  if (const rapidjson::Value* web = member(doc, "web")) {
    if (!web->IsString()) return bad("web must be a string");
    if (auto ok = protocol::check_text(str(*web), protocol::kWebUrlText); !ok) return bad("web: " + ok.error());
    s.web_url = str(*web);
  }
  if (const rapidjson::Value* game = member(doc, "game")) {
    if (!game->IsString() ||
        !(game->GetStringLength() == 0 || (game->GetStringLength() == 16 && is_lower_hex(str(*game))))) {
      return bad("game must be empty or 16 lower-case hex digits");
    }
    s.game_id = str(*game);
  }
  const rapidjson::Value* sequence = member(doc, "sequence");
  if (!sequence || !sequence->IsUint64() || sequence->GetUint64() == 0) return bad("sequence must be a number >= 1");
  s.sequence = sequence->GetUint64();

  const rapidjson::Value* replay = member(doc, "replay");
  if (!replay || !replay->IsString() || replay->GetStringLength() == 0) return bad("replay (base64) is missing");
  s.replay.resize(replay->GetStringLength());  // base64 decodes to less than its length
  std::size_t decoded = 0;
  if (sodium_init() < 0) std::abort();
  if (sodium_base642bin(s.replay.data(), s.replay.size(), replay->GetString(), replay->GetStringLength(), nullptr,
                        &decoded, nullptr, sodium_base64_VARIANT_ORIGINAL) != 0 ||
      decoded == 0) {
    return bad("replay is not base64 (RFC 4648, with padding)");
  }
  s.replay.resize(decoded);

  const rapidjson::Value* runs = member(doc, "runs");
  if (!runs || !runs->IsArray()) return bad("runs is missing or not a list");
  if (runs->Empty() || runs->Size() > kMaxSubmissionRuns) {
    return bad("runs must name 1.." + std::to_string(kMaxSubmissionRuns) + " racers");
  }
  for (rapidjson::SizeType i = 0; i < runs->Size(); ++i) {
    const rapidjson::Value& run = (*runs)[i];
    const std::string where = "runs[" + std::to_string(i) + "]";
    if (!run.IsObject()) return bad(where + " must be an object");
    const rapidjson::Value* racer = member(run, "racer");
    if (!racer || !racer->IsUint() || racer->GetUint() >= kMaxSubmissionRuns) {
      return bad(where + ".racer must be a racer index 0.." + std::to_string(kMaxSubmissionRuns - 1));
    }
    if (!s.runs.empty() && racer->GetUint() <= s.runs.back().racer) {
      return bad(where + ".racer: racers must be listed once each, in increasing order");
    }
    const rapidjson::Value* sig = member(run, "signature");
    if (!sig || !sig->IsString()) return bad(where + ".signature is missing");
    auto sig_bytes = from_hex<64>(str(*sig));
    if (!sig_bytes) return bad(where + ".signature must be 128 lower-case hex digits");
    s.runs.push_back(RunClaim{racer->GetUint(), *sig_bytes});
  }
  return s;
}

}  // namespace sr::net
