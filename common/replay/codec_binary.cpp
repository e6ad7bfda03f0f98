#include "common/replay/codec.h"

#include <cassert>
#include <istream>
#include <sstream>

#include "common/replay/detail/binary_reader.h"
#include "common/replay/detail/serialization_binary.h"

namespace sr::replay {
using detail::DecodeContext;
using detail::DecodeFailure;

std::vector<std::uint8_t> encode_binary(const Replay& replay) {
  assert(check_replay(replay).ok());
  std::ostringstream os(std::ios::binary);
  os.write(kMagic, sizeof kMagic);
  os.put(static_cast<char>(kFormatVersion & 0xFF));
  os.put(static_cast<char>(kFormatVersion >> 8));
  {
    cereal::PortableBinaryOutputArchive ar(os, cereal::PortableBinaryOutputArchive::Options::LittleEndian());
    ar(replay);
  }
  const std::string s = std::move(os).str();
  return std::vector<std::uint8_t>(s.begin(), s.end());
}

std::vector<std::uint8_t> encode_run_binary(std::uint32_t rules_version, const engine::GameConfig& config,
                                            std::uint64_t seed, const std::vector<engine::InputChange>& inputs) {
  assert(check_input_log(inputs).ok());
  std::ostringstream os(std::ios::binary);
  os.write(kRunMagic, sizeof kRunMagic);
  os.put(static_cast<char>(kRunFormatVersion & 0xFF));
  os.put(static_cast<char>(kRunFormatVersion >> 8));
  {
    cereal::PortableBinaryOutputArchive ar(os, cereal::PortableBinaryOutputArchive::Options::LittleEndian());
    ar(rules_version, config, config.handling, seed,
       detail::InputLogRef{const_cast<std::vector<engine::InputChange>*>(&inputs)});
  }
  const std::string s = std::move(os).str();
  return std::vector<std::uint8_t>(s.begin(), s.end());
}

Result<Replay> decode_binary(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kHeaderBytes + 1) {
    return Error{ErrorKind::kTruncated,
                 "a replay file is at least 7 bytes, this input has " + std::to_string(bytes.size()),
                 {},
                 0};
  }
  if (!std::equal(kMagic, kMagic + sizeof kMagic, bytes.begin(),
                  [](char a, std::uint8_t b) { return static_cast<std::uint8_t>(a) == b; })) {
    return Error{ErrorKind::kBadMagic, "not a stackrace replay (the file does not start with \"SRRP\")", {}, 0};
  }
  const auto format = static_cast<std::uint16_t>(bytes[4] | (bytes[5] << 8));
  if (format == 0) return Error{ErrorKind::kBadValue, "format version 0 does not exist", "format_version", 4};
  if (format > kFormatVersion) {
    return Error{
        ErrorKind::kNewerVersion,
        "file format v" + std::to_string(format) + ", this build reads up to v" + std::to_string(kFormatVersion),
        "format_version", 4};
  }
  if (bytes[kHeaderBytes] != 1) {
    return Error{ErrorKind::kBadValue,
                 "the body must be little-endian (Cereal endianness byte 1)",
                 {},
                 static_cast<std::int64_t>(kHeaderBytes)};
  }

  // The body is read straight from `bytes` (detail/binary_reader.h), from the endianness byte checked above.
  const std::span<const std::uint8_t> body = bytes.subspan(kHeaderBytes);
  detail::InBuf buf(body.data(), body.size());
  DecodeContext ctx(&buf, static_cast<std::int64_t>(kHeaderBytes));
  (void)buf.take(1);
  Replay replay;
  try {
    detail::BinaryReader(ctx).read(replay);
  } catch (const DecodeFailure& e) {
    return Error{e.kind, e.message, ctx.failure_field(),
                 ctx.failure_offset() >= 0 ? ctx.failure_offset() : ctx.offset()};
  } catch (const std::exception& e) {
    return Error{ErrorKind::kBadValue, e.what(), ctx.failure_field(),
                 ctx.failure_offset() >= 0 ? ctx.failure_offset() : ctx.offset()};
  }
  if (buf.remaining() != 0) {
    return Error{ErrorKind::kTrailingBytes,
                 std::to_string(buf.remaining()) + " bytes after the end of the replay",
                 {},
                 ctx.offset()};
  }
  // The input logs came from decode_input_log(): in order, known buttons, each entry a change.
  if (auto s = check_replay(replay, InputLogCheck::kDecoded); !s) return Error{ErrorKind::kBadValue, s.error(), {}, -1};
  assert(check_replay(replay).ok());
  return replay;
}

}  // namespace sr::replay
