// Builders for DRA objects in allocator tests, modelled on upstream allocator_testing.go's
// helpers (class, slice, device, claim, request, subRequest) so that table cases port with
// the same shape. Everything lands in one model::Snapshot; results are compared as sets,
// like upstream's gomega.ConsistOf.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/quantity.h"
#include "core/selector.h"
#include "devices/allocator.h"
#include "model/snapshot.h"

namespace berth::devices::testing {

inline core::Quantity Q(const std::string& text) { return core::Quantity::Parse(text).value(); }

inline core::NodeSelector LabelSelector(const std::string& key, const std::string& value) {
  core::NodeSelectorTerm term;
  term.match_expressions.push_back({key, core::SelectorOp::kIn, {value}});
  return core::NodeSelector{{term}};
}
inline core::NodeSelector LocalSelector(const std::string& node) {
  core::NodeSelectorTerm term;
  term.match_fields.push_back({"metadata.name", core::SelectorOp::kIn, {node}});
  return core::NodeSelector{{term}};
}

struct DeviceB {
  model::Device d;
  explicit DeviceB(std::string name) { d.name = std::move(name); }
  DeviceB& Str(const std::string& key, const std::string& v) {
    d.attributes[key] = {model::DeviceAttribute::Type::kString, 0, false, v};
    return *this;
  }
  DeviceB& Int(const std::string& key, int64_t v) {
    d.attributes[key] = {model::DeviceAttribute::Type::kInt, v, false, ""};
    return *this;
  }
  DeviceB& Bool(const std::string& key, bool v) {
    d.attributes[key] = {model::DeviceAttribute::Type::kBool, 0, v, ""};
    return *this;
  }
  DeviceB& Version(const std::string& key, const std::string& v) {
    d.attributes[key] = {model::DeviceAttribute::Type::kVersion, 0, false, v};
    return *this;
  }
  DeviceB& Cap(const std::string& key, const std::string& v) {
    d.capacity[key].value = Q(v);
    return *this;
  }
  // Upstream withCapacityRequestPolicyRange: default 2, range min 2 step 2 max 4.
  DeviceB& CapRange(const std::string& key, const std::string& v) {
    model::DeviceCapacity& c = d.capacity[key];
    c.value = Q(v);
    model::CapacityRequestPolicy p;
    p.default_value = Q("2");
    p.valid_range = model::CapacityRequestPolicyRange{Q("2"), Q("4"), Q("2")};
    c.request_policy = p;
    return *this;
  }
  // Upstream withCapacityRequestPolicyValidValues: default first, then `more`.
  DeviceB& CapValues(const std::string& key, const std::string& v, const std::string& def,
                     const std::vector<std::string>& more = {}) {
    model::DeviceCapacity& c = d.capacity[key];
    c.value = Q(v);
    model::CapacityRequestPolicy p;
    p.default_value = Q(def);
    p.valid_values.push_back(Q(def));
    for (const auto& m : more) p.valid_values.push_back(Q(m));
    c.request_policy = p;
    return *this;
  }
  DeviceB& Multi() {
    d.allow_multiple_allocations = true;
    return *this;
  }
  // Consumes counters; with `as_capacity` also publishes them as capacity (upstream's
  // fromCounters devices).
  DeviceB& Consumes(const std::string& set, const std::map<std::string, std::string>& counters,
                    bool as_capacity = true) {
    model::DeviceCounterConsumption use;
    use.counter_set = set;
    for (const auto& [k, v] : counters) {
      use.counters[k] = Q(v);
      if (as_capacity) d.capacity[k].value = Q(v);
    }
    d.consumes_counters.push_back(use);
    return *this;
  }
  DeviceB& Taint(const std::string& key, const std::string& value, model::DeviceTaintEffect e) {
    d.taints.push_back({key, value, e});
    return *this;
  }
  DeviceB& OnNode(const std::string& node) {
    d.node_name = node;
    return *this;
  }
  DeviceB& OnAllNodes() {
    d.all_nodes = true;
    return *this;
  }
  DeviceB& OnSelector(core::NodeSelector s) {
    d.node_selector = std::move(s);
    return *this;
  }
  DeviceB& BindingConditions(std::vector<std::string> c) {
    d.binding_conditions = std::move(c);
    return *this;
  }
};

struct SliceB {
  model::ResourceSlice s;
  // `node` may be a node name, "*" for allNodes, "per-device", or "" (set a selector).
  SliceB(std::string name, const std::string& node, std::string pool, std::string driver) {
    s.meta.name = std::move(name);
    s.pool_name = std::move(pool);
    s.driver = std::move(driver);
    s.pool_generation = 1;
    s.resource_slice_count = 1;
    if (node == "*") {
      s.all_nodes = true;
    } else if (node == "per-device") {
      s.per_device_node_selection = true;
    } else {
      s.node_name = node;
    }
  }
  SliceB& Selector(core::NodeSelector sel) {
    s.node_name.clear();
    s.node_selector = std::move(sel);
    return *this;
  }
  SliceB& Count(int64_t n) {
    s.resource_slice_count = n;
    return *this;
  }
  SliceB& Gen(int64_t g) {
    s.pool_generation = g;
    return *this;
  }
  SliceB& Dev(const DeviceB& d) {
    s.devices.push_back(d.d);
    return *this;
  }
  SliceB& Devs(int n, int first = 0) {
    for (int i = first; i < first + n; ++i)
      s.devices.push_back(DeviceB("device-" + std::to_string(i)).d);
    return *this;
  }
  SliceB& CounterSet(const std::string& name, const std::map<std::string, std::string>& counters) {
    model::CounterSet set;
    set.name = name;
    for (const auto& [k, v] : counters) set.counters[k] = Q(v);
    s.shared_counters.push_back(set);
    return *this;
  }
};

struct SubB {
  model::DeviceSubRequest r;
  SubB(std::string name, std::string cls, int64_t count = 1) {
    r.name = std::move(name);
    r.spec.device_class_name = std::move(cls);
    r.spec.count = count;
  }
  SubB& Sel(const std::string& expr) {
    r.spec.selectors.push_back({expr});
    return *this;
  }
  SubB& All() {
    r.spec.allocation_mode = model::DeviceAllocationMode::kAll;
    r.spec.count = 0;
    return *this;
  }
  SubB& Tol(const core::Toleration& t) {
    r.spec.tolerations.push_back(t);
    return *this;
  }
  SubB& CapReq(const std::string& key, const std::string& v) {
    r.spec.capacity_requests[key] = Q(v);
    return *this;
  }
};

struct RequestB {
  model::DeviceRequest r;
  RequestB(std::string name, std::string cls, int64_t count = 1) {
    r.name = std::move(name);
    r.exactly.emplace();
    r.exactly->device_class_name = std::move(cls);
    r.exactly->count = count;
  }
  RequestB(std::string name, std::vector<SubB> subs) {
    r.name = std::move(name);
    for (auto& s : subs) r.first_available.push_back(std::move(s.r));
  }
  RequestB& Sel(const std::string& expr) {
    r.exactly->selectors.push_back({expr});
    return *this;
  }
  RequestB& All() {
    r.exactly->allocation_mode = model::DeviceAllocationMode::kAll;
    r.exactly->count = 0;
    return *this;
  }
  RequestB& Admin() {
    r.exactly->admin_access = true;
    return *this;
  }
  RequestB& Tol(const core::Toleration& t) {
    r.exactly->tolerations.push_back(t);
    return *this;
  }
  RequestB& CapReq(const std::string& key, const std::string& v) {
    r.exactly->capacity_requests[key] = Q(v);
    return *this;
  }
};

struct ClaimB {
  model::ResourceClaim c;
  explicit ClaimB(std::string name, std::string ns = "") {
    c.meta.name = std::move(name);
    c.meta.namespace_ = std::move(ns);
  }
  ClaimB& Req(const RequestB& r) {
    c.spec.requests.push_back(r.r);
    return *this;
  }
  ClaimB& Match(const std::string& attr, std::vector<std::string> requests = {}) {
    model::DeviceConstraint con;
    con.match_attribute = attr;
    con.requests = std::move(requests);
    c.spec.constraints.push_back(con);
    return *this;
  }
  ClaimB& Distinct(const std::string& attr, std::vector<std::string> requests = {}) {
    model::DeviceConstraint con;
    con.distinct_attribute = attr;
    con.requests = std::move(requests);
    c.spec.constraints.push_back(con);
    return *this;
  }
  ClaimB& Config(std::vector<std::string> requests, const std::string& driver,
                 const std::string& attribute) {
    model::DeviceClaimConfig cfg;
    cfg.requests = std::move(requests);
    cfg.opaque = {driver, "{\"" + attribute + "\":\"" + attribute + "Value\"}"};
    c.spec.config.push_back(cfg);
    return *this;
  }
  // Marks devices as held by this (already allocated) claim.
  ClaimB& Allocated(std::vector<std::tuple<std::string, std::string, std::string>> devices) {
    c.allocation.emplace();
    for (const auto& [driver, pool, device] : devices) {
      model::DeviceRequestAllocationResult r;
      r.request = "held";
      r.driver = driver;
      r.pool = pool;
      r.device = device;
      c.allocation->results.push_back(r);
    }
    return *this;
  }
  // A share of a multi-allocatable device consuming `capacity`.
  ClaimB& AllocatedShare(const std::string& driver, const std::string& pool,
                         const std::string& device,
                         const std::map<std::string, std::string>& capacity) {
    if (!c.allocation.has_value()) c.allocation.emplace();
    model::DeviceRequestAllocationResult r;
    r.request = "held";
    r.driver = driver;
    r.pool = pool;
    r.device = device;
    r.share_id = "00000000-0000-4000-8000-000000000000";
    for (const auto& [k, v] : capacity) r.consumed_capacity[k] = Q(v);
    c.allocation->results.push_back(r);
    return *this;
  }
};

inline model::DeviceClass Class(const std::string& name, const std::string& driver) {
  model::DeviceClass cls;
  cls.meta.name = name;
  cls.selectors.push_back({"device.driver == \"" + driver + "\""});
  return cls;
}
inline model::DeviceClass ClassWithConfig(const std::string& name, const std::string& driver,
                                          const std::string& attribute) {
  model::DeviceClass cls = Class(name, driver);
  cls.config.push_back({driver, "{\"" + attribute + "\":\"" + attribute + "Value\"}"});
  return cls;
}
inline model::DeviceClass ClassMulti(const std::string& name, const std::string& driver,
                                     bool multi) {
  model::DeviceClass cls;
  cls.meta.name = name;
  cls.selectors.push_back(
      {"device.driver == \"" + driver +
       "\" && device.allowMultipleAllocations == " + (multi ? "true" : "false")});
  return cls;
}

inline model::Node Node(const std::string& name, const std::string& region = "region-1") {
  model::Node n;
  n.meta.name = name;
  n.meta.labels["region"] = region;
  n.meta.labels["planet"] = "earth";
  return n;
}

// Results as (request, driver, pool, device, adminAccess), sorted: upstream's tests ignore
// result order.
using ResultTuple = std::tuple<std::string, std::string, std::string, std::string, bool>;
inline std::vector<ResultTuple> Tuples(const model::AllocationResult& a) {
  std::vector<ResultTuple> out;
  for (const auto& r : a.results)
    out.emplace_back(r.request, r.driver, r.pool, r.device, r.admin_access);
  std::sort(out.begin(), out.end());
  return out;
}
inline ResultTuple R(std::string request, std::string driver, std::string pool, std::string device,
                     bool admin = false) {
  return {std::move(request), std::move(driver), std::move(pool), std::move(device), admin};
}
inline std::vector<ResultTuple> Sorted(std::vector<ResultTuple> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// A node selector as sorted strings ("fields:metadata.name In node-1"), order-insensitive.
inline std::vector<std::string> SelectorStrings(const std::optional<core::NodeSelector>& s) {
  std::vector<std::string> out;
  if (!s.has_value()) return out;
  for (const auto& t : s->terms) {
    for (const auto& r : t.match_fields) {
      std::vector<std::string> v = r.values;
      std::sort(v.begin(), v.end());
      std::string line = std::string("fields:") + r.key + " " + core::SelectorOpName(r.op);
      for (const auto& x : v) line += " " + x;
      out.push_back(line);
    }
    for (const auto& r : t.match_expressions) {
      std::vector<std::string> v = r.values;
      std::sort(v.begin(), v.end());
      std::string line = std::string("labels:") + r.key + " " + core::SelectorOpName(r.op);
      for (const auto& x : v) line += " " + x;
      out.push_back(line);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One test world: objects in a Snapshot, the claims to allocate in order, the node.
struct World {
  model::Snapshot snap;
  std::vector<ClaimIndex> claims;
  model::NodeIndex node{0};

  World() {
    snap.nodes.push_back(Node("node-1", "region-1"));
    snap.nodes.push_back(Node("node-2", "region-2"));
  }
  World& Classes(std::vector<model::DeviceClass> classes) {
    for (auto& c : classes) snap.device_classes.push_back(std::move(c));
    return *this;
  }
  World& Slices(std::vector<SliceB> slices) {
    for (auto& s : slices) snap.resource_slices.push_back(std::move(s.s));
    return *this;
  }
  // Claims to allocate, in order.
  World& Claims(std::vector<ClaimB> claims) {
    for (auto& c : claims) {
      this->claims.push_back(ClaimIndex{static_cast<int32_t>(snap.resource_claims.size())});
      snap.resource_claims.push_back(std::move(c.c));
    }
    return *this;
  }
  // Claims that are already allocated (their devices are in use).
  World& Held(std::vector<ClaimB> claims) {
    for (auto& c : claims) snap.resource_claims.push_back(std::move(c.c));
    return *this;
  }
  World& OnNode(int index) {
    node = model::NodeIndex{index};
    return *this;
  }
};

}  // namespace berth::devices::testing
