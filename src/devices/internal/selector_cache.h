// SelectorCache: every (DeviceClass selectors, request selectors) pair the allocator
// needs, compiled once, and whether each device matches it, memoised for the Allocator's
// lifetime (selectors and devices never change; only "in use" does). The first CEL runtime
// error of a pair is memoised too, so a search reports it exactly where upstream would.
// Not thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "devices/internal/ids.h"
#include "devices/internal/pool_index.h"
#include "devices/internal/selector_matcher.h"
#include "model/device_class.h"

namespace berth::devices::internal {

enum class SelectorMatch : uint8_t { kUnknown = 0, kNo, kYes, kError };

// Where a runtime error came from, for upstream's message shape.
struct SelectorError {
  bool from_class = false;  // class selector, else request selector
  int32_t index = 0;        // selector index within the class or request
  std::string message;
};

class SelectorCache {
 public:
  SelectorCache(SelectorMatcher& matcher, const PoolIndex& pools);

  // Compiles `selectors` (programs are shared by expression text). On error returns the
  // index of the failing selector in `*failed` and the compiler's error.
  core::Result<std::vector<int32_t>> CompileAll(const std::vector<model::DeviceSelector>& selectors,
                                                int32_t* failed);

  // Interns a set: class programs ANDed with request programs. `class_index` only keys.
  SelectorSetId Intern(int32_t class_index, const std::vector<int32_t>& class_programs,
                       const std::vector<int32_t>& request_programs);

  // Whether the device matches the set; evaluates on first use (class selectors first,
  // stopping at the first false or error). O(1) once memoised.
  SelectorMatch Match(SelectorSetId set, DeviceRecordId device) {
    std::vector<uint8_t>& memo = sets_[set.v].memo;
    if (memo.empty()) memo.assign(static_cast<size_t>(pools_.record_count()), 0);
    uint8_t& m = memo[static_cast<size_t>(device.v)];
    if (m == 0) m = static_cast<uint8_t>(Evaluate(set, device));
    return static_cast<SelectorMatch>(m);
  }
  // The memoised error of a (set, device) whose Match() is kError.
  const SelectorError& ErrorOf(SelectorSetId set, DeviceRecordId device) const;

  int64_t evaluations() const { return evaluations_; }
  size_t MemoryBytes() const;

 private:
  struct Set {
    int32_t class_index = -1;
    std::vector<int32_t> class_programs;
    std::vector<int32_t> request_programs;
    std::vector<uint8_t> memo;  // SelectorMatch per device record, sized on first use
  };
  SelectorMatch Evaluate(SelectorSetId set, DeviceRecordId device);

  SelectorMatcher& matcher_;
  const PoolIndex& pools_;
  std::unordered_map<std::string, core::Result<int32_t>> programs_;
  std::vector<Set> sets_;
  std::map<std::tuple<int32_t, std::vector<int32_t>, std::vector<int32_t>>, int32_t> set_ids_;
  std::map<std::pair<int32_t, int32_t>, SelectorError> errors_;
  int64_t evaluations_ = 0;
};

}  // namespace berth::devices::internal
