// The kinds berth doctor reads (internal/doctor_kind_decoders.h) and the pod fields it
// checks: a good object of each kind decodes with every field kept, and each validation
// error names its field with the API server's words while the good objects beside it are
// still read.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using testing::ReadString;

// Reads `yaml`, which must decode without any diagnostic.
Input ReadClean(const std::string& yaml) {
  core::Diagnostics diags;
  Input in = ReadString(yaml, diags);
  EXPECT_EQ(diags.entries().size(), 0u) << Dump(diags);
  return in;
}

// One bad object beside a good Node: exactly one error, at `field`, saying `message`.
void ExpectBad(const std::string& yaml, const std::string& field, const std::string& message) {
  SCOPED_TRACE(yaml);
  core::Diagnostics diags = testing::ExpectOneErrorBesideGoodNode(yaml, field);
  if (diags.entries().empty()) return;
  EXPECT_EQ(diags.entries()[0].error.message(), message);
}

std::vector<std::string> EntryTexts(const std::vector<model::QuotaEntry>& entries) {
  std::vector<std::string> out;
  for (const model::QuotaEntry& e : entries) {
    out.push_back(e.name + "=" + e.amount + "/" + std::to_string(e.milli));
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(DoctorKindsTest, ResourceQuotaKeepsEveryField) {
  Input in = ReadClean(R"(apiVersion: v1
kind: ResourceQuota
metadata: {name: gpu, namespace: team-a, annotations: {berth.dev/cluster: eu-1}}
spec:
  hard:
    requests.nvidia.com/gpu: "8"
    limits.cpu: 1500m
    pods: 20
    requests.memory: 10000000000000000Ei
  scopes: [NotTerminating]
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: In, values: [high]}
)");
  ASSERT_EQ(in.snapshot.resource_quotas.size(), 1u);
  const model::NamespaceQuota& q = in.snapshot.resource_quotas[0];
  EXPECT_EQ(q.meta.namespace_, "team-a");
  EXPECT_EQ(q.meta.name, "gpu");
  EXPECT_EQ(q.cluster, "eu-1");
  EXPECT_TRUE(q.source.valid());
  // Document order; amounts as written (numbers canonical); milli-units saturated.
  EXPECT_EQ(EntryTexts(q.hard),
            (Strings{"requests.nvidia.com/gpu=8/8000", "limits.cpu=1500m/1500", "pods=20/20000",
                     "requests.memory=10000000000000000Ei/9223372036854775807"}));
  EXPECT_EQ(q.scopes, Strings{"NotTerminating"});
  EXPECT_EQ(q.scope_selector_scopes, Strings{"PriorityClass"});
}

TEST(DoctorKindsTest, ResourceQuotaErrors) {
  const std::string head = "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: t}\n";
  ExpectBad(head + "spec: {hard: {pods: 1500m}}\n", "spec.hard.pods",
            R"(Invalid value: "1500m": must be an integer)");
  ExpectBad(head + "spec: {hard: {nvidia.com/gpu: \"0.5\"}}\n", "spec.hard[nvidia.com/gpu]",
            R"(Invalid value: "500m": must be an integer)");
  ExpectBad(head + "spec: {hard: {limits.cpu: \"-1\"}}\n", "spec.hard[limits.cpu]",
            R"(Invalid value: "-1": must be greater than or equal to 0)");
  // A quantity that does not parse: the quantity parser's words, at the entry.
  testing::ExpectOneErrorBesideGoodNode(head + "spec: {hard: {cpu: lots}}\n", "spec.hard.cpu");
  ExpectBad(head + "spec: {scopes: [Sometimes]}\n", "spec.scopes[0]",
            R"(Invalid value: "Sometimes": unsupported scope)");
  ExpectBad(head +
                "spec:\n  scopeSelector:\n    matchExpressions:\n"
                "    - {scopeName: PriorityClass, operator: Like}\n",
            "spec.scopeSelector.matchExpressions[0].operator",
            R"(unsupported value "Like": supported values: "DoesNotExist", "Exists", "In", "NotIn")");
  ExpectBad(head +
                "spec:\n  scopeSelector:\n    matchExpressions:\n"
                "    - {scopeName: Gpu, operator: Exists}\n",
            "spec.scopeSelector.matchExpressions[0].scopeName",
            R"(Invalid value: "Gpu": unsupported scope)");
}

TEST(DoctorKindsTest, LimitRangeKeepsEveryField) {
  Input in = ReadClean(R"(apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: team-a}
spec:
  limits:
  - type: Container
    default: {nvidia.com/gpu: "1", cpu: "2"}
    defaultRequest: {cpu: 500m}
    max: {nvidia.com/gpu: "4"}
    min: {nvidia.com/gpu: "0"}
  - type: Pod
    max: {memory: 64Gi}
)");
  ASSERT_EQ(in.snapshot.limit_ranges.size(), 1u);
  const model::LimitRange& lr = in.snapshot.limit_ranges[0];
  EXPECT_EQ(lr.meta.name, "limits");
  EXPECT_EQ(lr.cluster, "default");
  ASSERT_EQ(lr.limits.size(), 2u);
  EXPECT_EQ(lr.limits[0].type, "Container");
  EXPECT_EQ(EntryTexts(lr.limits[0].default_limits), (Strings{"nvidia.com/gpu=1/1000", "cpu=2/2000"}));
  EXPECT_EQ(EntryTexts(lr.limits[0].default_requests), Strings{"cpu=500m/500"});
  EXPECT_EQ(EntryTexts(lr.limits[0].max), Strings{"nvidia.com/gpu=4/4000"});
  EXPECT_EQ(EntryTexts(lr.limits[0].min), Strings{"nvidia.com/gpu=0/0"});
  EXPECT_EQ(lr.limits[1].type, "Pod");
  EXPECT_EQ(EntryTexts(lr.limits[1].max), Strings{"memory=64Gi/68719476736000"});
}

TEST(DoctorKindsTest, LimitRangeErrors) {
  const std::string head = "apiVersion: v1\nkind: LimitRange\nmetadata: {name: l, namespace: t}\n";
  ExpectBad(head + "spec:\n  limits:\n  - {type: Pod, default: {cpu: \"1\"}}\n",
            "spec.limits[0].default", "Forbidden: may not be specified when `type` is 'Pod'");
  ExpectBad(head + "spec:\n  limits:\n  - {type: Pod, defaultRequest: {cpu: \"1\"}}\n",
            "spec.limits[0].defaultRequest",
            "Forbidden: may not be specified when `type` is 'Pod'");
  ExpectBad(head + "spec:\n  limits:\n  - {type: Container, min: {cpu: \"2\"}, max: {cpu: \"1\"}}\n",
            "spec.limits[0].min.cpu", R"(Invalid value: "2": min value 2 is greater than max value 1)");
  ExpectBad(head + "spec:\n  limits:\n  - {type: Container, max: {memory: -1Gi}}\n",
            "spec.limits[0].max.memory",
            R"(Invalid value: "-1Gi": must be greater than or equal to 0)");
  ExpectBad(head + "spec:\n  limits:\n  - {max: {memory: 1Gi}}\n", "spec.limits[0].type",
            R"(Invalid value: "": name part must be non-empty)");
}

// Admission reads more of both kinds (docs/admission.md): maxLimitRequestRatio, the scope
// selector's operators and values, and status.used.
TEST(DoctorKindsTest, AdmissionFieldsKept) {
  Input in = ReadClean(R"(apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: team-a}
spec:
  limits:
  - type: Container
    maxLimitRequestRatio: {cpu: "2", memory: 1500m}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: gpu, namespace: team-a}
spec:
  hard: {requests.nvidia.com/gpu: "8"}
  scopeSelector:
    matchExpressions:
    - {scopeName: PriorityClass, operator: NotIn, values: [low, lowest]}
    - {scopeName: NotBestEffort, operator: Exists}
status:
  hard: {requests.nvidia.com/gpu: "8"}
  used: {requests.nvidia.com/gpu: "6"}
)");
  ASSERT_EQ(in.snapshot.limit_ranges.size(), 1u);
  EXPECT_EQ(EntryTexts(in.snapshot.limit_ranges[0].limits[0].max_limit_request_ratio),
            (Strings{"cpu=2/2000", "memory=1500m/1500"}));
  ASSERT_EQ(in.snapshot.resource_quotas.size(), 1u);
  const model::NamespaceQuota& q = in.snapshot.resource_quotas[0];
  ASSERT_EQ(q.scope_selector.size(), 2u);
  EXPECT_EQ(q.scope_selector[0].scope_name, "PriorityClass");
  EXPECT_EQ(q.scope_selector[0].op, "NotIn");
  EXPECT_EQ(q.scope_selector[0].values, (Strings{"low", "lowest"}));
  EXPECT_EQ(q.scope_selector[1].op, "Exists");
  EXPECT_TRUE(q.scope_selector[1].values.empty());
  EXPECT_TRUE(q.has_used);
  EXPECT_EQ(EntryTexts(q.used), Strings{"requests.nvidia.com/gpu=6/6000"});
}

TEST(DoctorKindsTest, AdmissionFieldErrors) {
  const std::string lr = "apiVersion: v1\nkind: LimitRange\nmetadata: {name: l, namespace: t}\n";
  ExpectBad(lr + "spec:\n  limits:\n  - {type: Container, maxLimitRequestRatio: {cpu: 500m}}\n",
            "spec.limits[0].maxLimitRequestRatio.cpu",
            R"(Invalid value: "500m": ratio must be greater than or equal to 1)");
  testing::ExpectOneErrorBesideGoodNode(
      lr + "spec:\n  limits:\n  - {type: Container, maxLimitRequestRatio: {cpu: two}}\n",
      "spec.limits[0].maxLimitRequestRatio.cpu");
  testing::ExpectOneErrorBesideGoodNode(
      lr + "spec:\n  limits:\n  - {type: Container, default: {memory: 1Gx}}\n",
      "spec.limits[0].default.memory");
  const std::string rq = "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: q, namespace: t}\n";
  ExpectBad(rq +
                "spec:\n  scopeSelector:\n    matchExpressions:\n"
                "    - {scopeName: PriorityClass, operator: In}\n",
            "spec.scopeSelector.matchExpressions[0].values",
            "Required value: must be at least one value when `operator` is 'In' or 'NotIn' for "
            "scope selector");
  ExpectBad(rq +
                "spec:\n  scopeSelector:\n    matchExpressions:\n"
                "    - {scopeName: PriorityClass, operator: Exists, values: [high]}\n",
            "spec.scopeSelector.matchExpressions[0].values",
            "Invalid value: may not be specified when `operator` is 'Exists' or 'DoesNotExist' "
            "for scope selector");
  // A malformed status.used amount: the error names the object and the field.
  core::Diagnostics diags = testing::ExpectOneErrorBesideGoodNode(
      rq + "spec: {hard: {pods: \"4\"}}\nstatus: {used: {pods: many}}\n", "status.used.pods");
  ASSERT_FALSE(diags.entries().empty());
  EXPECT_EQ(diags.entries()[0].error.location().object, "ResourceQuota/t/q");
}

TEST(DoctorKindsTest, ServiceAccountAndConfigMap) {
  Input in = ReadClean(R"(apiVersion: v1
kind: ServiceAccount
metadata: {name: trainer, namespace: team-a}
automountServiceAccountToken: false
---
apiVersion: v1
kind: ConfigMap
metadata: {name: time-slicing-config, namespace: gpu-operator}
data:
  any: |-
    version: v1
    sharing: {timeSlicing: {resources: [{name: nvidia.com/gpu, replicas: 4}]}}
  a-key: ""
  empty: null
binaryData:
  blob: AAEC
)");
  ASSERT_EQ(in.snapshot.service_accounts.size(), 1u);
  EXPECT_EQ(in.snapshot.service_accounts[0].meta.NamespacedName(), "team-a/trainer");
  EXPECT_TRUE(in.snapshot.service_accounts[0].source.valid());
  ASSERT_EQ(in.snapshot.config_maps.size(), 1u);
  const model::ConfigMap& cm = in.snapshot.config_maps[0];
  EXPECT_EQ(cm.meta.NamespacedName(), "gpu-operator/time-slicing-config");
  // Document order, not sorted; binaryData is not kept.
  using Entry = std::pair<std::string, std::string>;
  EXPECT_EQ(cm.data, (std::vector<Entry>{
                         {"any",
                          "version: v1\nsharing: {timeSlicing: {resources: [{name: nvidia.com/gpu, "
                          "replicas: 4}]}}"},
                         {"a-key", ""},
                         {"empty", ""}}));
}

TEST(DoctorKindsTest, ConfigMapErrors) {
  const std::string head =
      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: t}\n";
  ExpectBad(head + "data: {\"a b\": x}\n", "data.a b",
            R"(Invalid value: "a b": a valid config key must consist of alphanumeric characters, )"
            R"('-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for )"
            R"(validation is '[-._a-zA-Z0-9]+'))");
  ExpectBad(head + "data: {..x: y}\n", "data[..x]",
            R"(Invalid value: "..x": must not start with '..')");
  ExpectBad(head + "data: {n: 3}\n", "data.n", "must be a string");
  ExpectBad(head + "data: {k: v}\nbinaryData: {k: AA==}\n", "binaryData",
            R"(Invalid value: "k": duplicate of key present in data)");
  // The values together may hold 1 MiB; two of 600 KiB pass it at the second.
  const std::string big(600 * 1024, 'x');
  ExpectBad(head + "data:\n  a: " + big + "\n  b: " + big + "\n", "data",
            "Too long: may not be more than 1048576 bytes");
  // binaryData counts decoded: 4 base64 characters are 3 bytes.
  const std::string encoded(1024 * 1024 / 3 * 4 + 4, 'A');
  ExpectBad(head + "binaryData:\n  a: " + encoded + "\n", "binaryData",
            "Too long: may not be more than 1048576 bytes");
  const std::string exactly(1024 * 1024, 'x');
  Input in = ReadClean(head + "data:\n  a: " + exactly + "\n");
  EXPECT_EQ(in.snapshot.config_maps.size(), 1u) << "exactly 1 MiB is allowed";
}

TEST(DoctorKindsTest, StorageKindsKeepEveryField) {
  Input in = ReadClean(R"(apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: team-a
  annotations: {volume.kubernetes.io/selected-node: gpu-3}
spec:
  accessModes: [ReadWriteOnce, ReadOnlyMany]
  storageClassName: local-nvme
  volumeName: pv-1
  resources: {requests: {storage: 100Gi}}
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: default-class, namespace: team-a}
spec:
  accessModes: [ReadWriteOncePod]
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  accessModes: [ReadWriteOnce]
  capacity: {storage: 100Gi}
  storageClassName: local-nvme
  claimRef: {namespace: team-a, name: data}
  local: {path: /mnt/nvme}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: kubernetes.io/hostname, operator: In, values: [gpu-3]}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: local-nvme
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
- matchLabelExpressions:
  - {key: topology.kubernetes.io/zone, values: [eu-1a, eu-1b]}
---
apiVersion: storage.k8s.io/v1beta1
kind: StorageClass
metadata: {name: old, annotations: {storageclass.beta.kubernetes.io/is-default-class: "false"}}
provisioner: ebs.csi.aws.com
)");
  ASSERT_EQ(in.snapshot.persistent_volume_claims.size(), 2u);
  const model::PersistentVolumeClaim& pvc = in.snapshot.persistent_volume_claims[0];
  EXPECT_EQ(pvc.meta.NamespacedName(), "team-a/data");
  EXPECT_EQ(pvc.access_modes, (Strings{"ReadWriteOnce", "ReadOnlyMany"}));
  EXPECT_EQ(pvc.storage_class_name, std::optional<std::string>("local-nvme"));
  EXPECT_EQ(pvc.volume_name, "pv-1");
  EXPECT_EQ(pvc.phase, "Bound");
  EXPECT_EQ(pvc.selected_node, "gpu-3");
  const model::PersistentVolumeClaim& plain = in.snapshot.persistent_volume_claims[1];
  EXPECT_EQ(plain.access_modes, Strings{"ReadWriteOncePod"});
  EXPECT_EQ(plain.storage_class_name, std::nullopt);
  EXPECT_EQ(plain.phase, "");
  EXPECT_EQ(plain.selected_node, "");

  ASSERT_EQ(in.snapshot.persistent_volumes.size(), 1u);
  const model::PersistentVolume& pv = in.snapshot.persistent_volumes[0];
  EXPECT_EQ(pv.meta.name, "pv-1");
  EXPECT_EQ(pv.meta.namespace_, "");
  EXPECT_EQ(pv.access_modes, Strings{"ReadWriteOnce"});
  EXPECT_EQ(pv.storage_class_name, "local-nvme");
  EXPECT_EQ(pv.claim_namespace, "team-a");
  EXPECT_EQ(pv.claim_name, "data");
  ASSERT_TRUE(pv.node_affinity.has_value());
  EXPECT_TRUE(pv.node_affinity->Matches({{"kubernetes.io/hostname", "gpu-3"}}, "gpu-3"));
  EXPECT_FALSE(pv.node_affinity->Matches({{"kubernetes.io/hostname", "gpu-4"}}, "gpu-4"));

  ASSERT_EQ(in.snapshot.storage_classes.size(), 2u);
  const model::StorageClass& sc = in.snapshot.storage_classes[0];
  EXPECT_EQ(sc.meta.name, "local-nvme");
  EXPECT_EQ(sc.provisioner, "kubernetes.io/no-provisioner");
  EXPECT_EQ(sc.volume_binding_mode, "WaitForFirstConsumer");
  EXPECT_TRUE(sc.is_default);
  ASSERT_TRUE(sc.allowed_topologies.has_value());
  ASSERT_EQ(sc.allowed_topologies->terms.size(), 1u);
  ASSERT_EQ(sc.allowed_topologies->terms[0].match_expressions.size(), 1u);
  const core::SelectorRequirement& zone = sc.allowed_topologies->terms[0].match_expressions[0];
  EXPECT_EQ(zone.key, "topology.kubernetes.io/zone");
  EXPECT_EQ(zone.op, core::SelectorOp::kIn);
  EXPECT_EQ(zone.values, (Strings{"eu-1a", "eu-1b"}));
  const model::StorageClass& old = in.snapshot.storage_classes[1];
  EXPECT_EQ(old.volume_binding_mode, "Immediate");
  EXPECT_FALSE(old.is_default);
  EXPECT_FALSE(old.allowed_topologies.has_value());
}

TEST(DoctorKindsTest, VolumeFieldsBindingReads) {
  Input in = ReadClean(R"(apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, namespace: t}
spec:
  accessModes: [ReadWriteOnce]
  volumeMode: Block
  selector: {matchLabels: {tier: fast}}
  resources: {requests: {storage: 10Gi}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: v}
spec:
  accessModes: [ReadWriteOnce]
  capacity: {storage: 20Gi}
  claimRef: {namespace: t, name: c, uid: u-1}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-9}
status: {phase: Bound}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: node-a}
spec:
  drivers:
  - {name: ebs.csi.aws.com, nodeID: i-1, topologyKeys: [zone], allocatable: {count: 25}}
  - {name: other.csi, nodeID: i-1}
)");
  ASSERT_EQ(in.snapshot.persistent_volume_claims.size(), 1u);
  const model::PersistentVolumeClaim& c = in.snapshot.persistent_volume_claims[0];
  EXPECT_EQ(c.storage_request.ToString(), "10Gi");
  EXPECT_EQ(c.volume_mode, "Block");
  ASSERT_TRUE(c.selector.has_value());
  EXPECT_EQ(c.selector->match_labels.at("tier"), "fast");
  ASSERT_EQ(in.snapshot.persistent_volumes.size(), 1u);
  const model::PersistentVolume& v = in.snapshot.persistent_volumes[0];
  EXPECT_EQ(v.capacity.ToString(), "20Gi");
  EXPECT_EQ(v.volume_mode, "Filesystem");
  EXPECT_EQ(v.claim_uid, "u-1");
  EXPECT_EQ(v.csi_driver, "ebs.csi.aws.com");
  EXPECT_EQ(v.csi_volume_handle, "vol-9");
  EXPECT_EQ(v.phase, "Bound");
  ASSERT_EQ(in.snapshot.csi_nodes.size(), 1u);
  const model::CSINode& n = in.snapshot.csi_nodes[0];
  EXPECT_EQ(n.meta.name, "node-a");
  ASSERT_EQ(n.drivers.size(), 2u);
  EXPECT_EQ(n.drivers[0].allocatable_count, std::optional<int32_t>(25));
  EXPECT_EQ(n.drivers[0].topology_keys, Strings({"zone"}));
  EXPECT_EQ(n.drivers[1].allocatable_count, std::nullopt);
}

TEST(DoctorKindsTest, StorageErrors) {
  const std::string pvc = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c, namespace: t}\n";
  const std::string storage = "  resources: {requests: {storage: 1Gi}}\n";
  ExpectBad(pvc, "spec", "required value");
  ExpectBad(pvc + "spec:\n" + storage, "spec.accessModes",
            "Required value: at least 1 access mode is required");
  ExpectBad(pvc + "spec:\n  accessModes: [ReadWriteSometimes]\n" + storage, "spec.accessModes[0]",
            R"(unsupported value "ReadWriteSometimes": supported values: "ReadOnlyMany", )"
            R"("ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod")");
  ExpectBad(pvc + "spec:\n  accessModes: [ReadWriteOnce, ReadWriteOncePod]\n" + storage,
            "spec.accessModes", "Forbidden: may not use ReadWriteOncePod with other access modes");
  ExpectBad(pvc + "spec:\n  accessModes: [ReadWriteOnce]\n", "spec.resources.requests[storage]",
            "Required value");
  ExpectBad(pvc + "spec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 0}}\n",
            "spec.resources.requests[storage]", R"(Invalid value: "0": must be greater than zero)");
  const std::string pv = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: v}\n";
  ExpectBad(pv + "spec:\n  accessModes: [ReadWriteOnce]\n", "spec.capacity[storage]",
            "Required value");
  testing::ExpectOneErrorBesideGoodNode(
      pv + "spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n"
           "  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: "
           "[{key: k, operator: Near}]}]}}\n",
      "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator");
  ExpectBad(pvc + "spec:\n  accessModes: [ReadWriteOnce]\n  volumeMode: Raw\n" + storage,
            "spec.volumeMode",
            R"(unsupported value "Raw": supported values: "Block", "Filesystem")");
  testing::ExpectOneErrorBesideGoodNode(
      pvc + "spec:\n  accessModes: [ReadWriteOnce]\n  selector: {matchLabels: 7}\n" + storage,
      "spec.selector.matchLabels");
  ExpectBad(pv + "spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n"
                 "  csi: {volumeHandle: h}\n",
            "spec.csi.driver", "Required value");
  const std::string csi = "apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n}\n";
  ExpectBad(csi + "spec:\n  drivers:\n  - {name: d, nodeID: i, allocatable: {count: -1}}\n",
            "spec.drivers[0].allocatable.count",
            R"(Invalid value: "-1": must be greater than or equal to 0)");
  ExpectBad(csi + "spec:\n  drivers:\n  - {name: d}\n", "spec.drivers[0].nodeID",
            "Required value");
  ExpectBad(csi + "spec:\n  drivers:\n  - {name: d, nodeID: a}\n  - {name: d, nodeID: b}\n",
            "spec.drivers[1].name", R"(Duplicate value: "d")");
  const std::string sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\n";
  ExpectBad(sc, "provisioner", "Required value");
  ExpectBad(sc + "provisioner: p\nvolumeBindingMode: Later\n", "volumeBindingMode",
            R"(unsupported value "Later": supported values: "Immediate", "WaitForFirstConsumer")");
  ExpectBad(sc + "provisioner: p\nallowedTopologies:\n- matchLabelExpressions:\n  - {key: zone}\n",
            "allowedTopologies[0].matchLabelExpressions[0].values",
            "Required value: must specify as least one value");
}

TEST(DoctorKindsTest, NetworkPolicyDefaultsAndCounts) {
  Input in = ReadClean(R"(apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: default-deny, namespace: team-a}
spec:
  podSelector: {}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: allow, namespace: team-a}
spec:
  podSelector: {matchLabels: {app: trainer}}
  ingress:
  - from: [{podSelector: {matchLabels: {app: loader}}}]
  - from: [{ipBlock: {cidr: 10.0.0.0/8}}]
  egress:
  - to: [{namespaceSelector: {}}]
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny-egress, namespace: team-a}
spec:
  podSelector: {}
  policyTypes: [Egress]
)");
  ASSERT_EQ(in.snapshot.network_policies.size(), 3u);
  const model::NetworkPolicy& deny = in.snapshot.network_policies[0];
  EXPECT_EQ(deny.meta.NamespacedName(), "team-a/default-deny");
  EXPECT_TRUE(deny.pod_selector.match_labels.empty());
  EXPECT_TRUE(deny.ingress_type) << "no policyTypes: Ingress";
  EXPECT_FALSE(deny.egress_type) << "no policyTypes and no egress rules: not Egress";
  EXPECT_EQ(deny.ingress_rules, 0u);
  EXPECT_EQ(deny.egress_rules, 0u);
  const model::NetworkPolicy& allow = in.snapshot.network_policies[1];
  EXPECT_EQ(allow.pod_selector.match_labels, (core::Labels{{"app", "trainer"}}));
  EXPECT_TRUE(allow.ingress_type);
  EXPECT_TRUE(allow.egress_type) << "egress rules without policyTypes: Egress too";
  EXPECT_EQ(allow.ingress_rules, 2u);
  EXPECT_EQ(allow.egress_rules, 1u);
  const model::NetworkPolicy& egress = in.snapshot.network_policies[2];
  EXPECT_FALSE(egress.ingress_type);
  EXPECT_TRUE(egress.egress_type);
}

TEST(DoctorKindsTest, NetworkPolicyErrors) {
  const std::string head =
      "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: n, namespace: t}\n";
  ExpectBad(head + "spec: {policyTypes: [Sideways]}\n", "spec.policyTypes[0]",
            R"(unsupported value "Sideways": supported values: "Egress", "Ingress")");
  ExpectBad(head + "spec: {policyTypes: [Ingress, Egress, Ingress]}\n", "spec.policyTypes",
            "Too many: 3: must have at most 2 items");
  ExpectBad(head + "spec:\n  ingress:\n  - from: [{}]\n", "spec.ingress[0].from[0]",
            "Required value: must specify a peer");
  ExpectBad(head + "spec:\n  egress:\n  - to: [{ipBlock: {cidr: 10.0.0.0/8}, podSelector: {}}]\n",
            "spec.egress[0].to[0]", "Forbidden: may not specify both ipBlock and another peer");
  ExpectBad(head + "spec:\n  ingress:\n  - from: [{ipBlock: {}}]\n",
            "spec.ingress[0].from[0].ipBlock.cidr", "Required value");
  ExpectBad(head + "spec:\n  ingress: [7]\n", "spec.ingress[0]", "must be an object");
}

TEST(DoctorKindsTest, PodDisruptionBudgetKeepsEveryField) {
  Input in = ReadClean(R"(apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: trainers, namespace: team-a}
spec:
  selector: {matchLabels: {app: trainer}}
  minAvailable: 100%
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: all, namespace: team-a}
spec:
  selector: {}
  maxUnavailable: 0
  unhealthyPodEvictionPolicy: AlwaysAllow
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: none, namespace: team-a}
spec: {}
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: old-empty, namespace: team-a}
spec:
  selector: {}
  minAvailable: 2
)");
  ASSERT_EQ(in.snapshot.pod_disruption_budgets.size(), 4u);
  const model::PodDisruptionBudget& trainers = in.snapshot.pod_disruption_budgets[0];
  ASSERT_TRUE(trainers.selector.has_value());
  EXPECT_EQ(trainers.selector->match_labels, (core::Labels{{"app", "trainer"}}));
  ASSERT_TRUE(trainers.min_available.has_value());
  EXPECT_EQ(trainers.min_available->value, 100);
  EXPECT_TRUE(trainers.min_available->percent);
  EXPECT_FALSE(trainers.max_unavailable.has_value());
  EXPECT_EQ(trainers.unhealthy_pod_eviction_policy, "IfHealthyBudget");
  const model::PodDisruptionBudget& all = in.snapshot.pod_disruption_budgets[1];
  ASSERT_TRUE(all.selector.has_value()) << "v1: {} selects every pod";
  EXPECT_TRUE(all.selector->match_labels.empty());
  ASSERT_TRUE(all.max_unavailable.has_value());
  EXPECT_EQ(all.max_unavailable->value, 0);
  EXPECT_FALSE(all.max_unavailable->percent);
  EXPECT_EQ(all.unhealthy_pod_eviction_policy, "AlwaysAllow");
  EXPECT_FALSE(in.snapshot.pod_disruption_budgets[2].selector.has_value());
  const model::PodDisruptionBudget& old = in.snapshot.pod_disruption_budgets[3];
  EXPECT_FALSE(old.selector.has_value()) << "v1beta1: {} selects no pod";
  ASSERT_TRUE(old.min_available.has_value());
  EXPECT_EQ(old.min_available->value, 2);
}

TEST(DoctorKindsTest, PodDisruptionBudgetErrors) {
  const std::string head =
      "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p, namespace: t}\n";
  ExpectBad(head + "spec: {minAvailable: 2, maxUnavailable: 25%}\n", "spec",
            R"(Invalid value: "minAvailable: 2, maxUnavailable: 25%": minAvailable and )"
            "maxUnavailable cannot be both set");
  ExpectBad(head + "spec: {minAvailable: -1}\n", "spec.minAvailable",
            "Invalid value: -1: must be greater than or equal to 0");
  ExpectBad(head + "spec: {maxUnavailable: half}\n", "spec.maxUnavailable",
            R"(Invalid value: "half": a valid percent string must be a numeric string followed )"
            R"(by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'))");
  ExpectBad(head + "spec: {maxUnavailable: \"2\"}\n", "spec.maxUnavailable",
            R"(Invalid value: "2": a valid percent string must be a numeric string followed )"
            R"(by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'))");
  ExpectBad(head + "spec: {minAvailable: 150%}\n", "spec.minAvailable",
            R"(Invalid value: "150%": must not be greater than 100%)");
  ExpectBad(head + "spec: {minAvailable: 1, unhealthyPodEvictionPolicy: Never}\n",
            "spec.unhealthyPodEvictionPolicy",
            R"(unsupported value "Never": supported values: "AlwaysAllow", "IfHealthyBudget")");
}

TEST(DoctorKindsTest, RuntimeClassKeepsEveryField) {
  Input in = ReadClean(R"(apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: nvidia}
handler: nvidia
scheduling:
  nodeSelector: {nvidia.com/gpu.present: "true"}
  tolerations: [{key: nvidia.com/gpu, operator: Exists}]
---
apiVersion: node.k8s.io/v1beta1
kind: RuntimeClass
metadata: {name: runc}
handler: runc
)");
  ASSERT_EQ(in.snapshot.runtime_classes.size(), 2u);
  const model::RuntimeClass& rc = in.snapshot.runtime_classes[0];
  EXPECT_EQ(rc.meta.name, "nvidia");
  EXPECT_EQ(rc.handler, "nvidia");
  EXPECT_EQ(rc.node_selector, (core::Labels{{"nvidia.com/gpu.present", "true"}}));
  EXPECT_EQ(in.snapshot.runtime_classes[1].handler, "runc");
  EXPECT_TRUE(in.snapshot.runtime_classes[1].node_selector.empty());
}

TEST(DoctorKindsTest, RuntimeClassErrors) {
  const std::string head = "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: r}\n";
  ExpectBad(head, "handler", "Required value");
  ExpectBad(head + "handler: Nvidia_Runtime\n", "handler",
            R"(Invalid value: "Nvidia_Runtime": a lowercase RFC 1123 label must consist of lower )"
            R"(case alphanumeric characters or '-', and must start and end with an alphanumeric )"
            R"(character (e.g. 'my-name',  or '123-abc', regex used for validation is )"
            R"('[a-z0-9]([-a-z0-9]*[a-z0-9])?'))");
  ExpectBad(head + "handler: nvidia\nscheduling: {tolerations: [{key: k, operator: Exists, value: v}]}\n",
            "scheduling.tolerations[0].operator", "value must be empty when operator is Exists");
}

TEST(DoctorKindsTest, RbacObjectsAreKept) {
  Input in = ReadClean(R"(apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: cluster-admin}
rules:
- {apiGroups: ["*"], resources: ["*"], verbs: ["*"]}
- {nonResourceURLs: ["*"], verbs: ["*"]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: team-a}
rules:
- {apiGroups: ["*"], resources: ["*"], verbs: [get, list]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: trainer-admin}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects:
- {kind: ServiceAccount, name: trainer, namespace: team-a}
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: alice}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: read, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
)");
  ASSERT_EQ(in.snapshot.rbac_roles.size(), 2u);
  const model::RbacRole& admin = in.snapshot.rbac_roles[0];
  EXPECT_EQ(admin.meta.name, "cluster-admin");
  EXPECT_TRUE(admin.cluster_scoped);
  EXPECT_TRUE(admin.grants_all);
  EXPECT_TRUE(admin.source.valid());
  const model::RbacRole& reader = in.snapshot.rbac_roles[1];
  EXPECT_EQ(reader.meta.NamespacedName(), "team-a/reader");
  EXPECT_FALSE(reader.cluster_scoped);
  EXPECT_FALSE(reader.grants_all) << "verbs are not *";
  ASSERT_EQ(in.snapshot.rbac_bindings.size(), 2u);
  const model::RbacBinding& crb = in.snapshot.rbac_bindings[0];
  EXPECT_TRUE(crb.cluster_scoped);
  EXPECT_EQ(crb.role_kind, "ClusterRole");
  EXPECT_EQ(crb.role_name, "cluster-admin");
  ASSERT_EQ(crb.subjects.size(), 2u);
  EXPECT_EQ(crb.subjects[0].kind, "ServiceAccount");
  EXPECT_EQ(crb.subjects[0].name, "trainer");
  EXPECT_EQ(crb.subjects[0].namespace_, "team-a");
  EXPECT_EQ(crb.subjects[1].kind, "User");
  EXPECT_EQ(crb.subjects[1].name, "alice");
  EXPECT_EQ(crb.subjects[1].namespace_, "");
  const model::RbacBinding& rb = in.snapshot.rbac_bindings[1];
  EXPECT_FALSE(rb.cluster_scoped);
  EXPECT_EQ(rb.meta.namespace_, "team-a");
  EXPECT_EQ(rb.role_kind, "Role");
  EXPECT_EQ(rb.role_name, "reader");
  EXPECT_TRUE(rb.subjects.empty());
}

TEST(DoctorKindsTest, RbacErrorsStillNameTheirFields) {
  ExpectBad("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\n"
            "metadata: {name: b}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, "
            "name: r}\n",
            "roleRef.kind", R"(Invalid value: "Role": supported values: "ClusterRole")");
  ExpectBad("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\n"
            "metadata: {name: b}\nroleRef: {apiGroup: rbac.authorization.k8s.io, "
            "kind: ClusterRole, name: r}\nsubjects:\n- {kind: ServiceAccount, name: sa}\n",
            "subjects[0].namespace", "Required value");
  ExpectBad("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, "
            "namespace: t}\nrules:\n- {apiGroups: [\"\"], resources: [pods]}\n",
            "rules[0].verbs", "Required value: verbs must contain at least one value");
}

TEST(DoctorKindsTest, PodSpecKeepsWhatDoctorChecks) {
  Input in = ReadClean(R"(apiVersion: v1
kind: Pod
metadata: {name: p, namespace: team-a}
spec:
  runtimeClassName: nvidia
  serviceAccountName: trainer
  containers:
  - name: train
    image: nvcr.io/nvidia/pytorch:24.05-py3
    imagePullPolicy: Always
    securityContext: {privileged: true}
    env:
    - {name: OTHER, value: x}
    - {name: NVIDIA_VISIBLE_DEVICES, value: all}
  - name: side
    image: busybox
    env:
    - name: NVIDIA_VISIBLE_DEVICES
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
  volumes:
  - {name: dev, hostPath: {path: /dev/nvidia0}}
  - {name: data, persistentVolumeClaim: {claimName: data}}
  - {name: cache, emptyDir: {}}
  - {name: kube-api-access, projected: {sources: []}}
---
apiVersion: v1
kind: Pod
metadata: {name: old-style, namespace: team-a}
spec:
  serviceAccount: legacy
  containers: [{name: c, image: i}]
)");
  const model::Pod* pod = testing::FindPod(in.snapshot, "team-a", "p");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->runtime_class_name, "nvidia");
  EXPECT_EQ(pod->service_account_name, "trainer");
  ASSERT_EQ(pod->containers.size(), 2u);
  const model::Container& train = pod->containers[0];
  EXPECT_EQ(train.image, "nvcr.io/nvidia/pytorch:24.05-py3");
  EXPECT_EQ(train.image_pull_policy, "Always");
  EXPECT_TRUE(train.privileged);
  EXPECT_EQ(train.nvidia_visible_devices, std::optional<std::string>("all"));
  const model::Container& side = pod->containers[1];
  EXPECT_EQ(side.image, "busybox");
  EXPECT_EQ(side.image_pull_policy, "");
  EXPECT_FALSE(side.privileged);
  EXPECT_EQ(side.nvidia_visible_devices, std::nullopt) << "valueFrom is not a literal";
  // Only the hostPath and PVC volumes are kept.
  ASSERT_EQ(pod->volumes.size(), 2u);
  EXPECT_EQ(pod->volumes[0].name, "dev");
  EXPECT_EQ(pod->volumes[0].host_path, "/dev/nvidia0");
  EXPECT_EQ(pod->volumes[0].claim_name, "");
  EXPECT_EQ(pod->volumes[1].name, "data");
  EXPECT_EQ(pod->volumes[1].host_path, "");
  EXPECT_EQ(pod->volumes[1].claim_name, "data");
  const model::Pod* old = testing::FindPod(in.snapshot, "team-a", "old-style");
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(old->service_account_name, "legacy") << "the deprecated alias";
  EXPECT_EQ(old->runtime_class_name, "");
  EXPECT_TRUE(old->volumes.empty());
}

TEST(DoctorKindsTest, WorkloadTemplatesKeepThePodFields) {
  Input in = ReadClean(R"(apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: team-a}
spec:
  template:
    spec:
      restartPolicy: Never
      runtimeClassName: nvidia
      containers:
      - name: c
        image: trainer:1
        env: [{name: NVIDIA_VISIBLE_DEVICES, value: "0,1"}]
      volumes: [{name: d, hostPath: {path: /dev/nvidiactl}}]
)");
  ASSERT_EQ(in.snapshot.workloads.size(), 1u);
  ASSERT_EQ(in.snapshot.workloads[0].pod_sets.size(), 1u);
  const model::Pod& tmpl = in.snapshot.workloads[0].pod_sets[0].pod_template;
  EXPECT_EQ(tmpl.runtime_class_name, "nvidia");
  ASSERT_EQ(tmpl.containers.size(), 1u);
  EXPECT_EQ(tmpl.containers[0].image, "trainer:1");
  EXPECT_EQ(tmpl.containers[0].nvidia_visible_devices, std::optional<std::string>("0,1"));
  ASSERT_EQ(tmpl.volumes.size(), 1u);
  EXPECT_EQ(tmpl.volumes[0].host_path, "/dev/nvidiactl");
  // The expanded pod carries them too.
  const model::Pod* pod = testing::FindPod(in.snapshot, "team-a", "j-0");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->runtime_class_name, "nvidia");
  ASSERT_EQ(pod->volumes.size(), 1u);
}

TEST(DoctorKindsTest, PodFieldErrors) {
  const std::string head = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: t}\nspec:\n";
  ExpectBad(head + "  containers: [{name: c, image: i, imagePullPolicy: Sometimes}]\n",
            "spec.containers[0].imagePullPolicy",
            R"(unsupported value "Sometimes": supported values: "Always", "IfNotPresent", "Never")");
  ExpectBad(head + "  containers: [{name: c, image: i, securityContext: {privileged: yes-please}}]\n",
            "spec.containers[0].securityContext.privileged", "must be a boolean");
  ExpectBad(head + "  containers: [{name: c, image: i, env: [{value: x}]}]\n",
            "spec.containers[0].env[0].name", "Required value");
  ExpectBad(head + "  containers: [{name: c, image: i, env: [{name: NVIDIA_VISIBLE_DEVICES, value: 3}]}]\n",
            "spec.containers[0].env[0].value", "must be a string");
  ExpectBad(head + "  containers: [{name: c, image: i}]\n  volumes: [{name: v, hostPath: {}}]\n",
            "spec.volumes[0].hostPath.path", "Required value");
  ExpectBad(head + "  containers: [{name: c, image: i}]\n  volumes: [{name: v, persistentVolumeClaim: {}}]\n",
            "spec.volumes[0].persistentVolumeClaim.claimName", "Required value");
  ExpectBad(head + "  containers: [{name: c, image: i}]\n  runtimeClassName: 3\n",
            "spec.runtimeClassName", "must be a string");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
