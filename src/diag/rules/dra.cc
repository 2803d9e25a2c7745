// DRA rules: DeviceClasses no published device satisfies, claims asking one node for more
// devices than any node sees, requests naming a missing DeviceClass, adminAccess in a
// namespace the API server refuses it in, and pods whose claim or claim template is missing.
// Selectors are evaluated with the cel module's DRA environment (as the allocator does), each
// device converted once and each (selector set, device) pair evaluated at most once.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "cel/dra_device.h"
#include "cel/dra_selectors.h"
#include "diag/doctor_context.h"
#include "diag/rules/rules.h"

namespace berth::diag::rules {

namespace {

constexpr std::string_view kDraApi = "resource.k8s.io/v1";
constexpr const char* kDraAdminAccessLabel = "resource.kubernetes.io/admin-access";

// A device as the `device` CEL variable sees it. A conversion error (a version attribute that
// is not semver) makes every evaluation on it fail, as upstream's conversion does.
struct DraCelDevice {
  std::unique_ptr<cel::DraDevice> value;
  core::Status error;
};

DraCelDevice DraConvert(const std::string& driver, const model::Device& device) {
  DraCelDevice out{std::make_unique<cel::DraDevice>(driver), core::OkStatus()};
  for (const auto& [name, attr] : device.attributes) {
    core::Status st;
    switch (attr.type) {
      case model::DeviceAttribute::Type::kInt: st = out.value->AddAttribute(name, cel::Value::Int(attr.int_value)); break;
      case model::DeviceAttribute::Type::kBool: st = out.value->AddAttribute(name, cel::Value::Bool(attr.bool_value)); break;
      case model::DeviceAttribute::Type::kString:
        st = out.value->AddAttribute(name, cel::Value::StringView(attr.string_value));
        break;
      case model::DeviceAttribute::Type::kVersion: st = out.value->AddVersionAttribute(name, attr.string_value); break;
    }
    if (!st.ok() && out.error.ok()) out.error = st;
  }
  for (const auto& [name, cap] : device.capacity) {
    core::Status st = out.value->AddCapacity(name, cap.value);
    if (!st.ok() && out.error.ok()) out.error = st;
  }
  out.value->set_allow_multiple_allocations(device.allow_multiple_allocations);
  return out;
}

// One published device and where it can be used: one node ("cluster/node") or, for slices
// that serve all nodes or a node selector, every node that sees the pool (empty node).
struct DraPublished {
  const model::ResourceSlice* slice;
  const model::Device* device;
  std::string node;
};

std::vector<DraPublished> DraDevices(const model::Snapshot& s) {
  std::vector<DraPublished> out;
  for (const model::ResourceSlice& slice : s.resource_slices) {
    for (const model::Device& d : slice.devices) {
      std::string node = slice.per_device_node_selection ? d.node_name : slice.node_name;
      out.push_back({&slice, &d, node.empty() ? "" : slice.cluster + "/" + node});
    }
  }
  return out;
}

// A compiled set of selectors (a class's, plus a request's); `error` when one does not compile.
struct DraSelectorSet {
  std::vector<const cel::Program*> programs;
  std::string error;
};

DraSelectorSet DraCompile(cel::DraSelectors& selectors, const std::vector<model::DeviceSelector>& a,
                          const std::vector<model::DeviceSelector>& b = {}) {
  DraSelectorSet out;
  for (const auto* list : {&a, &b}) {
    for (const model::DeviceSelector& sel : *list) {
      core::Result<const cel::Program*> p = selectors.Compile(sel.cel_expression);
      if (!p.has_value()) {
        if (out.error.empty()) out.error = p.error().message();
        continue;
      }
      out.programs.push_back(*p);
    }
  }
  return out;
}

// Whether every program accepts the device; a runtime error is a non-match, kept in `error`.
bool DraAccepts(const cel::DraSelectors& selectors, const DraSelectorSet& set, const DraCelDevice& device,
                std::string* error) {
  if (!device.error.ok()) {
    if (error->empty()) *error = device.error.error().message();
    return false;
  }
  for (const cel::Program* p : set.programs) {
    core::Result<bool> r = selectors.Matches(*p, *device.value);
    if (!r.has_value()) {
      if (error->empty()) *error = r.error().message();
      return false;
    }
    if (!*r) return false;
  }
  return true;
}

// DeviceClasses are cluster-scoped and, in the model, shared by every cluster.
ObjectRef DraClassRef(const model::DeviceClass& dc) {
  return ObjectRef{std::string(kDraApi), "DeviceClass", "", dc.meta.name, "default", dc.source};
}

const model::DeviceClass* DraFindClass(const model::Snapshot& s, const std::string& name) {
  for (const model::DeviceClass& c : s.device_classes) {
    if (c.meta.name == name) return &c;
  }
  return nullptr;
}

// Calls fn(object, field prefix of spec.devices, spec, namespace, cluster) for every claim
// written by a user (not the ones generated from templates) and every claim template.
template <typename Fn>
void DraForEachClaimSpec(const model::Snapshot& s, Fn&& fn) {
  for (const model::ResourceClaim& c : s.resource_claims) {
    if (!c.template_name.empty()) continue;  // the template is checked
    fn(RefOf(c, kDraApi, "ResourceClaim"), std::string("spec.devices."), c.spec, c.meta.namespace_, c.cluster);
  }
  for (const model::ResourceClaimTemplate& t : s.resource_claim_templates) {
    fn(RefOf(t, kDraApi, "ResourceClaimTemplate"), std::string("spec.spec.devices."), t.spec, t.meta.namespace_,
       t.cluster);
  }
}

// The request's spec fields and their path: `exactly`, or each firstAvailable subrequest.
struct DraRequestPart {
  const model::ExactDeviceRequest* spec;
  std::string field;  // "requests[0].exactly", "requests[1].firstAvailable[0]"
  std::string name;   // "gpus" or "gpus/large"
};

std::vector<DraRequestPart> DraParts(const model::DeviceRequest& r, size_t i) {
  std::vector<DraRequestPart> out;
  const std::string base = "requests[" + std::to_string(i) + "]";
  if (r.exactly) out.push_back({&*r.exactly, base + ".exactly", r.name});
  for (size_t k = 0; k < r.first_available.size(); ++k) {
    out.push_back({&r.first_available[k].spec, base + ".firstAvailable[" + std::to_string(k) + "]",
                   r.name + "/" + r.first_available[k].name});
  }
  return out;
}

// ---- deviceclass-unsatisfiable ----

void CheckDeviceClassUnsatisfiable(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  if (s.device_classes.empty()) return;
  std::set<std::string> requested;
  DraForEachClaimSpec(s, [&](const ObjectRef&, const std::string&, const model::ResourceClaimSpec& spec,
                             const std::string&, const std::string&) {
    for (size_t i = 0; i < spec.requests.size(); ++i) {
      for (const DraRequestPart& part : DraParts(spec.requests[i], i)) requested.insert(part.spec->device_class_name);
    }
  });
  cel::DraSelectors selectors;
  std::vector<DraSelectorSet> sets;
  std::vector<size_t> open;  // classes not yet satisfied
  for (size_t c = 0; c < s.device_classes.size(); ++c) {
    const model::DeviceClass& dc = s.device_classes[c];
    sets.push_back(DraCompile(selectors, dc.selectors));
    if (!sets.back().error.empty()) {
      sink.Add(DraClassRef(dc), "spec.selectors",
               "a selector does not compile (" + sets.back().error + "): every claim of this class fails to "
               "allocate",
               "fix the CEL expression (it must be a bool over device.driver, device.attributes and "
               "device.capacity)");
      continue;
    }
    open.push_back(c);
  }
  const std::vector<DraPublished> devices = DraDevices(s);
  if (devices.empty()) return;  // no driver publishes anything: nothing to compare with
  std::vector<std::string> errors(s.device_classes.size());
  for (const DraPublished& d : devices) {
    if (open.empty()) break;
    const DraCelDevice device = DraConvert(d.slice->driver, *d.device);
    std::erase_if(open, [&](size_t c) { return DraAccepts(selectors, sets[c], device, &errors[c]); });
  }
  std::set<std::string> drivers;
  for (const model::ResourceSlice& slice : s.resource_slices) drivers.insert(slice.driver);
  std::string driver_list;
  for (const std::string& d : drivers) driver_list += (driver_list.empty() ? "" : ", ") + d;
  for (size_t c : open) {
    const model::DeviceClass& dc = s.device_classes[c];
    const bool used = requested.contains(dc.meta.name);
    sink.AddAt(used ? Severity::kError : Severity::kWarning, DraClassRef(dc), "spec.selectors",
               "no device of the " + std::to_string(devices.size()) + " in ResourceSlices (drivers: " + driver_list +
                   ") satisfies its selectors" +
                   (errors[c].empty() ? "" : " (evaluation failed on some devices: " + errors[c] + ")") +
                   (used ? ": claims of this class never allocate and their pods stay Pending" : ""),
               "match the attributes the driver publishes (kubectl get resourceslices -o yaml: driver, "
               "attributes, capacity), e.g. device.driver == \"" +
                   (drivers.empty() ? std::string("gpu.nvidia.com") : *drivers.begin()) + "\"");
  }
}

// ---- deviceclass-missing ----

void CheckDeviceClassMissing(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  std::set<std::string> classes;
  for (const model::DeviceClass& c : s.device_classes) classes.insert(c.meta.name);
  DraForEachClaimSpec(s, [&](const ObjectRef& ref, const std::string& prefix, const model::ResourceClaimSpec& spec,
                             const std::string&, const std::string&) {
    for (size_t i = 0; i < spec.requests.size(); ++i) {
      for (const DraRequestPart& part : DraParts(spec.requests[i], i)) {
        if (classes.contains(part.spec->device_class_name)) continue;
        std::string known;
        for (const std::string& c : classes) known += (known.empty() ? "" : ", ") + c;
        sink.Add(ref, prefix + part.field + ".deviceClassName",
                 "request " + part.name + " names DeviceClass " + part.spec->device_class_name +
                     ", which does not exist: allocation fails (could not retrieve device class) and the pod "
                     "stays Pending",
                 known.empty() ? "create DeviceClass " + part.spec->device_class_name + " (the DRA driver's chart "
                                 "installs it)"
                               : "use an existing DeviceClass (" + known + ") or create " +
                                     part.spec->device_class_name);
        break;
      }
    }
  });
}

// ---- claim-exceeds-pool ----

void CheckClaimExceedsPool(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  if (s.resource_slices.empty()) return;
  std::set<std::string> clusters_with_slices;
  for (const model::ResourceSlice& slice : s.resource_slices) clusters_with_slices.insert(slice.cluster);
  const std::vector<DraPublished> devices = DraDevices(s);
  std::vector<std::unique_ptr<DraCelDevice>> converted(devices.size());
  cel::DraSelectors selectors;
  // (cluster, class, request selectors) -> the most matching devices one node can see, and that node.
  struct Bound {
    int64_t most = 0;
    std::string node;
  };
  std::map<std::string, Bound> bounds;
  auto bound_of = [&](const std::string& cluster, const model::DeviceClass& dc,
                      const model::ExactDeviceRequest& req) -> const Bound* {
    std::string key = cluster + "\n" + dc.meta.name;
    for (const auto& sel : req.selectors) key += "\n" + sel.cel_expression;
    auto it = bounds.find(key);
    if (it != bounds.end()) return &it->second;
    const DraSelectorSet set = DraCompile(selectors, dc.selectors, req.selectors);
    if (!set.error.empty()) return nullptr;
    std::unordered_map<std::string, int64_t> per_node;
    int64_t shared = 0;
    std::string error;
    for (size_t d = 0; d < devices.size(); ++d) {
      if (devices[d].slice->cluster != cluster) continue;
      if (!converted[d]) {
        converted[d] = std::make_unique<DraCelDevice>(DraConvert(devices[d].slice->driver, *devices[d].device));
      }
      if (!DraAccepts(selectors, set, *converted[d], &error)) continue;
      if (devices[d].node.empty()) {
        ++shared;
      } else {
        ++per_node[devices[d].node];
      }
    }
    Bound b;
    for (const auto& [node, n] : per_node) {
      if (n > b.most || (n == b.most && node < b.node)) {
        b.most = n;
        b.node = node;
      }
    }
    b.most += shared;
    return &bounds.emplace(key, b).first->second;
  };
  DraForEachClaimSpec(s, [&](const ObjectRef& ref, const std::string& prefix, const model::ResourceClaimSpec& spec,
                             const std::string&, const std::string& cluster) {
    if (!clusters_with_slices.contains(cluster)) return;
    for (size_t i = 0; i < spec.requests.size(); ++i) {
      // Every alternative must be too large; name the smallest.
      bool all_exceed = true;
      std::string text, field;
      int64_t smallest = -1;
      for (const DraRequestPart& part : DraParts(spec.requests[i], i)) {
        const model::ExactDeviceRequest& req = *part.spec;
        const model::DeviceClass* dc = DraFindClass(s, req.device_class_name);
        if (dc == nullptr || req.allocation_mode != model::DeviceAllocationMode::kExactCount) {
          all_exceed = false;
          break;
        }
        const Bound* b = bound_of(cluster, *dc, req);
        if (b == nullptr || req.count <= b->most) {
          all_exceed = false;
          break;
        }
        if (smallest < 0 || req.count < smallest) {
          smallest = req.count;
          field = prefix + part.field + ".count";
          const std::string node = b->node.empty() ? "" : b->node.substr(b->node.find('/') + 1);
          text = "request " + part.name + " asks for " + std::to_string(req.count) + " devices of class " +
                 req.device_class_name + " but a node of cluster " + cluster + " sees at most " +
                 std::to_string(b->most) + " matching device(s)" + (node.empty() ? "" : " (node " + node + ")");
        }
      }
      if (!all_exceed || smallest < 0) continue;
      sink.Add(ref, field, text + ": the claim can never be allocated and its pods stay Pending",
               "ask for at most the devices one node offers, split the work over more pods (one claim each), "
               "or loosen the request's selectors");
    }
  });
}

// ---- admin-access-unlabelled-namespace ----

void CheckAdminAccessUnlabelledNamespace(const DoctorContext& ctx, FindingSink& sink) {
  const model::Snapshot& s = ctx.snapshot();
  std::unordered_map<std::string, const model::Namespace*> namespaces;
  for (const model::Namespace& ns : s.namespaces) namespaces.emplace(ns.meta.name, &ns);
  DraForEachClaimSpec(s, [&](const ObjectRef& ref, const std::string& prefix, const model::ResourceClaimSpec& spec,
                             const std::string& ns, const std::string&) {
    auto it = namespaces.find(ns);
    if (it == namespaces.end()) return;  // its labels are unknown
    auto label = it->second->meta.labels.find(kDraAdminAccessLabel);
    if (label != it->second->meta.labels.end() && label->second == "true") return;
    for (size_t i = 0; i < spec.requests.size(); ++i) {
      const model::DeviceRequest& r = spec.requests[i];
      if (!r.exactly || !r.exactly->admin_access) continue;
      sink.Add(ref, prefix + "requests[" + std::to_string(i) + "].exactly.adminAccess",
               "request " + r.name + " sets adminAccess in namespace " + ns + ", which is not labelled " +
                   kDraAdminAccessLabel + "=true: the API server rejects the claim",
               "label the namespace (kubectl label namespace " + ns + " " + kDraAdminAccessLabel +
                   "=true) if it is meant for device administration, or drop adminAccess");
      break;
    }
  });
}

// ---- claim-template-missing, resource-claim-missing ----

void DraCheckPodClaims(const DoctorContext& ctx, FindingSink& sink, bool templates) {
  const model::Snapshot& s = ctx.snapshot();
  std::set<std::string> claims, tmpls;
  for (const model::ResourceClaim& c : s.resource_claims) claims.insert(c.cluster + "/" + c.meta.namespace_ + "/" + c.meta.name);
  for (const model::ResourceClaimTemplate& t : s.resource_claim_templates) {
    tmpls.insert(t.cluster + "/" + t.meta.namespace_ + "/" + t.meta.name);
  }
  for (const DoctorContext::PodSpecRef& spec : ctx.PodSpecs()) {
    const model::Pod& pod = *spec.spec;
    const std::string ns = spec.object.namespace_;
    const std::string where = pod.cluster + "/" + ns + "/";
    for (size_t r = 0; r < pod.resource_claims.size(); ++r) {
      const model::PodResourceClaim& ref = pod.resource_claims[r];
      const std::string field = spec.Field("resourceClaims[" + std::to_string(r) + "]");
      if (templates && !ref.template_name.empty()) {
        // A given pod whose generated claim was read has what it needs.
        if (!ref.claim_name.empty() && claims.contains(where + ref.claim_name)) continue;
        if (tmpls.contains(where + ref.template_name)) continue;
        sink.Add(spec.object, field + ".resourceClaimTemplateName",
                 "claim " + ref.name + " uses ResourceClaimTemplate " + ref.template_name +
                     ", which does not exist in namespace " + ns +
                     ": no claim is generated and the pods wait for it forever",
                 "create ResourceClaimTemplate " + ref.template_name + " in namespace " + ns +
                     ", or fix resourceClaimTemplateName");
      } else if (!templates && ref.template_name.empty() && !ref.claim_name.empty()) {
        if (claims.contains(where + ref.claim_name)) continue;
        sink.Add(spec.object, field + ".resourceClaimName",
                 "claim " + ref.name + " names ResourceClaim " + ref.claim_name + ", which does not exist in "
                     "namespace " + ns + ": the pod is unschedulable until it does",
                 "create ResourceClaim " + ref.claim_name + " in namespace " + ns +
                     ", or use resourceClaimTemplateName to get one claim per pod");
      }
    }
  }
}

void CheckClaimTemplateMissing(const DoctorContext& ctx, FindingSink& sink) { DraCheckPodClaims(ctx, sink, true); }
void CheckResourceClaimMissing(const DoctorContext& ctx, FindingSink& sink) { DraCheckPodClaims(ctx, sink, false); }

}  // namespace

void AddDraRules(std::vector<Rule>& out) {
  out.push_back({"deviceclass-unsatisfiable", Severity::kError, "dra",
                 "No device in any ResourceSlice satisfies a DeviceClass's selectors",
                 {"DeviceClass", "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate"},
                 CheckDeviceClassUnsatisfiable});
  out.push_back({"deviceclass-missing", Severity::kError, "dra",
                 "A claim or claim template requests a DeviceClass that does not exist",
                 {"DeviceClass", "ResourceClaim", "ResourceClaimTemplate"}, CheckDeviceClassMissing});
  out.push_back({"claim-exceeds-pool", Severity::kError, "dra",
                 "A claim asks for more devices of a class than any node sees",
                 {"DeviceClass", "ResourceSlice", "ResourceClaim", "ResourceClaimTemplate"}, CheckClaimExceedsPool});
  out.push_back({"admin-access-unlabelled-namespace", Severity::kError, "dra",
                 "adminAccess requested in a namespace without resource.kubernetes.io/admin-access=true",
                 {"ResourceClaim", "ResourceClaimTemplate", "Namespace"}, CheckAdminAccessUnlabelledNamespace});
  out.push_back({"claim-template-missing", Severity::kError, "dra",
                 "A pod references a ResourceClaimTemplate that does not exist",
                 {"Pod", "ResourceClaimTemplate"}, CheckClaimTemplateMissing});
  out.push_back({"resource-claim-missing", Severity::kError, "dra",
                 "A pod references a ResourceClaim that does not exist",
                 {"Pod", "ResourceClaim"}, CheckResourceClaimMissing});
}

}  // namespace berth::diag::rules
