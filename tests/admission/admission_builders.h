// Builders for the admission tests: quotas, limit ranges and pods written the way upstream's
// tests write them (validPod, getResourceRequirements, amounts as quantity strings).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/quantity.h"
#include "model/pod.h"
#include "model/resources.h"
#include "model/tenancy.h"

namespace berth::admission::testing {

using Amounts = std::vector<std::pair<std::string, std::string>>;

inline std::vector<model::QuotaEntry> Entries(const Amounts& amounts) {
  std::vector<model::QuotaEntry> out;
  for (const auto& [name, amount] : amounts) {
    model::QuotaEntry e;
    e.name = name;
    e.amount = amount;
    e.milli = static_cast<int64_t>(core::Quantity::Parse(amount)->milli());
    out.push_back(std::move(e));
  }
  return out;
}

inline model::NamespaceQuota Quota(const std::string& name, const Amounts& hard,
                                   const Amounts& used, std::vector<std::string> scopes = {},
                                   const std::string& ns = "test") {
  model::NamespaceQuota q;
  q.meta.name = name;
  q.meta.namespace_ = ns;
  q.hard = Entries(hard);
  q.used = Entries(used);
  q.has_used = true;
  q.scopes = std::move(scopes);
  return q;
}

// Sets amounts in a ResourceVector, in its units (cpu milli-cores, others whole units).
inline void SetAmounts(model::ResourceCatalog& catalog, const Amounts& amounts,
                       model::ResourceVector* v, model::Container* named) {
  for (const auto& [name, amount] : amounts) {
    if (amount.empty()) continue;
    const model::ResourceId id = catalog.Intern(name);
    const core::Quantity q = *core::Quantity::Parse(amount);
    v->Set(id, id == model::kCpu ? static_cast<int64_t>(q.milli()) : *q.Value());
    if (named != nullptr && id == model::kCpu) named->cpu_request_named = true;
    if (named != nullptr && id == model::kMemory) named->memory_request_named = true;
  }
}

inline model::Container MakeContainer(model::ResourceCatalog& catalog, const std::string& name,
                                      const Amounts& requests, const Amounts& limits) {
  model::Container c;
  c.name = name;
  SetAmounts(catalog, requests, &c.requests, &c);
  SetAmounts(catalog, limits, &c.limits, nullptr);
  return c;
}

// upstream validPod(name, numContainers, resources): containers foo-0, foo-1, ...
inline model::Pod ValidPod(model::ResourceCatalog& catalog, const std::string& name,
                           int containers, const Amounts& requests, const Amounts& limits,
                           const std::string& ns = "test") {
  model::Pod pod;
  pod.meta.name = name;
  pod.meta.namespace_ = ns;
  for (int i = 0; i < containers; ++i) {
    pod.containers.push_back(MakeContainer(catalog, "foo-" + std::to_string(i), requests, limits));
  }
  return pod;
}

}  // namespace berth::admission::testing
