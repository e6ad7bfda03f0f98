#include "hub/records/verify_gate.h"

#include <cassert>

namespace sr::hub::records {

VerifyGate::VerifyGate(std::size_t slots) : slots_(slots) { assert(slots >= 1); }

bool VerifyGate::try_enter() {
  std::lock_guard lock(mutex_);
  if (in_use_ >= slots_) return false;
  ++in_use_;
  return true;
}

void VerifyGate::leave() {
  std::lock_guard lock(mutex_);
  assert(in_use_ > 0);
  --in_use_;
}

std::size_t VerifyGate::in_use() const {
  std::lock_guard lock(mutex_);
  return in_use_;
}

}  // namespace sr::hub::records
