// How many submissions the records hub re-simulates at once (common/protocol/RECORDS.md section 3, "Limits"): at
// most half the request threads, so that the directory's list and the boards stay available while replays are
// verified. A slot is held from the re-simulation to the answer, storing included (the replay store verifies what it
// indexes, and writes to disk). A request that finds every slot taken is answered 503 with Retry-After at once rather
// than waiting: a waiting request would hold its thread as surely as a verifying one.
#pragma once

#include <cstddef>
#include <mutex>

namespace sr::hub::records {

class VerifyGate {
 public:
  explicit VerifyGate(std::size_t slots);

  // Takes a slot: true if one was free (give it back with leave()).
  [[nodiscard]] bool try_enter();
  void leave();

  [[nodiscard]] std::size_t slots() const { return slots_; }
  [[nodiscard]] std::size_t in_use() const;

  // A slot held for a scope; `held()` says whether one was free.
  class Pass {
   public:
    explicit Pass(VerifyGate& gate) : gate_(gate), held_(gate.try_enter()) {}
    ~Pass() {
      if (held_) gate_.leave();
    }
    Pass(const Pass&) = delete;
    Pass& operator=(const Pass&) = delete;
    [[nodiscard]] bool held() const { return held_; }

   private:
    VerifyGate& gate_;
    bool held_;
  };

 private:
  std::size_t slots_;
  mutable std::mutex mutex_;
  std::size_t in_use_ = 0;
};

}  // namespace sr::hub::records
