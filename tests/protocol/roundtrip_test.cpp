// Every message survives encode -> decode unchanged, and decode -> encode gives back the same bytes.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "common/protocol/codec.h"
#include "tests/protocol/samples.h"

namespace sr::protocol {
namespace {

using testing::sample;

template <class T>
class RoundTrip : public ::testing::Test {};

// Every alternative of Message, so a new message is covered (and needs a sample) automatically.
template <class V>
struct TypesOf;
template <class... T>
struct TypesOf<std::variant<T...>> {
  using type = ::testing::Types<T...>;
};
using AllMessages = TypesOf<Message>::type;

class MessageNames {
 public:
  template <class T>
  static std::string GetName(int) {
    return message_name(T::kId);
  }
};
TYPED_TEST_SUITE(RoundTrip, AllMessages, MessageNames);

TYPED_TEST(RoundTrip, DecodesToAnEqualMessage) {
  const TypeParam original = sample<TypeParam>();
  ASSERT_TRUE(validate(original).ok()) << validate(original).error().message;
  const std::vector<std::uint8_t> bytes = encode(original);
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(bytes[0], static_cast<std::uint8_t>(TypeParam::kId));

  const DecodeResult result = decode(bytes);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_TRUE(std::holds_alternative<TypeParam>(result.value()));
  EXPECT_EQ(std::get<TypeParam>(result.value()), original);
  EXPECT_EQ(message_id(result.value()), TypeParam::kId);
  EXPECT_EQ(encode(result.value()), bytes);
}

TYPED_TEST(RoundTrip, SampleDiffersFromDefault) {
  // A sample equal to the default would let a codec that drops fields pass the round trip.
  if constexpr (std::is_same_v<TypeParam, LeaveRoom> || std::is_same_v<TypeParam, StartRace> ||
                std::is_same_v<TypeParam, ListLadder>) {
    EXPECT_EQ(encode(sample<TypeParam>()).size(), 1u) << "no fields: the id alone";
  } else {
    EXPECT_NE(sample<TypeParam>(), TypeParam{});
  }
}

TEST(RoundTripList, TypedListCoversEveryId) {
  const auto samples = testing::all_samples();
  ASSERT_EQ(samples.size(), static_cast<std::size_t>(MessageId::kCount) - 1);
  std::set<std::string> names;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    EXPECT_EQ(static_cast<std::size_t>(message_id(samples[i])), i + 1);
    names.insert(message_name(message_id(samples[i])));
  }
  EXPECT_EQ(names.size(), samples.size()) << "message names must be distinct";
}

TEST(RoundTripConfig, DefaultsAndPresetsSurvive) {
  for (const engine::GameConfig& config :
       {engine::GameConfig{}, engine::make_sprint(), engine::make_ultra(), engine::make_marathon(),
        engine::make_master(), engine::make_endless(), engine::make_contest(), engine::make_custom()}) {
    const ChangeSettings m{RoomSettings{"room", config, 1, false, true}};
    const DecodeResult result = decode(encode(m));
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(std::get<ChangeSettings>(result.value()), m) << engine::mode_name(config.mode);
  }
}

TEST(RoundTripJoinRoom, ByIdAsWellAsByCode) {
  const JoinRoom by_id{4'000'000'000u, "", Role::kRacer};
  const DecodeResult result = decode(encode(by_id));
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(std::get<JoinRoom>(result.value()), by_id);
}

TEST(RoundTripWorstCase, BiggestMessagesSurvive) {
  for (const Message& m : testing::worst_case_samples()) {
    SCOPED_TRACE(message_name(message_id(m)));
    ASSERT_TRUE(validate(m).ok()) << validate(m).error().message;
    const auto bytes = encode(m);
    const DecodeResult result = decode(bytes);
    ASSERT_TRUE(result.ok()) << result.error().message;
    EXPECT_EQ(result.value(), m);
  }
}

}  // namespace
}  // namespace sr::protocol
