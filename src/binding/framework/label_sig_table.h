// LabelSigTable: interns (namespace, labels) pairs. Pods made from one template share the
// pair, so spread and inter-pod-affinity counting can match a selector once per pair and
// multiply by how many pods carry it, instead of once per pod. Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/labels.h"

namespace berth::binding {

struct LabelSigId {
  int32_t v = -1;
  auto operator<=>(const LabelSigId&) const = default;
};

class LabelSigTable {
 public:
  LabelSigId Intern(const std::string& namespace_name, const core::Labels& labels);
  const std::string& namespace_of(LabelSigId id) const { return sigs_[id.v].namespace_name; }
  const core::Labels& labels(LabelSigId id) const { return sigs_[id.v].labels; }
  size_t size() const { return sigs_.size(); }

 private:
  struct Sig {
    std::string namespace_name;
    core::Labels labels;
  };
  std::vector<Sig> sigs_;
  std::unordered_map<std::string, int32_t> ids_;
  std::string key_;  // scratch, reused to avoid an allocation per lookup
};

}  // namespace berth::binding
