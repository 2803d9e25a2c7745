#include "queueing/dra_quota.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "model/resources.h"

namespace berth::queueing {
namespace {

std::string Index(size_t i) { return "[" + std::to_string(i) + "]"; }

// field.Invalid with a nil value prints as `Invalid value: "null"`.
DeviceCountResult Invalid(std::string field, std::string value, std::string detail) {
  DeviceCountResult out;
  out.errors.push_back({std::move(field), std::move(value), std::move(detail)});
  return out;
}

}  // namespace

DeviceCountResult CountDevicesPerClass(const model::ResourceClaimSpec& spec) {
  DeviceCountResult out;
  for (size_t i = 0; i < spec.requests.size(); ++i) {
    const model::DeviceRequest& req = spec.requests[i];
    const std::string path = "devices.requests" + Index(i);
    if (!req.first_available.empty()) {
      return Invalid(path, "\"null\"", "FirstAvailable device selection is not supported");
    }
    if (!req.exactly) {
      return Invalid(path, "\"null\"", "Exactly must be set if FirstAvailable is nil");
    }
    const model::ExactDeviceRequest& exact = *req.exactly;
    // Upstream compiles the request's CEL selectors here (a compile error is also an error);
    // berth's io has already compiled them when it read the template.
    if (exact.admin_access) continue;
    if (exact.allocation_mode == model::DeviceAllocationMode::kAll) {
      return Invalid(path + ".exactly.allocationMode", "\"All\"",
                     "AllocationMode 'All' is not supported");
    }
    if (exact.device_class_name.empty()) continue;
    auto it = std::find_if(out.counts.begin(), out.counts.end(), [&](const DeviceClassCount& c) {
      return c.device_class == exact.device_class_name;
    });
    if (it == out.counts.end()) {
      out.counts.push_back({exact.device_class_name, exact.count});
    } else {
      it->count = model::SaturatingAdd(it->count, exact.count);
    }
  }
  return out;
}

DraQuota::DraQuota(const model::Snapshot& snapshot, const std::string& cluster)
    : snapshot_(snapshot) {
  if (snapshot.kueue_config) {
    for (const model::DeviceClassMapping& m : snapshot.kueue_config->device_class_mappings) {
      for (const std::string& dc : m.device_class_names) resource_of_class_.emplace(dc, m.resource);
    }
  }
  for (size_t i = 0; i < snapshot.resource_claim_templates.size(); ++i) {
    const model::ResourceClaimTemplate& t = snapshot.resource_claim_templates[i];
    if (t.cluster != cluster) continue;
    template_by_key_.emplace(t.meta.namespace_ + "/" + t.meta.name, static_cast<int32_t>(i));
  }
}

std::string DraQuota::AddRequests(const model::Workload& wl, WorkloadInfo& info) const {
  // workload_controller.go handleDRA: a claim given by name is not supported at all.
  for (const model::KueuePodSet& ps : wl.pod_sets) {
    for (const model::PodResourceClaim& prc : ps.pod_template.resource_claims) {
      if (prc.template_name.empty() && !prc.claim_name.empty()) {
        return "KueueDRAIntegration feature does not support use of resource claims";
      }
    }
  }
  for (size_t p = 0; p < wl.pod_sets.size() && p < info.pod_sets.size(); ++p) {
    const model::KueuePodSet& ps = wl.pod_sets[p];
    // (resource, devices per pod) for this pod set, merged as MergeResourceListKeepSum.
    std::vector<std::pair<model::ResourceId, int64_t>> added;
    const std::vector<model::PodResourceClaim>& claims = ps.pod_template.resource_claims;
    for (size_t j = 0; j < claims.size(); ++j) {
      const model::PodResourceClaim& prc = claims[j];
      if (prc.template_name.empty()) continue;
      // Pods with other claim templates may bind elsewhere (other selectors, tolerations):
      // not equivalent for the placement check, even when they count the same devices.
      info.equivalence += ";claim" + std::to_string(p) + ":" + prc.template_name;
      const std::string claim_path =
          "spec.podSets" + Index(p) + ".template.spec.resourceClaims" + Index(j);
      auto t_it = template_by_key_.find(wl.meta.namespace_ + "/" + prc.template_name);
      if (t_it == template_by_key_.end()) {
        return claim_path +
               ": Internal error: failed to get claim spec for ResourceClaimTemplate " +
               prc.template_name + " in podset " + ps.name +
               ": resourceclaimtemplates.resource.k8s.io \"" + prc.template_name + "\" not found";
      }
      const model::ResourceClaimTemplate& tmpl =
          snapshot_.resource_claim_templates[static_cast<size_t>(t_it->second)];
      DeviceCountResult counted = CountDevicesPerClass(tmpl.spec);
      if (!counted.errors.empty()) {
        // Upstream prefixes the field with the claim's path and the detail with the template.
        const DraFieldError& e = counted.errors.front();
        return claim_path + "." + e.field + ": Invalid value: " + e.value +
               ": ResourceClaimTemplate " + prc.template_name + ": " + e.detail;
      }
      for (const DeviceClassCount& c : counted.counts) {
        auto m_it = resource_of_class_.find(c.device_class);
        if (m_it == resource_of_class_.end()) {
          return claim_path + ".resourceClaimTemplateName: Not found: \"DeviceClass " +
                 c.device_class + " is not mapped in DRA configuration for podset " + ps.name +
                 "\"";
        }
        auto a_it = std::find_if(added.begin(), added.end(),
                                 [&](const auto& a) { return a.first == m_it->second; });
        if (a_it == added.end()) {
          added.emplace_back(m_it->second, c.count);
        } else {
          a_it->second = model::SaturatingAdd(a_it->second, c.count);
        }
      }
    }
    if (added.empty()) continue;
    PodSetRequest& req = info.pod_sets[p];
    for (const auto& [r, v] : added) {
      auto it = std::find_if(req.per_pod.begin(), req.per_pod.end(),
                             [&r = r](const auto& e) { return e.first == r; });
      if (it == req.per_pod.end()) {
        if (v > 0) req.per_pod.emplace_back(r, v);
      } else {
        it->second = model::SaturatingAdd(it->second, v);
      }
      // Two workloads that differ only in their devices are not equivalent.
      info.equivalence +=
          ";dra" + std::to_string(p) + ":" + std::to_string(r.v) + "=" + std::to_string(v);
    }
    std::sort(req.per_pod.begin(), req.per_pod.end());
  }
  return "";
}

}  // namespace berth::queueing
