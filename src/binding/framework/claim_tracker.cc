#include "binding/framework/claim_tracker.h"

#include <algorithm>
#include <utility>

#include "core/check.h"

namespace berth::binding {

ClaimTracker::ClaimTracker(const model::Snapshot& snapshot, const std::string& cluster,
                           core::Diagnostics& diags)
    : snapshot_(snapshot),
      allocator_(std::make_unique<devices::Allocator>(snapshot, cluster, diags)),
      allocations_(snapshot.resource_claims.size()),
      reserved_for_(snapshot.resource_claims.size()),
      in_bindings_(snapshot.pods.size(), 0) {
  for (size_t i = 0; i < snapshot.resource_claims.size(); ++i) {
    const model::ResourceClaim& c = snapshot.resource_claims[i];
    allocations_[i] = c.allocation;
    reserved_for_[i] = c.reserved_for;
  }
}

ClaimTracker::~ClaimTracker() = default;

PodClaims ClaimTracker::Resolve(const model::Pod& pod) const {
  PodClaims out;
  const std::string ns = pod.meta.namespace_.empty() ? "default" : pod.meta.namespace_;
  for (const model::PodResourceClaim& ref : pod.resource_claims) {
    std::optional<devices::ClaimIndex> found;
    if (!ref.claim_name.empty()) found = allocator_->FindClaim(pod.meta.namespace_, ref.claim_name);
    if (!found.has_value()) {
      if (!ref.template_name.empty()) {
        out.rejection = "pod \"" + ns + "/" + pod.meta.name + "\": ResourceClaim not created yet";
      } else {
        out.rejection = "could not find ResourceClaim \"" + ns + "/" + ref.claim_name + "\"";
      }
      out.claims.clear();
      return out;
    }
    if (std::find(out.claims.begin(), out.claims.end(), *found) == out.claims.end()) {
      out.claims.push_back(*found);
    }
  }
  for (devices::ClaimIndex c : out.claims) {
    if (Allocation(c) != nullptr) {
      const std::vector<std::string>& reserved = ReservedFor(c);
      const bool for_pod =
          std::find(reserved.begin(), reserved.end(), pod.meta.name) != reserved.end();
      // resourceclaim.CanBeReserved: ResourceClaimReservedForMaxSize consumers at most.
      if (!for_pod && reserved.size() >= kReservedForMaxSize) {
        out.rejection = "resourceclaim in use";
        return out;
      }
      continue;
    }
    std::string missing = MissingDeviceClass(c);
    if (!missing.empty()) {
      out.rejection = std::move(missing);
      return out;
    }
  }
  return out;
}

std::string ClaimTracker::MissingDeviceClass(devices::ClaimIndex index) const {
  auto exists = [&](const std::string& name) {
    return std::any_of(snapshot_.device_classes.begin(), snapshot_.device_classes.end(),
                       [&](const model::DeviceClass& c) { return c.meta.name == name; });
  };
  for (const model::DeviceRequest& request : claim(index).spec.requests) {
    if (request.exactly.has_value()) {
      if (!exists(request.exactly->device_class_name)) {
        return "request " + request.name + ": device class " + request.exactly->device_class_name +
               " does not exist";
      }
      continue;
    }
    for (const model::DeviceSubRequest& sub : request.first_available) {
      if (!exists(sub.spec.device_class_name)) {
        return "request " + request.name + "/" + sub.name + ": device class " +
               sub.spec.device_class_name + " does not exist";
      }
    }
  }
  return "";
}

const model::AllocationResult* ClaimTracker::Allocation(devices::ClaimIndex index) const {
  const auto& a = allocations_[static_cast<size_t>(index.v)];
  return a.has_value() ? &*a : nullptr;
}

const std::vector<std::string>& ClaimTracker::ReservedFor(devices::ClaimIndex index) const {
  return reserved_for_[static_cast<size_t>(index.v)];
}

const model::ResourceClaim& ClaimTracker::claim(devices::ClaimIndex index) const {
  return snapshot_.resource_claims[static_cast<size_t>(index.v)];
}

void ClaimTracker::Bind(model::PodIndex pod, const std::vector<devices::ClaimIndex>& claims,
                        model::NodeIndex node) {
  if (claims.empty()) return;
  devices::AllocationOutcome outcome = allocator_->Allocate(claims, node);
  // The pod passed DynamicResources on this node and nothing changed since: Allocate is a
  // deterministic function of the allocator's state, so it finds the same allocation.
  BERTH_CHECK(outcome.ok() && outcome.allocations.size() == claims.size(),
              "a pod bound to a node where its claims cannot be allocated");
  allocator_->Commit(claims, outcome);
  bound_nodes_.push_back(node);  // Commit lowered this node's free-device bound
  const std::string& name = snapshot_.pod(pod).meta.name;
  for (size_t i = 0; i < claims.size(); ++i) {
    const auto c = static_cast<size_t>(claims[i].v);
    ClaimBinding binding;
    binding.pod = pod;
    binding.claim = claims[i];
    binding.allocated = !allocations_[c].has_value();
    if (binding.allocated) allocations_[c] = outcome.allocations[i];
    binding.allocation = *allocations_[c];
    std::vector<std::string>& reserved = reserved_for_[c];
    if (std::find(reserved.begin(), reserved.end(), name) == reserved.end()) {
      reserved.push_back(name);
    }
    bindings_.push_back(std::move(binding));
  }
  in_bindings_[static_cast<size_t>(pod.v)] = 1;
}

void ClaimTracker::TakeChangedNodes(std::vector<model::NodeIndex>* out) {
  out->clear();
  out->swap(bound_nodes_);
  for (model::NodeIndex n : allocator_->TakeChangedNodes()) out->push_back(n);
}

std::vector<devices::ClaimIndex> ClaimTracker::ClaimsOf(const model::Pod& pod) const {
  std::vector<devices::ClaimIndex> out;
  for (const model::PodResourceClaim& ref : pod.resource_claims) {
    if (ref.claim_name.empty()) continue;
    std::optional<devices::ClaimIndex> found =
        allocator_->FindClaim(pod.meta.namespace_, ref.claim_name);
    if (found.has_value() && std::find(out.begin(), out.end(), *found) == out.end()) {
      out.push_back(*found);
    }
  }
  return out;
}

void ClaimTracker::Unbind(model::PodIndex pod, const std::vector<devices::ClaimIndex>& claims) {
  const std::string& name = snapshot_.pod(pod).meta.name;
  for (devices::ClaimIndex claim : claims) {
    const auto c = static_cast<size_t>(claim.v);
    std::vector<std::string>& reserved = reserved_for_[c];
    auto it = std::find(reserved.begin(), reserved.end(), name);
    if (it == reserved.end()) continue;  // not reserved for the pod: nothing of it to undo
    reserved.erase(it);                  // keeps the others' order
    if (reserved.empty() && allocations_[c].has_value()) {
      allocator_->Release({claim});
      allocations_[c].reset();
    }
  }
  if (in_bindings_[static_cast<size_t>(pod.v)] == 0) return;
  in_bindings_[static_cast<size_t>(pod.v)] = 0;
  // The pod's bindings are one run (Bind appends them together); searched from the back,
  // where a gang rollback finds them, and done once the run is passed.
  bool seen = false;
  for (size_t i = bindings_.size(); i-- > 0;) {
    if (bindings_[i].pod != pod) {
      if (seen) break;
      continue;
    }
    seen = true;
    const ClaimBinding gone = std::move(bindings_[i]);
    bindings_.erase(bindings_.begin() + static_cast<std::ptrdiff_t>(i));
    const auto c = static_cast<size_t>(gone.claim.v);
    if (!gone.allocated || !allocations_[c].has_value()) continue;
    // The claim stays allocated for a pod bound after this one, whose binding now carries
    // the allocation (ClaimBindings must still show who made it).
    for (size_t j = i; j < bindings_.size(); ++j) {
      if (bindings_[j].claim == gone.claim) {
        bindings_[j].allocated = true;
        break;
      }
    }
  }
}

std::string DescribeAllocations(const model::Snapshot& snapshot,
                                const std::vector<devices::ClaimIndex>& claims,
                                const std::vector<model::AllocationResult>& allocations) {
  std::string out;
  for (size_t i = 0; i < claims.size() && i < allocations.size(); ++i) {
    const model::ResourceClaim& c = snapshot.resource_claims[static_cast<size_t>(claims[i].v)];
    if (!out.empty()) out += "; ";
    out += c.meta.namespace_;
    out += '/';
    out += c.meta.name;
    out += ':';
    bool first = true;
    for (const model::DeviceRequestAllocationResult& r : allocations[i].results) {
      out += first ? " " : ", ";
      first = false;
      out += r.request;
      out += '=';
      out += r.driver;
      out += '/';
      out += r.pool;
      out += '/';
      out += r.device;
    }
    if (first) out += " no devices";
  }
  return out;
}

}  // namespace berth::binding
