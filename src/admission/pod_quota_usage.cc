// The pod side of ResourceQuota admission. berth's pods keep amounts in ResourceVector
// units; quotas keep milli-units, so everything here is converted once into milli-units
// (saturating: a sum over many pods must not wrap). "Named" follows limit_ranger.cc: a
// ResourceVector keeps no explicit 0, so a non-zero amount, or the reader's record that
// cpu or memory requests were written, stands for upstream's key being present.
#include "admission/pod_quota_usage.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "model/pod_requests.h"

namespace berth::admission {
namespace {

constexpr std::string_view kRequestsPrefix = "requests.";
constexpr std::string_view kLimitsPrefix = "limits.";

int64_t ToMilli(model::ResourceId id, int64_t units) {
  if (id == model::kCpu) return units;
  int64_t milli = 0;
  if (__builtin_mul_overflow(units, int64_t{1000}, &milli)) {
    return units > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return milli;
}

bool ContainerRequestNamed(const model::Container& c, model::ResourceId id) {
  if (c.requests.Get(id) != 0) return true;
  if (id == model::kCpu) return c.cpu_request_named;
  if (id == model::kMemory) return c.memory_request_named;
  return false;
}

// The pod's limits (upstream resource.PodLimits): app containers summed, each init
// container's amount where larger, overhead added to what is limited.
model::ResourceVector PodLimits(const model::Pod& pod) {
  model::ResourceVector sum;
  for (const model::Container& c : pod.containers) sum.Add(c.limits);
  for (const model::Container& c : pod.init_containers) sum.MaxWith(c.limits);
  for (size_t i = 0; i < sum.size(); ++i) {
    const model::ResourceId id{static_cast<uint16_t>(i)};
    if (sum.Get(id) != 0) sum.Set(id, model::SaturatingAdd(sum.Get(id), pod.overhead.Get(id)));
  }
  return sum;
}

bool AnyRequestNamed(const model::Pod& pod, model::ResourceId id) {
  for (const model::Container& c : pod.containers) {
    if (ContainerRequestNamed(c, id)) return true;
  }
  for (const model::Container& c : pod.init_containers) {
    if (ContainerRequestNamed(c, id)) return true;
  }
  return pod.overhead.Get(id) != 0;
}

bool IsHugePages(std::string_view name) { return name.starts_with("hugepages-"); }

bool IsTerminating(const model::Pod& pod) {
  return pod.active_deadline_seconds.has_value() && *pod.active_deadline_seconds >= 0;
}

bool IsBestEffort(const model::Pod& pod) {
  auto has_any = [](const std::vector<model::Container>& cs) {
    for (const model::Container& c : cs) {
      for (model::ResourceId id : {model::kCpu, model::kMemory}) {
        if (c.requests.Get(id) > 0 || c.limits.Get(id) > 0) return true;
      }
    }
    return false;
  };
  return !has_any(pod.containers) && !has_any(pod.init_containers);
}

bool MatchesScope(const std::string& scope, const std::string& op,
                  const std::vector<std::string>& values, const model::Pod& pod) {
  if (scope == "Terminating") return IsTerminating(pod);
  if (scope == "NotTerminating") return !IsTerminating(pod);
  if (scope == "BestEffort") return IsBestEffort(pod);
  if (scope == "NotBestEffort") return !IsBestEffort(pod);
  if (scope == "PriorityClass") {
    // Upstream matches a label set {PriorityClass: priorityClassName}, which always holds
    // the key: Exists is answered apart (a name is set), DoesNotExist never matches.
    if (op == "Exists") return !pod.priority_class_name.empty();
    if (op == "DoesNotExist") return false;
    const bool in = std::find(values.begin(), values.end(), pod.priority_class_name) != values.end();
    return op == "In" ? in : !in;
  }
  // CrossNamespacePodAffinity and VolumeAttributesClass: berth's pods carry neither.
  return false;
}

}  // namespace

bool IsPodQuotaResource(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "count/pods",        "pods",           "cpu",
      "memory",            "ephemeral-storage", "requests.cpu",
      "requests.memory",   "requests.ephemeral-storage", "limits.cpu",
      "limits.memory",     "limits.ephemeral-storage"};
  if (std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames)) return true;
  if (IsHugePages(name)) return true;
  if (name.starts_with(kRequestsPrefix)) {
    const std::string_view rest = name.substr(kRequestsPrefix.size());
    return IsHugePages(rest) || model::IsExtendedResourceName(rest);
  }
  return false;
}

std::vector<QuotaAmount> PodQuotaUsage(const model::Pod& pod, const model::ResourceCatalog& catalog) {
  std::map<std::string, int64_t> usage;
  usage["count/pods"] = 1000;
  if (!pod.IsTerminal()) {
    usage["pods"] = 1000;
    const model::ResourceVector requests = model::PodRequests(pod);
    const model::ResourceVector limits = PodLimits(pod);
    for (size_t i = 0; i < catalog.size(); ++i) {
      const model::ResourceId id{static_cast<uint16_t>(i)};
      const std::string& name = catalog.Name(id);
      if (id == model::kPods) continue;
      const bool standard = id == model::kCpu || id == model::kMemory || id == model::kEphemeralStorage;
      if (AnyRequestNamed(pod, id)) {
        const int64_t milli = ToMilli(id, requests.Get(id));
        if (standard || IsHugePages(name)) {
          usage[name] = milli;
          usage[std::string(kRequestsPrefix) + name] = milli;
        } else if (model::IsExtendedResourceName(name)) {
          usage[std::string(kRequestsPrefix) + name] = milli;
        }
      }
      if (standard && limits.Get(id) != 0) {
        usage[std::string(kLimitsPrefix) + name] = ToMilli(id, limits.Get(id));
      }
    }
  }
  std::vector<QuotaAmount> out;
  out.reserve(usage.size());
  for (auto& [name, milli] : usage) out.push_back(QuotaAmount{.name = name, .milli = milli});
  return out;
}

bool PodMatchesScopes(const model::NamespaceQuota& quota, const model::Pod& pod) {
  static const std::vector<std::string> kNoValues;
  for (const std::string& scope : quota.scopes) {
    if (!MatchesScope(scope, "Exists", kNoValues, pod)) return false;
  }
  for (const model::ScopeSelectorRequirement& r : quota.scope_selector) {
    if (!MatchesScope(r.scope_name, r.op, r.values, pod)) return false;
  }
  return true;
}

std::string PodQuotaConstraints(const std::vector<std::string>& hard_names, const model::Pod& pod) {
  static constexpr std::string_view kValidated[] = {"cpu",          "memory",       "requests.cpu",
                                                    "requests.memory", "limits.cpu", "limits.memory"};
  std::set<std::string> required;
  for (const std::string& n : hard_names) {
    if (std::find(std::begin(kValidated), std::end(kValidated), n) != std::end(kValidated)) {
      required.insert(n);
    }
  }
  if (required.empty()) return "";
  std::map<std::string, std::set<std::string>> missing;  // resource -> container names
  auto check = [&](const model::Container& c) {
    std::set<std::string> named;
    for (model::ResourceId id : {model::kCpu, model::kMemory}) {
      const std::string base = id == model::kCpu ? "cpu" : "memory";
      if (ContainerRequestNamed(c, id)) {
        named.insert(base);
        named.insert(std::string(kRequestsPrefix) + base);
      }
      if (c.limits.Get(id) != 0) named.insert(std::string(kLimitsPrefix) + base);
    }
    for (const std::string& r : required) {
      if (named.count(r) == 0) missing[r].insert(c.name);
    }
  };
  for (const model::Container& c : pod.containers) check(c);
  for (const model::Container& c : pod.init_containers) check(c);
  if (missing.empty()) return "";
  std::string text = "must specify ";
  bool first = true;
  for (const auto& [resource, containers] : missing) {
    if (!first) text += "; ";
    first = false;
    text += resource + " for: ";
    bool first_c = true;
    for (const std::string& c : containers) {
      text += (first_c ? "" : ",") + c;
      first_c = false;
    }
  }
  return text;
}

}  // namespace berth::admission
