// Internal: the schema visitor that reads a binary body (FORMAT.md, "Binary layout") straight from memory.
//
// # Why not through Cereal
// The body is what Cereal's portable binary archive writes (codec_binary.cpp still writes it with Cereal), but a
// verifier reads every file it checks, and reading through Cereal's archive (a virtual std::streambuf call per byte,
// a hash lookup per object) cost as much as a fifth of re-simulating the game. This reader keeps Cereal's one rule
// that shows in the bytes: a type's class version (uint32 little-endian) comes before the first object of that
// type, and a read that runs out inside it fails as Cereal's did ("the input ends inside a field", the input read to
// its end). Every error names its field and offset through the DecodeContext, as before.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/replay/detail/class_versions.h"
#include "common/replay/detail/decode_context.h"
#include "common/replay/detail/schema.h"

namespace sr::replay::detail {

// Where a stored type's class version is kept while a body is read, and the name its errors give.
template <class T>
struct VersionSlot;
#define SR_VERSION_SLOT(Type, Index, Name)     \
  template <>                                  \
  struct VersionSlot<Type> {                   \
    static constexpr int kIndex = Index;       \
    static constexpr const char* kName = Name; \
  };
SR_VERSION_SLOT(engine::Handling, 0, "Handling")
SR_VERSION_SLOT(engine::GameConfig, 1, "GameConfig")
SR_VERSION_SLOT(engine::Stats, 2, "Stats")
SR_VERSION_SLOT(RacerResult, 3, "RacerResult")
SR_VERSION_SLOT(Racer, 4, "Racer")
SR_VERSION_SLOT(Replay, 5, "Replay")
SR_VERSION_SLOT(InputLogRef, 6, "InputLog")
SR_VERSION_SLOT(CheckpointsRef, 7, "Checkpoints")
#undef SR_VERSION_SLOT
inline constexpr int kVersionSlots = 8;

class BinaryReader {
 public:
  static constexpr bool kLoading = true;
  // Reads from the context's input, which must be binary (DecodeContext::binary()).
  explicit BinaryReader(DecodeContext& ctx) : ctx_(ctx) {}

  // The top-level object: the body's Replay, with no field name around it.
  template <class T>
  void read(T& v) {
    load(v);
  }

  template <class I>
  void number(const char* name, I& v, Need) {
    Scope s(ctx_, name);
    const std::uint64_t x = varint();
    if (x > type_max<I>()) fail(ErrorKind::kBadValue, std::to_string(x) + " is too large");
    v = static_cast<I>(x);
  }
  void flag(const char* name, bool& v, Need) {
    Scope s(ctx_, name);
    const std::uint8_t b = byte();
    if (b > 1) fail(ErrorKind::kBadValue, "a flag must be 0 or 1, not " + std::to_string(b));
    v = b == 1;
  }
  template <class E, std::size_t N>
  void choice(const char* name, E& v, const std::array<const char*, N>&, Need) {
    Scope s(ctx_, name);
    const std::uint64_t x = varint();
    if (x >= N)
      fail(ErrorKind::kBadValue, "unknown value " + std::to_string(x) + " (known: 0.." + std::to_string(N - 1) + ")");
    v = static_cast<E>(x);
  }
  void text(const char* name, std::string& s, std::size_t max_bytes, Need);
  void fixed64(const char* name, std::uint64_t& v, Need) {
    Scope s(ctx_, name);
    v = u64();
  }
  void hash(const char* name, std::uint64_t& v) { fixed64(name, v, kReq); }
  void pieces(const char* name, std::vector<engine::Piece>& v, Need);
  void board(const char* name, std::vector<engine::BoardRow>& rows, Need);
  template <class T>
  bool object(const char* name, T& v, Need) {
    Scope s(ctx_, name);
    load(v);
    return true;
  }
  template <class T>
  void objects(const char* name, std::vector<T>& v, std::size_t max_count, std::size_t min_bytes) {
    Scope s(ctx_, name);
    const std::uint64_t n = varint();
    if (n > max_count)
      fail(ErrorKind::kBadValue, "count " + std::to_string(n) + ", at most " + std::to_string(max_count));
    need_items(n, min_bytes);
    v.resize(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < v.size(); ++i) {
      Scope e(ctx_, nullptr, static_cast<std::int64_t>(i));
      load(v[i]);
    }
  }
  // The input log's own layout: count; if count > 0: unit_us, orders (1 byte), stream length, stream bytes.
  void inputs(const char* name, std::vector<engine::InputChange>& v);
  // Checkpoints: count, then per checkpoint the time since the previous one (varint) and the hash (8 bytes).
  bool checkpoints(const char* name, std::vector<engine::Checkpoint>& v, Need);
  void recording(bool, bool) {}
  void key(const char* name, std::optional<RacerKey>& k);

 private:
  // One stored object: its type's class version (read before the first one), then its fields.
  template <class T>
  void load(T& v) {
    schema(*this, v, class_version<T>());
  }
  template <class T>
  std::uint32_t class_version() {
    constexpr int slot = VersionSlot<T>::kIndex;
    if (!version_read_[slot]) {
      versions_[slot] = u32_of_class_version();
      version_read_[slot] = true;
    }
    check_version<T>(versions_[slot], VersionSlot<T>::kName);
    return versions_[slot];
  }
  std::uint32_t u32_of_class_version();

  // The shortest-form LEB128 varint of a uint64.
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int i = 0; i < 10; ++i) {
      const std::uint8_t b = byte();
      if (i == 9 && b > 1) fail(ErrorKind::kBadValue, "number does not fit in 64 bits");
      v |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        if (b == 0 && i > 0) fail(ErrorKind::kBadValue, "number is not in its shortest form");
        return v;
      }
    }
    fail(ErrorKind::kBadValue, "number is longer than 10 bytes");
  }
  std::uint8_t byte() {
    need(1);
    return ctx_.take(1)[0];
  }
  // 8 bytes little-endian.
  std::uint64_t u64();
  engine::Piece cell(bool tetromino_only);
  // Fails unless `n` more bytes are left: checked before any allocation sized by the input.
  void need(std::uint64_t n) const {
    if (n > ctx_.remaining()) fail_need(n);
  }
  [[noreturn]] void fail_need(std::uint64_t n) const;
  // Fails unless `count` items of at least `each` bytes fit in what is left.
  void need_items(std::uint64_t count, std::uint64_t each) const;

  DecodeContext& ctx_;
  std::array<std::uint32_t, kVersionSlots> versions_{};
  std::array<bool, kVersionSlots> version_read_{};
};

}  // namespace sr::replay::detail
