// The LeaderWorkerSet controller with the kubelet under it: groups of a leader and workers,
// their labels and environment, LeaderReady startup, group recreation, rolling update, scale
// down, status and conditions (after kubernetes-sigs/lws pkg/controllers
// leaderworkerset_controller_test.go and pod_controller_test.go scenarios).
#include "server/member/lws_controller.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "member/member_test_util.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/naming.h"
#include "server/member/pod_util.h"

namespace berth::server::member {
namespace BERTH_UNITY_ID {

using testing::kT0;
using testing::MakeNode;
using testing::MakeObject;
using testing::PodTemplate;
using testing::SimCluster;

Json Lws(int64_t replicas, int64_t size, Json extra = Json::object()) {
  Json spec = {{"replicas", replicas},
               {"leaderWorkerTemplate", {{"size", size}, {"workerTemplate", PodTemplate("vllm")}}}};
  for (auto it = extra.begin(); it != extra.end(); ++it) spec[it.key()] = it.value();
  return MakeObject("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", "lws", std::move(spec));
}

std::set<std::string> Names(const SimCluster& c) {
  std::set<std::string> out;
  for (const Json* p : c.List(Kind::kPod)) {
    if (PodIsActive(*p)) out.insert(NameOf(*p));
  }
  return out;
}

std::map<std::string, std::string> LwsEnv(const Json& pod) {
  std::map<std::string, std::string> out;
  for (const Json& e : pod["spec"]["containers"][0]["env"]) out[e["name"]] = StringAt(e, {"value"});
  return out;
}

const Json* LwsCond(const SimCluster& c, const char* type) {
  return FindCondition(c.Get(Kind::kLeaderWorkerSet, "lws"), type);
}

TEST(LeaderWorkerSetControllerTest, MakesGroupsOfALeaderAndWorkers) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Lws(2, 3));
  c.Round();
  EXPECT_EQ(Names(c),
            (std::set<std::string>{"lws-0", "lws-0-1", "lws-0-2", "lws-1", "lws-1-1", "lws-1-2"}));
  const Json& leader = c.Get(Kind::kPod, "lws-1");
  const Json& worker = c.Get(Kind::kPod, "lws-1-2");
  EXPECT_EQ(LabelOf(leader, "leaderworkerset.sigs.k8s.io/name"), "lws");
  EXPECT_EQ(LabelOf(leader, "leaderworkerset.sigs.k8s.io/group-index"), "1");
  EXPECT_EQ(LabelOf(leader, "leaderworkerset.sigs.k8s.io/worker-index"), "0");
  EXPECT_EQ(LabelOf(worker, "leaderworkerset.sigs.k8s.io/worker-index"), "2");
  EXPECT_EQ(LabelOf(worker, "leaderworkerset.sigs.k8s.io/group-key"), Sha1Hex("default/lws-1"));
  EXPECT_EQ(LabelOf(leader, "leaderworkerset.sigs.k8s.io/group-key"), Sha1Hex("default/lws-1"));
  EXPECT_FALSE(LabelOf(leader, "leaderworkerset.sigs.k8s.io/template-revision-hash").empty());
  EXPECT_EQ(AnnotationOf(worker, "leaderworkerset.sigs.k8s.io/size"), "3");
  EXPECT_EQ(AnnotationOf(worker, "leaderworkerset.sigs.k8s.io/leader-name"), "lws-1");
  EXPECT_EQ(StringAt(worker, {"spec", "hostname"}), "lws-1-2");
  EXPECT_EQ(StringAt(worker, {"spec", "subdomain"}), "lws");
  EXPECT_EQ(LwsEnv(worker),
            (std::map<std::string, std::string>{{"LWS_GROUP_SIZE", "3"},
                                                {"LWS_LEADER_ADDRESS", "lws-1.lws.default"},
                                                {"LWS_WORKER_INDEX", "2"}}));
  EXPECT_EQ(worker["metadata"]["ownerReferences"][0]["kind"], "LeaderWorkerSet");
  const Json& lws = c.Get(Kind::kLeaderWorkerSet, "lws");
  EXPECT_EQ(lws["status"]["replicas"], 2);
  EXPECT_EQ(StringAt(lws, {"status", "hpaPodSelector"}),
            "leaderworkerset.sigs.k8s.io/name=lws,leaderworkerset.sigs.k8s.io/worker-index=0");
  EXPECT_EQ(StringAt(*LwsCond(c, "Progressing"), {"reason"}), "GroupsProgressing");

  c.Bind({"n1"});
  c.Round();
  const Json& ready = c.Get(Kind::kLeaderWorkerSet, "lws");
  EXPECT_EQ(ready["status"]["readyReplicas"], 2);
  EXPECT_EQ(ready["status"]["updatedReplicas"], 2);
  EXPECT_TRUE(ConditionIsTrue(ready, "Available"));
  EXPECT_EQ(StringAt(*LwsCond(c, "Available"), {"reason"}), "AllGroupsReady");
  EXPECT_EQ(StringAt(*LwsCond(c, "Available"), {"message"}), "All replicas are ready");
  EXPECT_EQ(StringAt(*LwsCond(c, "Progressing"), {"status"}), "False");
  c.Advance(3600);
  EXPECT_TRUE(c.Round().changes.empty());
}

TEST(LeaderWorkerSetControllerTest, LeaderReadyHoldsTheWorkersBack) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Lws(1, 2, {{"startupPolicy", "LeaderReady"}}));
  c.Round();
  EXPECT_EQ(Names(c), (std::set<std::string>{"lws-0"}));
  c.Bind({"n1"});
  c.Round();
  EXPECT_EQ(Names(c), (std::set<std::string>{"lws-0", "lws-0-1"}));
}

TEST(LeaderWorkerSetControllerTest, AFailedWorkerRecreatesItsGroup) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Lws(2, 2));
  c.Run(2, 5, {"n1"});
  const std::string old_uid = UidOf(c.Get(Kind::kPod, "lws-1"));
  Json failed = c.Get(Kind::kPod, "lws-1-1");
  failed["status"]["phase"] = "Failed";
  c.Replace(failed);
  c.Round();
  EXPECT_TRUE(IsBeingDeleted(c.Get(Kind::kPod, "lws-1")));
  EXPECT_FALSE(IsBeingDeleted(c.Get(Kind::kPod, "lws-0")));
  EXPECT_EQ(c.Get(Kind::kLeaderWorkerSet, "lws")["status"]["readyReplicas"], 1);
  c.Advance(30);
  c.Run(2, 5, {"n1"});
  EXPECT_NE(UidOf(c.Get(Kind::kPod, "lws-1")), old_uid);
  EXPECT_EQ(c.Get(Kind::kLeaderWorkerSet, "lws")["status"]["readyReplicas"], 2);
}

TEST(LeaderWorkerSetControllerTest, RollingUpdateReplacesOneGroupAtATime) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Lws(3, 2));
  c.Run(2, 5, {"n1"});
  const std::string old_hash =
      LabelOf(c.Get(Kind::kPod, "lws-0"), "leaderworkerset.sigs.k8s.io/template-revision-hash");
  Json lws = c.Get(Kind::kLeaderWorkerSet, "lws");
  lws["spec"]["leaderWorkerTemplate"]["workerTemplate"] = PodTemplate("vllm", {{"v", "2"}});
  lws["metadata"]["generation"] = 2;
  c.Replace(lws);
  c.Round();
  EXPECT_TRUE(IsBeingDeleted(c.Get(Kind::kPod, "lws-2")));
  EXPECT_FALSE(IsBeingDeleted(c.Get(Kind::kPod, "lws-1")));
  EXPECT_TRUE(ConditionIsTrue(c.Get(Kind::kLeaderWorkerSet, "lws"), "UpdateInProgress"));
  EXPECT_EQ(StringAt(*LwsCond(c, "UpdateInProgress"), {"reason"}), "GroupsUpdating");
  c.Run(16, 15, {"n1"});
  for (const char* name : {"lws-0", "lws-1", "lws-2", "lws-2-1"}) {
    const Json& pod = c.Get(Kind::kPod, name);
    EXPECT_NE(LabelOf(pod, "leaderworkerset.sigs.k8s.io/template-revision-hash"), old_hash) << name;
    EXPECT_EQ(AnnotationOf(pod, "v"), "2") << name;
  }
  const Json& done = c.Get(Kind::kLeaderWorkerSet, "lws");
  EXPECT_EQ(done["status"]["updatedReplicas"], 3);
  EXPECT_TRUE(ConditionIsTrue(done, "Available"));
  EXPECT_EQ(StringAt(*LwsCond(c, "UpdateInProgress"), {"status"}), "False");
  EXPECT_EQ((*LwsCond(c, "Available"))["observedGeneration"], 2);
}

TEST(LeaderWorkerSetControllerTest, ScaleDownRemovesTheHighestGroups) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Lws(2, 2));
  c.Run(2, 5, {"n1"});
  Json lws = c.Get(Kind::kLeaderWorkerSet, "lws");
  lws["spec"]["replicas"] = 1;
  c.Replace(lws);
  c.Round();
  EXPECT_EQ(Names(c), (std::set<std::string>{"lws-0", "lws-0-1"}));
  c.Advance(30);
  c.Round();
  EXPECT_EQ(c.Get(Kind::kLeaderWorkerSet, "lws")["status"]["replicas"], 1);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::member
