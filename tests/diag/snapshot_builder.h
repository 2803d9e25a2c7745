// Builds a model::Snapshot in code for doctor rule tests over the kinds berth doctor reads
// (ResourceQuota, LimitRange, NetworkPolicy, RBAC, PVC/PV/StorageClass, PDB) and pod fields
// (privileged, volumes, NVIDIA_VISIBLE_DEVICES), then runs one rule over it. Objects get a
// source document each so given pods count as pod specs; returned references stay valid
// until the next push into the same vector.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "diag/doctor.h"
#include "model/snapshot.h"

namespace berth::diag::testing {

class InCodeSnapshot {
 public:
  model::Snapshot snap;

  model::ResourceId Gpu() { return snap.resources.Intern("nvidia.com/gpu"); }

  model::Node& AddNode(const std::string& name, int64_t gpus, core::Labels labels = {}) {
    model::Node n;
    n.meta.name = name;
    n.meta.labels = std::move(labels);
    n.meta.labels["kubernetes.io/hostname"] = name;
    n.allocatable.Set(model::kCpu, 64000);
    n.allocatable.Set(model::kMemory, int64_t{512} << 30);
    n.allocatable.Set(model::kPods, 110);
    if (gpus > 0) n.allocatable.Set(Gpu(), gpus);
    n.capacity = n.allocatable;
    n.source = NextSource();
    snap.nodes.push_back(std::move(n));
    return snap.nodes.back();
  }

  model::Container GpuContainer(const std::string& name, int64_t gpus) {
    model::Container c;
    c.name = name;
    c.image = "trainer:1";
    c.requests.Set(model::kCpu, 1000);
    if (gpus > 0) {
      c.requests.Set(Gpu(), gpus);
      c.limits.Set(Gpu(), gpus);
    }
    return c;
  }

  // A given Pod with one container asking for `gpus`; bound when `node` is given.
  model::Pod& AddPod(const std::string& ns, const std::string& name, int64_t gpus, const std::string& node = "") {
    model::Pod p;
    p.meta.name = name;
    p.meta.namespace_ = ns;
    p.containers.push_back(GpuContainer("main", gpus));
    p.node_name = node;
    p.phase = node.empty() ? model::PodPhase::kPending : model::PodPhase::kRunning;
    p.source = NextSource();
    snap.pods.push_back(std::move(p));
    return snap.pods.back();
  }

  // A batch/v1 Job whose template asks for `gpus` per pod, `count` pods, and (as io does)
  // the pods expanded from it, labelled `labels`.
  model::WorkloadObject& AddJob(const std::string& ns, const std::string& name, int32_t count, int64_t gpus,
                                core::Labels labels = {}) {
    model::WorkloadObject w;
    w.api_version = "batch/v1";
    w.kind = "Job";
    w.meta.name = name;
    w.meta.namespace_ = ns;
    model::PodSetTemplate set;
    set.name = "main";
    set.count = count;
    set.pod_template.meta.namespace_ = ns;
    set.pod_template.meta.labels = labels;
    set.pod_template.containers.push_back(GpuContainer("main", gpus));
    w.pod_sets.push_back(std::move(set));
    w.source = NextSource();
    for (int32_t i = 0; i < count; ++i) {
      model::Pod p = w.pod_sets.front().pod_template;
      p.meta.name = name + "-" + std::to_string(i);
      p.owner = model::OwnerRef{"batch/v1", "Job", name, ""};
      snap.pods.push_back(std::move(p));
    }
    snap.workloads.push_back(std::move(w));
    return snap.workloads.back();
  }

  model::Namespace& AddNamespace(const std::string& name) {
    model::Namespace n;
    n.meta.name = name;
    n.source = NextSource();
    snap.namespaces.push_back(std::move(n));
    return snap.namespaces.back();
  }

  static model::QuotaEntry Entry(const std::string& name, int64_t units) {
    return model::QuotaEntry{name, std::to_string(units), units * 1000};
  }

  model::NamespaceQuota& AddQuota(const std::string& ns, const std::string& name,
                                  std::vector<model::QuotaEntry> hard) {
    model::NamespaceQuota q;
    q.meta.name = name;
    q.meta.namespace_ = ns;
    q.hard = std::move(hard);
    q.source = NextSource();
    snap.resource_quotas.push_back(std::move(q));
    return snap.resource_quotas.back();
  }

  model::ServiceAccount& AddServiceAccount(const std::string& ns, const std::string& name) {
    model::ServiceAccount sa;
    sa.meta.name = name;
    sa.meta.namespace_ = ns;
    sa.source = NextSource();
    snap.service_accounts.push_back(std::move(sa));
    return snap.service_accounts.back();
  }

  model::PersistentVolumeClaim& AddClaim(const std::string& ns, const std::string& name,
                                         std::vector<std::string> modes, const std::string& phase) {
    model::PersistentVolumeClaim c;
    c.meta.name = name;
    c.meta.namespace_ = ns;
    c.access_modes = std::move(modes);
    c.phase = phase;
    c.source = NextSource();
    snap.persistent_volume_claims.push_back(std::move(c));
    return snap.persistent_volume_claims.back();
  }

  model::StorageClass& AddStorageClass(const std::string& name, const std::string& mode, bool is_default,
                                       const std::string& provisioner = "ebs.csi.aws.com") {
    model::StorageClass sc;
    sc.meta.name = name;
    sc.volume_binding_mode = mode;
    sc.is_default = is_default;
    sc.provisioner = provisioner;
    sc.source = NextSource();
    snap.storage_classes.push_back(std::move(sc));
    return snap.storage_classes.back();
  }

  // A local PV of `storage_class` reachable from node `node` only (hostname affinity).
  model::PersistentVolume& AddLocalVolume(const std::string& name, const std::string& storage_class,
                                          const std::string& node) {
    model::PersistentVolume pv;
    pv.meta.name = name;
    pv.storage_class_name = storage_class;
    pv.access_modes = {"ReadWriteOnce"};
    core::NodeSelectorTerm term;
    term.match_expressions.push_back({"kubernetes.io/hostname", core::SelectorOp::kIn, {node}});
    pv.node_affinity = core::NodeSelector{{term}};
    pv.source = NextSource();
    snap.persistent_volumes.push_back(std::move(pv));
    return snap.persistent_volumes.back();
  }

  static model::PodVolume ClaimVolume(const std::string& claim) { return model::PodVolume{"data", "", claim}; }

  // Runs `rule` alone over the snapshot at `now` (2026-01-01 by default).
  std::vector<Finding> Run(const std::string& rule, core::Timestamp now = core::Timestamp{1'767'225'600}) const {
    EXPECT_NE(FindRule(rule), nullptr) << "no rule " << rule;
    core::Diagnostics diags;
    DoctorOptions options;
    options.only = {rule};
    options.now = now;
    return RunDoctor(snap, diags, options).findings;
  }

 private:
  model::SourceRef NextSource() { return model::SourceRef{next_document_++}; }
  int32_t next_document_ = 0;
};

}  // namespace berth::diag::testing
