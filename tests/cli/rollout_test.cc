// `berth rollout`: the pure views over an MWRS and its ControllerRevisions (rollout_view.h)
// and the whole command against a real hub handler in process (kube's TestHub: a RestHandler
// over SQLite), as kubectl rollout would run against an API server.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "cli/rollout_command.h"
#include "cli/rollout_view.h"
#include "kube/kube_test_hub.h"

namespace berth::cli {
namespace BERTH_UNITY_ID {

Json Template(const std::string& image) {
  return Json::parse(R"({"workload":{"manifests":[{"apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"llm-serve","namespace":"default"},
    "spec":{"replicas":2,"template":{"spec":{"containers":[{"name":"vllm","image":")" +
                     image + R"("}]}}}}]}})");
}

Json Mwrs(const std::string& image, const Json& annotations = Json::object()) {
  Json m = Json::parse(R"({"apiVersion":"work.open-cluster-management.io/v1alpha1",
    "kind":"ManifestWorkReplicaSet","metadata":{"name":"llm-serve","namespace":"default"},
    "spec":{"placementRefs":[{"name":"llm"}]}})");
  m["metadata"]["annotations"] = annotations;
  m["spec"]["manifestWorkTemplate"] = Template(image);
  return m;
}

Json Revision(int64_t number, const std::string& hash, const std::string& image,
              const Json& annotations, const std::string& owner = "llm-serve") {
  Json r = Json::parse(R"({"apiVersion":"apps/v1","kind":"ControllerRevision",
    "metadata":{"namespace":"default","ownerReferences":[{"apiVersion":"work.open-cluster-management.io/v1alpha1",
      "kind":"ManifestWorkReplicaSet","controller":true}]}})");
  r["metadata"]["name"] = owner + "-" + hash;
  r["metadata"]["labels"] = {{"controller.kubernetes.io/hash", hash}};
  r["metadata"]["annotations"] = annotations;
  r["metadata"]["ownerReferences"][0]["name"] = owner;
  r["revision"] = number;
  r["data"] = {{"spec", {{"manifestWorkTemplate", Template(image)}}}};
  return r;
}

constexpr const char* kGoodClusters =
    R"([{"cluster":"ap-1","takenAt":"2026-11-02T00:02:30Z","outcome":"Succeeded","outcomeAt":"2026-11-02T00:02:30Z"},)"
    R"({"cluster":"us-2","takenAt":"2026-11-02T00:02:30Z","outcome":"Succeeded","outcomeAt":"2026-11-02T00:02:30Z"}])";
constexpr const char* kBadClusters =
    R"([{"cluster":"eu-1","takenAt":"2026-11-02T01:00:00Z","outcome":"Failed","outcomeAt":"2026-11-02T01:00:30Z",)"
    R"j("detail":"Available=False (ResourcesNotAvailable)"}])j";
constexpr const char* kReason = "revision 2 failed on 1 of 1 cluster (maxFailures 0 per group); rolling back to revision 1";

// The state after berth rolled back: the spec holds the bad template (revision 2), the good
// one was rolled out again as revision 3; a revision of another MWRS lies beside them.
Json RolledBackList() {
  Json list = {{"kind", "ControllerRevisionList"}, {"items", Json::array()}};
  list["items"].push_back(Revision(3, "goodhash00", "vllm:0.6.3",
                                   {{"kubernetes.io/change-cause", "vllm 0.6.3"},
                                    {"rollout.berth.dev/clusters", kGoodClusters}}));
  list["items"].push_back(Revision(2, "badhash000", "vllm:0.6.4-rc1",
                                   {{"kubernetes.io/change-cause", "vllm 0.6.4-rc1"},
                                    {"rollout.berth.dev/clusters", kBadClusters},
                                    {"rollout.berth.dev/rolled-back", kReason}}));
  list["items"].push_back(Revision(1, "otherhash0", "other:1", Json::object(), "other-mwrs"));
  return list;
}

Json RolledBackMwrs() {
  return Mwrs("vllm:0.6.4-rc1", {{"kubernetes.io/change-cause", "vllm 0.6.4-rc1"},
                                 {"rollout.berth.dev/rolled-back",
                                  R"({"revision":2,"templateHash":"badhash000","toRevision":1,"toTemplateHash":"goodhash00","reason":"revision 2 failed"})"}});
}

TEST(RolloutTargetTest, AcceptsKubectlSpellingsOfTheMwrsOnly) {
  EXPECT_EQ(*ParseRolloutTarget({"mwrs/llm"}), "llm");
  EXPECT_EQ(*ParseRolloutTarget({"manifestworkreplicaset.work.open-cluster-management.io/llm"}), "llm");
  EXPECT_EQ(*ParseRolloutTarget({"manifestworkreplicasets", "llm"}), "llm");
  auto deployment = ParseRolloutTarget({"deployment/llm"});
  ASSERT_FALSE(deployment);
  EXPECT_NE(deployment.error().message().find("not \"deployment\""), std::string::npos);
  EXPECT_FALSE(ParseRolloutTarget({"llm"}));
  EXPECT_FALSE(ParseRolloutTarget({"mwrs/"}));
  EXPECT_FALSE(ParseRolloutTarget({"mwrs", "a/b"}));
}

TEST(RolloutViewTest, OwnedRevisionsAreSortedAndKnowWhichIsTheSpec) {
  auto revisions = OwnedRevisions(RolledBackMwrs(), RolledBackList());
  ASSERT_EQ(revisions.size(), 2u);  // other-mwrs's revision is not this MWRS's
  EXPECT_EQ(revisions[0].number, 2);
  EXPECT_TRUE(revisions[0].is_spec);
  EXPECT_EQ(revisions[0].rolled_back, kReason);
  ASSERT_EQ(revisions[0].clusters.size(), 1u);
  EXPECT_EQ(revisions[0].clusters[0].outcome, "Failed");
  EXPECT_EQ(revisions[1].number, 3);
  EXPECT_FALSE(revisions[1].is_spec);
}

TEST(RolloutViewTest, SpecMatchIgnoresKeyOrderAndNumberSpelling) {
  Json mwrs = Mwrs("x");
  Json reordered = Json::parse(R"({"workload":{"manifests":[{"spec":{"template":{"spec":{"containers":
      [{"image":"x","name":"vllm"}]}},"replicas":2.0},"metadata":{"namespace":"default","name":"llm-serve"},
      "kind":"Deployment","apiVersion":"apps/v1"}]}})");
  Json list = {{"items", {Revision(1, "h", "y", Json::object())}}};
  list["items"][0]["data"]["spec"]["manifestWorkTemplate"] = reordered;
  EXPECT_TRUE(OwnedRevisions(mwrs, list)[0].is_spec);
}

TEST(RolloutViewTest, HistoryTableNamesClustersAndWhyARevisionWasRolledBack) {
  const std::string table = HistoryTable("llm-serve", OwnedRevisions(RolledBackMwrs(), RolledBackList()));
  EXPECT_EQ(table,
            "manifestworkreplicaset.work.open-cluster-management.io/llm-serve\n"
            "REVISION  CHANGE-CAUSE    CLUSTERS                        ROLLED-BACK\n"
            "2         vllm 0.6.4-rc1  eu-1 Failed                     " + std::string(kReason) + "\n"
            "3         vllm 0.6.3      ap-1 Succeeded, us-2 Succeeded  <none>\n");
}

TEST(RolloutViewTest, HistoryCountsOutcomesPastFourClusters) {
  Json clusters = Json::array();
  for (int i = 0; i < 6; ++i) {
    clusters.push_back({{"cluster", "c" + std::to_string(i)}, {"outcome", i < 5 ? "Succeeded" : "Failed"}});
  }
  Json list = {{"items", {Revision(1, "h", "x", {{"rollout.berth.dev/clusters", clusters.dump()}})}}};
  const std::string table = HistoryTable("llm-serve", OwnedRevisions(Mwrs("x"), list));
  EXPECT_NE(table.find("1 Failed, 5 Succeeded"), std::string::npos) << table;
}

TEST(RolloutViewTest, RevisionDetailShowsClustersReasonAndTemplate) {
  auto revisions = OwnedRevisions(RolledBackMwrs(), RolledBackList());
  auto detail = RevisionDetail("llm-serve", revisions, 2);
  ASSERT_TRUE(detail) << detail.error().ToString();
  EXPECT_NE(detail->find("with revision #2"), std::string::npos);
  EXPECT_NE(detail->find("Rolled back:        " + std::string(kReason)), std::string::npos);
  EXPECT_NE(detail->find("eu-1     2026-11-02T01:00:00Z  Failed   2026-11-02T01:00:30Z  Available=False"),
            std::string::npos)
      << *detail;
  EXPECT_NE(detail->find("          image: vllm:0.6.4-rc1"), std::string::npos) << *detail;
  auto missing = RevisionDetail("llm-serve", revisions, 7);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), core::ErrorCode::kNotFound);
}

TEST(RolloutStatusTest, RollbackThatHoldsFails) {
  auto state = StatusOf(RolledBackMwrs(), OwnedRevisions(RolledBackMwrs(), RolledBackList()));
  EXPECT_TRUE(state.failed);
  EXPECT_EQ(state.message, "manifestworkreplicaset \"llm-serve\" was rolled back: revision 2 failed");
}

TEST(RolloutStatusTest, FollowsTheNewestRevisionAndTheConditions) {
  Json mwrs = Mwrs("b");
  Json list = {{"items", {Revision(1, "a", "a", Json::object())}}};
  auto state = StatusOf(mwrs, OwnedRevisions(mwrs, list));
  EXPECT_FALSE(state.done);
  EXPECT_EQ(state.message, "Waiting for manifestworkreplicaset \"llm-serve\" spec update to be observed...");

  list["items"].push_back(Revision(2, "b", "b", Json::object()));
  mwrs["status"] = Json::parse(R"({"summary":{"total":3,"applied":1,"available":1,"degraded":0},
      "conditions":[{"type":"PlacementRolledOut","status":"False","reason":"Progressing"}]})");
  state = StatusOf(mwrs, OwnedRevisions(mwrs, list));
  EXPECT_FALSE(state.done);
  EXPECT_FALSE(state.failed);
  EXPECT_EQ(state.message,
            "Waiting for manifestworkreplicaset \"llm-serve\" rollout to finish: revision 2: 1 of 3 clusters "
            "applied, 1 available, 0 degraded...");

  mwrs["status"]["conditions"].push_back(Json::parse(
      R"({"type":"RolloutPaused","status":"True","reason":"ProgressDeadlineExceeded","message":"eu-1 took 10m"})"));
  state = StatusOf(mwrs, OwnedRevisions(mwrs, list));
  EXPECT_TRUE(state.failed);
  EXPECT_EQ(state.message, "manifestworkreplicaset \"llm-serve\" rollout paused (ProgressDeadlineExceeded): eu-1 took 10m");

  mwrs["status"]["conditions"] = Json::parse(R"([{"type":"PlacementRolledOut","status":"True"}])");
  state = StatusOf(mwrs, OwnedRevisions(mwrs, list));
  EXPECT_TRUE(state.done);
  EXPECT_EQ(state.message, "manifestworkreplicaset \"llm-serve\" successfully rolled out (revision 2)");

  mwrs["metadata"]["annotations"]["rollout.berth.dev/paused"] = "true";
  state = StatusOf(mwrs, OwnedRevisions(mwrs, list));
  EXPECT_FALSE(state.done);
  EXPECT_FALSE(state.failed);
  EXPECT_NE(state.message.find("paused (rollout.berth.dev/paused; berth rollout resume)"), std::string::npos);
}

TEST(RolloutUndoTest, DefaultTargetIsTheNewestRevisionThatIsNotTheSpec) {
  auto plan = PlanUndo(RolledBackMwrs(), OwnedRevisions(RolledBackMwrs(), RolledBackList()), 0);
  ASSERT_TRUE(plan) << plan.error().ToString();
  EXPECT_EQ(plan->to_revision, 3);
  ASSERT_TRUE(plan->patch.has_value());
  const Json patch = Json::parse(*plan->patch);
  ASSERT_EQ(patch.size(), 3u);  // no resourceVersion read: no test op
  EXPECT_EQ(patch[0]["path"], "/spec/manifestWorkTemplate");
  EXPECT_EQ(patch[0]["value"], Template("vllm:0.6.3"));
  EXPECT_EQ(patch[1], Json::parse(R"({"op":"add","path":"/metadata/annotations/kubernetes.io~1change-cause","value":"vllm 0.6.3"})"));
  EXPECT_EQ(patch[2], Json::parse(R"({"op":"remove","path":"/metadata/annotations/rollout.berth.dev~1rolled-back"})"));
}

TEST(RolloutUndoTest, SkipsTheSpecsOwnRevisionAndRefusesUnknownOnes) {
  auto revisions = OwnedRevisions(RolledBackMwrs(), RolledBackList());
  auto same = PlanUndo(RolledBackMwrs(), revisions, 2);
  ASSERT_TRUE(same);
  EXPECT_FALSE(same->patch.has_value());
  auto unknown = PlanUndo(RolledBackMwrs(), revisions, 9);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code(), core::ErrorCode::kNotFound);
  Json only = {{"items", {Revision(1, "b", "vllm:0.6.4-rc1", Json::object())}}};
  auto nothing = PlanUndo(RolledBackMwrs(), OwnedRevisions(RolledBackMwrs(), only), 0);
  ASSERT_FALSE(nothing);
  EXPECT_EQ(nothing.error().code(), core::ErrorCode::kFailedPrecondition);
}

TEST(RolloutPauseTest, SetsAndRemovesTheAnnotationOnce) {
  Json mwrs = Mwrs("x");
  ASSERT_TRUE(PausePatch(mwrs, true).has_value());
  EXPECT_EQ(Json::parse(*PausePatch(mwrs, true)),
            Json::parse(R"({"metadata":{"annotations":{"rollout.berth.dev/paused":"true"}}})"));
  EXPECT_FALSE(PausePatch(mwrs, false).has_value());
  mwrs["metadata"]["annotations"]["rollout.berth.dev/paused"] = "true";
  EXPECT_FALSE(PausePatch(mwrs, true).has_value());
  EXPECT_EQ(Json::parse(*PausePatch(mwrs, false)),
            Json::parse(R"({"metadata":{"annotations":{"rollout.berth.dev/paused":null}}})"));
}

// The whole command against a hub handler: history, undo (a JSON patch guarded by the
// resourceVersion), pause and resume, and the errors a user meets.
class RolloutCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(hub_.ok());
    client_ = std::make_unique<server::kube::Client>(hub_.InProcess());
    auto mwrs = server::kube::ResourceFor("work.open-cluster-management.io/v1alpha1", "ManifestWorkReplicaSet");
    auto revisions = server::kube::ResourceFor("apps/v1", "ControllerRevision");
    ASSERT_TRUE(mwrs && revisions);
    mwrs_ = *mwrs;
    auto created = client_->Create(mwrs_, "default", RolledBackMwrs());
    ASSERT_TRUE(created);
    ASSERT_EQ(created->status, 201) << created->body;
    const Json list = RolledBackList();
    for (const Json& r : list["items"]) {
      auto made = client_->Create(*revisions, "default", r);
      ASSERT_TRUE(made);
      ASSERT_EQ(made->status, 201) << made->body;
    }
  }

  int Run(const std::string& action, std::vector<std::string> target = {"mwrs/llm-serve"}) {
    RolloutFlags flags = flags_;
    flags.action = action;
    flags.target = std::move(target);
    out_.str("");
    err_.str("");
    return RunRollout(flags, *client_, "default", out_, err_);
  }

  Json Current() {
    auto got = client_->Get(mwrs_, "default", "llm-serve");
    EXPECT_TRUE(got && got->ok());
    return got ? got->Parsed() : Json();
  }

  server::kube::testing::TestHub hub_;
  std::unique_ptr<server::kube::Client> client_;
  server::kube::Resource mwrs_;
  RolloutFlags flags_;
  std::ostringstream out_, err_;
};

TEST_F(RolloutCommandTest, HistoryListsTheOwnedRevisions) {
  ASSERT_EQ(Run("history"), 0) << err_.str();
  EXPECT_NE(out_.str().find("2         vllm 0.6.4-rc1  eu-1 Failed"), std::string::npos) << out_.str();
  EXPECT_NE(out_.str().find(kReason), std::string::npos);
  EXPECT_EQ(out_.str().find("other"), std::string::npos);
  flags_.revision = 3;
  ASSERT_EQ(Run("history"), 0) << err_.str();
  EXPECT_NE(out_.str().find("with revision #3"), std::string::npos);
}

TEST_F(RolloutCommandTest, StatusOfARolledBackRolloutExitsOne) {
  flags_.watch = false;
  EXPECT_EQ(Run("status"), 1);
  EXPECT_NE(err_.str().find("was rolled back: revision 2 failed"), std::string::npos) << err_.str();
}

TEST_F(RolloutCommandTest, UndoRestoresTheGoodTemplateAndDropsTheRollbackRecord) {
  ASSERT_EQ(Run("undo"), 0) << err_.str();
  EXPECT_EQ(out_.str(), "manifestworkreplicaset.work.open-cluster-management.io/llm-serve rolled back to revision 3\n");
  const Json mwrs = Current();
  EXPECT_EQ(mwrs["spec"]["manifestWorkTemplate"], Template("vllm:0.6.3"));
  EXPECT_EQ(mwrs["metadata"]["annotations"]["kubernetes.io/change-cause"], "vllm 0.6.3");
  EXPECT_FALSE(mwrs["metadata"]["annotations"].contains("rollout.berth.dev/rolled-back"));
  // Undoing again goes back to the newest revision that is not the spec's: revision 2.
  ASSERT_EQ(Run("undo"), 0) << err_.str();
  EXPECT_EQ(Current()["spec"]["manifestWorkTemplate"], Template("vllm:0.6.4-rc1"));
  flags_.to_revision = 2;
  ASSERT_EQ(Run("undo"), 0);
  EXPECT_NE(out_.str().find("skipped rollback (current template already matches revision 2)"), std::string::npos);
  flags_.to_revision = 8;
  EXPECT_EQ(Run("undo"), 2);
  EXPECT_NE(err_.str().find("unable to find the specified revision 8"), std::string::npos) << err_.str();
}

TEST_F(RolloutCommandTest, UndoPatchIsRefusedWhenTheMwrsChangedSinceItWasRead) {
  const Json read = Current();
  auto listed = client_->ListAll(*server::kube::ResourceFor("apps/v1", "ControllerRevision"), "default");
  ASSERT_TRUE(listed && listed->ok());
  auto plan = PlanUndo(read, OwnedRevisions(read, listed->Parsed()), 0);
  ASSERT_TRUE(plan && plan->patch);
  ASSERT_EQ(Run("pause"), 0);  // someone changes the MWRS meanwhile
  auto patched = client_->Patch(mwrs_, "default", "llm-serve", "json", *plan->patch);
  ASSERT_TRUE(patched);
  EXPECT_FALSE(patched->ok()) << patched->body;
  EXPECT_EQ(Current()["spec"]["manifestWorkTemplate"], Template("vllm:0.6.4-rc1"));
}

TEST_F(RolloutCommandTest, PauseAndResumeSetTheAnnotation) {
  ASSERT_EQ(Run("pause"), 0) << err_.str();
  EXPECT_EQ(out_.str(), "manifestworkreplicaset.work.open-cluster-management.io/llm-serve paused\n");
  EXPECT_EQ(Current()["metadata"]["annotations"]["rollout.berth.dev/paused"], "true");
  ASSERT_EQ(Run("pause"), 0);
  EXPECT_EQ(out_.str(), "manifestworkreplicaset.work.open-cluster-management.io/llm-serve already paused\n");
  ASSERT_EQ(Run("resume"), 0);
  EXPECT_FALSE(Current()["metadata"]["annotations"].contains("rollout.berth.dev/paused"));
  ASSERT_EQ(Run("resume"), 0);
  EXPECT_EQ(out_.str(), "manifestworkreplicaset.work.open-cluster-management.io/llm-serve already resumed\n");
}

TEST_F(RolloutCommandTest, UnknownObjectsAndKindsAreErrors) {
  EXPECT_EQ(Run("history", {"mwrs/nope"}), 2);
  EXPECT_NE(err_.str().find("\"nope\" not found in namespace default"), std::string::npos) << err_.str();
  EXPECT_EQ(Run("undo", {"deployment/llm-serve"}), 2);
  EXPECT_NE(err_.str().find("berth rollout works on manifestworkreplicaset"), std::string::npos);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
