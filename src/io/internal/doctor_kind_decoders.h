// Decoders of the kinds berth doctor reads and the plan does not use, one file per API group:
// core_v1_tenancy.cc (ResourceQuota, LimitRange, ServiceAccount), core_v1_storage.cc
// (PersistentVolumeClaim, PersistentVolume; binding plans with them too), core_v1_config_map.cc
// (ConfigMap),
// networking_v1.cc (NetworkPolicy), policy_v1.cc (PodDisruptionBudget), storage_v1.cc
// (StorageClass, CSINode), node_v1.cc (RuntimeClass), rbac_v1.cc (Role, ClusterRole, RoleBinding,
// ClusterRoleBinding). Same contract as decoders.h: the decoded value or the first error,
// with the field path relative to the object, worded as kube-apiserver's validation words it
// where berth checks the same thing. Reached only through the table of kinds. Internal to io;
// stateless.
#pragma once

#include <cstddef>

#include "core/result.h"
#include "io/internal/decoders.h"
#include "model/cluster_config.h"
#include "model/storage.h"
#include "model/tenancy.h"

namespace berth::io::internal {

// v1 ResourceQuota: spec.hard quantities (non-negative; whole numbers for the count
// resources and extended resources), spec.scopes and spec.scopeSelector scope names from
// upstream's set.
core::Result<model::NamespaceQuota> DecodeResourceQuota(dom::object obj);
// v1 LimitRange: spec.limits[] amounts (non-negative), no default/defaultRequest for type
// Pod, min not above max.
core::Result<model::LimitRange> DecodeLimitRange(dom::object obj);
// v1 ServiceAccount: metadata only.
core::Result<model::ServiceAccount> DecodeServiceAccount(dom::object obj);
// v1 ConfigMap: data in document order; data and binaryData keys valid config keys, none in
// both; values together at most kMaxConfigMapBytes.
core::Result<model::ConfigMap> DecodeConfigMap(dom::object obj);
// v1 PersistentVolumeClaim: access modes from the known set (at least one), a storage request
// greater than zero; storageClassName kept absent when absent.
core::Result<model::PersistentVolumeClaim> DecodePersistentVolumeClaim(dom::object obj);
// v1 PersistentVolume: access modes, a storage capacity, claimRef, nodeAffinity.required.
core::Result<model::PersistentVolume> DecodePersistentVolume(dom::object obj);
// networking.k8s.io/v1 NetworkPolicy: podSelector, policyTypes (Ingress, Egress; defaulted
// as the API server defaults them), rule counts; peers' selectors validated.
core::Result<model::NetworkPolicy> DecodeNetworkPolicy(dom::object obj);
// policy/v1 (and v1beta1, `v1beta1` true: an empty selector selects nothing there)
// PodDisruptionBudget.
core::Result<model::PodDisruptionBudget> DecodePodDisruptionBudget(dom::object obj, bool v1beta1);
// storage.k8s.io/v1 StorageClass: provisioner required, volumeBindingMode Immediate or
// WaitForFirstConsumer, allowedTopologies as node selector terms.
core::Result<model::StorageClass> DecodeStorageClass(dom::object obj);
// storage.k8s.io/v1 CSINode: spec.drivers[] with a name and nodeID each (names distinct),
// allocatable.count non-negative when given.
core::Result<model::CSINode> DecodeCSINode(dom::object obj);
// node.k8s.io/v1 RuntimeClass: handler a DNS-1123 label, overhead.podFixed,
// scheduling.nodeSelector and tolerations.
core::Result<model::RuntimeClass> DecodeRuntimeClass(dom::object obj,
                                                     model::ResourceCatalog& catalog);
// rbac.authorization.k8s.io/v1, validated as kube-apiserver's RBAC validation does (the hub
// authorizes with the documents; the snapshot keeps what doctor reads). `namespaced`: Role
// and RoleBinding.
core::Result<model::RbacRole> DecodeRbacRole(dom::object obj, bool namespaced);
core::Result<model::RbacBinding> DecodeRbacBinding(dom::object obj, bool namespaced);

// The total bytes of a ConfigMap's values (data, and binaryData decoded), as upstream's
// MaxSecretSize bounds them (docs/limits.md).
inline constexpr size_t kMaxConfigMapBytes = 1024 * 1024;

}  // namespace berth::io::internal
