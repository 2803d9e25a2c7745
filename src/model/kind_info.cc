// The table of kinds. Discovery data (plural, scope, verbs, status and scale subresources,
// short names, categories) is transcribed from upstream: kube-apiserver's discovery for the
// built-in kinds, and each project's CRD manifests (Kueue config/components/crd/bases, OCM
// api cluster/ and work/, jobset, lws, kubeflow training-operator v1, mpi-operator v2beta1,
// kuberay, scheduler-plugins coscheduling, volcano). Verbs are those apiextensions serves
// for every CRD; built-ins differ only where noted. tests/io/kind_table_test.cc checks the
// rows against each other and against io's decoders.
#include "model/kind_info.h"

#include <algorithm>
#include <array>
#include <utility>

namespace berth::model {
namespace {

using SV = std::string_view;

// Version lists.
constexpr SV kV1[] = {"v1"};
constexpr SV kV1alpha1[] = {"v1alpha1"};
constexpr SV kV1beta1[] = {"v1beta1"};
constexpr SV kV1alpha2[] = {"v1alpha2"};
constexpr SV kV2beta1[] = {"v2beta1"};
constexpr SV kDraVersions[] = {"v1", "v1beta2", "v1beta1", "v1alpha3"};
constexpr SV kDeviceTaintRuleVersions[] = {"v1alpha3"};
constexpr SV kKueueVersions[] = {"v1beta2", "v1beta1"};
constexpr SV kKueueConfigVersions[] = {"v1beta2", "v1beta1"};
constexpr SV kOcmSetVersions[] = {"v1beta2", "v1beta1"};
// Removed upstream, still read from old files: the fields berth reads kept their shape.
constexpr SV kOldPriorityClassVersions[] = {"v1beta1", "v1alpha1"};
constexpr SV kOldAppsVersions[] = {"v1beta2", "v1beta1"};
constexpr SV kOldSchedulerConfigVersions[] = {"v1beta3", "v1beta2"};
constexpr SV kKueueAlpha[] = {"v1alpha1"};  // Cohort and Topology before v1beta1 (Kueue 0.9-0.13)
// policy/v1beta1 PodDisruptionBudget (removed in 1.25; an empty selector there selects no
// pod, which io reads as none), storage.k8s.io/v1beta1 StorageClass (removed in 1.22) and
// node.k8s.io/v1beta1 RuntimeClass (removed in 1.25): the fields berth reads kept their shape.
constexpr SV kOldBetaVersions[] = {"v1beta1"};

// Short names and categories.
constexpr SV kAll[] = {"all"};
constexpr SV kNs[] = {"ns"};
constexpr SV kNo[] = {"no"};
constexpr SV kPo[] = {"po"};
constexpr SV kPc[] = {"pc"};
constexpr SV kSa[] = {"sa"};
constexpr SV kCm[] = {"cm"};
constexpr SV kQuota[] = {"quota"};
constexpr SV kLimits[] = {"limits"};
constexpr SV kPvc[] = {"pvc"};
constexpr SV kPv[] = {"pv"};
constexpr SV kNetpol[] = {"netpol"};
constexpr SV kPdb[] = {"pdb"};
constexpr SV kSc[] = {"sc"};
constexpr SV kDeploy[] = {"deploy"};
constexpr SV kSts[] = {"sts"};
constexpr SV kRs[] = {"rs"};
constexpr SV kLws[] = {"lws"};
constexpr SV kIsvc[] = {"isvc"};
constexpr SV kVcjob[] = {"vcjob", "vj"};
constexpr SV kRf[] = {"flavor", "flavors", "rf"};
constexpr SV kCq[] = {"cq"};
constexpr SV kCo[] = {"co"};
constexpr SV kLq[] = {"queue", "queues", "lq"};
constexpr SV kWpc[] = {"wpc"};
constexpr SV kTopo[] = {"topo"};
constexpr SV kAc[] = {"ac"};
constexpr SV kKwl[] = {"kwl", "kueueworkload", "kueueworkloads"};
constexpr SV kMkconf[] = {"mkconf"};
constexpr SV kMkc[] = {"mkc"};
constexpr SV kPg[] = {"pg", "pgs"};
constexpr SV kVolcanoPg[] = {"pg", "podgroup-v1beta1"};
constexpr SV kMcl[] = {"mcl", "mcls"};
constexpr SV kMclset[] = {"mclset", "mclsets"};
constexpr SV kMclsetbinding[] = {"mclsetbinding", "mclsetbindings"};
constexpr SV kMwrs[] = {"mwrs"};
constexpr SV kFl[] = {"fl"};

// Status feedback rules (ocm.md §3). WellKnownStatus covers only Deployment, DaemonSet, Job
// and Pod upstream, so every other kind gets JSONPaths, each to a scalar (a list or map
// would fail StatusFeedbackSynced); a condition is read through a filter on its type.
constexpr FeedbackRuleInfo kWellKnown{};
// JobComplete and JobSucceeded say nothing about a failed Job; the Failed condition does,
// so a finished-with-failure run is seen on the hub too. JobReady (ready pods) with
// JobSucceeded gives the hub's Workload its PodsReady where the worker has no Kueue.
constexpr JsonPathInfo kJobPaths[] = {
    {"JobFailed", ".status.conditions[?(@.type==\"Failed\")].status"},
    {"JobReady", ".status.ready"}};
constexpr FeedbackRuleInfo kJobRules[] = {kWellKnown, {FeedbackRuleType::kJsonPaths, kJobPaths}};
constexpr FeedbackRuleInfo kWellKnownRules[] = {kWellKnown};
constexpr JsonPathInfo kStatefulSetPaths[] = {{"ReadyReplicas", ".status.readyReplicas"},
                                              {"Replicas", ".status.replicas"},
                                              {"AvailableReplicas", ".status.availableReplicas"}};
constexpr FeedbackRuleInfo kStatefulSetRules[] = {
    {FeedbackRuleType::kJsonPaths, kStatefulSetPaths}};
// terminalState is "Completed" or "Failed" once the JobSet finished, empty before; restarts
// counts whole-JobSet recreations (failure policy).
constexpr JsonPathInfo kJobSetPaths[] = {
    {"TerminalState", ".status.terminalState"},
    {"Restarts", ".status.restarts"},
    {"Completed", ".status.conditions[?(@.type==\"Completed\")].status"},
    {"Failed", ".status.conditions[?(@.type==\"Failed\")].status"}};
constexpr FeedbackRuleInfo kJobSetRules[] = {{FeedbackRuleType::kJsonPaths, kJobSetPaths}};
constexpr JsonPathInfo kPyTorchJobPaths[] = {
    {"Succeeded", ".status.conditions[?(@.type==\"Succeeded\")].status"},
    {"Failed", ".status.conditions[?(@.type==\"Failed\")].status"},
    {"Running", ".status.conditions[?(@.type==\"Running\")].status"}};
constexpr FeedbackRuleInfo kPyTorchJobRules[] = {{FeedbackRuleType::kJsonPaths, kPyTorchJobPaths}};
// MPIJob keeps the kubeflow common conditions (Created, Running, Restarting, Succeeded,
// Failed), as the PyTorchJob does.
constexpr FeedbackRuleInfo kMPIJobRules[] = {{FeedbackRuleType::kJsonPaths, kPyTorchJobPaths}};
// KubeRay: a RayCluster's state ("ready", "suspended") and ready workers; a RayJob's job and
// deployment status ("SUCCEEDED", "Complete").
constexpr JsonPathInfo kRayClusterPaths[] = {{"State", ".status.state"},
                                             {"ReadyWorkerReplicas", ".status.readyWorkerReplicas"}};
constexpr FeedbackRuleInfo kRayClusterRules[] = {{FeedbackRuleType::kJsonPaths, kRayClusterPaths}};
constexpr JsonPathInfo kRayJobPaths[] = {{"JobStatus", ".status.jobStatus"},
                                         {"JobDeploymentStatus", ".status.jobDeploymentStatus"}};
constexpr FeedbackRuleInfo kRayJobRules[] = {{FeedbackRuleType::kJsonPaths, kRayJobPaths}};
// Volcano's Job phase (Pending, Running, Completed, Failed, ...) and its running pods.
constexpr JsonPathInfo kVolcanoJobPaths[] = {{"Phase", ".status.state.phase"},
                                             {"Running", ".status.running"}};
constexpr FeedbackRuleInfo kVolcanoJobRules[] = {{FeedbackRuleType::kJsonPaths, kVolcanoJobPaths}};
// Kubeflow Trainer: a TrainJob's Complete and Failed conditions (its JobSet's outcome).
constexpr JsonPathInfo kTrainJobPaths[] = {
    {"Complete", ".status.conditions[?(@.type==\"Complete\")].status"},
    {"Failed", ".status.conditions[?(@.type==\"Failed\")].status"}};
constexpr FeedbackRuleInfo kTrainJobRules[] = {{FeedbackRuleType::kJsonPaths, kTrainJobPaths}};
// KServe: an InferenceService's Ready condition and the URL it serves at.
constexpr JsonPathInfo kInferenceServicePaths[] = {
    {"Ready", ".status.conditions[?(@.type==\"Ready\")].status"}, {"URL", ".status.url"}};
constexpr FeedbackRuleInfo kInferenceServiceRules[] = {
    {FeedbackRuleType::kJsonPaths, kInferenceServicePaths}};
// Fluid: a DataLoad's phase (Pending, Loading, Complete, Failed) and how long it took.
constexpr JsonPathInfo kDataLoadPaths[] = {{"Phase", ".status.phase"},
                                           {"Duration", ".status.duration"}};
constexpr FeedbackRuleInfo kDataLoadRules[] = {{FeedbackRuleType::kJsonPaths, kDataLoadPaths}};
constexpr JsonPathInfo kLeaderWorkerSetPaths[] = {
    {"ReadyReplicas", ".status.readyReplicas"},
    {"Replicas", ".status.replicas"},
    {"Available", ".status.conditions[?(@.type==\"Available\")].status"}};
constexpr FeedbackRuleInfo kLeaderWorkerSetRules[] = {
    {FeedbackRuleType::kJsonPaths, kLeaderWorkerSetPaths}};

constexpr Scope kNamespaced = Scope::kNamespaced;
constexpr Scope kCluster = Scope::kCluster;

// Scale subresources: kube-apiserver serves deployments/scale and statefulsets/scale (not
// jobs/scale); of the workload CRDs, lws and training-operator declare one, jobset does not.
constexpr ScaleInfo kReplicasScale{.spec_replicas_path = ".spec.replicas",
                                   .status_replicas_path = ".status.replicas",
                                   .label_selector_path = ".spec.selector"};
constexpr ScaleInfo kPyTorchJobScale{
    .spec_replicas_path = ".spec.pytorchReplicaSpecs.Worker.replicas",
    .status_replicas_path = ".status.replicaStatuses.Worker.active",
    .label_selector_path = ".status.replicaStatuses.Worker.selector"};
constexpr ScaleInfo kLeaderWorkerSetScale{.spec_replicas_path = ".spec.replicas",
                                          .status_replicas_path = ".status.replicas",
                                          .label_selector_path = ".status.hpaPodSelector"};

// One row per kind. Columns: group, versions, read-only versions, kind, resource, scope,
// verbs, status subresource, scale subresource, short names, categories, workload, dispatch.
// clang-format off
constexpr KindInfo kKinds[] = {
    // core/v1
    {.group = "", .versions = kV1, .kind = "Namespace", .resource = "namespaces",
     .scope = kCluster, .verbs = kAllVerbsButDeleteCollection, .status_subresource = true,
     .short_names = kNs},
    {.group = "", .versions = kV1, .kind = "Node", .resource = "nodes", .scope = kCluster,
     .status_subresource = true, .short_names = kNo},
    {.group = "", .versions = kV1, .kind = "Pod", .resource = "pods", .scope = kNamespaced,
     .status_subresource = true, .short_names = kPo, .categories = kAll,
     .dispatch = {.feedback_rules = kWellKnownRules}},
    // core/v1 kinds berth doctor reads (tenancy, configuration, storage); not planned
    {.group = "", .versions = kV1, .kind = "ServiceAccount", .resource = "serviceaccounts",
     .short_names = kSa},
    {.group = "", .versions = kV1, .kind = "ConfigMap", .resource = "configmaps",
     .short_names = kCm},
    {.group = "", .versions = kV1, .kind = "ResourceQuota", .resource = "resourcequotas",
     .status_subresource = true, .short_names = kQuota},
    {.group = "", .versions = kV1, .kind = "LimitRange", .resource = "limitranges",
     .short_names = kLimits},
    {.group = "", .versions = kV1, .kind = "PersistentVolumeClaim",
     .resource = "persistentvolumeclaims", .status_subresource = true, .short_names = kPvc},
    {.group = "", .versions = kV1, .kind = "PersistentVolume", .resource = "persistentvolumes",
     .scope = kCluster, .status_subresource = true, .short_names = kPv},
    // scheduling.k8s.io
    {.group = "scheduling.k8s.io", .versions = kV1,
     .read_only_versions = kOldPriorityClassVersions, .kind = "PriorityClass",
     .resource = "priorityclasses", .scope = kCluster, .short_names = kPc},
    // rbac.authorization.k8s.io: the hub's authorization (server/auth) and berth doctor; not
    // planned
    {.group = "rbac.authorization.k8s.io", .versions = kV1, .kind = "ClusterRole",
     .resource = "clusterroles", .scope = kCluster},
    {.group = "rbac.authorization.k8s.io", .versions = kV1, .kind = "ClusterRoleBinding",
     .resource = "clusterrolebindings", .scope = kCluster},
    {.group = "rbac.authorization.k8s.io", .versions = kV1, .kind = "Role", .resource = "roles",
     .scope = kNamespaced},
    {.group = "rbac.authorization.k8s.io", .versions = kV1, .kind = "RoleBinding",
     .resource = "rolebindings", .scope = kNamespaced},
    // networking.k8s.io, policy, storage.k8s.io, node.k8s.io: read for berth doctor
    {.group = "networking.k8s.io", .versions = kV1, .kind = "NetworkPolicy",
     .resource = "networkpolicies", .short_names = kNetpol},
    {.group = "policy", .versions = kV1, .read_only_versions = kOldBetaVersions,
     .kind = "PodDisruptionBudget", .resource = "poddisruptionbudgets",
     .status_subresource = true, .short_names = kPdb},
    {.group = "storage.k8s.io", .versions = kV1, .read_only_versions = kOldBetaVersions,
     .kind = "StorageClass", .resource = "storageclasses", .scope = kCluster,
     .short_names = kSc},
    {.group = "storage.k8s.io", .versions = kV1, .kind = "CSINode", .resource = "csinodes",
     .scope = kCluster},
    {.group = "node.k8s.io", .versions = kV1, .read_only_versions = kOldBetaVersions,
     .kind = "RuntimeClass", .resource = "runtimeclasses", .scope = kCluster},
    // batch, apps: the built-in workloads
    {.group = "batch", .versions = kV1, .kind = "Job", .resource = "jobs",
     .status_subresource = true, .categories = kAll, .workload = true,
     .dispatch = {.suspend = SuspendField::kSpecSuspend, .feedback_rules = kJobRules}},
    {.group = "apps", .versions = kV1, .read_only_versions = kOldAppsVersions,
     .kind = "Deployment", .resource = "deployments", .status_subresource = true,
     .scale = kReplicasScale, .short_names = kDeploy, .categories = kAll, .workload = true,
     .dispatch = {.feedback_rules = kWellKnownRules}},
    {.group = "apps", .versions = kV1, .read_only_versions = kOldAppsVersions,
     .kind = "StatefulSet", .resource = "statefulsets", .status_subresource = true,
     .scale = kReplicasScale, .short_names = kSts, .categories = kAll, .workload = true,
     .dispatch = {.feedback_rules = kStatefulSetRules}},
    // A Deployment's ReplicaSets own its pods (io folds them into the Deployment); a
    // ReplicaSet without one is a workload of its own.
    {.group = "apps", .versions = kV1, .kind = "ReplicaSet", .resource = "replicasets",
     .status_subresource = true, .scale = kReplicasScale, .short_names = kRs,
     .categories = kAll, .workload = true},
    // workload CRDs
    {.group = "jobset.x-k8s.io", .versions = kV1alpha2, .kind = "JobSet",
     .resource = "jobsets", .status_subresource = true, .workload = true,
     .dispatch = {.suspend = SuspendField::kSpecSuspend, .feedback_rules = kJobSetRules}},
    {.group = "kubeflow.org", .versions = kV1, .kind = "PyTorchJob", .resource = "pytorchjobs",
     .status_subresource = true, .scale = kPyTorchJobScale, .workload = true,
     .dispatch = {.suspend = SuspendField::kRunPolicySuspend,
                  .feedback_rules = kPyTorchJobRules}},
    {.group = "leaderworkerset.x-k8s.io", .versions = kV1, .kind = "LeaderWorkerSet",
     .resource = "leaderworkersets", .status_subresource = true,
     .scale = kLeaderWorkerSetScale, .short_names = kLws,
     .workload = true, .dispatch = {.feedback_rules = kLeaderWorkerSetRules}},
    // mpi-operator v2: the launcher runs as a batch Job the MPIJob owns, the workers as pods.
    {.group = "kubeflow.org", .versions = kV2beta1, .kind = "MPIJob", .resource = "mpijobs",
     .status_subresource = true, .workload = true,
     .dispatch = {.suspend = SuspendField::kRunPolicySuspend, .feedback_rules = kMPIJobRules}},
    // KubeRay: a RayJob makes a RayCluster (and a submitter Job), the RayCluster the pods.
    {.group = "ray.io", .versions = kV1, .kind = "RayCluster", .resource = "rayclusters",
     .status_subresource = true, .categories = kAll, .workload = true,
     .dispatch = {.suspend = SuspendField::kSpecSuspend, .feedback_rules = kRayClusterRules}},
    {.group = "ray.io", .versions = kV1, .kind = "RayJob", .resource = "rayjobs",
     .status_subresource = true, .categories = kAll, .workload = true,
     .dispatch = {.suspend = SuspendField::kSpecSuspend, .feedback_rules = kRayJobRules}},
    // Volcano's Job: tasks of pods, one PodGroup (minAvailable) per Job; no suspend field.
    {.group = "batch.volcano.sh", .versions = kV1alpha1, .kind = "Job", .resource = "jobs",
     .status_subresource = true, .short_names = kVcjob, .workload = true,
     .dispatch = {.feedback_rules = kVolcanoJobRules}},
    // Kubeflow Trainer v2: a TrainJob makes a JobSet from the runtime it names (its pods are
    // the JobSet's); the runtimes are its blueprints, not workloads.
    {.group = "trainer.kubeflow.org", .versions = kV1alpha1, .kind = "TrainJob",
     .resource = "trainjobs", .status_subresource = true, .workload = true,
     .dispatch = {.suspend = SuspendField::kSpecSuspend, .feedback_rules = kTrainJobRules}},
    {.group = "trainer.kubeflow.org", .versions = kV1alpha1, .kind = "TrainingRuntime",
     .resource = "trainingruntimes"},
    {.group = "trainer.kubeflow.org", .versions = kV1alpha1, .kind = "ClusterTrainingRuntime",
     .resource = "clustertrainingruntimes", .scope = kCluster},
    // KServe: an InferenceService's predictor pods (its Deployment's, in raw deployment
    // mode); the serving runtimes say which model formats a runtime serves.
    {.group = "serving.kserve.io", .versions = kV1beta1, .kind = "InferenceService",
     .resource = "inferenceservices", .status_subresource = true, .short_names = kIsvc,
     .workload = true, .dispatch = {.feedback_rules = kInferenceServiceRules}},
    // Fluid: where datasets are cached and how full; DataLoad prefetches.
    {.group = "data.fluid.io", .versions = kV1alpha1, .kind = "Dataset", .resource = "datasets",
     .status_subresource = true},
    {.group = "data.fluid.io", .versions = kV1alpha1, .kind = "AlluxioRuntime",
     .resource = "alluxioruntimes", .status_subresource = true},
    {.group = "data.fluid.io", .versions = kV1alpha1, .kind = "JuiceFSRuntime",
     .resource = "juicefsruntimes", .status_subresource = true},
    {.group = "data.fluid.io", .versions = kV1alpha1, .kind = "JindoRuntime",
     .resource = "jindoruntimes", .status_subresource = true},
    {.group = "data.fluid.io", .versions = kV1alpha1, .kind = "DataLoad", .resource = "dataloads",
     .status_subresource = true, .dispatch = {.feedback_rules = kDataLoadRules}},
    {.group = "serving.kserve.io", .versions = kV1alpha1, .kind = "ClusterServingRuntime",
     .resource = "clusterservingruntimes", .scope = kCluster},
    {.group = "serving.kserve.io", .versions = kV1alpha1, .kind = "ServingRuntime",
     .resource = "servingruntimes"},
    // component configuration (files, not API resources)
    {.group = "kubescheduler.config.k8s.io", .versions = kV1,
     .read_only_versions = kOldSchedulerConfigVersions, .kind = "KubeSchedulerConfiguration",
     .scope = kCluster},
    {.group = "config.kueue.x-k8s.io", .versions = kKueueConfigVersions,
     .kind = "Configuration", .scope = kCluster},
    // resource.k8s.io (DRA)
    {.group = "resource.k8s.io", .versions = kDraVersions, .kind = "DeviceClass",
     .resource = "deviceclasses", .scope = kCluster},
    {.group = "resource.k8s.io", .versions = kDraVersions, .kind = "ResourceClaim",
     .resource = "resourceclaims", .status_subresource = true},
    {.group = "resource.k8s.io", .versions = kDraVersions, .kind = "ResourceClaimTemplate",
     .resource = "resourceclaimtemplates"},
    {.group = "resource.k8s.io", .versions = kDraVersions, .kind = "ResourceSlice",
     .resource = "resourceslices", .scope = kCluster},
    {.group = "resource.k8s.io", .versions = kDeviceTaintRuleVersions, .kind = "DeviceTaintRule",
     .resource = "devicetaintrules", .scope = kCluster},
    // kueue.x-k8s.io
    {.group = "kueue.x-k8s.io", .versions = kKueueVersions, .kind = "ResourceFlavor",
     .resource = "resourceflavors", .scope = kCluster, .short_names = kRf},
    {.group = "kueue.x-k8s.io", .versions = kKueueVersions, .kind = "ClusterQueue",
     .resource = "clusterqueues", .scope = kCluster, .status_subresource = true,
     .short_names = kCq},
    {.group = "kueue.x-k8s.io", .versions = kKueueVersions, .read_only_versions = kKueueAlpha,
     .kind = "Cohort", .resource = "cohorts", .scope = kCluster, .status_subresource = true,
     .short_names = kCo},
    {.group = "kueue.x-k8s.io", .versions = kKueueVersions, .kind = "LocalQueue",
     .resource = "localqueues", .status_subresource = true, .short_names = kLq},
    {.group = "kueue.x-k8s.io", .versions = kKueueVersions, .kind = "WorkloadPriorityClass",
     .resource = "workloadpriorityclasses", .scope = kCluster, .short_names = kWpc},
    {.group = "kueue.x-k8s.io", .versions = kKueueVersions, .read_only_versions = kKueueAlpha,
     .kind = "Topology", .resource = "topologies", .scope = kCluster, .short_names = kTopo},
    {.group = "kueue.x-k8s.io", .versions = kKueueVersions, .kind = "AdmissionCheck",
     .resource = "admissionchecks", .scope = kCluster, .status_subresource = true,
     .short_names = kAc},
    {.group = "kueue.x-k8s.io", .versions = kKueueVersions, .kind = "Workload",
     .resource = "workloads", .status_subresource = true, .short_names = kKwl},
    {.group = "kueue.x-k8s.io", .versions = kKueueVersions, .kind = "MultiKueueConfig",
     .resource = "multikueueconfigs", .scope = kCluster, .short_names = kMkconf},
    {.group = "kueue.x-k8s.io", .versions = kKueueVersions, .kind = "MultiKueueCluster",
     .resource = "multikueueclusters", .scope = kCluster, .status_subresource = true,
     .short_names = kMkc},
    // gang scheduling
    {.group = "scheduling.x-k8s.io", .versions = kV1alpha1, .kind = "PodGroup",
     .resource = "podgroups", .status_subresource = true, .short_names = kPg},
    {.group = "scheduling.volcano.sh", .versions = kV1beta1, .kind = "PodGroup",
     .resource = "podgroups", .status_subresource = true, .short_names = kVolcanoPg},
    // Kubernetes' own gang API (KEP-4671, alpha in 1.35): one gang per spec.podGroups[]. Not
    // served by the hub (gated_off): served, it would take kubectl's `workloads` from Kueue's,
    // since built-in groups come first in discovery.
    {.group = "scheduling.k8s.io", .versions = kV1alpha1, .kind = "Workload",
     .resource = "workloads", .gated_off = true},
    // cluster.open-cluster-management.io
    {.group = "cluster.open-cluster-management.io", .versions = kV1, .kind = "ManagedCluster",
     .resource = "managedclusters", .scope = kCluster, .status_subresource = true,
     .short_names = kMcl},
    {.group = "cluster.open-cluster-management.io", .versions = kV1alpha1,
     .kind = "ClusterClaim", .resource = "clusterclaims", .scope = kCluster},
    {.group = "cluster.open-cluster-management.io", .versions = kOcmSetVersions,
     .kind = "ManagedClusterSet", .resource = "managedclustersets", .scope = kCluster,
     .status_subresource = true, .short_names = kMclset},
    {.group = "cluster.open-cluster-management.io", .versions = kOcmSetVersions,
     .kind = "ManagedClusterSetBinding", .resource = "managedclustersetbindings",
     .status_subresource = true, .short_names = kMclsetbinding},
    {.group = "cluster.open-cluster-management.io", .versions = kV1beta1, .kind = "Placement",
     .resource = "placements", .status_subresource = true},
    {.group = "cluster.open-cluster-management.io", .versions = kV1beta1,
     .kind = "PlacementDecision", .resource = "placementdecisions",
     .status_subresource = true},
    {.group = "cluster.open-cluster-management.io", .versions = kV1alpha1,
     .kind = "AddOnPlacementScore", .resource = "addonplacementscores",
     .status_subresource = true},
    // work.open-cluster-management.io
    {.group = "work.open-cluster-management.io", .versions = kV1, .kind = "ManifestWork",
     .resource = "manifestworks", .status_subresource = true},
    {.group = "work.open-cluster-management.io", .versions = kV1alpha1,
     .kind = "ManifestWorkReplicaSet", .resource = "manifestworkreplicasets",
     .status_subresource = true, .short_names = kMwrs},
    // apps/v1 ControllerRevision (no short name upstream): an MWRS's revision history, so
    // its row follows the MWRS's and revisions print after the MWRS in a plan's List.
    {.group = "apps", .versions = kV1, .kind = "ControllerRevision",
     .resource = "controllerrevisions"},
    // federation-ai.open-cluster-management.io: the federated-learning addon's CRD
    // (addon-contrib federated-learning-controller, config/crd/bases)
    {.group = "federation-ai.open-cluster-management.io", .versions = kV1alpha1,
     .kind = "FederatedLearning", .resource = "federatedlearnings", .status_subresource = true,
     .short_names = kFl},
};
// clang-format on

constexpr size_t kCount = std::size(kKinds);

// (group, kind) -> row: an open-addressing hash table built at compile time. The reader looks
// up every object of a dump this way, so it is a few dozen instructions (FNV-1a over the
// short names, usually one probe), with no initialisation and no lock.
constexpr size_t kSlots = 256;  // a power of two, more than twice the rows: short probe runs
static_assert(2 * kCount < kSlots, "grow kSlots with the table");
using Slots = std::array<uint8_t, kSlots>;  // row index + 1; 0 is an empty slot

constexpr size_t HashKind(SV group, SV kind) {
  uint32_t h = 2166136261u;
  auto mix = [&h](char c) {
    h ^= static_cast<uint8_t>(c);
    h *= 16777619u;
  };
  for (char c : group) mix(c);
  mix('/');
  for (char c : kind) mix(c);
  return h & (kSlots - 1);
}

constexpr Slots BuildKindSlots() {
  Slots slots{};
  for (size_t i = 0; i < kCount; ++i) {
    size_t s = HashKind(kKinds[i].group, kKinds[i].kind);
    while (slots[s] != 0) s = (s + 1) & (kSlots - 1);
    slots[s] = static_cast<uint8_t>(i + 1);
  }
  return slots;
}

constexpr Slots kKindSlots = BuildKindSlots();

// Row indices sorted by (group, resource), for the API server's lookups by URL path; built
// at compile time too.
using Index = std::array<uint8_t, kCount>;

constexpr Index SortedByResource() {
  Index index{};
  for (size_t i = 0; i < kCount; ++i) index[i] = static_cast<uint8_t>(i);
  std::sort(index.begin(), index.end(), [](uint8_t a, uint8_t b) {
    return std::pair(kKinds[a].group, kKinds[a].resource) <
           std::pair(kKinds[b].group, kKinds[b].resource);
  });
  return index;
}

constexpr Index kByResource = SortedByResource();

}  // namespace

std::string_view VerbName(Verb verb) {
  switch (verb) {
    case Verb::kCreate:
      return "create";
    case Verb::kDelete:
      return "delete";
    case Verb::kDeleteCollection:
      return "deletecollection";
    case Verb::kGet:
      return "get";
    case Verb::kList:
      return "list";
    case Verb::kPatch:
      return "patch";
    case Verb::kUpdate:
      return "update";
    case Verb::kWatch:
      return "watch";
  }
  return "";
}

bool KindInfo::Reads(std::string_view version) const {
  return std::find(versions.begin(), versions.end(), version) != versions.end() ||
         std::find(read_only_versions.begin(), read_only_versions.end(), version) !=
             read_only_versions.end();
}

std::span<const KindInfo> AllKinds() { return kKinds; }

size_t KindIndex(const KindInfo& info) { return static_cast<size_t>(&info - kKinds); }

const KindInfo* FindKind(std::string_view group, std::string_view kind) {
  // Terminates: the table always has empty slots (static_assert above).
  for (size_t s = HashKind(group, kind);; s = (s + 1) & (kSlots - 1)) {
    const uint8_t row = kKindSlots[s];
    if (row == 0) return nullptr;
    const KindInfo& k = kKinds[row - 1];
    if (k.kind == kind && k.group == group) return &k;
  }
}

const KindInfo* FindKindForApiVersion(std::string_view api_version, std::string_view kind) {
  const size_t slash = api_version.find('/');
  if (slash == 0) return nullptr;  // an empty group is spelled "v1", never "/v1"
  const bool core = slash == std::string_view::npos;
  const KindInfo* info = FindKind(core ? SV() : api_version.substr(0, slash), kind);
  return info != nullptr && info->Reads(core ? api_version : api_version.substr(slash + 1))
             ? info
             : nullptr;
}

const KindInfo* FindResource(std::string_view group, std::string_view resource) {
  // Unserved rows sort first (empty resource) and never match a non-empty name.
  if (resource.empty()) return nullptr;
  const std::pair<SV, SV> want(group, resource);
  auto it = std::lower_bound(kByResource.begin(), kByResource.end(), want,
                             [](uint8_t row, const std::pair<SV, SV>& key) {
                               return std::pair(kKinds[row].group, kKinds[row].resource) < key;
                             });
  if (it == kByResource.end()) return nullptr;
  const KindInfo& k = kKinds[*it];
  return k.group == group && k.resource == resource ? &k : nullptr;
}

std::string_view ApiGroupOf(std::string_view api_version) {
  const size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

std::string_view ApiVersionOf(std::string_view api_version) {
  const size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? api_version : api_version.substr(slash + 1);
}

}  // namespace berth::model
