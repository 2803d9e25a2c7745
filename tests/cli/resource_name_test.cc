// ParseResourceName and friends: kubectl's TYPE/[NAMESPACE/]NAME with every spelling of a
// type from model's table of kinds, and "did you mean" for types and names.
#include <gtest/gtest.h>

#include "cli/resource_name.h"

namespace berth::cli {
namespace BERTH_UNITY_ID {

std::string KindOf(const std::string& text) {
  auto parsed = ParseResourceName(text);
  if (!parsed.has_value()) return "error: " + parsed.error().message();
  const model::KindInfo& k = *parsed.value().kind;
  return (k.group.empty() ? "" : std::string(k.group) + "/") + std::string(k.kind);
}

TEST(ResourceNameTest, SingularPluralShortAndAnyCase) {
  for (const char* t : {"pod/x", "pods/x", "po/x", "Pod/x", "PODS/x"}) EXPECT_EQ(KindOf(t), "Pod") << t;
  for (const char* t : {"job/x", "jobs/x", "Job/x", "jobs.batch/x"}) EXPECT_EQ(KindOf(t), "batch/Job") << t;
  for (const char* t : {"deploy/x", "deployment/x", "deployments/x"}) {
    EXPECT_EQ(KindOf(t), "apps/Deployment") << t;
  }
  EXPECT_EQ(KindOf("sts/x"), "apps/StatefulSet");
  EXPECT_EQ(KindOf("rs/x"), "apps/ReplicaSet");
  for (const char* t : {"workload/x", "workloads/x", "wl/x", "kwl/x", "workload.kueue.x-k8s.io/x"}) {
    EXPECT_EQ(KindOf(t), "kueue.x-k8s.io/Workload") << t;
  }
  EXPECT_EQ(KindOf("cq/x"), "kueue.x-k8s.io/ClusterQueue");
  EXPECT_EQ(KindOf("clusterqueue/x"), "kueue.x-k8s.io/ClusterQueue");
  EXPECT_EQ(KindOf("lq/x"), "kueue.x-k8s.io/LocalQueue");
  EXPECT_EQ(KindOf("placement/x"), "cluster.open-cluster-management.io/Placement");
  EXPECT_EQ(KindOf("mwrs/x"), "work.open-cluster-management.io/ManifestWorkReplicaSet");
  EXPECT_EQ(KindOf("manifestworkreplicaset/x"), "work.open-cluster-management.io/ManifestWorkReplicaSet");
  EXPECT_EQ(KindOf("jobset/x"), "jobset.x-k8s.io/JobSet");
  EXPECT_EQ(KindOf("pytorchjob/x"), "kubeflow.org/PyTorchJob");
  EXPECT_EQ(KindOf("node/x"), "Node");
  EXPECT_EQ(KindOf("no/x"), "Node");
  // Volcano's Job only by its group or short name: batch's Job comes first.
  EXPECT_EQ(KindOf("jobs.batch.volcano.sh/x"), "batch.volcano.sh/Job");
  EXPECT_EQ(KindOf("vcjob/x"), "batch.volcano.sh/Job");
}

TEST(ResourceNameTest, UnknownTypeSuggestsTheClosest) {
  EXPECT_EQ(KindOf("podz/x"),
            "error: the server doesn't have a resource type \"podz\"; did you mean \"pods\"?");
  EXPECT_EQ(KindOf("clusterqueus/x"), "error: the server doesn't have a resource type "
                                      "\"clusterqueus\"; did you mean \"clusterqueues\"?");
  EXPECT_EQ(KindOf("frobnicator/x"), "error: the server doesn't have a resource type \"frobnicator\"");
  // A component configuration is a file, not a resource type.
  EXPECT_EQ(KindOf("kubeschedulerconfiguration/x").rfind("error: ", 0), 0u);
}

TEST(ResourceNameTest, NamespaceFromTheTargetOrTheFlag) {
  auto both = ParseResourceName("pod/ml/train-0");
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ(both.value().namespace_, "ml");
  EXPECT_EQ(both.value().name, "train-0");
  EXPECT_EQ(both.value().Key(), "ml/train-0");
  auto flag = ParseResourceName("pod/train-0", "ml");
  ASSERT_TRUE(flag.has_value());
  EXPECT_EQ(flag.value().Key(), "ml/train-0");
  EXPECT_EQ(ParseResourceName("pod/train-0").value().Key(), "train-0");
  // Cluster-scoped kinds take no namespace, from -n or the target.
  EXPECT_EQ(ParseResourceName("cq/team-a", "ml").value().Key(), "team-a");
  EXPECT_FALSE(ParseResourceName("cq/ml/team-a").has_value());
  EXPECT_FALSE(ParseResourceName("pod/ml/train-0", "other").has_value());
  EXPECT_TRUE(ParseResourceName("pod/ml/train-0", "ml").has_value());
}

TEST(ResourceNameTest, MalformedTargets) {
  for (const char* t : {"train-0", "pod/", "/x", "pod//x", "pod/ml/", "pod/a/b/c", ""}) {
    EXPECT_FALSE(ParseResourceName(t).has_value()) << t;
  }
  EXPECT_EQ(ParseResourceName("train-0").error().message(),
            "expected TYPE/NAME or TYPE/NAMESPACE/NAME (pod/train-0, workload/ml/job-train), got "
            "\"train-0\"");
}

TEST(ResourceNameTest, TwoWords) {
  EXPECT_EQ(ParseResourceWords({"mwrs", "llm"}).value().name, "llm");
  EXPECT_EQ(ParseResourceWords({"mwrs/llm"}).value().name, "llm");
  EXPECT_EQ(ParseResourceWords({"pods", "ml/x"}).value().Key(), "ml/x");
  EXPECT_FALSE(ParseResourceWords({}).has_value());
  EXPECT_FALSE(ParseResourceWords({"pod/x", "y"}).has_value());
  EXPECT_FALSE(ParseResourceWords({"pod", "x", "y"}).has_value());
}

model::Snapshot TwoNamespaces() {
  model::Snapshot s;
  for (const auto& [ns, name] : std::vector<std::pair<std::string, std::string>>{
           {"ml", "train-0"}, {"ml", "train-1"}, {"web", "frontend-0"}}) {
    model::Pod pod;
    pod.meta.namespace_ = ns;
    pod.meta.name = name;
    s.pods.push_back(pod);
  }
  return s;
}

TEST(ResourceNameTest, NotFoundNamesTheClosestObject) {
  const model::Snapshot s = TwoNamespaces();
  auto typo = ParseResourceName("pod/ml/train-O").value();
  EXPECT_EQ(CheckExists(s, typo).error().message(),
            "pods \"train-O\" not found in namespace \"ml\"; did you mean \"train-0\"?");
  EXPECT_EQ(CheckExists(s, typo).error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(NotFoundError(s, ParseResourceName("pod/frontend-1").value()).message(),
            "pods \"frontend-1\" not found; did you mean \"frontend-0\"?");
  // In another namespace: the suggestion names it.
  EXPECT_EQ(NotFoundError(s, ParseResourceName("pod/ml/frontend-0").value()).message(),
            "pods \"frontend-0\" not found in namespace \"ml\"; did you mean \"web/frontend-0\"?");
  EXPECT_EQ(NotFoundError(s, ParseResourceName("pod/ml/zzz").value()).message(),
            "pods \"zzz\" not found in namespace \"ml\"");
  EXPECT_TRUE(CheckExists(s, ParseResourceName("pod/ml/train-1").value()).ok());
  EXPECT_TRUE(CheckExists(s, ParseResourceName("pods/train-1").value()).ok());
  EXPECT_FALSE(CheckExists(s, ParseResourceName("pod/web/train-1").value()).ok());
  // A kind berth does not keep in a snapshot cannot be checked: it passes.
  EXPECT_TRUE(CheckExists(s, ParseResourceName("rolebinding/ml/x").value()).ok());
}

TEST(ResourceNameTest, NameOutputTypeReadsBack) {
  for (const model::KindInfo& kind : model::AllKinds()) {
    if (!kind.served()) continue;
    const std::string type = NameOutputType(kind);
    auto back = ResolveResourceType(type);
    ASSERT_TRUE(back.has_value()) << type;
    EXPECT_EQ(back.value(), &kind) << type;
  }
  EXPECT_EQ(NameOutputType(*model::FindKind("", "Pod")), "pod");
  EXPECT_EQ(NameOutputType(*model::FindKind("batch", "Job")), "job.batch");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
