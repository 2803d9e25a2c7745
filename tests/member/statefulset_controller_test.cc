// The StatefulSet controller: ordered and parallel creation, identity, scale-down from the
// highest ordinal, rolling updates (with a partition) and OnDelete, failed pods made again,
// status revisions and counts (after kubernetes pkg/controller/statefulset
// stateful_set_control_test.go's scenarios: CreatesPods, ScalesDown, RollingUpdate,
// RecreatesFailedPod).
#include "server/member/statefulset_controller.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "member/member_test_util.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/pod_util.h"

namespace berth::server::member {
namespace BERTH_UNITY_ID {

using testing::kT0;
using testing::MakeNode;
using testing::MakeObject;
using testing::PodTemplate;
using testing::SimCluster;

Json Db(int64_t replicas, Json extra = Json::object()) {
  Json spec = {{"replicas", replicas},
               {"serviceName", "db"},
               {"selector", {{"matchLabels", {{"app", "db"}}}}},
               {"template", PodTemplate("db")}};
  for (auto it = extra.begin(); it != extra.end(); ++it) spec[it.key()] = it.value();
  return MakeObject("apps/v1", "StatefulSet", "db", std::move(spec));
}

std::set<std::string> PodNames(const SimCluster& c, bool active_only = true) {
  std::set<std::string> out;
  for (const Json* p : c.List(Kind::kPod)) {
    if (!active_only || PodIsActive(*p)) out.insert(NameOf(*p));
  }
  return out;
}

TEST(StatefulSetControllerTest, OrderedReadyCreatesOnePodAtATime) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Db(3));
  c.Round();
  EXPECT_EQ(PodNames(c), (std::set<std::string>{"db-0"}));
  const Json& pod = c.Get(Kind::kPod, "db-0");
  const Json& set = c.Get(Kind::kStatefulSet, "db");
  const std::string revision = StringAt(set, {"status", "updateRevision"});
  EXPECT_EQ(revision.substr(0, 3), "db-");
  EXPECT_EQ(LabelOf(pod, kControllerRevisionHashLabel), revision);
  EXPECT_EQ(LabelOf(pod, "statefulset.kubernetes.io/pod-name"), "db-0");
  EXPECT_EQ(LabelOf(pod, "apps.kubernetes.io/pod-index"), "0");
  EXPECT_EQ(LabelOf(pod, "app"), "db");
  EXPECT_EQ(StringAt(pod, {"spec", "hostname"}), "db-0");
  EXPECT_EQ(StringAt(pod, {"spec", "subdomain"}), "db");
  EXPECT_EQ(set["status"], Json::parse(R"({"observedGeneration":1,"replicas":1,"currentReplicas":1,
      "updatedReplicas":1,"currentRevision":")" +
                                       revision + R"(","updateRevision":")" + revision +
                                       R"(","collisionCount":0,"availableReplicas":0})"));
  c.Bind({"n1"});
  c.Round();  // db-0 runs and is ready, so db-1 is made
  EXPECT_EQ(PodNames(c), (std::set<std::string>{"db-0", "db-1"}));
  c.Run(3, 5, {"n1"});
  EXPECT_EQ(PodNames(c), (std::set<std::string>{"db-0", "db-1", "db-2"}));
  const Json& done = c.Get(Kind::kStatefulSet, "db");
  EXPECT_EQ(done["status"]["replicas"], 3);
  EXPECT_EQ(done["status"]["readyReplicas"], 3);
  EXPECT_EQ(done["status"]["availableReplicas"], 3);
  EXPECT_EQ(done["status"]["currentReplicas"], 3);
  EXPECT_EQ(done["status"]["updatedReplicas"], 3);
}

TEST(StatefulSetControllerTest, ParallelCreatesEveryPodAndStartsAtTheOrdinalsStart) {
  SimCluster c;
  c.Add(Db(3, {{"podManagementPolicy", "Parallel"}, {"ordinals", {{"start", 5}}}}));
  c.Round();
  EXPECT_EQ(PodNames(c), (std::set<std::string>{"db-5", "db-6", "db-7"}));
  EXPECT_EQ(LabelOf(c.Get(Kind::kPod, "db-7"), "apps.kubernetes.io/pod-index"), "7");
}

TEST(StatefulSetControllerTest, ScalesDownFromTheHighestOrdinalOneAtATime) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Db(3));
  c.Run(4, 5, {"n1"});
  ASSERT_EQ(PodNames(c).size(), 3u);
  Json set = c.Get(Kind::kStatefulSet, "db");
  set["spec"]["replicas"] = 1;
  c.Replace(set);
  c.Round();
  EXPECT_EQ(PodNames(c), (std::set<std::string>{"db-0", "db-1"}));
  EXPECT_TRUE(IsBeingDeleted(c.Get(Kind::kPod, "db-2")));
  c.Advance(10);
  c.Round();  // db-2 is still terminating: db-1 waits
  EXPECT_EQ(PodNames(c), (std::set<std::string>{"db-0", "db-1"}));
  c.Advance(30);
  c.Round();
  EXPECT_EQ(PodNames(c), (std::set<std::string>{"db-0"}));
  c.Advance(30);
  c.Round();
  EXPECT_EQ(PodNames(c, false), (std::set<std::string>{"db-0"}));
  EXPECT_EQ(c.Get(Kind::kStatefulSet, "db")["status"]["replicas"], 1);
}

TEST(StatefulSetControllerTest, RollingUpdateReplacesFromTheHighestOrdinal) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Db(3));
  c.Run(4, 5, {"n1"});
  const std::string old_revision =
      StringAt(c.Get(Kind::kStatefulSet, "db"), {"status", "currentRevision"});
  Json set = c.Get(Kind::kStatefulSet, "db");
  set["spec"]["template"] = PodTemplate("db", {{"v", "2"}});
  set["metadata"]["generation"] = 2;
  c.Replace(set);
  c.Round();
  const std::string new_revision =
      StringAt(c.Get(Kind::kStatefulSet, "db"), {"status", "updateRevision"});
  EXPECT_NE(new_revision, old_revision);
  EXPECT_TRUE(IsBeingDeleted(c.Get(Kind::kPod, "db-2")));
  EXPECT_FALSE(IsBeingDeleted(c.Get(Kind::kPod, "db-1")));
  EXPECT_EQ(StringAt(c.Get(Kind::kStatefulSet, "db"), {"status", "currentRevision"}), old_revision);
  c.Run(12, 15, {"n1"});
  for (const char* name : {"db-0", "db-1", "db-2"}) {
    EXPECT_EQ(LabelOf(c.Get(Kind::kPod, name), kControllerRevisionHashLabel), new_revision) << name;
    EXPECT_EQ(AnnotationOf(c.Get(Kind::kPod, name), "v"), "2") << name;
  }
  const Json& done = c.Get(Kind::kStatefulSet, "db");
  EXPECT_EQ(StringAt(done, {"status", "currentRevision"}), new_revision);
  EXPECT_EQ(done["status"]["currentReplicas"], 3);
  EXPECT_EQ(done["status"]["updatedReplicas"], 3);
  EXPECT_EQ(done["status"]["observedGeneration"], 2);
}

TEST(StatefulSetControllerTest, APartitionKeepsTheLowerOrdinalsOnTheOldRevision) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Db(
      3, {{"updateStrategy", {{"type", "RollingUpdate"}, {"rollingUpdate", {{"partition", 2}}}}}}));
  c.Run(4, 5, {"n1"});
  const std::string old_revision =
      StringAt(c.Get(Kind::kStatefulSet, "db"), {"status", "currentRevision"});
  Json set = c.Get(Kind::kStatefulSet, "db");
  set["spec"]["template"] = PodTemplate("db", {{"v", "2"}});
  c.Replace(set);
  c.Run(6, 15, {"n1"});
  const std::string new_revision =
      StringAt(c.Get(Kind::kStatefulSet, "db"), {"status", "updateRevision"});
  EXPECT_EQ(LabelOf(c.Get(Kind::kPod, "db-2"), kControllerRevisionHashLabel), new_revision);
  EXPECT_EQ(LabelOf(c.Get(Kind::kPod, "db-1"), kControllerRevisionHashLabel), old_revision);
  EXPECT_EQ(LabelOf(c.Get(Kind::kPod, "db-0"), kControllerRevisionHashLabel), old_revision);
  const Json& status = c.Get(Kind::kStatefulSet, "db")["status"];
  EXPECT_EQ(StringAt(status, {"currentRevision"}), old_revision);
  EXPECT_EQ(status["currentReplicas"], 2);
  EXPECT_EQ(status["updatedReplicas"], 1);
  // A pod below the partition that is lost comes back at the old revision.
  Json failed = c.Get(Kind::kPod, "db-0");
  failed["status"]["phase"] = "Failed";
  c.Replace(failed);
  c.Run(4, 30, {"n1"});
  EXPECT_EQ(LabelOf(c.Get(Kind::kPod, "db-0"), kControllerRevisionHashLabel), old_revision);
  EXPECT_EQ(AnnotationOf(c.Get(Kind::kPod, "db-0"), "v"), "");
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "db-0"), {"status", "phase"}), "Running");
}

TEST(StatefulSetControllerTest, OnDeleteWaitsForPodsToBeDeleted) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Db(2, {{"updateStrategy", {{"type", "OnDelete"}}}}));
  c.Run(3, 5, {"n1"});
  Json set = c.Get(Kind::kStatefulSet, "db");
  set["spec"]["template"] = PodTemplate("db", {{"v", "2"}});
  c.Replace(set);
  c.Run(3, 30, {"n1"});
  EXPECT_FALSE(IsBeingDeleted(c.Get(Kind::kPod, "db-1")));
  EXPECT_EQ(AnnotationOf(c.Get(Kind::kPod, "db-1"), "v"), "");
  c.Remove(Kind::kPod, "default", "db-1");
  c.Run(2, 5, {"n1"});
  EXPECT_EQ(AnnotationOf(c.Get(Kind::kPod, "db-1"), "v"), "2");
  EXPECT_EQ(AnnotationOf(c.Get(Kind::kPod, "db-0"), "v"), "");
}

TEST(StatefulSetControllerTest, RecreatesAFailedPodUnderItsName) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Db(2));
  c.Run(3, 5, {"n1"});
  const std::string old_uid = UidOf(c.Get(Kind::kPod, "db-1"));
  Json failed = c.Get(Kind::kPod, "db-1");
  failed["status"]["phase"] = "Failed";
  c.Replace(failed);
  c.Round();
  EXPECT_TRUE(IsBeingDeleted(c.Get(Kind::kPod, "db-1")));
  c.Advance(30);
  c.Run(2, 5, {"n1"});
  EXPECT_NE(UidOf(c.Get(Kind::kPod, "db-1")), old_uid);
  EXPECT_EQ(StringAt(c.Get(Kind::kPod, "db-1"), {"status", "phase"}), "Running");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::member
