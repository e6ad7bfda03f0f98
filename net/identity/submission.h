// A records submission (common/protocol/RECORDS.md, "3. Submitting (server to hub)"): what a game server that opted in
// sends a records hub at the end of a race, signed with the server's own key. The body is JSON: the server's key and
// name, its game id, the replay file (base64) and the racers whose run signatures it carries. The signature, in the
// header X-Stackrace-Signature, covers "stackrace submission 1\n" followed by the exact body bytes, so nothing needs a
// canonical JSON form. The server builds and signs (encode_submission, sign_submission); the hub parses and checks
// (parse_submission) before it re-simulates anything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "net/identity/player_key.h"

namespace sr::net {

inline constexpr std::uint32_t kSubmissionVersion = 1;
inline constexpr std::size_t kMaxSubmissionBytes = std::size_t{1} << 20;  // the body, base64 replay included
inline constexpr std::size_t kMaxSubmissionRuns = 64;                     // replay::kMaxReplayRacers
inline constexpr const char* kSubmissionSignatureHeader = "X-Stackrace-Signature";

struct RunClaim {
  std::uint32_t racer = 0;  // index into the replay's racers
  Signature signature{};    // the racer's run signature (run_signature.h)
  bool operator==(const RunClaim&) const = default;
};

struct Submission {
  std::uint32_t version = kSubmissionVersion;
  PublicKey server_key{};
  std::string server_name;           // protocol::kServerNameText
  std::string web_url;               // the server's pages (protocol::kWebUrlText), or empty
  std::string game_id;               // the game's id in the server's own store (16 lower-case hex digits), or empty
  std::uint64_t sequence = 0;        // the server's queue number of this submission: 1, 2, ... in the order sent
  std::vector<std::uint8_t> replay;  // the replay file's bytes (replay::encode_binary)
  std::vector<RunClaim> runs;        // 1..kMaxSubmissionRuns, racers in increasing order, each once
  bool operator==(const Submission&) const = default;
};

// The body. `submission` must be valid (what parse_submission accepts; asserted for the counts).
[[nodiscard]] std::string encode_submission(const Submission& submission);
// The signature header's value: 128 lower-case hex digits of the server key's signature of the body.
[[nodiscard]] std::string sign_submission(const PlayerKey& server_key, std::string_view body);

// Why a submission is refused before any re-simulation: the HTTP status the hub answers (400 a body that is not a
// submission, 403 a signature that is not the named key's, 413 too large) and a sentence.
struct SubmissionRefusal {
  int status = 400;
  std::string reason;
};

// Checks the body's form and limits, then the signature against the body's own server_key. Says nothing of the
// replay beyond "its bytes are there": decoding and verifying it is the hub's next step.
[[nodiscard]] sr::Result<Submission, SubmissionRefusal> parse_submission(std::string_view body,
                                                                         std::string_view signature_hex);

// Lower-case hex of bytes, and back (none unless `hex` is exactly 2 * N lower-case hex digits).
[[nodiscard]] std::string to_hex(std::span<const std::uint8_t> bytes);
template <std::size_t N>
[[nodiscard]] std::optional<std::array<std::uint8_t, N>> from_hex(std::string_view hex);

}  // namespace sr::net
