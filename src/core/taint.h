// Taints and tolerations with the upstream rules (k8s.io/api/core/v1 toleration.go):
// a toleration tolerates a taint when the effects match (empty effect = all effects), and
// the keys match (empty key with operator Exists = every key) and, for Equal, the values
// match; Exists ignores the value. Plain value types.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace berth::core {

enum class TaintEffect { kNoSchedule, kPreferNoSchedule, kNoExecute };

Result<TaintEffect> ParseTaintEffect(const std::string& text);
const char* TaintEffectName(TaintEffect effect);

struct Taint {
  std::string key;
  std::string value;
  TaintEffect effect = TaintEffect::kNoSchedule;

  bool operator==(const Taint&) const = default;
  // kube-scheduler's rendering: "{key: value}" (value omitted when empty: "{key: }").
  std::string ToString() const;
};

enum class TolerationOp { kEqual, kExists };

struct Toleration {
  std::string key;
  TolerationOp op = TolerationOp::kEqual;
  std::string value;
  std::optional<TaintEffect> effect;  // nullopt: every effect
  std::optional<int64_t> toleration_seconds;

  bool operator==(const Toleration&) const = default;
  bool Tolerates(const Taint& taint) const;
};

// Parses "Equal"/"Exists" ("" means Equal, as upstream defaults it).
Result<TolerationOp> ParseTolerationOp(const std::string& text);

bool TolerationsTolerate(const std::vector<Toleration>& tolerations, const Taint& taint);

// The first taint whose effect is NoSchedule or NoExecute that no toleration tolerates, as
// the TaintToleration filter looks for it; nullptr when all are tolerated.
const Taint* FindUntoleratedHardTaint(const std::vector<Taint>& taints,
                                      const std::vector<Toleration>& tolerations);

// Number of PreferNoSchedule taints not tolerated by the PreferNoSchedule-or-empty-effect
// tolerations (the TaintToleration score's raw count).
int CountIntolerablePreferNoSchedule(const std::vector<Taint>& taints,
                                     const std::vector<Toleration>& tolerations);

}  // namespace berth::core
