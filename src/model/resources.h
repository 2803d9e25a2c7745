// Resource names and amounts. Names are interned per Snapshot in a ResourceCatalog so that
// node and pod amounts are dense vectors indexed by ResourceId: the binding hot path adds and
// compares them without hashing strings. Units follow kube-scheduler: cpu in milli-cores,
// every other resource in whole units (bytes for memory and ephemeral-storage, a count for
// pods and extended resources). Plain value types.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/quantity.h"

namespace berth::model {

struct ResourceId {
  uint16_t v = 0;
  auto operator<=>(const ResourceId&) const = default;
};

inline constexpr ResourceId kCpu{0};
inline constexpr ResourceId kMemory{1};
inline constexpr ResourceId kEphemeralStorage{2};
inline constexpr ResourceId kPods{3};

// Whether a resource's amounts read in binary units (memory, ephemeral-storage,
// hugepages-*), as kubectl prints them ("64Gi").
bool IsBinaryResource(std::string_view name);
// An amount of resource `name` in ResourceVector units as the quantity Kubernetes writes it:
// cpu from milli-cores ("500m", "2"), binary resources in binary SI, the rest decimal.
core::Quantity AmountQuantity(std::string_view name, int64_t amount);

// Interns resource names. The first four ids are fixed (cpu, memory, ephemeral-storage,
// pods); others are assigned in first-seen order.
class ResourceCatalog {
 public:
  ResourceCatalog();
  ResourceId Intern(std::string_view name);
  // Returns false when the name was never interned.
  bool Find(std::string_view name, ResourceId* id) const;
  const std::string& Name(ResourceId id) const { return names_[id.v]; }
  size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint16_t> ids_;
};

// The overflow policy of every sum of amounts (pod requests, node totals, quota usage):
// a + b clamped to [INT64_MIN, INT64_MAX], never wrapped. Readers refuse a single pod whose
// requests would saturate (CheckPodRequestsInRange), so only sums over many objects reach it.
// Inline: the quota tree and the preemptor call both in their innermost loops.
inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return sum;
}

// Undoes a SaturatingAdd of b into a running sum `a`: a - b, except that a saturated sum stays
// saturated (what it stood for is unknown, and full stays full rather than freeing room that
// is not there). Clamped like SaturatingAdd.
inline int64_t SaturatingRemove(int64_t a, int64_t b) {
  if (a == std::numeric_limits<int64_t>::max() || a == std::numeric_limits<int64_t>::min()) {
    return a;
  }
  int64_t difference = 0;
  if (__builtin_sub_overflow(a, b, &difference)) {
    return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return difference;
}

// Amounts indexed by ResourceId; ids beyond the vector's end are zero. Add and Subtract follow
// SaturatingAdd and SaturatingRemove.
class ResourceVector {
 public:
  int64_t Get(ResourceId id) const { return id.v < amounts_.size() ? amounts_[id.v] : 0; }
  void Set(ResourceId id, int64_t amount);
  void Add(const ResourceVector& o);
  void Subtract(const ResourceVector& o);
  // Element-wise max (init-container rule).
  void MaxWith(const ResourceVector& o);
  bool IsZero() const;
  // Number of slots held (some may be zero).
  size_t size() const { return amounts_.size(); }
  const std::vector<int64_t>& amounts() const { return amounts_; }
  bool operator==(const ResourceVector& o) const;

 private:
  std::vector<int64_t> amounts_;
};

// True for names kube-scheduler treats as extended resources (v1helper.IsExtendedResourceName):
// a domain-prefixed name outside *kubernetes.io/ (e.g. nvidia.com/gpu), not requests.*, and
// a valid qualified name.
bool IsExtendedResourceName(std::string_view name);
// Native resources (v1helper.IsNativeResource): unprefixed names (cpu, memory,
// ephemeral-storage, pods, hugepages-*) and names containing "kubernetes.io/".
bool IsNativeResourceName(std::string_view name);

}  // namespace berth::model
