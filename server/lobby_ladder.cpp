// The lobby's side of the contest ladder (server/ladder.h, PROTOCOL.md "Contest ladder"): a ladder game is a private
// room with its entrant as the only racer, locked, its countdown started at once.
#include "server/lobby.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cassert>

namespace sr::server {

using protocol::MessageId;
using protocol::NoticeCode;

void Lobby::on_ladder_enter(Player& player, const protocol::LadderEnter& m, TimeUs now_us) {
  constexpr MessageId kAbout = MessageId::kLadderEnter;
  if (ladder_ == nullptr) {
    return notice(player.id, NoticeCode::kInvalidRequest, kAbout, "this server runs no contest ladder");
  }
  if (!may_create_room(player, kAbout, now_us)) return;
  const std::int64_t unix_ms = room_services_.unix_ms != nullptr ? room_services_.unix_ms() : 0;
  if (ladder_->asynchronous()) {
    // The database answers on the ladder's worker: on_ladder_answers() starts the game.
    return ladder_->request_enter(player.id, m.entrant, player.key, m.ranked, unix_ms);
  }
  if (auto allowed = ladder_->check(m.entrant, player.key, m.legacy_secret, m.ranked, unix_ms); !allowed) {
    spdlog::info("{} ({}): ladder game refused: {}", player.name, player.address, allowed.error());
    return notice(player.id, NoticeCode::kInvalidRequest, kAbout, allowed.error());
  }
  Room* room = open_ladder_room(player, m.entrant, m.ranked, now_us);
  if (room == nullptr) return;
  // The game is spent on the disk before its countdown goes out: a crash after it cannot give it back.
  const std::uint32_t race_id = room->latest_race_id() + 1;  // the race start() begins
  if (auto recorded = ladder_->start(m.entrant, m.ranked, room->id(), race_id, unix_ms); !recorded) {
    notice(player.id, NoticeCode::kInternalError, kAbout, recorded.error());
    room->leave(player, protocol::RoomLeftReason::kRoomClosed, recorded.error(), now_us);
    return close_if_empty(room->id(), now_us);
  }
  const bool started = room->start(now_us);
  assert(started && room->latest_race_id() == race_id);
  (void)started;
}

void Lobby::on_ladder_answers(std::vector<LadderEntered> answers, TimeUs now_us) {
  constexpr MessageId kAbout = MessageId::kLadderEnter;
  for (const LadderEntered& a : answers) {
    const auto it = players_.find(a.player);
    if (it == players_.end()) {
      ladder_->cancel(a);  // gone while the database answered: the game never started
      continue;
    }
    Player& player = it->second;
    if (a.refused) {
      spdlog::info("{} ({}): ladder game refused: {}", player.name, player.address, *a.refused);
      notice(player.id, NoticeCode::kInvalidRequest, kAbout, *a.refused);
      continue;
    }
    Room* room = open_ladder_room(player, a.entrant, a.ranked, now_us);
    if (room == nullptr) {
      ladder_->cancel(a);
      continue;
    }
    // Spent in the database already (the worker's transaction): the countdown may go out.
    const std::uint32_t race_id = room->latest_race_id() + 1;
    ladder_->started(a, room->id(), race_id);
    const bool started = room->start(now_us);
    assert(started && room->latest_race_id() == race_id);
    (void)started;
  }
}

Room* Lobby::open_ladder_room(Player& player, const std::string& entrant, bool ranked, TimeUs now_us) {
  protocol::RoomSettings settings;
  settings.name = (ranked ? "ladder " : "practice ") + entrant;
  settings.config = ladder_->contest_config();
  settings.max_racers = 1;
  settings.is_private = true;
  settings.auto_start = false;
  const RoomId id = next_room_id_++;
  auto room = std::make_unique<Room>(id, settings, new_room_code(), room_services_, counters_);
  Room& ref = *room;
  ref.lock();
  rooms_.emplace(id, std::move(room));
  room_creators_.emplace(id, player.host);
  if (const auto refused = ref.join(player, protocol::Role::kRacer, now_us)) {
    notice(player.id, *refused, MessageId::kLadderEnter, "");
    close_if_empty(id, now_us);
    return nullptr;
  }
  spdlog::info("{} plays a {} ladder game as '{}' in room {}", player.name, ranked ? "ranked" : "practice", entrant,
               id);
  return &ref;
}

void Lobby::on_list_ladder(Player& player, TimeUs now_us) {
  constexpr MessageId kAbout = MessageId::kListLadder;
  if (ladder_ == nullptr) {
    return notice(player.id, NoticeCode::kInvalidRequest, kAbout, "this server runs no contest ladder");
  }
  std::string why;
  if (!allow_request(player, now_us, why)) return notice(player.id, NoticeCode::kRateLimited, kAbout, why);
  room_services_.outbox->send(player.id, ladder_->board(), protocol::kChannelControl);
}

}  // namespace sr::server
