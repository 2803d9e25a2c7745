#include "core/taint.h"

#include <algorithm>

namespace berth::core {

Result<TaintEffect> ParseTaintEffect(const std::string& text) {
  if (text == "NoSchedule") return TaintEffect::kNoSchedule;
  if (text == "PreferNoSchedule") return TaintEffect::kPreferNoSchedule;
  if (text == "NoExecute") return TaintEffect::kNoExecute;
  return InvalidArgument("unsupported taint effect \"" + text +
                         "\": supported values: \"NoSchedule\", \"PreferNoSchedule\", "
                         "\"NoExecute\"");
}

const char* TaintEffectName(TaintEffect effect) {
  switch (effect) {
    case TaintEffect::kNoSchedule:
      return "NoSchedule";
    case TaintEffect::kPreferNoSchedule:
      return "PreferNoSchedule";
    case TaintEffect::kNoExecute:
      return "NoExecute";
  }
  return "Unknown";
}

std::string Taint::ToString() const { return "{" + key + ": " + value + "}"; }

bool Toleration::Tolerates(const Taint& taint) const {
  // Upstream ToleratesTaint: effect, then key (empty matches every key), then value.
  if (effect.has_value() && *effect != taint.effect) return false;
  if (!key.empty() && key != taint.key) return false;
  switch (op) {
    case TolerationOp::kEqual:
      return value == taint.value;
    case TolerationOp::kExists:
      return true;
  }
  return false;
}

Result<TolerationOp> ParseTolerationOp(const std::string& text) {
  if (text.empty() || text == "Equal") return TolerationOp::kEqual;
  if (text == "Exists") return TolerationOp::kExists;
  return InvalidArgument("unsupported toleration operator \"" + text +
                         R"(": supported values: "Equal", "Exists")");
}

bool TolerationsTolerate(const std::vector<Toleration>& tolerations, const Taint& taint) {
  return std::any_of(tolerations.begin(), tolerations.end(),
                     [&](const Toleration& t) { return t.Tolerates(taint); });
}

const Taint* FindUntoleratedHardTaint(const std::vector<Taint>& taints,
                                      const std::vector<Toleration>& tolerations) {
  for (const Taint& taint : taints) {
    if (taint.effect == TaintEffect::kPreferNoSchedule) continue;
    if (!TolerationsTolerate(tolerations, taint)) return &taint;
  }
  return nullptr;
}

int CountIntolerablePreferNoSchedule(const std::vector<Taint>& taints,
                                     const std::vector<Toleration>& tolerations) {
  // Upstream first keeps the tolerations whose effect is empty or PreferNoSchedule
  // (getAllTolerationPreferNoSchedule). Tolerates() already requires a set effect to equal
  // the taint's, and only PreferNoSchedule taints are counted, so that filter changes
  // nothing here and the copy is skipped.
  int count = 0;
  for (const Taint& taint : taints) {
    if (taint.effect != TaintEffect::kPreferNoSchedule) continue;
    if (!TolerationsTolerate(tolerations, taint)) ++count;
  }
  return count;
}

}  // namespace berth::core
