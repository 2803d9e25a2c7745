// The Deployment and ReplicaSet controllers. ResolveFenceposts and NewReplicaSetReplicas
// tables are ported from kubernetes pkg/controller/deployment/util/deployment_util_test.go
// (TestResolveFenceposts) and rolling_test.go (TestDeploymentController_reconcileNewReplicaSet);
// ReconcileOldReplicaSetsTable replays rolling_test.go's TestDeploymentController_
// reconcileOldReplicaSets through whole rounds. The rest are lifecycles: a rollout, a rollout
// to a crash-looping revision that never completes, a rollout on to a good one, rollback,
// Recreate, scaling, pausing, history and minReadySeconds.
#include "server/member/deployment_controller.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "member/member_test_util.h"
#include "server/api/json_access.h"
#include "server/member/member_json.h"
#include "server/member/pod_util.h"
#include "server/member/replicaset_controller.h"

namespace berth::server::member {
namespace BERTH_UNITY_ID {

using testing::kT0;
using testing::MakeNode;
using testing::MakeObject;
using testing::PodTemplate;
using testing::SimCluster;

TEST(DeploymentControllerTest, ResolveFencepostsTable) {
  struct Case {
    const char* max_surge;  // nullptr: absent
    const char* max_unavailable;
    int64_t desired;
    int64_t surge;
    int64_t unavailable;
    bool error;
  };
  const Case cases[] = {
      {"0%", "0%", 0, 0, 1, false},      {"39%", "39%", 10, 4, 3, false},
      {"oops", "39%", 10, 0, 0, true},   {"55%", "urg", 10, 0, 0, true},
      {"5", "1", 7, 0, 0, true},         {nullptr, "39%", 10, 0, 3, false},
      {"39%", nullptr, 10, 4, 0, false}, {nullptr, nullptr, 10, 0, 1, false},
  };
  for (const Case& c : cases) {
    const Json surge = c.max_surge != nullptr ? Json(c.max_surge) : Json();
    const Json unavailable = c.max_unavailable != nullptr ? Json(c.max_unavailable) : Json();
    const std::optional<RolloutLimits> got =
        ResolveFenceposts(c.max_surge != nullptr ? &surge : nullptr,
                          c.max_unavailable != nullptr ? &unavailable : nullptr, c.desired);
    ASSERT_EQ(!got.has_value(), c.error) << (c.max_surge ? c.max_surge : "nil");
    if (!got) continue;
    EXPECT_EQ(got->max_surge, c.surge);
    EXPECT_EQ(got->max_unavailable, c.unavailable);
  }
  // Integers count as themselves.
  const Json two = 2;
  const Json one = 1;
  EXPECT_EQ(ResolveFenceposts(&two, &one, 10)->max_surge, 2);
  EXPECT_EQ(ResolveFenceposts(&two, &one, 10)->max_unavailable, 1);
}

TEST(DeploymentControllerTest, NewReplicaSetReplicasTable) {
  struct Case {
    int64_t desired;
    int64_t max_surge;
    int64_t old_replicas;
    int64_t new_replicas;
    int64_t want;
  };
  const Case cases[] = {
      {10, 0, 10, 0, 0},  // should not scale up
      {10, 2, 10, 0, 2},
      {10, 2, 5, 0, 7},
      {10, 2, 10, 2, 2},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(NewReplicaSetReplicas(c.desired, c.max_surge, c.old_replicas + c.new_replicas,
                                    c.new_replicas),
              c.want);
  }
}

Json Web(int64_t replicas, Json tmpl, Json strategy = Json()) {
  Json spec = {{"replicas", replicas},
               {"selector", {{"matchLabels", {{"app", "web"}}}}},
               {"template", std::move(tmpl)}};
  if (!strategy.is_null()) spec["strategy"] = std::move(strategy);
  return MakeObject("apps/v1", "Deployment", "web", std::move(spec));
}

// `d` with a new template (and the generation the API server would give it).
Json Retemplate(Json d, Json tmpl) {
  d["spec"]["template"] = std::move(tmpl);
  d["metadata"]["generation"] = IntAt(d, {"metadata", "generation"}, 1) + 1;
  return d;
}

std::vector<const Json*> ReplicaSets(const SimCluster& c) {
  std::vector<const Json*> out = c.OwnedBy(Kind::kReplicaSet, c.Get(Kind::kDeployment, "web"));
  std::sort(out.begin(), out.end(), [](const Json* a, const Json* b) {
    return std::stoll(AnnotationOf(*a, kDeploymentRevisionAnnotation)) <
           std::stoll(AnnotationOf(*b, kDeploymentRevisionAnnotation));
  });
  return out;
}

const Json* Condition(const SimCluster& c, const char* type) {
  return FindCondition(c.Get(Kind::kDeployment, "web"), type);
}

TEST(DeploymentControllerTest, RollsOutAndBecomesAvailable) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Web(3, PodTemplate("web")));
  c.Round();
  std::vector<const Json*> sets = ReplicaSets(c);
  ASSERT_EQ(sets.size(), 1u);
  const Json& rs = *sets[0];
  const std::string hash = LabelOf(rs, kPodTemplateHashLabel);
  ASSERT_FALSE(hash.empty());
  EXPECT_EQ(NameOf(rs), "web-" + hash);
  EXPECT_EQ(AnnotationOf(rs, kDeploymentRevisionAnnotation), "1");
  EXPECT_EQ(AnnotationOf(rs, "deployment.kubernetes.io/desired-replicas"), "3");
  EXPECT_EQ(AnnotationOf(rs, "deployment.kubernetes.io/max-replicas"), "4");
  EXPECT_EQ(IntAt(rs, {"spec", "replicas"}, 0), 3);
  EXPECT_EQ(rs["spec"]["selector"],
            Json::parse(R"({"matchLabels":{"app":"web","pod-template-hash":")" + hash + "\"}}"));
  EXPECT_EQ(LabelOf(rs, "app"), "web");
  EXPECT_EQ(rs["metadata"]["ownerReferences"][0]["kind"], "Deployment");
  const std::vector<const Json*> pods = c.PodsOf(rs);
  ASSERT_EQ(pods.size(), 3u);
  for (const Json* p : pods) {
    EXPECT_EQ(LabelOf(*p, kPodTemplateHashLabel), hash);
    EXPECT_EQ(NameOf(*p).substr(0, 5 + hash.size()), "web-" + hash + "-");
  }
  const Json& d = c.Get(Kind::kDeployment, "web");
  EXPECT_EQ(AnnotationOf(d, kDeploymentRevisionAnnotation), "1");
  EXPECT_EQ(IntAt(d, {"status", "observedGeneration"}, 0), 1);
  EXPECT_EQ(IntAt(d, {"status", "unavailableReplicas"}, 0), 3);
  EXPECT_EQ(StringAt(*Condition(c, "Available"), {"reason"}), "MinimumReplicasUnavailable");
  // Created, then progressing as the ReplicaSet reported its pods (the next sync upstream).
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"reason"}), "ReplicaSetUpdated");
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"message"}),
            "ReplicaSet \"web-" + hash + "\" is progressing.");

  c.Bind({"n1"});
  c.Round();
  const Json& ready = c.Get(Kind::kDeployment, "web");
  EXPECT_EQ(ready["status"]["replicas"], 3);
  EXPECT_EQ(ready["status"]["updatedReplicas"], 3);
  EXPECT_EQ(ready["status"]["readyReplicas"], 3);
  EXPECT_EQ(ready["status"]["availableReplicas"], 3);
  EXPECT_EQ(MemberAt(ready, {"status", "unavailableReplicas"}), nullptr);
  EXPECT_EQ(StringAt(*Condition(c, "Available"), {"status"}), "True");
  EXPECT_EQ(StringAt(*Condition(c, "Available"), {"reason"}), "MinimumReplicasAvailable");
  EXPECT_EQ(StringAt(*Condition(c, "Available"), {"message"}),
            "Deployment has minimum availability.");
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"reason"}), "NewReplicaSetAvailable");
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"message"}),
            "ReplicaSet \"web-" + hash + "\" has successfully progressed.");
  // Pods of a Deployment run until deleted; nothing more happens.
  c.Advance(86400);
  EXPECT_TRUE(c.Round().changes.empty());
}

TEST(DeploymentControllerTest, ACrashLoopingRevisionNeverCompletesAndAGoodOneDoes) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Web(3, PodTemplate("web")));
  c.Run(2, 10, {"n1"});
  const std::string good_hash = LabelOf(*ReplicaSets(c)[0], kPodTemplateHashLabel);

  // Revision 2 crash-loops.
  c.Replace(Retemplate(c.Get(Kind::kDeployment, "web"),
                       PodTemplate("web", {{"berth.dev/simulated-failure", "crashloop"}})));
  c.Run(6, 100, {"n1"});  // 600 s: not yet past the progress deadline
  std::vector<const Json*> sets = ReplicaSets(c);
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(IntAt(*sets[0], {"spec", "replicas"}, 0), 3);
  EXPECT_EQ(IntAt(*sets[1], {"spec", "replicas"}, 0), 1);  // maxSurge 25% of 3, rounded up
  EXPECT_EQ(IntAt(*sets[1], {"status", "availableReplicas"}, 0), 0);
  const Json& stuck = c.Get(Kind::kDeployment, "web");
  EXPECT_EQ(AnnotationOf(stuck, kDeploymentRevisionAnnotation), "2");
  EXPECT_EQ(stuck["status"]["replicas"], 4);
  EXPECT_EQ(stuck["status"]["updatedReplicas"], 1);
  EXPECT_EQ(stuck["status"]["availableReplicas"], 3);
  EXPECT_EQ(stuck["status"]["unavailableReplicas"], 1);
  EXPECT_EQ(StringAt(*Condition(c, "Available"), {"status"}), "True");
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"status"}), "True");
  // The deadline passes once more than 600 s went by since the last progress (at kT0 + 20).
  c.Round();
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"status"}), "True");
  c.Advance(1);
  c.Round();
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"status"}), "False");
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"reason"}), "ProgressDeadlineExceeded");
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"message"}),
            "ReplicaSet \"" + NameOf(*ReplicaSets(c)[1]) + "\" has timed out progressing.");
  for (const Json* p : c.PodsOf(*ReplicaSets(c)[1])) {
    EXPECT_GT(PodRestartCount(*p), 3);
    EXPECT_FALSE(PodIsReady(*p));
  }

  // Revision 3 is good: it replaces both.
  c.Replace(Retemplate(c.Get(Kind::kDeployment, "web"), PodTemplate("web", {{"version", "3"}})));
  c.Run(12, 30, {"n1"});
  sets = ReplicaSets(c);
  ASSERT_EQ(sets.size(), 3u);
  EXPECT_EQ(IntAt(*sets[0], {"spec", "replicas"}, -1), 0);
  EXPECT_EQ(IntAt(*sets[1], {"spec", "replicas"}, -1), 0);
  EXPECT_EQ(IntAt(*sets[2], {"spec", "replicas"}, -1), 3);
  EXPECT_EQ(AnnotationOf(*sets[2], kDeploymentRevisionAnnotation), "3");
  const Json& done = c.Get(Kind::kDeployment, "web");
  EXPECT_EQ(done["status"]["replicas"], 3);
  EXPECT_EQ(done["status"]["updatedReplicas"], 3);
  EXPECT_EQ(done["status"]["availableReplicas"], 3);
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"status"}), "True");
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"reason"}), "NewReplicaSetAvailable");
  int running = 0;
  for (const Json* p : c.List(Kind::kPod)) {
    if (!IsBeingDeleted(*p)) {
      ++running;
      EXPECT_EQ(LabelOf(*p, kPodTemplateHashLabel), LabelOf(*sets[2], kPodTemplateHashLabel));
    }
  }
  EXPECT_EQ(running, 3);

  // Rolling back to the first template revives its ReplicaSet as revision 4.
  c.Replace(Retemplate(c.Get(Kind::kDeployment, "web"), PodTemplate("web")));
  c.Run(12, 30, {"n1"});
  sets = ReplicaSets(c);
  ASSERT_EQ(sets.size(), 3u);
  const Json& revived = *sets.back();
  EXPECT_EQ(LabelOf(revived, kPodTemplateHashLabel), good_hash);
  EXPECT_EQ(AnnotationOf(revived, kDeploymentRevisionAnnotation), "4");
  EXPECT_EQ(AnnotationOf(revived, "deployment.kubernetes.io/revision-history"), "1");
  EXPECT_EQ(IntAt(revived, {"spec", "replicas"}, -1), 3);
  EXPECT_EQ(AnnotationOf(c.Get(Kind::kDeployment, "web"), kDeploymentRevisionAnnotation), "4");
}

// rolling_test.go's reconcileOldReplicaSets rows, as rounds: ten old pods (some unready), a
// new template, the old ReplicaSet's size after the round.
TEST(DeploymentControllerTest, ReconcileOldReplicaSetsTable) {
  struct Case {
    int64_t max_unavailable;
    int unready_old;
    int64_t want_old;
    int64_t want_new;
  };
  const Case cases[] = {
      {0, 0, 9, 1},  // both zero: one may be unavailable
      {2, 0, 8, 2},
      {2, 2, 8, 2},  // the unhealthy old replicas are cleaned up first
      {2, 1, 8, 2},  // one unhealthy cleaned up, one ready scaled down
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.max_unavailable * 10 + tc.unready_old);
    SimCluster c;
    c.Add(MakeNode("n1"));
    c.Add(Web(10, PodTemplate("web"),
              {{"type", "RollingUpdate"},
               {"rollingUpdate", {{"maxSurge", 0}, {"maxUnavailable", tc.max_unavailable}}}}));
    c.Run(2, 10, {"n1"});
    int marked = 0;
    for (const Json* p : c.List(Kind::kPod)) {
      if (marked == tc.unready_old) break;
      Json pod = *p;
      pod["metadata"]["annotations"]["berth.dev/simulated-failure"] = "crashloop";
      c.Replace(pod);
      ++marked;
    }
    c.Round();
    c.Replace(Retemplate(c.Get(Kind::kDeployment, "web"), PodTemplate("web", {{"v", "2"}})));
    c.Round();
    const std::vector<const Json*> sets = ReplicaSets(c);
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(IntAt(*sets[0], {"spec", "replicas"}, -1), tc.want_old);
    EXPECT_EQ(IntAt(*sets[1], {"spec", "replicas"}, -1), tc.want_new);
  }
}

TEST(DeploymentControllerTest, RecreateStopsEveryOldPodFirst) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Web(2, PodTemplate("web"), {{"type", "Recreate"}}));
  c.Run(2, 10, {"n1"});
  c.Replace(Retemplate(c.Get(Kind::kDeployment, "web"), PodTemplate("web", {{"v", "2"}})));
  c.Round();
  ASSERT_EQ(ReplicaSets(c).size(), 1u);  // no new ReplicaSet while old pods run
  EXPECT_EQ(IntAt(*ReplicaSets(c)[0], {"spec", "replicas"}, -1), 0);
  c.Advance(10);
  c.Round();  // the old pods are still terminating
  ASSERT_EQ(ReplicaSets(c).size(), 1u);
  c.Advance(30);
  c.Round();
  const std::vector<const Json*> sets = ReplicaSets(c);
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(IntAt(*sets[1], {"spec", "replicas"}, -1), 2);
  EXPECT_EQ(c.PodsOf(*sets[1]).size(), 2u);
}

TEST(DeploymentControllerTest, ScalingResizesAndAnnotatesTheReplicaSet) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Web(3, PodTemplate("web")));
  c.Run(2, 10, {"n1"});
  Json d = c.Get(Kind::kDeployment, "web");
  d["spec"]["replicas"] = 5;
  d["metadata"]["generation"] = 2;
  c.Replace(d);
  c.Round();
  const Json& rs = *ReplicaSets(c)[0];
  EXPECT_EQ(IntAt(rs, {"spec", "replicas"}, 0), 5);
  EXPECT_EQ(AnnotationOf(rs, "deployment.kubernetes.io/desired-replicas"), "5");
  EXPECT_EQ(AnnotationOf(rs, "deployment.kubernetes.io/max-replicas"), "7");
  EXPECT_EQ(c.PodsOf(rs).size(), 5u);
  d = c.Get(Kind::kDeployment, "web");
  d["spec"]["replicas"] = 1;
  c.Replace(d);
  c.Round();
  int active = 0;
  for (const Json* p : c.PodsOf(*ReplicaSets(c)[0])) active += PodIsActive(*p) ? 1 : 0;
  EXPECT_EQ(active, 1);
}

TEST(DeploymentControllerTest, PausedDeploymentsDoNotRollOut) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  c.Add(Web(2, PodTemplate("web")));
  c.Run(2, 10, {"n1"});
  Json d = Retemplate(c.Get(Kind::kDeployment, "web"), PodTemplate("web", {{"v", "2"}}));
  d["spec"]["paused"] = true;
  c.Replace(d);
  c.Round();
  EXPECT_EQ(ReplicaSets(c).size(), 1u);
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"status"}), "Unknown");
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"reason"}), "DeploymentPaused");
  d = c.Get(Kind::kDeployment, "web");
  d["spec"]["paused"] = false;
  c.Replace(d);
  c.Round();
  EXPECT_EQ(ReplicaSets(c).size(), 2u);
  EXPECT_EQ(StringAt(*Condition(c, "Progressing"), {"status"}), "True");
}

TEST(DeploymentControllerTest, OldReplicaSetsBeyondTheHistoryLimitAreDeleted) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  Json d = Web(1, PodTemplate("web"));
  d["spec"]["revisionHistoryLimit"] = 1;
  c.Add(d);
  c.Run(2, 10, {"n1"});
  for (int v = 2; v <= 4; ++v) {
    c.Replace(Retemplate(c.Get(Kind::kDeployment, "web"),
                         PodTemplate("web", {{"v", std::to_string(v)}})));
    c.Run(6, 30, {"n1"});
  }
  const std::vector<const Json*> sets = ReplicaSets(c);
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(AnnotationOf(*sets[0], kDeploymentRevisionAnnotation), "3");
  EXPECT_EQ(AnnotationOf(*sets[1], kDeploymentRevisionAnnotation), "4");
}

TEST(DeploymentControllerTest, MinReadySecondsDelaysAvailability) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  Json d = Web(2, PodTemplate("web"));
  d["spec"]["minReadySeconds"] = 30;
  c.Add(d);
  c.Round();
  c.Bind({"n1"});
  c.Round();  // ready at kT0
  EXPECT_EQ(IntAt(c.Get(Kind::kDeployment, "web"), {"status", "readyReplicas"}, 0), 2);
  EXPECT_EQ(IntAt(c.Get(Kind::kDeployment, "web"), {"status", "availableReplicas"}, 0), 0);
  c.Advance(30);
  c.Round();  // not yet: available once ready for longer than 30 s
  EXPECT_EQ(IntAt(c.Get(Kind::kDeployment, "web"), {"status", "availableReplicas"}, 0), 0);
  c.Advance(1);
  c.Round();
  EXPECT_EQ(IntAt(c.Get(Kind::kDeployment, "web"), {"status", "availableReplicas"}, 0), 2);
  EXPECT_EQ(StringAt(*Condition(c, "Available"), {"status"}), "True");
}

TEST(ReplicaSetControllerTest, KeepsItsReplicasAndReportsThem) {
  SimCluster c;
  c.Add(MakeNode("n1"));
  Json rs = MakeObject("apps/v1", "ReplicaSet", "front",
                       {{"replicas", 3},
                        {"selector", {{"matchLabels", {{"app", "front"}}}}},
                        {"template", PodTemplate("front")}});
  c.Add(rs);
  c.Round();
  std::vector<const Json*> pods = c.PodsOf(c.Get(Kind::kReplicaSet, "front"));
  ASSERT_EQ(pods.size(), 3u);
  EXPECT_EQ(NameOf(*pods[0]).substr(0, 6), "front-");
  EXPECT_EQ(c.Get(Kind::kReplicaSet, "front")["status"],
            Json::parse(R"({"replicas":3,"fullyLabeledReplicas":3,"observedGeneration":1})"));
  // Two run; one stays pending. Scaling to one keeps a running pod.
  Json lone = *pods[0];
  lone["spec"]["nodeName"] = "n1";
  c.Replace(lone);
  Json second = *c.PodsOf(c.Get(Kind::kReplicaSet, "front"))[1];
  second["spec"]["nodeName"] = "n1";
  c.Replace(second);
  c.Round();
  EXPECT_EQ(c.Get(Kind::kReplicaSet, "front")["status"],
            Json::parse(R"({"replicas":3,"fullyLabeledReplicas":3,"readyReplicas":2,
                            "availableReplicas":2,"observedGeneration":1})"));
  Json scaled = c.Get(Kind::kReplicaSet, "front");
  scaled["spec"]["replicas"] = 1;
  scaled["metadata"]["generation"] = 2;
  c.Replace(scaled);
  c.Round();
  int running = 0;
  for (const Json* p : c.PodsOf(c.Get(Kind::kReplicaSet, "front"))) {
    if (PodIsActive(*p)) {
      ++running;
      EXPECT_EQ(StringAt(*p, {"status", "phase"}), "Running");
    }
  }
  EXPECT_EQ(running, 1);
  // A failed pod is replaced.
  for (const Json* p : c.PodsOf(c.Get(Kind::kReplicaSet, "front"))) {
    if (!PodIsActive(*p)) continue;
    Json failed = *p;
    failed["metadata"]["annotations"]["berth.dev/simulated-failure"] = "crashloop";
    failed["spec"]["restartPolicy"] = "Never";
    c.Replace(failed);
  }
  c.Round();
  int active = 0;
  for (const Json* p : c.PodsOf(c.Get(Kind::kReplicaSet, "front")))
    active += PodIsActive(*p) ? 1 : 0;
  EXPECT_EQ(active, 1);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::member
