// Why a ledger: upstream's plugin reads each quota's status.used, adds the pod and writes the
// quota back before the next pod is admitted; across a plan that is exactly an incremental
// sum per quota entry. Pod usage and quota entries are both sorted by name, so matching them
// is one merge. A pod is refused as a whole: no quota's usage moves unless every matching
// quota has room (upstream returns before writing any quota back).
#include "admission/quota_ledger.h"

#include <algorithm>

#include "core/quantity.h"

namespace berth::admission {
namespace {

std::string NamespaceOf(const std::string& ns) { return ns.empty() ? "default" : ns; }

// A quota resource's amount as the API server prints it (canonical quantity; binary SI for
// memory-like resources when it is a whole multiple of 1024^n).
std::string ShowAmount(std::string_view quota_name, int64_t milli) {
  std::string_view base = quota_name;
  if (base.starts_with("requests.")) base.remove_prefix(9);
  if (base.starts_with("limits.")) base.remove_prefix(7);
  const core::Quantity::Format format = model::IsBinaryResource(base)
                                            ? core::Quantity::Format::kBinarySI
                                            : core::Quantity::Format::kDecimalSI;
  return core::Quantity::FromMilli(core::Int128{milli}, format).ToString();
}

const QuotaAmount* FindAmount(const std::vector<QuotaAmount>& usage, const std::string& name) {
  auto it = std::lower_bound(usage.begin(), usage.end(), name,
                             [](const QuotaAmount& a, const std::string& n) { return a.name < n; });
  return it != usage.end() && it->name == name ? &*it : nullptr;
}

}  // namespace

std::string QuotaLedger::Key(const std::string& cluster, const std::string& namespace_) {
  return cluster + "/" + NamespaceOf(namespace_);
}

QuotaLedger::QuotaLedger(const std::vector<model::NamespaceQuota>& quotas,
                         const std::vector<model::Pod>& existing,
                         const model::ResourceCatalog& catalog) {
  for (const model::NamespaceQuota& q : quotas) {
    Quota quota;
    quota.object = &q;
    for (const model::QuotaEntry& e : q.hard) {
      Entry entry;
      entry.name = e.name;
      entry.hard_milli = e.milli;
      if (q.has_used) {
        for (const model::QuotaEntry& u : q.used) {
          if (u.name == e.name) entry.used_milli = u.milli;
        }
      }
      quota.entries.push_back(std::move(entry));
      quota.hard_names.push_back(e.name);
      quota.counts_pods = quota.counts_pods || IsPodQuotaResource(e.name);
    }
    std::sort(quota.entries.begin(), quota.entries.end(),
              [](const Entry& a, const Entry& b) { return a.name < b.name; });
    by_namespace_[Key(q.cluster, q.meta.namespace_)].push_back(std::move(quota));
  }
  for (auto& [key, list] : by_namespace_) {
    std::sort(list.begin(), list.end(), [](const Quota& a, const Quota& b) {
      return a.object->meta.name < b.object->meta.name;
    });
  }
  // Quotas without status.used: the quota controller's count of the pods that exist.
  for (const model::Pod& pod : existing) {
    auto it = by_namespace_.find(Key(pod.cluster, pod.meta.namespace_));
    if (it == by_namespace_.end()) continue;
    std::vector<QuotaAmount> usage;
    for (Quota& q : it->second) {
      if (q.object->has_used || !PodMatchesScopes(*q.object, pod)) continue;
      if (usage.empty()) usage = PodQuotaUsage(pod, catalog);
      for (Entry& e : q.entries) {
        if (const QuotaAmount* a = FindAmount(usage, e.name)) {
          e.used_milli = model::SaturatingAdd(e.used_milli, a->milli);
        }
      }
    }
  }
}

std::string QuotaLedger::Admit(const model::Pod& pod, const model::ResourceCatalog& catalog) {
  auto it = by_namespace_.find(Key(pod.cluster, pod.meta.namespace_));
  if (it == by_namespace_.end()) return "";
  std::vector<Quota*> matching;
  for (Quota& q : it->second) {
    if (q.counts_pods && PodMatchesScopes(*q.object, pod)) matching.push_back(&q);
  }
  if (matching.empty()) return "";
  for (Quota* q : matching) {
    std::string missing = PodQuotaConstraints(q->hard_names, pod);
    if (!missing.empty()) return "failed quota: " + q->object->meta.name + ": " + missing;
  }
  const std::vector<QuotaAmount> usage = PodQuotaUsage(pod, catalog);
  for (Quota* q : matching) {
    std::string requested;
    std::string used;
    std::string limited;
    for (const Entry& e : q->entries) {
      const QuotaAmount* a = FindAmount(usage, e.name);
      if (a == nullptr || model::SaturatingAdd(e.used_milli, a->milli) <= e.hard_milli) continue;
      const char* sep = requested.empty() ? "" : ",";
      requested += sep + e.name + "=" + ShowAmount(e.name, a->milli);
      used += sep + e.name + "=" + ShowAmount(e.name, e.used_milli);
      limited += sep + e.name + "=" + ShowAmount(e.name, e.hard_milli);
    }
    if (!requested.empty()) {
      return "exceeded quota: " + q->object->meta.name + ", requested: " + requested +
             ", used: " + used + ", limited: " + limited;
    }
  }
  for (Quota* q : matching) {
    for (Entry& e : q->entries) {
      if (const QuotaAmount* a = FindAmount(usage, e.name)) {
        e.used_milli = model::SaturatingAdd(e.used_milli, a->milli);
      }
    }
  }
  return "";
}

int64_t QuotaLedger::UsedMilli(const std::string& cluster, const std::string& namespace_,
                               const std::string& quota, const std::string& resource) const {
  auto it = by_namespace_.find(Key(cluster, namespace_));
  if (it == by_namespace_.end()) return -1;
  for (const Quota& q : it->second) {
    if (q.object->meta.name != quota) continue;
    for (const Entry& e : q.entries) {
      if (e.name == resource) return e.used_milli;
    }
  }
  return -1;
}

}  // namespace berth::admission
