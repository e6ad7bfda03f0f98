// Internal: the last valid value of every enum that travels as one byte. decode() rejects anything above it.
// Keep each in step with its enum (records.h, messages.h, common/engine/*.h); enum_ranges_test pins them.
#pragma once

#include "common/engine/config.h"
#include "common/engine/types.h"
#include "common/protocol/messages.h"
#include "common/protocol/records.h"

namespace sr::protocol::detail {

constexpr RejectReason last_value(RejectReason) { return RejectReason::kCannotResume; }
constexpr NoticeCode last_value(NoticeCode) { return NoticeCode::kInternalError; }
constexpr DisconnectReason last_value(DisconnectReason) { return DisconnectReason::kIdle; }
constexpr Role last_value(Role) { return Role::kSpectator; }
constexpr RoomPhase last_value(RoomPhase) { return RoomPhase::kResults; }
constexpr RoomLeftReason last_value(RoomLeftReason) { return RoomLeftReason::kRoomClosed; }
constexpr ChatScope last_value(ChatScope) { return ChatScope::kRoom; }
constexpr RacerStatus last_value(RacerStatus) { return RacerStatus::kUnfinished; }
constexpr RaceEndReason last_value(RaceEndReason) { return RaceEndReason::kAborted; }
constexpr GameListKind last_value(GameListKind) { return GameListKind::kPersonalBests; }
constexpr MessageId last_value(MessageId) {
  return static_cast<MessageId>(static_cast<std::uint8_t>(MessageId::kCount) - 1);
}

constexpr engine::ModeKind last_value(engine::ModeKind) { return engine::ModeKind::kCustom; }
constexpr engine::LimitKind last_value(engine::LimitKind) { return engine::LimitKind::kScore; }
constexpr engine::GoalKind last_value(engine::GoalKind) { return engine::GoalKind::kLines; }
constexpr engine::RotationSystem last_value(engine::RotationSystem) { return engine::RotationSystem::kOcular; }
constexpr engine::GeneratorKind last_value(engine::GeneratorKind) { return engine::GeneratorKind::kFixed; }
constexpr engine::LockDown last_value(engine::LockDown) { return engine::LockDown::kTimer; }
constexpr engine::Scoring last_value(engine::Scoring) { return engine::Scoring::kTetrs; }
constexpr engine::GoalSystem last_value(engine::GoalSystem) { return engine::GoalSystem::kVariable; }
constexpr engine::Gravity last_value(engine::Gravity) { return engine::Gravity::k20G; }
constexpr engine::Piece last_value(engine::Piece) { return engine::Piece::kGarbage; }

}  // namespace sr::protocol::detail
