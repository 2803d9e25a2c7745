// ValueAccess: the evaluator's back door into Value ownership. Borrow() drops the owner of a
// payload the program keeps alive anyway (constants), so the hot path never touches a
// reference count; MakeOwned() deep-copies borrowed payloads when a folded constant must
// outlive the steps it came from. Internal to src/cel.
#pragma once

#include "cel/value.h"

namespace berth::cel {

class ValueAccess {
 public:
  // The same value without its owner. Precondition: the caller keeps `v` alive longer than
  // the result.
  static Value Borrow(const Value& v) {
    Value out = v;
    out.owner_.reset();
    return out;
  }
  // A value that keeps its whole payload alive by itself: deep-copies whatever is borrowed,
  // at any depth (an owned list may hold borrowed elements).
  static Value MakeOwned(const Value& v);
  // True when `v` and everything it contains owns its payload.
  static bool IsSelfContained(const Value& v);
};

}  // namespace berth::cel
