// The table of kinds: model's rows (model/kind_info.h) are consistent with each other and
// with upstream's discovery data, io's rows (internal/kind_table.h) pair with them one to
// one, every kind and version the reader accepts is a row (and nothing else is accepted),
// and lookups by (apiVersion, kind) and (group, resource) work.
#include "io/internal/kind_table.h"

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "io/internal/status_writer.h"
#include "io/reader.h"
#include "io/test_util.h"
#include "model/kind_info.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using model::KindInfo;

std::string ApiVersion(const KindInfo& k, std::string_view version) {
  std::string out(k.group);
  if (!out.empty()) out += '/';
  out += version;
  return out;
}

bool IsLowerAlnum(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!(std::islower(static_cast<unsigned char>(c)) ||
          std::isdigit(static_cast<unsigned char>(c)) || c == '-')) {
      return false;
    }
  }
  return true;
}

// "v1", "v1beta2", "v1alpha3": Kubernetes version names.
bool IsVersionName(std::string_view v) {
  if (v.size() < 2 || v[0] != 'v' || !std::isdigit(static_cast<unsigned char>(v[1]))) return false;
  size_t i = 1;
  while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) ++i;
  if (i == v.size()) return true;
  std::string_view rest = v.substr(i);
  for (std::string_view level : {"alpha", "beta"}) {
    if (rest.starts_with(level) && rest.size() > level.size()) {
      for (char c : rest.substr(level.size())) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
      }
      return true;
    }
  }
  return false;
}

TEST(KindTableTest, ModelRowsAreConsistent) {
  std::set<std::pair<std::string_view, std::string_view>> kinds;
  std::set<std::pair<std::string_view, std::string_view>> resources;
  for (const KindInfo& k : model::AllKinds()) {
    SCOPED_TRACE(std::string(k.group) + " " + std::string(k.kind));
    EXPECT_TRUE(kinds.emplace(k.group, k.kind).second) << "duplicate (group, kind)";
    ASSERT_FALSE(k.kind.empty());
    EXPECT_TRUE(std::isupper(static_cast<unsigned char>(k.kind[0])));
    EXPECT_TRUE(k.group.empty() || IsLowerAlnum(k.group.substr(0, k.group.find('.'))));
    ASSERT_FALSE(k.versions.empty()) << "a row reads at least one version";
    std::set<std::string_view> versions;
    for (std::string_view v : k.versions) {
      EXPECT_TRUE(IsVersionName(v)) << v;
      EXPECT_TRUE(versions.insert(v).second) << "duplicate version " << v;
    }
    for (std::string_view v : k.read_only_versions) {
      EXPECT_TRUE(IsVersionName(v)) << v;
      EXPECT_TRUE(versions.insert(v).second) << "read-only version also served: " << v;
    }
    if (k.served()) {
      EXPECT_TRUE(IsLowerAlnum(k.resource)) << k.resource;
      EXPECT_TRUE(resources.emplace(k.group, k.resource).second)
          << "plural " << k.resource << " twice in group " << k.group;
      for (model::Verb v : {model::Verb::kGet, model::Verb::kList, model::Verb::kWatch}) {
        EXPECT_TRUE(k.verbs.Has(v)) << model::VerbName(v);
      }
      for (std::string_view s : k.short_names) EXPECT_TRUE(IsLowerAlnum(s)) << s;
      for (std::string_view c : k.categories) EXPECT_TRUE(IsLowerAlnum(c)) << c;
    } else {
      // Component configuration: a file, never an API resource.
      EXPECT_FALSE(k.status_subresource);
      EXPECT_FALSE(k.scale.served());
      EXPECT_TRUE(k.short_names.empty());
      EXPECT_TRUE(k.categories.empty());
      EXPECT_FALSE(k.workload);
    }
    if (k.scale.served()) {
      // A Scale reads the replicas the kind runs and what it reports: a workload with status.
      EXPECT_TRUE(k.workload);
      EXPECT_TRUE(k.status_subresource);
      EXPECT_TRUE(k.scale.spec_replicas_path.starts_with(".spec.")) << k.scale.spec_replicas_path;
      EXPECT_TRUE(k.scale.status_replicas_path.starts_with(".status."))
          << k.scale.status_replicas_path;
    } else {
      EXPECT_TRUE(k.scale.status_replicas_path.empty());
      EXPECT_TRUE(k.scale.label_selector_path.empty());
    }
    if (k.dispatch.suspend != model::SuspendField::kNone) {
      EXPECT_TRUE(k.workload);
    }
    for (const model::FeedbackRuleInfo& rule : k.dispatch.feedback_rules) {
      for (const model::JsonPathInfo& p : rule.json_paths) {
        EXPECT_FALSE(p.name.empty());
        EXPECT_TRUE(p.path.starts_with(".status.")) << p.path;
      }
    }
  }
}

// What discovery serves, restated from upstream (kube-apiserver's discovery for built-ins;
// the CRD manifests of Kueue, OCM api, jobset, lws, kubeflow training-operator v1,
// scheduler-plugins, volcano, KServe and Fluid; Fluid's runtimes also serve a scale
// subresource for their cache workers, which berth does not serve): GROUP/PREFERRED-VERSION RESOURCE KIND SCOPE
// [status] [scale] [short names]. A change here must be a deliberate change to the table.
TEST(KindTableTest, DiscoveryDataMatchesUpstream) {
  std::string got;
  for (const KindInfo& k : model::AllKinds()) {
    if (!k.served()) continue;
    got.append(ApiVersion(k, k.versions[0])).append(" ").append(k.resource).append(" ");
    got.append(k.kind).append(k.namespaced() ? " ns" : " cluster");
    if (k.status_subresource) got.append(" status");
    if (k.scale.served()) got.append(" scale");
    for (std::string_view s : k.short_names) got.append(" ").append(s);
    got.push_back('\n');
  }
  EXPECT_EQ(got,
            "v1 namespaces Namespace cluster status ns\n"
            "v1 nodes Node cluster status no\n"
            "v1 pods Pod ns status po\n"
            "v1 serviceaccounts ServiceAccount ns sa\n"
            "v1 configmaps ConfigMap ns cm\n"
            "v1 resourcequotas ResourceQuota ns status quota\n"
            "v1 limitranges LimitRange ns limits\n"
            "v1 persistentvolumeclaims PersistentVolumeClaim ns status pvc\n"
            "v1 persistentvolumes PersistentVolume cluster status pv\n"
            "scheduling.k8s.io/v1 priorityclasses PriorityClass cluster pc\n"
            "rbac.authorization.k8s.io/v1 clusterroles ClusterRole cluster\n"
            "rbac.authorization.k8s.io/v1 clusterrolebindings ClusterRoleBinding cluster\n"
            "rbac.authorization.k8s.io/v1 roles Role ns\n"
            "rbac.authorization.k8s.io/v1 rolebindings RoleBinding ns\n"
            "networking.k8s.io/v1 networkpolicies NetworkPolicy ns netpol\n"
            "policy/v1 poddisruptionbudgets PodDisruptionBudget ns status pdb\n"
            "storage.k8s.io/v1 storageclasses StorageClass cluster sc\n"
            "storage.k8s.io/v1 csinodes CSINode cluster\n"
            "node.k8s.io/v1 runtimeclasses RuntimeClass cluster\n"
            "batch/v1 jobs Job ns status\n"
            "apps/v1 deployments Deployment ns status scale deploy\n"
            "apps/v1 statefulsets StatefulSet ns status scale sts\n"
            "apps/v1 replicasets ReplicaSet ns status scale rs\n"
            "jobset.x-k8s.io/v1alpha2 jobsets JobSet ns status\n"
            "kubeflow.org/v1 pytorchjobs PyTorchJob ns status scale\n"
            "leaderworkerset.x-k8s.io/v1 leaderworkersets LeaderWorkerSet ns status scale lws\n"
            "kubeflow.org/v2beta1 mpijobs MPIJob ns status\n"
            "ray.io/v1 rayclusters RayCluster ns status\n"
            "ray.io/v1 rayjobs RayJob ns status\n"
            "batch.volcano.sh/v1alpha1 jobs Job ns status vcjob vj\n"
            "trainer.kubeflow.org/v1alpha1 trainjobs TrainJob ns status\n"
            "trainer.kubeflow.org/v1alpha1 trainingruntimes TrainingRuntime ns\n"
            "trainer.kubeflow.org/v1alpha1 clustertrainingruntimes ClusterTrainingRuntime "
            "cluster\n"
            "serving.kserve.io/v1beta1 inferenceservices InferenceService ns status isvc\n"
            "data.fluid.io/v1alpha1 datasets Dataset ns status\n"
            "data.fluid.io/v1alpha1 alluxioruntimes AlluxioRuntime ns status\n"
            "data.fluid.io/v1alpha1 juicefsruntimes JuiceFSRuntime ns status\n"
            "data.fluid.io/v1alpha1 jindoruntimes JindoRuntime ns status\n"
            "data.fluid.io/v1alpha1 dataloads DataLoad ns status\n"
            "serving.kserve.io/v1alpha1 clusterservingruntimes ClusterServingRuntime cluster\n"
            "serving.kserve.io/v1alpha1 servingruntimes ServingRuntime ns\n"
            "resource.k8s.io/v1 deviceclasses DeviceClass cluster\n"
            "resource.k8s.io/v1 resourceclaims ResourceClaim ns status\n"
            "resource.k8s.io/v1 resourceclaimtemplates ResourceClaimTemplate ns\n"
            "resource.k8s.io/v1 resourceslices ResourceSlice cluster\n"
            "resource.k8s.io/v1alpha3 devicetaintrules DeviceTaintRule cluster\n"
            "kueue.x-k8s.io/v1beta2 resourceflavors ResourceFlavor cluster flavor flavors rf\n"
            "kueue.x-k8s.io/v1beta2 clusterqueues ClusterQueue cluster status cq\n"
            "kueue.x-k8s.io/v1beta2 cohorts Cohort cluster status co\n"
            "kueue.x-k8s.io/v1beta2 localqueues LocalQueue ns status queue queues lq\n"
            "kueue.x-k8s.io/v1beta2 workloadpriorityclasses WorkloadPriorityClass cluster wpc\n"
            "kueue.x-k8s.io/v1beta2 topologies Topology cluster topo\n"
            "kueue.x-k8s.io/v1beta2 admissionchecks AdmissionCheck cluster status ac\n"
            "kueue.x-k8s.io/v1beta2 workloads Workload ns status kwl kueueworkload "
            "kueueworkloads\n"
            "kueue.x-k8s.io/v1beta2 multikueueconfigs MultiKueueConfig cluster mkconf\n"
            "kueue.x-k8s.io/v1beta2 multikueueclusters MultiKueueCluster cluster status mkc\n"
            "scheduling.x-k8s.io/v1alpha1 podgroups PodGroup ns status pg pgs\n"
            "scheduling.volcano.sh/v1beta1 podgroups PodGroup ns status pg podgroup-v1beta1\n"
            "scheduling.k8s.io/v1alpha1 workloads Workload ns\n"
            "cluster.open-cluster-management.io/v1 managedclusters ManagedCluster cluster "
            "status mcl mcls\n"
            "cluster.open-cluster-management.io/v1alpha1 clusterclaims ClusterClaim cluster\n"
            "cluster.open-cluster-management.io/v1beta2 managedclustersets ManagedClusterSet "
            "cluster status mclset mclsets\n"
            "cluster.open-cluster-management.io/v1beta2 managedclustersetbindings "
            "ManagedClusterSetBinding ns status mclsetbinding mclsetbindings\n"
            "cluster.open-cluster-management.io/v1beta1 placements Placement ns status\n"
            "cluster.open-cluster-management.io/v1beta1 placementdecisions PlacementDecision ns "
            "status\n"
            "cluster.open-cluster-management.io/v1alpha1 addonplacementscores "
            "AddOnPlacementScore ns status\n"
            "work.open-cluster-management.io/v1 manifestworks ManifestWork ns status\n"
            "work.open-cluster-management.io/v1alpha1 manifestworkreplicasets "
            "ManifestWorkReplicaSet ns status mwrs\n"
            "apps/v1 controllerrevisions ControllerRevision ns\n"
            "federation-ai.open-cluster-management.io/v1alpha1 federatedlearnings "
            "FederatedLearning ns status fl\n");
  // Namespaces are the one kind without deletecollection.
  const KindInfo* ns = model::FindKind("", "Namespace");
  ASSERT_NE(ns, nullptr);
  EXPECT_FALSE(ns->verbs.Has(model::Verb::kDeleteCollection));
  EXPECT_TRUE(model::FindKind("", "Pod")->verbs.Has(model::Verb::kDeleteCollection));
}

TEST(KindTableTest, IoRowsPairWithModelRowsOneToOne) {
  EXPECT_EQ(internal::KindRows().size(), model::AllKinds().size());
  for (const internal::KindRow& row : internal::KindRows()) {
    SCOPED_TRACE(std::string(row.group) + " " + std::string(row.kind));
    const KindInfo* info = model::FindKind(row.group, row.kind);
    ASSERT_NE(info, nullptr) << "io row without a model row";
    EXPECT_EQ(internal::RowOf(*info), &row);
    EXPECT_EQ(internal::FindKindRow(row.group, row.kind), &row);
    EXPECT_NE(row.decode, nullptr);
    EXPECT_EQ(row.pod_identity != nullptr, info->workload) << "workloads name their pods";
    // Dispatch writes flavors into the templates of every kind it ships (workloads and Pod).
    EXPECT_EQ(row.pod_templates != nullptr, info->workload || row.kind == "Pod")
        << "a kind dispatch ships locates its pod templates";
  }
  for (const KindInfo& k : model::AllKinds()) {
    EXPECT_NE(internal::RowOf(k), nullptr) << k.group << " " << k.kind << " has no io row";
  }
  // The rows with a status writer, in table order: the order a plan's List prints them.
  std::vector<std::string_view> written;
  for (const internal::KindRow& row : internal::KindRows()) {
    if (row.status_writer == nullptr) continue;
    written.push_back(row.kind);
    EXPECT_NE(row.status_writer->count, nullptr) << row.kind;
    EXPECT_NE(row.status_writer->tree, nullptr) << row.kind;
  }
  EXPECT_EQ(written, (std::vector<std::string_view>{"Pod", "PersistentVolumeClaim",
                                                    "PersistentVolume", "ResourceClaim", "Workload",
                                                    "Placement", "PlacementDecision",
                                                    "ManifestWork", "ManifestWorkReplicaSet",
                                                    "ControllerRevision", "FederatedLearning"}));
}

// Every version of every row reaches its decoder (no unknown-kind warning); the served
// versions decode the smallest object.
TEST(KindTableTest, EveryRowAndVersionIsRead) {
  for (const KindInfo& k : model::AllKinds()) {
    auto check = [&](std::string_view version, bool must_decode) {
      SCOPED_TRACE(ApiVersion(k, version) + " " + std::string(k.kind));
      core::Diagnostics diags;
      Input in = testing::ReadString(testing::MinimalObject(k, version), diags);
      for (const core::Diagnostic& d : diags.entries()) {
        EXPECT_EQ(d.error.message().find("unknown kind"), std::string::npos) << d.error.message();
      }
      if (must_decode) {
        EXPECT_EQ(in.objects_read, 1u) << testing::Dump(diags);
      }
    };
    for (std::string_view v : k.versions) check(v, true);
    for (std::string_view v : k.read_only_versions) check(v, true);
  }
}

// And nothing else: other kinds of known groups, and versions no row lists, are unknown.
TEST(KindTableTest, KindsAndVersionsWithoutARowAreUnknown) {
  for (auto [api_version, kind] :
       {std::pair{"batch/v2", "Job"}, std::pair{"apps/v1", "DaemonSet"},
        std::pair{"kueue.x-k8s.io/v1alpha1", "ClusterQueue"},
        std::pair{"resource.k8s.io/v1alpha2", "ResourceClaim"}, std::pair{"/v1", "Pod"},
        std::pair{"v2", "Pod"},
        std::pair{"work.open-cluster-management.io/v1alpha1", "ManifestWork"},
        std::pair{"kueue.x-k8s.io/v1beta2", "Configuration"}}) {
    SCOPED_TRACE(std::string(api_version) + " " + kind);
    EXPECT_EQ(internal::FindKindEntry(api_version, kind).row, nullptr);
    core::Diagnostics diags;
    Input in = testing::ReadString(
        "apiVersion: " + std::string(api_version) + "\nkind: " + kind + "\nmetadata:\n  name: x\n",
        diags);
    EXPECT_EQ(in.objects_read, 0u);
    ASSERT_EQ(diags.entries().size(), 1u) << testing::Dump(diags);
    EXPECT_NE(diags.entries()[0].error.message().find("unknown kind"), std::string::npos);
  }
}

// Found by EveryRowAndVersionIsRead: every workload decoder read `spec` unchecked.
TEST(KindTableTest, WorkloadWithoutSpecIsRejectedNotCrashed) {
  for (const KindInfo& k : model::AllKinds()) {
    if (!k.workload) continue;
    SCOPED_TRACE(std::string(k.kind));
    core::Diagnostics diags;
    Input in = testing::ReadString("apiVersion: " + ApiVersion(k, k.versions[0]) + "\nkind: " +
                                       std::string(k.kind) + "\nmetadata:\n  name: x\n",
                                   diags);
    EXPECT_EQ(in.objects_read, 0u);
    ASSERT_EQ(diags.entries().size(), 1u) << testing::Dump(diags);
    EXPECT_EQ(diags.entries()[0].error.location().field, "spec");
    EXPECT_EQ(diags.entries()[0].error.message(), "required value");
  }
}

TEST(KindTableTest, LookupByApiVersionAndKind) {
  const KindInfo* cq = model::FindKindForApiVersion("kueue.x-k8s.io/v1beta1", "ClusterQueue");
  ASSERT_NE(cq, nullptr);
  EXPECT_EQ(cq->resource, "clusterqueues");
  EXPECT_FALSE(cq->namespaced());
  EXPECT_EQ(cq, model::FindKindForApiVersion("kueue.x-k8s.io/v1beta2", "ClusterQueue"));
  EXPECT_EQ(model::FindKindForApiVersion("kueue.x-k8s.io/v1alpha1", "ClusterQueue"), nullptr);
  // Read-only versions are read but not served.
  const KindInfo* cohort = model::FindKindForApiVersion("kueue.x-k8s.io/v1alpha1", "Cohort");
  ASSERT_NE(cohort, nullptr);
  EXPECT_EQ(cohort->versions[0], "v1beta2");
  EXPECT_NE(model::FindKindForApiVersion("apps/v1beta1", "Deployment"), nullptr);
  const KindInfo* pod = model::FindKindForApiVersion("v1", "Pod");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->group, "");
  EXPECT_EQ(pod->resource, "pods");
  EXPECT_EQ(model::FindKindForApiVersion("v1", "Job"), nullptr);
  EXPECT_EQ(model::FindKindForApiVersion("batch/v1", "job"), nullptr) << "kinds are case-sensitive";

  internal::KindEntry entry = internal::FindKindEntry("resource.k8s.io/v1beta1", "ResourceClaim");
  ASSERT_NE(entry.row, nullptr);
  EXPECT_EQ(entry.info->resource, "resourceclaims");
  EXPECT_EQ(entry.row->kind, "ResourceClaim");
  EXPECT_EQ(entry.row->status_writer, &internal::kClaimStatus);

  // Two groups share the kind PodGroup.
  EXPECT_NE(model::FindKind("scheduling.x-k8s.io", "PodGroup"),
            model::FindKind("scheduling.volcano.sh", "PodGroup"));
  // Kueue's Workload and the scheduler's gang Workload are two kinds; scheduling.k8s.io keeps
  // PriorityClass (v1, old v1alpha1 read) beside its Workload (v1alpha1).
  const KindInfo* gang = model::FindKindForApiVersion("scheduling.k8s.io/v1alpha1", "Workload");
  ASSERT_NE(gang, nullptr);
  EXPECT_EQ(gang->group, "scheduling.k8s.io");
  EXPECT_NE(gang, model::FindKind("kueue.x-k8s.io", "Workload"));
  const KindInfo* pc = model::FindKindForApiVersion("scheduling.k8s.io/v1alpha1", "PriorityClass");
  ASSERT_NE(pc, nullptr);
  EXPECT_EQ(pc->kind, "PriorityClass");
  EXPECT_EQ(model::FindKindForApiVersion("scheduling.k8s.io/v1", "Workload"), nullptr);
}

TEST(KindTableTest, LookupByGroupAndResource) {
  for (const KindInfo& k : model::AllKinds()) {
    if (!k.served()) continue;
    EXPECT_EQ(model::FindResource(k.group, k.resource), &k) << k.group << " " << k.resource;
  }
  const KindInfo* rct = model::FindResource("resource.k8s.io", "resourceclaimtemplates");
  ASSERT_NE(rct, nullptr);
  EXPECT_EQ(rct->kind, "ResourceClaimTemplate");
  const KindInfo* pods = model::FindResource("", "pods");
  ASSERT_NE(pods, nullptr);
  EXPECT_EQ(pods->kind, "Pod");
  EXPECT_EQ(model::FindResource("kueue.x-k8s.io", "workloads")->kind, "Workload");
  EXPECT_EQ(model::FindResource("batch", "workloads"), nullptr);
  EXPECT_EQ(model::FindResource("kueue.x-k8s.io", "workload"), nullptr);
  EXPECT_EQ(model::FindResource("kubescheduler.config.k8s.io", ""), nullptr)
      << "configuration kinds are not resources";
}

TEST(KindTableTest, ApiVersionParts) {
  EXPECT_EQ(model::ApiGroupOf("batch/v1"), "batch");
  EXPECT_EQ(model::ApiVersionOf("batch/v1"), "v1");
  EXPECT_EQ(model::ApiGroupOf("v1"), "");
  EXPECT_EQ(model::ApiVersionOf("v1"), "v1");
  EXPECT_EQ(model::VerbName(model::Verb::kDeleteCollection), "deletecollection");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
