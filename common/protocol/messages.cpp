#include "common/protocol/messages.h"

#include <array>
#include <cassert>
#include <string>
#include <string_view>
#include <utility>

namespace sr::protocol {
namespace {

constexpr std::size_t kMessageKinds = static_cast<std::size_t>(MessageId::kCount) - 1;
static_assert(std::variant_size_v<Message> == kMessageKinds, "one variant alternative per message id");

// Alternative i of Message must be the struct whose kId is i + 1.
template <std::size_t... I>
constexpr bool ids_in_variant_order(std::index_sequence<I...>) {
  return ((static_cast<std::size_t>(std::variant_alternative_t<I, Message>::kId) == I + 1) && ...);
}
static_assert(ids_in_variant_order(std::make_index_sequence<kMessageKinds>{}),
              "Message alternatives must be listed in id order");

struct MessageInfo {
  MessageId id;
  const char* name;
  Sender sender;
  std::uint8_t channel;
};

constexpr Sender C = Sender::kClient;
constexpr Sender S = Sender::kServer;
constexpr Sender E = Sender::kEither;

// Indexed by id; PROTOCOL.md's message table mirrors it.
constexpr std::array<MessageInfo, static_cast<std::size_t>(MessageId::kCount)> kInfo = {{
    {MessageId::kNone, "None", E, kChannelControl},
    {MessageId::kHello, "Hello", C, kChannelControl},
    {MessageId::kWelcome, "Welcome", S, kChannelControl},
    {MessageId::kReject, "Reject", S, kChannelControl},
    {MessageId::kPing, "Ping", E, kChannelControl},
    {MessageId::kPong, "Pong", E, kChannelControl},
    {MessageId::kDisconnecting, "Disconnecting", S, kChannelControl},
    {MessageId::kNotice, "Notice", S, kChannelControl},
    {MessageId::kListRooms, "ListRooms", C, kChannelControl},
    {MessageId::kRoomList, "RoomList", S, kChannelControl},
    {MessageId::kCreateRoom, "CreateRoom", C, kChannelControl},
    {MessageId::kJoinRoom, "JoinRoom", C, kChannelControl},
    {MessageId::kRoomJoined, "RoomJoined", S, kChannelControl},
    {MessageId::kLeaveRoom, "LeaveRoom", C, kChannelControl},
    {MessageId::kRoomLeft, "RoomLeft", S, kChannelControl},
    {MessageId::kSendChat, "SendChat", C, kChannelControl},
    {MessageId::kChat, "Chat", S, kChannelControl},
    {MessageId::kRoomUpdate, "RoomUpdate", S, kChannelControl},
    {MessageId::kChangeSettings, "ChangeSettings", C, kChannelControl},
    {MessageId::kSetHandling, "SetHandling", C, kChannelControl},
    {MessageId::kSetReady, "SetReady", C, kChannelControl},
    {MessageId::kSetRole, "SetRole", C, kChannelControl},
    {MessageId::kKickPlayer, "KickPlayer", C, kChannelControl},
    {MessageId::kStartRace, "StartRace", C, kChannelControl},
    {MessageId::kCountdownStart, "CountdownStart", S, kChannelRace},
    {MessageId::kRaceStart, "RaceStart", S, kChannelRace},
    {MessageId::kRaceInput, "RaceInput", C, kChannelRace},
    {MessageId::kStateHashReport, "StateHashReport", C, kChannelRace},
    {MessageId::kRacerInputs, "RacerInputs", S, kChannelRace},
    {MessageId::kLiveStats, "LiveStats", S, kChannelLive},
    {MessageId::kRacerEnded, "RacerEnded", S, kChannelRace},
    {MessageId::kRaceResults, "RaceResults", S, kChannelRace},
    {MessageId::kReplayStored, "ReplayStored", S, kChannelRace},
    {MessageId::kCatchUpStart, "CatchUpStart", S, kChannelRace},
    {MessageId::kCatchUpEnd, "CatchUpEnd", S, kChannelRace},
    {MessageId::kListGames, "ListGames", C, kChannelControl},
    {MessageId::kGameList, "GameList", S, kChannelControl},
    {MessageId::kDownloadReplay, "DownloadReplay", C, kChannelControl},
    {MessageId::kReplayChunk, "ReplayChunk", S, kChannelBulk},
    {MessageId::kReplayUnavailable, "ReplayUnavailable", S, kChannelBulk},
    {MessageId::kRaceSeat, "RaceSeat", S, kChannelRace},
    {MessageId::kResume, "Resume", C, kChannelControl},
    {MessageId::kRaceResumed, "RaceResumed", S, kChannelRace},
    {MessageId::kRaceInputCopy, "RaceInputCopy", C, kChannelRaceFast},
    {MessageId::kRaceInputAck, "RaceInputAck", S, kChannelRaceFast},
    {MessageId::kReplayNotStored, "ReplayNotStored", S, kChannelRace},
    {MessageId::kLadderEnter, "LadderEnter", C, kChannelControl},
    {MessageId::kListLadder, "ListLadder", C, kChannelControl},
    {MessageId::kLadder, "Ladder", S, kChannelControl},
    {MessageId::kKeyChallenge, "KeyChallenge", S, kChannelControl},
    {MessageId::kRunSigned, "RunSigned", C, kChannelRace},
}};

constexpr bool table_in_id_order() {
  for (std::size_t i = 0; i < kInfo.size(); ++i) {
    if (static_cast<std::size_t>(kInfo[i].id) != i) return false;
  }
  return true;
}
static_assert(table_in_id_order(), "kInfo must list every id in order");

}  // namespace

MessageId message_id(const Message& message) {
  return std::visit([](const auto& m) { return std::remove_cvref_t<decltype(m)>::kId; }, message);
}

const char* message_name(MessageId id) {
  const auto i = static_cast<std::size_t>(id);
  return i < kInfo.size() ? kInfo[i].name : "Unknown";
}

Sender message_sender(MessageId id) {
  assert(is_message_id(static_cast<std::uint8_t>(id)));
  return kInfo[static_cast<std::size_t>(id) % kInfo.size()].sender;
}

std::uint8_t message_channel(MessageId id) {
  assert(is_message_id(static_cast<std::uint8_t>(id)));
  return kInfo[static_cast<std::size_t>(id) % kInfo.size()].channel;
}

sr::Status<std::string> check_route(MessageId id, std::uint8_t channel, Sender from) {
  const Sender allowed = message_sender(id);
  if (allowed != Sender::kEither && allowed != from) {
    return std::string(from == Sender::kClient ? "clients" : "servers") + " may not send " + message_name(id);
  }
  if (const std::uint8_t own = message_channel(id); channel != own) {
    return std::string(message_name(id)) + " on channel " + std::to_string(channel) + ", not " + std::to_string(own);
  }
  return {};
}

ModeSummary summarize(const engine::GameConfig& config) {
  ModeSummary s;
  s.mode = config.mode;
  s.limit = config.limit;
  // limit_value means nothing without a limit (and check_config() does not check it then).
  s.limit_value = config.limit == engine::LimitKind::kNone ? 0 : config.limit_value;
  s.goal = config.goal;
  return s;
}

std::int64_t ladder_sum(const LadderRow& row) {
  std::int64_t sum = 0;
  for (const LadderGame& g : row.best) sum += g.score;
  return sum;
}

std::string ladder_average_text(std::int64_t sum, std::int64_t count) {
  assert(sum >= 0 && count >= 1);
  // Hundredths, rounded half up, computed without overflow: whole part and remainder separately.
  const std::int64_t whole = sum / count;
  const std::int64_t hundredths = ((sum % count) * 200 + count) / (2 * count);  // 0..100
  const std::int64_t w = whole + hundredths / 100;
  const std::int64_t h = hundredths % 100;
  return std::to_string(w) + (h < 10 ? ".0" : ".") + std::to_string(h);
}

std::string key_hex(const PublicKeyBytes& key) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(key.size() * 2);
  for (const std::uint8_t b : key) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

std::vector<std::uint8_t> key_proof_message(const KeyChallengeBytes& challenge) {
  static constexpr std::string_view kPrefix = "stackrace key proof 1";
  std::vector<std::uint8_t> out(kPrefix.begin(), kPrefix.end());
  out.push_back(0);
  out.insert(out.end(), challenge.begin(), challenge.end());
  return out;
}

}  // namespace sr::protocol
