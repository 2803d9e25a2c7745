// ApplyWork and DeleteWork against a real member "API server": berth's RestHandler over a
// SqliteStore in a temporary directory, reached through kube::InProcessTransport, so refusals
// carry the server's own Status messages. The validator refuses a Deployment with negative
// spec.replicas, as io's validator would. Cases follow OCM's manifestwork_reconciler_test.go
// (TestSync, TestFailedToApplyResource, TestUpdateStrategy, TestServerSideApplyConflict),
// appliedmanifestwork_reconciler_test.go ("delete untracked resources", "ignore re-created
// resource") and appliedmanifestwork_finalize_controller_test.go, on real objects.
#include "server/work/work_applier.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>

#include "server/kube/in_process_transport.h"
#include "server/rest/rest_handler.h"
#include "server/work/owner_mark.h"
#include "store/sqlite_store.h"
#include "store/temp_dir.h"

namespace berth::server::work {
namespace BERTH_UNITY_ID {

class NegativeReplicasValidator : public ObjectValidator {
 public:
  std::vector<core::Error> Validate(const model::KindInfo& kind,
                                    const Json& object) const override {
    std::vector<core::Error> out;
    auto spec = object.find("spec");
    if (kind.kind == "Deployment" && spec != object.end() && spec->is_object()) {
      auto replicas = spec->find("replicas");
      if (replicas != spec->end() && replicas->is_number_integer() &&
          replicas->get<int64_t>() < 0) {
        out.push_back(core::InvalidArgument(
            "Invalid value: " + replicas->dump() + ": must be greater than or equal to 0",
            core::Location{"", "", "spec.replicas"}));
      }
    }
    return out;
  }
};

constexpr const char* kHubHash = "hubhash";
constexpr core::Timestamp kT1{1'800'000'000};
constexpr core::Timestamp kT2{1'800'000'600};

std::string DeploymentManifest(const std::string& ns, const std::string& name, int replicas,
                               const std::string& extra_labels = "") {
  return R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":")" + name +
         R"(","namespace":")" + ns + R"(","labels":{"app":")" + name + "\"" + extra_labels +
         R"(}},"spec":{"replicas":)" + std::to_string(replicas) +
         R"(,"selector":{"matchLabels":{"app":")" + name +
         R"("}},"template":{"metadata":{"labels":{"app":")" + name +
         R"("}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}})";
}

std::string NamespaceManifest(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + name + R"("}})";
}

std::string JobManifest(const std::string& ns, const std::string& name, int parallelism = 1) {
  return R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":")" + name +
         R"(","namespace":")" + ns + R"("},"spec":{"parallelism":)" + std::to_string(parallelism) +
         R"(,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"busybox"}]}}}})";
}

// A JSON array's text from the items' texts (appended piece by piece: GCC 12 warns falsely,
// -Wstringop-overflow, on long chains of string temporaries).
std::string List(std::initializer_list<std::string> items) {
  std::string out = "[";
  for (const std::string& item : items) {
    if (out.size() > 1) out += ",";
    out += item;
  }
  out += "]";
  return out;
}

// A ManifestWork named `name` holding `manifests` (a JSON array's text); `spec_extra` adds
// members to spec ("\"deleteOption\":{...}").
Json Work(const std::string& name, int64_t generation, const std::string& manifests,
          const std::string& spec_extra = "") {
  return Json::parse(R"({"apiVersion":"work.open-cluster-management.io/v1","kind":"ManifestWork",
      "metadata":{"name":")" +
                     name + R"(","namespace":"cluster1","generation":)" +
                     std::to_string(generation) + R"(},
      "spec":{"workload":{"manifests":)" +
                     manifests + "}" + (spec_extra.empty() ? "" : "," + spec_extra) + "}}");
}

std::string Strategy(const std::string& group, const std::string& resource, const std::string& ns,
                     const std::string& name, const std::string& strategy) {
  return R"({"resourceIdentifier":{"group":")" + group + R"(","resource":")" + resource +
         R"(","namespace":")" + ns + R"(","name":")" + name + R"("},"updateStrategy":)" + strategy +
         "}";
}

kube::Resource Deployments() { return {"apps", "v1", "deployments", "Deployment", true}; }
kube::Resource Jobs() { return {"batch", "v1", "jobs", "Job", true}; }
kube::Resource Namespaces() { return {"", "v1", "namespaces", "Namespace", false}; }

class WorkApplierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = store::SqliteStore::Open(dir_.Sub("db"));
    ASSERT_TRUE(opened) << opened.error().ToString();
    store_ = std::move(opened).value();
    RestOptions options;
    options.now = [] { return core::Timestamp{1'800'000'000}; };
    handler_ = std::make_unique<RestHandler>(*store_, feed_, &validator_, options);
    ASSERT_TRUE(handler_->EnsureSystemNamespaces().ok());
    client_ = std::make_unique<kube::Client>(std::make_unique<kube::InProcessTransport>(*handler_));
  }

  WorkApplyResult Apply(const Json& work, const AppliedRecord& previous = {},
                        core::Timestamp now = kT1) {
    ApplyOptions options;
    options.hub_hash = kHubHash;
    options.agent_id = "agent";
    options.now = now;
    auto result = ApplyWork(*client_, work, previous, options);
    EXPECT_TRUE(result) << result.error().ToString();
    return result ? std::move(result).value() : WorkApplyResult{};
  }

  // The work as the hub would hold it after reporting `result`: the next reconcile's input.
  static Json WithStatus(Json work, const WorkApplyResult& result) {
    work["status"] = result.status;
    return work;
  }

  // The live object, or null when the server answers anything but 200.
  Json Live(const kube::Resource& r, const std::string& ns, const std::string& name) {
    auto got = client_->Get(r, ns, name);
    if (!got || got->status != 200) return nullptr;
    return got->Parsed();
  }

  void Create(const kube::Resource& r, const std::string& ns, const std::string& body) {
    auto created = client_->Create(r, ns, Json::parse(body));
    ASSERT_TRUE(created);
    ASSERT_EQ(created->status, 201) << created->body;
  }

  // Writes `status` through the status subresource, as the member's controllers would.
  void SetStatus(const kube::Resource& r, const std::string& ns, const std::string& name,
                 const std::string& status) {
    Json live = Live(r, ns, name);
    ASSERT_TRUE(live.is_object());
    live["status"] = Json::parse(status);
    auto updated = client_->Update(r, ns, name, live, "status");
    ASSERT_TRUE(updated);
    ASSERT_EQ(updated->status, 200) << updated->body;
  }

  static const Json& Manifest(const WorkApplyResult& r, size_t ordinal) {
    return r.status["resourceStatus"]["manifests"][ordinal];
  }
  static Json ManifestCondition(const WorkApplyResult& r, size_t ordinal, const std::string& type) {
    for (const Json& c : Manifest(r, ordinal)["conditions"]) {
      if (c["type"] == type) return c;
    }
    return nullptr;
  }
  static Json WorkCondition(const WorkApplyResult& r, const std::string& type) {
    for (const Json& c : r.status["conditions"]) {
      if (c["type"] == type) return c;
    }
    return nullptr;
  }
  static std::string Rv(const Json& object) {
    return object["metadata"]["resourceVersion"].get<std::string>();
  }

  static std::string Owner(const std::string& work) { return std::string(kHubHash) + "-" + work; }

  store::testing::TempDir dir_;
  std::unique_ptr<store::SqliteStore> store_;
  ChangeFeed feed_;
  NegativeReplicasValidator validator_;
  std::unique_ptr<RestHandler> handler_;
  std::unique_ptr<kube::Client> client_;
};

TEST_F(WorkApplierTest, CreatesManifestsNamespacesFirstAndReportsApplied) {
  // The Namespace comes second in the spec: it is still applied first (kind order), or the
  // Deployment would be refused for a missing namespace.
  const Json work =
      Work("w1", 3, List({DeploymentManifest("ns1", "web", 2), NamespaceManifest("ns1")}));
  WorkApplyResult r = Apply(work);
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  const Json deploy = Live(Deployments(), "ns1", "web");
  ASSERT_TRUE(deploy.is_object());
  EXPECT_EQ(deploy["spec"]["replicas"], 2);
  EXPECT_TRUE(IsMarkedBy(deploy, Owner("w1")));
  const Json ns = Live(Namespaces(), "", "ns1");
  ASSERT_TRUE(ns.is_object());
  EXPECT_TRUE(IsMarkedBy(ns, Owner("w1")));

  ASSERT_EQ(r.status["resourceStatus"]["manifests"].size(), 2u);
  EXPECT_EQ(Manifest(r, 0)["resourceMeta"], Json::parse(R"({"ordinal":0,"group":"apps",
      "version":"v1","kind":"Deployment","resource":"deployments","name":"web","namespace":"ns1"})"));
  EXPECT_EQ(Manifest(r, 1)["resourceMeta"], Json::parse(R"({"ordinal":1,"group":"",
      "version":"v1","kind":"Namespace","resource":"namespaces","name":"ns1","namespace":""})"));
  EXPECT_EQ(Manifest(r, 0)["statusFeedback"], Json::object());
  EXPECT_EQ(ManifestCondition(r, 0, "Applied"), Json::parse(R"({"type":"Applied","status":"True",
      "observedGeneration":3,"lastTransitionTime":"2027-01-15T08:00:00Z",
      "reason":"AppliedManifestComplete","message":"Apply manifest complete"})"));
  EXPECT_EQ(ManifestCondition(r, 0, "Available")["reason"], "ResourceAvailable");
  EXPECT_EQ(ManifestCondition(r, 1, "StatusFeedbackSynced")["reason"], "NoStatusFeedbackSynced");
  EXPECT_EQ(WorkCondition(r, "Applied"), Json::parse(R"({"type":"Applied","status":"True",
      "observedGeneration":3,"lastTransitionTime":"2027-01-15T08:00:00Z",
      "reason":"AppliedManifestWorkComplete","message":"Apply manifest work complete"})"));
  EXPECT_EQ(WorkCondition(r, "Available"), Json::parse(R"({"type":"Available","status":"True",
      "observedGeneration":3,"lastTransitionTime":"2027-01-15T08:00:00Z",
      "reason":"ResourcesAvailable","message":"All resources are available"})"));

  EXPECT_EQ(r.record.Name(), Owner("w1"));
  EXPECT_EQ(r.record.agent_id, "agent");
  ASSERT_EQ(r.record.resources.size(), 2u);
  EXPECT_EQ(r.record.resources[0], (AppliedResource{"", "v1", "namespaces", "", "ns1",
                                                    ns["metadata"]["uid"].get<std::string>()}));
  EXPECT_EQ(r.record.resources[1], (AppliedResource{"apps", "v1", "deployments", "ns1", "web",
                                                    deploy["metadata"]["uid"].get<std::string>()}));
}

TEST_F(WorkApplierTest, UpdateWritesOnlyWhenTheSpecChanges) {
  const std::string ns = NamespaceManifest("ns1");
  Json work = Work("w1", 1, List({ns, DeploymentManifest("ns1", "web", 2)}));
  WorkApplyResult first = Apply(work);
  const std::string rv1 = Rv(Live(Deployments(), "ns1", "web"));
  const std::string ns_rv = Rv(Live(Namespaces(), "", "ns1"));
  // What the member's controllers write: status, and a label of their own.
  SetStatus(Deployments(), "ns1", "web", R"({"replicas":2,"readyReplicas":1})");
  auto labelled = client_->Patch(Deployments(), "ns1", "web", "merge",
                                 R"({"metadata":{"labels":{"team":"ml"}}})");
  ASSERT_TRUE(labelled && labelled->ok());
  const std::string rv2 = Rv(Live(Deployments(), "ns1", "web"));

  // Same spec: no write at all, and the conditions keep their transition times.
  WorkApplyResult again = Apply(WithStatus(work, first), first.record, kT2);
  EXPECT_EQ(Rv(Live(Deployments(), "ns1", "web")), rv2);
  EXPECT_EQ(Rv(Live(Namespaces(), "", "ns1")), ns_rv);
  EXPECT_EQ(WorkCondition(again, "Applied")["lastTransitionTime"], kT1.ToString());
  EXPECT_EQ(ManifestCondition(again, 1, "Available")["lastTransitionTime"], kT1.ToString());
  EXPECT_NE(rv1, rv2);

  // A new generation changes replicas and adds a label; the removal key drops "app".
  Json changed =
      Work("w1", 2, List({ns, DeploymentManifest("ns1", "web", 5, R"(,"tier":"gold","app-":"")")}));
  WorkApplyResult updated = Apply(WithStatus(changed, again), again.record, kT2);
  EXPECT_TRUE(updated.errors.empty());
  const Json live = Live(Deployments(), "ns1", "web");
  EXPECT_EQ(live["spec"]["replicas"], 5);
  EXPECT_EQ(live["metadata"]["labels"], Json::parse(R"({"team":"ml","tier":"gold"})"));
  EXPECT_EQ(live["status"]["readyReplicas"], 1);  // the server's field survives the PUT
  EXPECT_TRUE(IsMarkedBy(live, Owner("w1")));
  // Applied stays True; its observedGeneration moved, so the condition was replaced.
  EXPECT_EQ(ManifestCondition(updated, 1, "Applied")["observedGeneration"], 2);
  EXPECT_EQ(ManifestCondition(updated, 1, "Applied")["lastTransitionTime"], kT2.ToString());
  EXPECT_EQ(WorkCondition(updated, "Applied")["observedGeneration"], 2);
  EXPECT_EQ(WorkCondition(updated, "Applied")["lastTransitionTime"], kT1.ToString());
}

TEST_F(WorkApplierTest, CreateOnlyCreatesButNeverUpdates) {
  Create(Namespaces(), "", NamespaceManifest("ns1"));
  Create(Deployments(), "ns1", DeploymentManifest("ns1", "existing", 1));
  const std::string configs =
      "\"manifestConfigs\":[" +
      Strategy("apps", "deployments", "ns*", "*", R"({"type":"CreateOnly"})") + "]";
  WorkApplyResult r = Apply(
      Work("w1", 1,
           List({DeploymentManifest("ns1", "existing", 5), DeploymentManifest("ns1", "fresh", 3)}),
           configs));
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(ManifestCondition(r, 0, "Applied")["status"], "True");
  const Json existing = Live(Deployments(), "ns1", "existing");
  EXPECT_EQ(existing["spec"]["replicas"], 1);      // never updated
  EXPECT_TRUE(IsMarkedBy(existing, Owner("w1")));  // but marked, as upstream patches its owner
  EXPECT_EQ(Live(Deployments(), "ns1", "fresh")["spec"]["replicas"], 3);
  const std::string rv = Rv(existing);
  Apply(Work("w1", 2, List({DeploymentManifest("ns1", "existing", 7)}), configs), r.record);
  EXPECT_EQ(Rv(Live(Deployments(), "ns1", "existing")), rv);
}

TEST_F(WorkApplierTest, ServerSideApplyConflictsUnlessForced) {
  Create(Namespaces(), "", NamespaceManifest("ns1"));
  // Another field manager applied replicas first.
  kube::PatchOptions theirs;
  theirs.field_manager = "kubectl";
  auto applied = client_->Patch(Deployments(), "ns1", "web", "apply",
                                DeploymentManifest("ns1", "web", 3), theirs);
  ASSERT_TRUE(applied && applied->ok()) << (applied ? applied->body : "");

  const std::string manifests = List({DeploymentManifest("ns1", "web", 5)});
  WorkApplyResult conflict = Apply(Work(
      "w1", 1, manifests,
      "\"manifestConfigs\":[" +
          Strategy("apps", "deployments", "ns1", "web", R"({"type":"ServerSideApply"})") + "]"));
  const Json applied_condition = ManifestCondition(conflict, 0, "Applied");
  EXPECT_EQ(applied_condition["status"], "False");
  EXPECT_EQ(applied_condition["reason"], "AppliedManifestFailed");
  EXPECT_EQ(applied_condition["message"],
            "Failed to apply manifest: Apply failed with 1 conflict: conflict with \"kubectl\": "
            ".spec.replicas");
  EXPECT_EQ(WorkCondition(conflict, "Applied")["status"], "False");
  EXPECT_TRUE(conflict.errors.empty());  // a conflict is no reason to retry early
  EXPECT_EQ(Live(Deployments(), "ns1", "web")["spec"]["replicas"], 3);

  WorkApplyResult forced = Apply(Work(
      "w1", 2, manifests,
      "\"manifestConfigs\":[" +
          Strategy(
              "apps", "deployments", "ns1", "web",
              R"({"type":"ServerSideApply","serverSideApply":{"force":true,"fieldManager":"work-agent-b"}})") +
          "]"));
  EXPECT_EQ(ManifestCondition(forced, 0, "Applied")["status"], "True");
  const Json live = Live(Deployments(), "ns1", "web");
  EXPECT_EQ(live["spec"]["replicas"], 5);
  EXPECT_TRUE(IsMarkedBy(live, Owner("w1")));
  EXPECT_TRUE(live["metadata"]["annotations"].contains("berth.dev/applied-work-agent-b"));
  ASSERT_EQ(forced.record.resources.size(), 1u);
  EXPECT_EQ(forced.record.resources[0].uid, live["metadata"]["uid"]);
}

TEST_F(WorkApplierTest, ServerSideApplyIgnoresFieldsOnSpokePresent) {
  Create(Namespaces(), "", NamespaceManifest("ns1"));
  const std::string configs =
      "\"manifestConfigs\":[" +
      Strategy("apps", "deployments", "ns1", "web",
               R"({"type":"ServerSideApply","serverSideApply":{"ignoreFields":[
                   {"condition":"OnSpokePresent","jsonPaths":[".spec.replicas"]}]}})") +
      "]";
  WorkApplyResult created =
      Apply(Work("w1", 1, List({DeploymentManifest("ns1", "web", 2)}), configs));
  EXPECT_EQ(ManifestCondition(created, 0, "Applied")["status"], "True");
  Json live = Live(Deployments(), "ns1", "web");
  EXPECT_EQ(live["spec"]["replicas"], 2);  // a new object gets the ignored field
  EXPECT_FALSE(live["metadata"]["annotations"]["open-cluster-management.io/config-spec-hash"]
                   .get<std::string>()
                   .empty());
  // An autoscaler changes replicas on the spoke; a new replicas in the manifest is ignored.
  auto scaled = client_->Patch(Deployments(), "ns1", "web", "merge", R"({"spec":{"replicas":9}})");
  ASSERT_TRUE(scaled && scaled->ok());
  const std::string rv = Rv(Live(Deployments(), "ns1", "web"));
  WorkApplyResult again =
      Apply(Work("w1", 2, List({DeploymentManifest("ns1", "web", 4)}), configs), created.record);
  EXPECT_EQ(ManifestCondition(again, 0, "Applied")["status"], "True");
  live = Live(Deployments(), "ns1", "web");
  EXPECT_EQ(live["spec"]["replicas"], 9);
  EXPECT_EQ(Rv(live), rv);  // same hash: no apply at all
}

TEST_F(WorkApplierTest, ReadOnlyNeverWritesButReadsStatus) {
  Create(Namespaces(), "", NamespaceManifest("ns1"));
  const std::string configs =
      "\"manifestConfigs\":[" +
      Strategy("apps", "deployments", "ns1", "*", R"({"type":"ReadOnly"})") + "," +
      R"({"resourceIdentifier":{"group":"apps","resource":"deployments","namespace":"ns1","name":"*"},
          "feedbackRules":[{"type":"WellKnownStatus"}]})" +
      "]";
  Create(Deployments(), "ns1", DeploymentManifest("ns1", "present", 1));
  SetStatus(Deployments(), "ns1", "present",
            R"({"replicas":1,"readyReplicas":1,"availableReplicas":1})");
  const std::string rv = Rv(Live(Deployments(), "ns1", "present"));
  WorkApplyResult r = Apply(
      Work("w1", 1,
           List({DeploymentManifest("ns1", "present", 4), DeploymentManifest("ns1", "absent", 4)}),
           configs));
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(Rv(Live(Deployments(), "ns1", "present")), rv);  // untouched, unmarked
  EXPECT_FALSE(IsMarkedBy(Live(Deployments(), "ns1", "present"), Owner("w1")));
  EXPECT_TRUE(Live(Deployments(), "ns1", "absent").is_null());
  EXPECT_EQ(ManifestCondition(r, 0, "Applied")["status"], "True");
  EXPECT_EQ(ManifestCondition(r, 1, "Applied")["status"], "True");
  EXPECT_EQ(ManifestCondition(r, 0, "Available")["status"], "True");
  EXPECT_EQ(ManifestCondition(r, 1, "Available"), Json::parse(R"({"type":"Available",
      "status":"False","lastTransitionTime":"2027-01-15T08:00:00Z",
      "reason":"ResourceNotAvailable","message":"Resource is not available"})"));
  EXPECT_EQ(Manifest(r, 0)["statusFeedback"]["values"], Json::parse(R"([
      {"name":"ReadyReplicas","fieldValue":{"type":"Integer","integer":1}},
      {"name":"Replicas","fieldValue":{"type":"Integer","integer":1}},
      {"name":"AvailableReplicas","fieldValue":{"type":"Integer","integer":1}}])"));
  EXPECT_EQ(WorkCondition(r, "Available")["message"], "1 of 2 resources are not available");
  // The record holds what exists, but deleting the work leaves the unmarked object alone.
  ASSERT_EQ(r.record.resources.size(), 1u);
  WorkDeleteResult removed = DeleteWork(*client_, r.record, nullptr);
  EXPECT_TRUE(removed.done());
  EXPECT_EQ(removed.deleted, 0);
  EXPECT_TRUE(Live(Deployments(), "ns1", "present").is_object());
}

TEST_F(WorkApplierTest, RefusedManifestKeepsTheServersMessageAndTheOthersApply) {
  WorkApplyResult r =
      Apply(Work("w1", 4,
                 List({NamespaceManifest("ns1"), DeploymentManifest("ns1", "bad", -1),
                       JobManifest("ns1", "train"), DeploymentManifest("nope", "orphan", 1)})));
  EXPECT_EQ(ManifestCondition(r, 1, "Applied"), Json::parse(R"({"type":"Applied","status":"False",
      "observedGeneration":4,"lastTransitionTime":"2027-01-15T08:00:00Z",
      "reason":"AppliedManifestFailed",
      "message":"Failed to apply manifest: Deployment.apps \"bad\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"})"));
  EXPECT_EQ(ManifestCondition(r, 3, "Applied")["message"],
            "Failed to apply manifest: namespaces \"nope\" not found");
  EXPECT_EQ(ManifestCondition(r, 0, "Applied")["status"], "True");
  EXPECT_EQ(ManifestCondition(r, 2, "Applied")["status"], "True");
  EXPECT_TRUE(Live(Jobs(), "ns1", "train").is_object());
  EXPECT_EQ(ManifestCondition(r, 1, "Available")["status"], "False");
  EXPECT_EQ(WorkCondition(r, "Applied")["reason"], "AppliedManifestWorkFailed");
  EXPECT_EQ(WorkCondition(r, "Applied")["message"], "Failed to apply manifest work");
  EXPECT_EQ(WorkCondition(r, "Available")["message"], "2 of 4 resources are not available");
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].rfind("manifest 1 (Deployment ns1/bad): Deployment.apps", 0), 0u)
      << r.errors[0];
  ASSERT_EQ(r.record.resources.size(), 2u);  // the namespace and the Job
}

TEST_F(WorkApplierTest, UnknownKindIsReportedAsUpstreamWordsIt) {
  // A Secret: a kind berth's table does not hold (ConfigMap joined it for berth doctor).
  const std::string config_map =
      R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"cfg","namespace":"ns1"},"data":{"a":"Yg=="}})";
  WorkApplyResult r = Apply(
      Work("w1", 1,
           List({config_map, NamespaceManifest("ns1"), R"({"apiVersion":"v1"})", R"("text")"})));
  EXPECT_EQ(Manifest(r, 0)["resourceMeta"], Json::parse(R"({"ordinal":0,"group":"","version":"v1",
      "kind":"Secret","resource":"","name":"cfg","namespace":"ns1"})"));
  EXPECT_EQ(ManifestCondition(r, 0, "Applied")["message"],
            "Failed to apply manifest: the server doesn't have a resource type \"Secret\"");
  EXPECT_EQ(ManifestCondition(r, 0, "Available"), Json::parse(R"({"type":"Available",
      "status":"Unknown","lastTransitionTime":"2027-01-15T08:00:00Z",
      "reason":"IncompleteResourceMeta","message":"Resource meta is incomplete"})"));
  EXPECT_TRUE(ManifestCondition(r, 0, "StatusFeedbackSynced").is_null());
  EXPECT_EQ(ManifestCondition(r, 1, "Applied")["status"], "True");
  EXPECT_EQ(ManifestCondition(r, 2, "Applied")["message"],
            "Failed to apply manifest: Object 'Kind' is missing in '{\"apiVersion\":\"v1\"}'");
  EXPECT_EQ(ManifestCondition(r, 3, "Applied")["message"],
            "Failed to apply manifest: the manifest is not a JSON object");
  EXPECT_EQ(Manifest(r, 3)["resourceMeta"]["ordinal"], 3);
  EXPECT_EQ(WorkCondition(r, "Available")["status"], "Unknown");
  EXPECT_EQ(WorkCondition(r, "Available")["message"], "3 of 4 resources have unknown status");
  ASSERT_EQ(r.record.resources.size(), 1u);  // the namespace is recorded despite the others
  EXPECT_EQ(r.record.resources[0].resource, "namespaces");
}

TEST_F(WorkApplierTest, FeedbackAndWellKnownCompleteReadFromTheLiveObject) {
  const std::string configs = R"("manifestConfigs":[
      {"resourceIdentifier":{"group":"batch","resource":"jobs","namespace":"ns1","name":"train"},
       "feedbackRules":[{"type":"WellKnownStatus"},
                        {"type":"JSONPaths","jsonPaths":[{"name":"failed","path":".status.conditions[?(@.type==\"Failed\")].status"}]}],
       "conditionRules":[{"type":"WellKnownConditions","condition":"Complete"}]}])";
  const std::string manifests = List({NamespaceManifest("ns1"), JobManifest("ns1", "train")});
  Json work = Work("w1", 1, manifests, configs);
  WorkApplyResult running = Apply(work);
  EXPECT_EQ(Manifest(running, 1)["statusFeedback"], Json::object());  // no status yet
  EXPECT_EQ(ManifestCondition(running, 1, "StatusFeedbackSynced")["status"], "True");
  EXPECT_EQ(ManifestCondition(running, 1, "Complete")["status"], "False");
  EXPECT_EQ(ManifestCondition(running, 1, "Complete")["message"], "no such key: status");
  EXPECT_EQ(WorkCondition(running, "Complete")["status"], "False");

  SetStatus(Jobs(), "ns1", "train",
            R"({"succeeded":1,"conditions":[{"type":"Complete","status":"True"}]})");
  WorkApplyResult done = Apply(WithStatus(work, running), running.record, kT2);
  EXPECT_EQ(Manifest(done, 1)["statusFeedback"]["values"], Json::parse(R"([
      {"name":"JobComplete","fieldValue":{"type":"String","string":"True"}},
      {"name":"JobSucceeded","fieldValue":{"type":"Integer","integer":1}}])"));
  // New values restart StatusFeedbackSynced's clock although it stays True.
  EXPECT_EQ(ManifestCondition(done, 1, "StatusFeedbackSynced")["lastTransitionTime"],
            kT2.ToString());
  EXPECT_EQ(ManifestCondition(done, 1, "Complete"), Json::parse(R"({"type":"Complete",
      "status":"True","observedGeneration":1,"lastTransitionTime":"2027-01-15T08:10:00Z",
      "reason":"ConditionRuleEvaluated","message":"Job is finished"})"));
  EXPECT_EQ(WorkCondition(done, "Complete"), Json::parse(R"({"type":"Complete","status":"True",
      "observedGeneration":1,"lastTransitionTime":"2027-01-15T08:10:00Z",
      "reason":"ConditionRulesAggregated","message":"Job is finished"})"));

  // A Complete work is not applied again, even when its spec changes.
  const std::string rv = Rv(Live(Jobs(), "ns1", "train"));
  Json changed =
      Work("w1", 2, List({NamespaceManifest("ns1"), JobManifest("ns1", "train", 4)}), configs);
  WorkApplyResult skipped = Apply(WithStatus(changed, done), done.record, kT2);
  EXPECT_TRUE(skipped.complete);
  EXPECT_EQ(Rv(Live(Jobs(), "ns1", "train")), rv);
  EXPECT_EQ(skipped.record.resources, done.record.resources);
  EXPECT_EQ(ManifestCondition(skipped, 1, "Available")["status"], "True");
}

TEST_F(WorkApplierTest, CompleteManifestIsNotReapplied) {
  const std::string configs = R"("manifestConfigs":[
      {"resourceIdentifier":{"group":"batch","resource":"jobs","namespace":"ns1","name":"*"},
       "conditionRules":[{"type":"WellKnownConditions","condition":"Complete"}]}])";
  Json work = Work(
      "w1", 1, List({NamespaceManifest("ns1"), JobManifest("ns1", "a"), JobManifest("ns1", "b")}),
      configs);
  WorkApplyResult first = Apply(work);
  SetStatus(Jobs(), "ns1", "a", R"({"conditions":[{"type":"Failed","status":"True"}]})");
  WorkApplyResult second = Apply(WithStatus(work, first), first.record);
  EXPECT_EQ(ManifestCondition(second, 1, "Complete")["status"], "True");
  EXPECT_EQ(WorkCondition(second, "Complete")["status"], "False");  // b is still running
  const std::string rv_a = Rv(Live(Jobs(), "ns1", "a"));
  Json changed =
      Work("w1", 2,
           List({NamespaceManifest("ns1"), JobManifest("ns1", "a", 3), JobManifest("ns1", "b", 3)}),
           configs);
  WorkApplyResult third = Apply(WithStatus(changed, second), second.record);
  EXPECT_EQ(Rv(Live(Jobs(), "ns1", "a")), rv_a);  // Complete: left alone
  EXPECT_EQ(Live(Jobs(), "ns1", "b")["spec"]["parallelism"], 3);
  EXPECT_EQ(ManifestCondition(third, 1, "Applied")["status"], "True");
}

TEST_F(WorkApplierTest, DroppedManifestIsDeletedUnlessOrphaned) {
  const std::string ns = NamespaceManifest("ns1");
  Json work = Work(
      "w1", 1, List({ns, DeploymentManifest("ns1", "a", 1), DeploymentManifest("ns1", "b", 1)}));
  WorkApplyResult first = Apply(work);
  ASSERT_EQ(first.record.resources.size(), 3u);
  Json next = Work("w1", 2, List({ns, DeploymentManifest("ns1", "a", 1)}));
  WorkApplyResult second = Apply(WithStatus(next, first), first.record);
  EXPECT_TRUE(second.errors.empty());
  EXPECT_FALSE(second.pending_deletions);
  EXPECT_TRUE(Live(Deployments(), "ns1", "b").is_null());
  EXPECT_TRUE(Live(Deployments(), "ns1", "a").is_object());
  ASSERT_EQ(second.record.resources.size(), 2u);
  EXPECT_EQ(second.status["resourceStatus"]["manifests"].size(), 2u);

  // Orphaned at apply time: the mark is not written, so dropping it deletes nothing.
  const std::string orphan = R"("deleteOption":{"propagationPolicy":"SelectivelyOrphan",
      "selectivelyOrphans":{"orphaningRules":[{"group":"apps","resource":"deployments","namespace":"ns1","name":"c"}]}})";
  Json with_c = Work(
      "w1", 3, List({ns, DeploymentManifest("ns1", "a", 1), DeploymentManifest("ns1", "c", 1)}),
      orphan);
  WorkApplyResult third = Apply(WithStatus(with_c, second), second.record);
  EXPECT_FALSE(IsMarkedBy(Live(Deployments(), "ns1", "c"), Owner("w1")));
  EXPECT_TRUE(IsMarkedBy(Live(Deployments(), "ns1", "a"), Owner("w1")));
  WorkApplyResult fourth =
      Apply(WithStatus(Work("w1", 4, List({ns}), orphan), third), third.record);
  EXPECT_TRUE(Live(Deployments(), "ns1", "c").is_object());
  EXPECT_TRUE(Live(Deployments(), "ns1", "a").is_null());
  ASSERT_EQ(fourth.record.resources.size(), 1u);
}

TEST_F(WorkApplierTest, RecreatedResourceIsNeverDeleted) {
  // Someone deletes `name` and makes their own, copying the annotations (so the mark too).
  auto recreate = [&](const std::string& name) {
    Json copy = Live(Deployments(), "default", name);
    auto removed = client_->Delete(Deployments(), "default", name);
    ASSERT_TRUE(removed && removed->ok());
    copy["metadata"].erase("uid");
    copy["metadata"].erase("resourceVersion");
    auto recreated = client_->Create(Deployments(), "default", copy);
    ASSERT_TRUE(recreated && recreated->status == 201);
    ASSERT_TRUE(IsMarkedBy(Live(Deployments(), "default", name), Owner("w1")));
  };
  WorkApplyResult first =
      Apply(Work("w1", 1,
                 List({DeploymentManifest("default", "web", 1),
                       DeploymentManifest("default", "api", 1), JobManifest("default", "j")})));
  ASSERT_EQ(first.record.resources.size(), 3u);
  recreate("web");
  recreate("api");

  // The work drops "web": its uid is not the recorded one, so it stays and is forgotten.
  WorkApplyResult second = Apply(
      Work("w1", 2, List({DeploymentManifest("default", "api", 1), JobManifest("default", "j")})),
      first.record);
  EXPECT_TRUE(Live(Deployments(), "default", "web").is_object());
  ASSERT_EQ(second.record.resources.size(), 2u);
  EXPECT_EQ(second.record.resources[0].name, "api");

  // DeleteWork with the stale record: the recreated "api" survives, the Job goes.
  WorkDeleteResult gone = DeleteWork(*client_, first.record, nullptr);
  EXPECT_TRUE(gone.done());
  EXPECT_EQ(gone.deleted, 1);
  EXPECT_TRUE(Live(Deployments(), "default", "api").is_object());
  EXPECT_TRUE(Live(Jobs(), "default", "j").is_null());
}

TEST_F(WorkApplierTest, DeleteWorkHonoursEachDeleteOption) {
  const std::string manifests = List({NamespaceManifest("keep"), DeploymentManifest("keep", "a", 1),
                                      DeploymentManifest("keep", "b", 1)});
  // Foreground (default): everything marked goes.
  {
    WorkApplyResult r = Apply(Work(
        "fg", 1, List({DeploymentManifest("default", "fg-a", 1), JobManifest("default", "fg-j")})));
    ASSERT_EQ(r.record.resources.size(), 2u);
    WorkDeleteResult d =
        DeleteWork(*client_, r.record, Json::parse(R"({"propagationPolicy":"Foreground"})"));
    EXPECT_TRUE(d.done());
    EXPECT_TRUE(d.errors.empty());
    EXPECT_EQ(d.deleted, 2);
    EXPECT_TRUE(Live(Deployments(), "default", "fg-a").is_null());
    EXPECT_TRUE(Live(Jobs(), "default", "fg-j").is_null());
  }
  // Orphan: nothing is marked and nothing is deleted.
  {
    const std::string orphan = R"("deleteOption":{"propagationPolicy":"Orphan"})";
    WorkApplyResult r = Apply(Work("or", 1, manifests, orphan));
    EXPECT_FALSE(IsMarkedBy(Live(Deployments(), "keep", "a"), Owner("or")));
    WorkDeleteResult d =
        DeleteWork(*client_, r.record, Json::parse(R"({"propagationPolicy":"Orphan"})"));
    EXPECT_TRUE(d.done());
    EXPECT_EQ(d.deleted, 0);
    EXPECT_TRUE(Live(Deployments(), "keep", "a").is_object());
    EXPECT_TRUE(Live(Namespaces(), "", "keep").is_object());
  }
  // SelectivelyOrphan: only the named resource stays.
  {
    const std::string selective = R"({"propagationPolicy":"SelectivelyOrphan","selectivelyOrphans":{
        "orphaningRules":[{"group":"apps","resource":"deployments","namespace":"default","name":"so-b"}]}})";
    WorkApplyResult r = Apply(Work(
        "so", 1,
        List({DeploymentManifest("default", "so-a", 1), DeploymentManifest("default", "so-b", 1)}),
        "\"deleteOption\":" + selective));
    WorkDeleteResult d = DeleteWork(*client_, r.record, Json::parse(selective));
    EXPECT_TRUE(d.done());
    EXPECT_EQ(d.deleted, 1);
    EXPECT_TRUE(Live(Deployments(), "default", "so-a").is_null());
    EXPECT_TRUE(Live(Deployments(), "default", "so-b").is_object());
  }
}

TEST_F(WorkApplierTest, SharedResourceLosesOnlyTheDeletedWorksMark) {
  const std::string shared = NamespaceManifest("shared");
  WorkApplyResult a = Apply(Work("wa", 1, List({shared})));
  WorkApplyResult b = Apply(Work("wb", 1, List({shared})));
  EXPECT_EQ(MarkedOwners(Live(Namespaces(), "", "shared")),
            (std::vector<std::string>{Owner("wa"), Owner("wb")}));
  WorkDeleteResult da = DeleteWork(*client_, a.record, nullptr);
  EXPECT_TRUE(da.done());
  EXPECT_EQ(da.deleted, 0);
  EXPECT_EQ(MarkedOwners(Live(Namespaces(), "", "shared")), std::vector<std::string>{Owner("wb")});
  WorkDeleteResult db = DeleteWork(*client_, b.record, nullptr);
  EXPECT_EQ(db.deleted, 1);
  EXPECT_TRUE(Live(Namespaces(), "", "shared").is_null());
}

TEST_F(WorkApplierTest, FinalizerHeldDeletionStaysPending) {
  WorkApplyResult r = Apply(Work("w1", 1, List({JobManifest("default", "held")})));
  auto patched = client_->Patch(Jobs(), "default", "held", "merge",
                                R"({"metadata":{"finalizers":["example.com/hold"]}})");
  ASSERT_TRUE(patched && patched->ok());
  WorkDeleteResult first = DeleteWork(*client_, r.record, nullptr);
  EXPECT_FALSE(first.done());
  EXPECT_EQ(first.deleted, 1);
  WorkDeleteResult still = DeleteWork(*client_, first.record, nullptr);
  EXPECT_FALSE(still.done());
  EXPECT_EQ(still.deleted, 0);  // deletionTimestamp set: waited on, not deleted again
  auto released =
      client_->Patch(Jobs(), "default", "held", "merge", R"({"metadata":{"finalizers":null}})");
  ASSERT_TRUE(released && released->ok());
  EXPECT_TRUE(DeleteWork(*client_, still.record, nullptr).done());
}

// A member cluster that does not answer at all.
class SilentTransport : public kube::Transport {
 public:
  core::Result<kube::Reply> Send(const kube::Request&) override {
    return core::Error(core::ErrorCode::kUnavailable, "connection refused");
  }
  core::Result<int> Stream(const kube::Request&,
                           const std::function<bool(std::string_view)>&) override {
    return core::Error(core::ErrorCode::kUnavailable, "connection refused");
  }
};

// The member API server, except that the first `conflicts` writes of `method` answer 409 as
// a write racing another would; counts every request of that method.
class RacingTransport : public kube::Transport {
 public:
  RacingTransport(RestHandler& handler, std::string method, int conflicts)
      : inner_(handler), method_(std::move(method)), conflicts_(conflicts) {}
  core::Result<kube::Reply> Send(const kube::Request& request) override {
    if (request.method != method_) return inner_.Send(request);
    ++calls;
    if (conflicts_ > 0) {
      --conflicts_;
      kube::Reply reply;
      reply.status = 409;
      reply.body = R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Conflict",
          "message":"the object has been modified; please apply your changes to the latest version and try again","code":409})";
      return reply;
    }
    return inner_.Send(request);
  }
  core::Result<int> Stream(const kube::Request& request,
                           const std::function<bool(std::string_view)>& on_line) override {
    return inner_.Stream(request, on_line);
  }
  int calls = 0;

 private:
  kube::InProcessTransport inner_;
  std::string method_;
  int conflicts_;
};

TEST_F(WorkApplierTest, ConflictingUpdatesAreRetriedButApplyConflictsAreNot) {
  Apply(Work("w1", 1, List({DeploymentManifest("default", "web", 1)})));
  auto racing = std::make_unique<RacingTransport>(*handler_, "PUT", 2);
  RacingTransport* puts = racing.get();
  kube::Client client(std::move(racing));
  ApplyOptions options;
  options.hub_hash = kHubHash;
  auto r = ApplyWork(client, Work("w1", 2, List({DeploymentManifest("default", "web", 4)})), {},
                     options);
  ASSERT_TRUE(r);
  EXPECT_EQ(puts->calls, 3);  // two conflicts, then the write
  EXPECT_EQ(ManifestCondition(*r, 0, "Applied")["status"], "True");
  EXPECT_EQ(Live(Deployments(), "default", "web")["spec"]["replicas"], 4);

  // Four conflicts exhaust the attempts: the last answer is the condition's message.
  auto always = std::make_unique<RacingTransport>(*handler_, "PUT", 100);
  RacingTransport* always_puts = always.get();
  kube::Client stuck(std::move(always));
  r = ApplyWork(stuck, Work("w1", 3, List({DeploymentManifest("default", "web", 6)})), {}, options);
  ASSERT_TRUE(r);
  EXPECT_EQ(always_puts->calls, 4);
  EXPECT_EQ(ManifestCondition(*r, 0, "Applied")["message"],
            "Failed to apply manifest: the object has been modified; please apply your changes to "
            "the latest version and try again");
  EXPECT_EQ(r->errors.size(), 1u);

  // A server-side apply conflict is another manager's field: asking again cannot help.
  auto patches = std::make_unique<RacingTransport>(*handler_, "PATCH", 100);
  RacingTransport* patch_calls = patches.get();
  kube::Client ssa(std::move(patches));
  r = ApplyWork(
      ssa,
      Work("w1", 4, List({DeploymentManifest("default", "web", 6)}),
           "\"manifestConfigs\":[" +
               Strategy("apps", "deployments", "default", "web", R"({"type":"ServerSideApply"})") +
               "]"),
      {}, options);
  ASSERT_TRUE(r);
  EXPECT_EQ(patch_calls->calls, 1);
  EXPECT_EQ(ManifestCondition(*r, 0, "Applied")["status"], "False");
  EXPECT_TRUE(r->errors.empty());
}

TEST_F(WorkApplierTest, UnreachableClusterKeepsTheRecord) {
  WorkApplyResult first = Apply(Work("w1", 1, List({JobManifest("default", "j")})));
  ASSERT_EQ(first.record.resources.size(), 1u);
  kube::Client silent(std::make_unique<SilentTransport>());
  ApplyOptions options;
  options.hub_hash = kHubHash;
  options.now = kT2;
  // The Job is dropped while the cluster is unreachable: nothing is forgotten or deleted.
  auto r = ApplyWork(silent, Work("w1", 2, List({DeploymentManifest("default", "web", 1)})),
                     first.record, options);
  ASSERT_TRUE(r);
  EXPECT_EQ(ManifestCondition(*r, 0, "Applied")["message"],
            "Failed to apply manifest: connection refused");
  EXPECT_EQ(ManifestCondition(*r, 0, "Available")["reason"], "FetchingResourceFailed");
  EXPECT_EQ(ManifestCondition(*r, 0, "Available")["message"],
            "Failed to fetch resource: connection refused");
  EXPECT_EQ(r->record.resources, first.record.resources);
  EXPECT_FALSE(r->errors.empty());
  EXPECT_TRUE(Live(Jobs(), "default", "j").is_object());
  WorkDeleteResult d = DeleteWork(silent, first.record, nullptr);
  EXPECT_FALSE(d.done());
  EXPECT_EQ(d.record.resources, first.record.resources);
  ASSERT_EQ(d.errors.size(), 1u);
  EXPECT_EQ(
      d.errors[0],
      "failed to get resource batch/v1, Resource=jobs with key default/j: connection refused");
}

TEST_F(WorkApplierTest, RefusesAWorkWithoutNameOrManifestList) {
  ApplyOptions options;
  EXPECT_FALSE(ApplyWork(*client_, Json::array(), {}, options));
  EXPECT_FALSE(ApplyWork(*client_, Json::parse(R"({"metadata":{}})"), {}, options));
  auto bad = ApplyWork(*client_, Json::parse(R"({"metadata":{"name":"w"},
      "spec":{"workload":{"manifests":{}}}})"),
                       {}, options);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().location().field, "spec.workload.manifests");
  // No manifests ever: no Applied condition, so no status at all, nothing recorded.
  auto empty =
      ApplyWork(*client_, Json::parse(R"({"metadata":{"name":"w"},"spec":{}})"), {}, options);
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->status["conditions"], Json::array());
  EXPECT_TRUE(empty->record.resources.empty());
  // A work whose manifests all went: Applied stays from before, Available turns Unknown and
  // the dropped resource is deleted.
  WorkApplyResult before = Apply(Work("w2", 1, List({JobManifest("default", "j")})));
  WorkApplyResult after = Apply(WithStatus(Work("w2", 2, "[]"), before), before.record, kT2);
  EXPECT_EQ(WorkCondition(after, "Applied")["status"], "True");
  EXPECT_EQ(WorkCondition(after, "Available")["message"], "cannot get any available resource ");
  EXPECT_EQ(WorkCondition(after, "Available")["observedGeneration"], 2);
  EXPECT_TRUE(after.status["resourceStatus"]["manifests"].empty());
  EXPECT_TRUE(after.record.resources.empty());
  EXPECT_TRUE(Live(Jobs(), "default", "j").is_null());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server::work
