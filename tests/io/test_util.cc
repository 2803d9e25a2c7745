#include "io/test_util.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

namespace berth::io::testing {

std::string FixturePath(const std::string& rel) {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  std::string base = root != nullptr ? std::string(root) + "/" : std::string();
  return base + "tests/fixtures/io/" + rel;
}

Input ReadString(std::string_view text, core::Diagnostics& diags, const std::string& name) {
  Reader reader(diags);
  reader.ReadText(text, name);
  return reader.Finish();
}

const model::Pod* FindPod(const model::Snapshot& snap, const std::string& ns,
                          const std::string& name) {
  for (const model::Pod& pod : snap.pods) {
    if (pod.meta.namespace_ == ns && pod.meta.name == name) return &pod;
  }
  return nullptr;
}

std::vector<std::string> PodNames(const model::Snapshot& snap) {
  std::vector<std::string> names;
  for (const model::Pod& pod : snap.pods) names.push_back(pod.meta.name);
  return names;
}

std::string Dump(const core::Diagnostics& diags) {
  std::string out;
  for (const core::Diagnostic& d : diags.entries()) {
    const core::Location& l = d.error.location();
    out += (d.severity == core::Severity::kError ? "error " : "warning ") + l.file + "|" +
           l.object + "|" + l.field + "|" + d.error.message() + "\n";
  }
  return out;
}

namespace {

std::string ApiVersionOf(const model::KindInfo& k, std::string_view version) {
  std::string out(k.group);
  if (!out.empty()) out += '/';
  out += version;
  return out;
}

// The smallest valid object of each kind (and version, where they differ), beyond
// apiVersion, kind and metadata.name (and namespace for namespaced kinds): what the decoders
// require.
std::string MinimalBody(const model::KindInfo& k, std::string_view version) {
  const std::string containers = "spec:\n      containers:\n      - name: c\n        image: i\n";
  static const std::map<std::string_view, std::string> kBodies = {
      {"Pod", "spec:\n  containers:\n  - name: c\n    image: i\n"},
      {"PriorityClass", "value: 10\n"},
      {"ClusterRoleBinding", "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: r}\n"},
      {"RoleBinding", "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}\n"},
      {"Job", "spec:\n  template:\n    " + containers},
      {"Deployment", "spec:\n  template:\n    " + containers},
      {"StatefulSet", "spec:\n  template:\n    " + containers},
      {"ReplicaSet", "spec:\n  template:\n    " + containers},
      {"JobSet",
       "spec:\n  replicatedJobs:\n  - name: w\n    template:\n      spec:\n"
       "        template:\n          spec:\n            containers:\n"
       "            - name: c\n              image: i\n"},
      {"PyTorchJob",
       "spec:\n  pytorchReplicaSpecs:\n    Master:\n      replicas: 1\n"
       "      template:\n        spec:\n          containers:\n"
       "          - name: pytorch\n            image: i\n"},
      {"MPIJob",
       "spec:\n  mpiReplicaSpecs:\n    Launcher:\n      template:\n        spec:\n"
       "          containers:\n          - name: l\n            image: i\n"},
      {"RayCluster",
       "spec:\n  headGroupSpec:\n    template:\n      spec:\n        containers:\n"
       "        - name: h\n          image: i\n"},
      {"RayJob",
       "spec:\n  rayClusterSpec:\n    headGroupSpec:\n      template:\n        spec:\n"
       "          containers:\n          - name: h\n            image: i\n"},
      {"LeaderWorkerSet",
       "spec:\n  leaderWorkerTemplate:\n    size: 2\n    workerTemplate:\n"
       "      spec:\n        containers:\n        - name: c\n"
       "          image: i\n"},
      {"ResourceClaimTemplate", "spec:\n  spec: {}\n"},
      {"ResourceSlice",
       "spec:\n  driver: d.example.com\n  pool:\n    name: p\n"
       "    generation: 1\n    resourceSliceCount: 1\n  nodeName: n\n"},
      {"DeviceTaintRule", "spec:\n  taint:\n    key: k\n    effect: NoSchedule\n"},
      {"LocalQueue", "spec:\n  clusterQueue: cq\n"},
      {"Topology", "spec:\n  levels:\n  - nodeLabel: kubernetes.io/hostname\n"},
      {"AdmissionCheck", "spec:\n  controllerName: c\n"},
      {"Workload",
       "spec:\n  podSets:\n  - name: main\n    count: 1\n    template:\n"
       "      spec:\n        containers:\n        - name: c\n          image: i\n"},
      {"MultiKueueConfig", "spec:\n  clusters:\n  - a\n"},
      {"ClusterClaim", "spec:\n  value: v\n"},
      {"ManagedClusterSetBinding", "spec:\n  clusterSet: x\n"},
      {"FederatedLearning", "spec:\n  server:\n    image: s\n  client:\n    image: c\n"},
      {"ManifestWork",
       "spec:\n  workload:\n    manifests:\n    - apiVersion: v1\n"
       "      kind: ConfigMap\n      metadata:\n        name: m\n"
       "        namespace: default\n"},
      {"ManifestWorkReplicaSet",
       "spec:\n  placementRefs:\n  - name: p\n  manifestWorkTemplate:\n    workload:\n"
       "      manifests:\n      - {apiVersion: v1, kind: ConfigMap, metadata: {name: m}}\n"},
      {"ControllerRevision", "data: {}\n"},
      {"PersistentVolumeClaim",
       "spec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n"},
      {"PersistentVolume", "spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n"},
      {"StorageClass", "provisioner: p.example.com\n"},
      {"RuntimeClass", "handler: runc\n"},
      {"TrainJob", "spec:\n  runtimeRef: {name: r}\n"},
      {"InferenceService", "spec:\n  predictor:\n    model:\n      modelFormat: {name: sklearn}\n"},
      {"ClusterServingRuntime", "spec: {}\n"},
      {"Dataset", "spec: {}\n"},
      {"DataLoad", "spec:\n  dataset: {name: d}\n"},
      {"ServingRuntime", "spec: {}\n"},
  };
  if (k.group == "batch.volcano.sh") {  // its Job is not batch's
    return "spec:\n  tasks:\n  - replicas: 1\n    template:\n      spec:\n        containers:\n"
           "        - name: c\n          image: i\n";
  }
  if (k.group == "scheduling.k8s.io" && k.kind == "Workload") {  // not Kueue's Workload
    return "spec:\n  podGroups:\n  - name: g\n    policy:\n      gang: {minCount: 1}\n";
  }
  if (k.group == "trainer.kubeflow.org" && k.kind != "TrainJob") {
    return "spec:\n  template:\n    spec:\n      replicatedJobs:\n      - name: node\n"
           "        template:\n          spec:\n            template:\n              spec:\n"
           "                containers:\n                - name: node\n"
           "                  image: i\n";
  }
  if (k.kind == "MultiKueueCluster") {
    return version == "v1beta1"
               ? "spec:\n  kubeConfig:\n    location: secret\n"
               : "spec:\n  clusterSource:\n    kubeConfig:\n      location: secret\n";
  }
  auto it = kBodies.find(k.kind);
  return it == kBodies.end() ? "" : it->second;
}

}  // namespace

std::string MinimalObject(const model::KindInfo& k, std::string_view version) {
  std::string text = "apiVersion: " + ApiVersionOf(k, version) + "\nkind: " + std::string(k.kind) +
                     "\nmetadata:\n  name: x\n";
  if (k.namespaced()) text += "  namespace: default\n";
  return text + MinimalBody(k, version);
}

const char* const kGoodNodeYaml =
    "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: good\nstatus:\n  allocatable: {cpu: "
    "\"4\"}\n";

core::Diagnostics ExpectOneErrorBesideGoodNode(const std::string& bad_yaml,
                                               const std::string& field, size_t objects_read) {
  core::Diagnostics diags;
  const Input in = ReadString(bad_yaml + kGoodNodeYaml, diags);
  EXPECT_EQ(diags.error_count(), 1u) << Dump(diags);
  if (!diags.has_errors()) return diags;
  const core::Error& e = diags.entries()[0].error;
  EXPECT_EQ(e.location().field, field) << Dump(diags);
  EXPECT_LT(e.message().size() + e.location().object.size(), 600u) << "bounded";
  EXPECT_EQ(e.message().find('\0'), std::string::npos);
  EXPECT_EQ(e.location().object.find('\0'), std::string::npos);
  EXPECT_EQ(in.objects_read, objects_read);
  EXPECT_EQ(in.snapshot.nodes.size(), 1u);
  if (in.snapshot.nodes.size() == 1) {
    EXPECT_EQ(in.snapshot.nodes[0].meta.name, "good");
  }
  return diags;
}

}  // namespace berth::io::testing
