// Server-side printing: the columns kubectl prints for each kind (upstream's CRD printer
// columns and kubectl's built-in printers) and apimachinery's HumanDuration cases.
#include "server/api/table.h"

#include <gtest/gtest.h>

namespace berth::server {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

const model::KindInfo& Kind(std::string_view group, std::string_view kind) {
  const model::KindInfo* k = model::FindKind(group, kind);
  EXPECT_NE(k, nullptr);
  return *k;
}

TableOptions Opts() {
  TableOptions o;
  o.now = core::Timestamp::Parse("2026-01-01T01:00:00Z").value();
  return o;
}

std::vector<std::string> Names(const Json& table) {
  std::vector<std::string> out;
  for (const Json& c : table["columnDefinitions"]) out.push_back(c["name"]);
  return out;
}

TEST(TableTest, HumanDurationAsApimachinery) {
  const std::pair<int64_t, std::string> cases[] = {
      {-5, "<invalid>"},     {-1, "0s"},        {0, "0s"},         {1, "1s"},
      {70, "70s"},           {119, "119s"},     {120, "2m"},       {190, "3m10s"},
      {599, "9m59s"},        {600, "10m"},      {70 * 60, "70m"},  {3 * 3600, "3h"},
      {3 * 3600 + 20 * 60, "3h20m"}, {47 * 3600, "47h"}, {49 * 3600, "2d1h"},
      {(8 * 24 + 2) * 3600, "8d"},   {367 * 24 * 3600, "367d"},
      {(365 * 2 * 24 + 25) * 3600, "2y1d"}, {(365 * 8 * 24 + 2) * 3600, "8y"},
  };
  for (const auto& [s, want] : cases) EXPECT_EQ(HumanDuration(s), want) << s;
}

TEST(TableTest, JsonPathSubset) {
  const Json o = Json::parse(R"({"status":{"conditions":[{"type":"QuotaReserved","status":"True"},
      {"type":"Admitted","status":"False"}]},"spec":{"c":[{"url":"a"},{"url":"b"}],
      "m":{"x.y":3}}})");
  auto r = EvalJsonPath(o, ".status.conditions[?(@.type=='Admitted')].status");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(*r[0], "False");
  r = EvalJsonPath(o, R"(.status.conditions[?(@.type=="QuotaReserved")].status)");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(*r[0], "True");
  EXPECT_EQ(EvalJsonPath(o, ".spec.c[*].url").size(), 2u);
  EXPECT_EQ(*EvalJsonPath(o, ".spec.c[1].url")[0], "b");
  EXPECT_EQ(*EvalJsonPath(o, "{.spec.m['x.y']}")[0], 3);
  EXPECT_TRUE(EvalJsonPath(o, ".spec.c[5].url").empty());
  EXPECT_TRUE(EvalJsonPath(o, ".status.conditions[?(@.type=='Finished')].status").empty());
  EXPECT_TRUE(EvalJsonPath(o, "spec").empty());
  EXPECT_TRUE(EvalJsonPath(o, ".spec..c").empty());
}

TEST(TableTest, WorkloadColumnsAsKueuePrintsThem) {
  const Json wl = Json::parse(R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload",
      "metadata":{"name":"job-a","namespace":"team-a","creationTimestamp":"2026-01-01T00:55:00Z",
      "resourceVersion":"7","uid":"u1"},
      "spec":{"queueName":"lq"},
      "status":{"admission":{"clusterQueue":"cq"},"conditions":[
        {"type":"QuotaReserved","status":"True"},{"type":"Admitted","status":"True"}]}})");
  const Json pending = Json::parse(R"({"metadata":{"name":"job-b","namespace":"team-a"},
      "spec":{"queueName":"lq"}})");
  const std::vector<Json> objects{wl, pending};
  TableOptions opts = Opts();
  opts.resource_version = "42";
  const Json t = BuildTable(Kind("kueue.x-k8s.io", "Workload"), "v1beta2", objects, opts);
  EXPECT_EQ(t["kind"], "Table");
  EXPECT_EQ(t["apiVersion"], "meta.k8s.io/v1");
  EXPECT_EQ(t["metadata"]["resourceVersion"], "42");
  EXPECT_EQ(Names(t), (std::vector<std::string>{"Name", "Queue", "Reserved in", "Admitted",
                                                "Finished", "Age"}));
  EXPECT_EQ(t["columnDefinitions"][0]["format"], "name");
  EXPECT_EQ(t["columnDefinitions"][5]["type"], "date");
  EXPECT_EQ(t["rows"][0]["cells"].dump(), R"(["job-a","lq","cq","True",null,"5m"])");
  EXPECT_EQ(t["rows"][1]["cells"].dump(), R"(["job-b","lq",null,null,null,null])");
  const Json& object = t["rows"][0]["object"];
  EXPECT_EQ(object["kind"], "PartialObjectMetadata");
  EXPECT_EQ(object["apiVersion"], "meta.k8s.io/v1");
  EXPECT_EQ(object["metadata"]["uid"], "u1");
  EXPECT_FALSE(object.contains("spec"));
}

TEST(TableTest, ClusterQueueCohortPathPerVersion) {
  const Json v2 = Json::parse(R"({"metadata":{"name":"cq"},"spec":{"cohortName":"all",
      "queueingStrategy":"BestEffortFIFO"},"status":{"pendingWorkloads":3,"admittedWorkloads":2}})");
  const Json v1 = Json::parse(R"({"metadata":{"name":"cq"},"spec":{"cohort":"all"},
      "status":{"pendingWorkloads":3.0}})");
  const auto& cq = Kind("kueue.x-k8s.io", "ClusterQueue");
  const Json t2 = BuildTable(cq, "v1beta2", std::vector<Json>{v2}, Opts());
  EXPECT_EQ(Names(t2), (std::vector<std::string>{"Name", "Cohort", "Strategy", "Pending Workloads",
                                                 "Admitted Workloads"}));
  EXPECT_EQ(t2["rows"][0]["cells"].dump(), R"(["cq","all","BestEffortFIFO",3,2])");
  EXPECT_EQ(t2["columnDefinitions"][2]["priority"], 1);
  EXPECT_EQ(t2["columnDefinitions"][3]["priority"], 0);
  EXPECT_EQ(t2["columnDefinitions"][4]["priority"], 1);
  const Json t1 = BuildTable(cq, "v1beta1", std::vector<Json>{v1}, Opts());
  EXPECT_EQ(t1["rows"][0]["cells"].dump(), R"(["cq","all",null,3,null])");
}

TEST(TableTest, LocalQueueAndOcmColumns) {
  const Json lq = Json::parse(R"({"metadata":{"name":"lq"},"spec":{"clusterQueue":"cq"},
      "status":{"pendingWorkloads":1,"admittedWorkloads":0}})");
  const Json t = BuildTable(Kind("kueue.x-k8s.io", "LocalQueue"), "v1beta2", std::vector<Json>{lq},
                            Opts());
  EXPECT_EQ(t["rows"][0]["cells"].dump(), R"(["lq","cq",1,0])");

  const Json mc = Json::parse(R"({"metadata":{"name":"c1","creationTimestamp":"2025-12-30T01:00:00Z"},
      "spec":{"hubAcceptsClient":true,"managedClusterClientConfigs":[{"url":"https://a"},{"url":"https://b"}]},
      "status":{"conditions":[{"type":"ManagedClusterJoined","status":"True"},
        {"type":"ManagedClusterConditionAvailable","status":"Unknown"}]}})");
  const Json tm = BuildTable(Kind("cluster.open-cluster-management.io", "ManagedCluster"), "v1",
                             std::vector<Json>{mc}, Opts());
  EXPECT_EQ(Names(tm), (std::vector<std::string>{"Name", "Hub Accepted", "Managed Cluster URLs",
                                                 "Joined", "Available", "Age"}));
  EXPECT_EQ(tm["rows"][0]["cells"].dump(), R"(["c1",true,"https://a","True","Unknown","2d"])");

  const Json pl = Json::parse(R"({"metadata":{"name":"p"},"status":{"numberOfSelectedClusters":2,
      "conditions":[{"type":"PlacementSatisfied","status":"True","reason":"AllDecisionsScheduled"}]}})");
  const Json tp = BuildTable(Kind("cluster.open-cluster-management.io", "Placement"), "v1beta1",
                             std::vector<Json>{pl}, Opts());
  EXPECT_EQ(Names(tp), (std::vector<std::string>{"Name", "Succeeded", "Reason", "SelectedClusters"}));
  EXPECT_EQ(tp["rows"][0]["cells"].dump(), R"(["p","True","AllDecisionsScheduled",2])");
}

TEST(TableTest, DefaultColumnsAreNameAndAge) {
  const Json rf = Json::parse(R"({"metadata":{"name":"gpu","creationTimestamp":"2026-01-01T00:59:30Z"}})");
  for (auto [group, kind] : {std::pair{"kueue.x-k8s.io", "ResourceFlavor"},
                             std::pair{"work.open-cluster-management.io", "ManifestWork"}}) {
    const Json t = BuildTable(Kind(group, kind), "", std::vector<Json>{rf}, Opts());
    EXPECT_EQ(Names(t), (std::vector<std::string>{"Name", "Age"})) << kind;
    EXPECT_EQ(t["rows"][0]["cells"].dump(), R"(["gpu","30s"])");
  }
}

TEST(TableTest, PodColumnsAsKubectl) {
  const Json pod = Json::parse(R"({"metadata":{"name":"p","namespace":"ns",
      "creationTimestamp":"2026-01-01T00:00:00Z"},
      "spec":{"nodeName":"n1","containers":[{"name":"a"},{"name":"b"}]},
      "status":{"phase":"Running","podIP":"10.0.0.1","containerStatuses":[
        {"name":"a","ready":true,"restartCount":2,"state":{"running":{}},
         "lastState":{"terminated":{"finishedAt":"2026-01-01T00:50:00Z"}}},
        {"name":"b","ready":false,"restartCount":0,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}})");
  const Json t = BuildTable(Kind("", "Pod"), "v1", std::vector<Json>{pod}, Opts());
  EXPECT_EQ(Names(t), (std::vector<std::string>{"Name", "Ready", "Status", "Restarts", "Age", "IP",
                                                "Node", "Nominated Node", "Readiness Gates"}));
  EXPECT_EQ(t["rows"][0]["cells"].dump(),
            R"j(["p","1/2","CrashLoopBackOff","2 (10m ago)","60m","10.0.0.1","n1","<none>","<none>"])j");

  const Json pending = Json::parse(R"({"metadata":{"name":"q","creationTimestamp":"2026-01-01T00:59:00Z"},
      "spec":{"containers":[{"name":"a"}]},"status":{"phase":"Pending"}})");
  EXPECT_EQ(BuildTable(Kind("", "Pod"), "v1", std::vector<Json>{pending}, Opts())["rows"][0]["cells"].dump(),
            R"(["q","0/1","Pending","0","60s","<none>","<none>","<none>","<none>"])");

  Json deleting = pending;
  deleting["metadata"]["deletionTimestamp"] = "2026-01-01T01:00:00Z";
  EXPECT_EQ(BuildTable(Kind("", "Pod"), "v1", std::vector<Json>{deleting}, Opts())["rows"][0]["cells"][2],
            "Terminating");

  const Json init = Json::parse(R"({"metadata":{"name":"i"},"spec":{"initContainers":[{"name":"x"},{"name":"y"}],
      "containers":[{"name":"a"}]},"status":{"phase":"Pending","initContainerStatuses":[
        {"name":"x","state":{"terminated":{"exitCode":0}}},{"name":"y","state":{"running":{}}}]}})");
  EXPECT_EQ(BuildTable(Kind("", "Pod"), "v1", std::vector<Json>{init}, Opts())["rows"][0]["cells"][2],
            "Init:1/2");
  const Json done = Json::parse(R"({"metadata":{"name":"d"},"spec":{"containers":[{"name":"a"}]},
      "status":{"phase":"Succeeded","containerStatuses":[{"name":"a","state":{"terminated":
      {"exitCode":0,"reason":"Completed"}}}]}})");
  EXPECT_EQ(BuildTable(Kind("", "Pod"), "v1", std::vector<Json>{done}, Opts())["rows"][0]["cells"][2],
            "Completed");
}

TEST(TableTest, NodeJobDeploymentNamespaceColumns) {
  const Json node = Json::parse(R"({"metadata":{"name":"n1","creationTimestamp":"2026-01-01T00:00:00Z",
      "labels":{"node-role.kubernetes.io/control-plane":"","node-role.kubernetes.io/gpu":"","x":"y"}},
      "spec":{"unschedulable":true},
      "status":{"conditions":[{"type":"Ready","status":"True"}],
        "addresses":[{"type":"InternalIP","address":"10.1.1.1"}],
        "nodeInfo":{"kubeletVersion":"v1.32.0","osImage":"Debian"}}})");
  const Json tn = BuildTable(Kind("", "Node"), "v1", std::vector<Json>{node}, Opts());
  EXPECT_EQ(tn["rows"][0]["cells"].dump(),
            R"(["n1","Ready,SchedulingDisabled","control-plane,gpu","60m","v1.32.0","10.1.1.1",)"
            R"("<none>","Debian","<unknown>","<unknown>"])");
  const Json bare = Json::parse(R"({"metadata":{"name":"n2"}})");
  EXPECT_EQ(BuildTable(Kind("", "Node"), "v1", std::vector<Json>{bare}, Opts())["rows"][0]["cells"][1],
            "Unknown");

  const Json job = Json::parse(R"({"metadata":{"name":"j","creationTimestamp":"2026-01-01T00:40:00Z"},
      "spec":{"completions":3,"selector":{"matchLabels":{"b":"2","a":"1"}},
        "template":{"spec":{"containers":[{"name":"c","image":"img:1"},{"name":"d","image":"img:2"}]}}},
      "status":{"succeeded":1,"startTime":"2026-01-01T00:50:00Z"}})");
  const Json tj = BuildTable(Kind("batch", "Job"), "v1", std::vector<Json>{job}, Opts());
  EXPECT_EQ(Names(tj), (std::vector<std::string>{"Name", "Status", "Completions", "Duration", "Age",
                                                 "Containers", "Images", "Selector"}));
  EXPECT_EQ(tj["rows"][0]["cells"].dump(),
            R"(["j","Running","1/3","10m","20m","c,d","img:1,img:2","a=1,b=2"])");
  Json complete = job;
  complete["status"]["conditions"] = Json::parse(R"([{"type":"Complete","status":"True"}])");
  complete["status"]["completionTime"] = "2026-01-01T00:52:30Z";
  complete["spec"].erase("completions");
  complete["spec"]["parallelism"] = 4;
  EXPECT_EQ(BuildTable(Kind("batch", "Job"), "v1", std::vector<Json>{complete}, Opts())["rows"][0]["cells"].dump(),
            R"(["j","Complete","1/1 of 4","2m30s","20m","c,d","img:1,img:2","a=1,b=2"])");
  Json suspended = job;
  suspended["status"]["conditions"] = Json::parse(R"([{"type":"Suspended","status":"True"}])");
  EXPECT_EQ(BuildTable(Kind("batch", "Job"), "v1", std::vector<Json>{suspended}, Opts())["rows"][0]["cells"][1],
            "Suspended");

  const Json dep = Json::parse(R"({"metadata":{"name":"d"},"spec":{"replicas":3,
      "selector":{"matchExpressions":[{"key":"app","operator":"In","values":["web","api"]}]},
      "template":{"spec":{"containers":[{"name":"c","image":"i"}]}}},
      "status":{"readyReplicas":2,"updatedReplicas":3,"availableReplicas":2}})");
  EXPECT_EQ(BuildTable(Kind("apps", "Deployment"), "v1", std::vector<Json>{dep}, Opts())["rows"][0]["cells"].dump(),
            R"j(["d","2/3",3,2,"<unknown>","c","i","app in (api,web)"])j");

  const Json ns = Json::parse(R"({"metadata":{"name":"team-a","creationTimestamp":"2025-12-31T01:00:00Z"},
      "status":{"phase":"Terminating"}})");
  EXPECT_EQ(BuildTable(Kind("", "Namespace"), "v1", std::vector<Json>{ns}, Opts())["rows"][0]["cells"].dump(),
            R"(["team-a","Terminating","24h"])");
}

TEST(TableTest, ManifestWorkReplicaSetColumnsAsOcmsCrdPlusRollout) {
  const auto& kind = Kind("work.open-cluster-management.io", "ManifestWorkReplicaSet");
  Json mwrs = Json::parse(R"({"metadata":{"name":"llm-serve","namespace":"serving"},
      "status":{"conditions":[
        {"type":"PlacementVerified","status":"True","reason":"AsExpected"},
        {"type":"PlacementRolledOut","status":"False","reason":"Progressing"},
        {"type":"ManifestworkApplied","status":"False","reason":"NotAsExpected"}]}})");
  const Json t = BuildTable(kind, "v1alpha1", std::vector<Json>{mwrs}, Opts());
  EXPECT_EQ(Names(t), (std::vector<std::string>{"Name", "Placement", "Found", "ManifestWorks",
                                                "Applied", "Rollout"}));
  // Upstream's four columns by default, berth's rollout with -o wide.
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(t["columnDefinitions"][i]["priority"], 0) << i;
  EXPECT_EQ(t["columnDefinitions"][5]["priority"], 1);
  EXPECT_EQ(t["columnDefinitions"][2]["description"], "Configured");
  EXPECT_EQ(t["rows"][0]["cells"].dump(),
            R"(["llm-serve","AsExpected","True","NotAsExpected","False","Progressing"])");
  Json complete = mwrs;
  complete["status"]["conditions"][1]["reason"] = "Complete";
  EXPECT_EQ(BuildTable(kind, "v1alpha1", std::vector<Json>{complete}, Opts())["rows"][0]["cells"][5],
            "Complete");
  // A pause, then a recorded rollback, say more than PlacementRolledOut.
  Json paused = mwrs;
  paused["status"]["conditions"].push_back(
      Json::parse(R"({"type":"RolloutPaused","status":"True","reason":"PausedByUser"})"));
  EXPECT_EQ(BuildTable(kind, "v1alpha1", std::vector<Json>{paused}, Opts())["rows"][0]["cells"][5],
            "Paused");
  Json rolled_back = paused;
  rolled_back["status"]["conditions"].push_back(
      Json::parse(R"({"type":"RolledBack","status":"True","reason":"BadRevision"})"));
  EXPECT_EQ(BuildTable(kind, "v1alpha1", std::vector<Json>{rolled_back}, Opts())["rows"][0]["cells"][5],
            "RolledBack");
  // Before the first plan: nothing to print (kubectl shows <none>).
  const Json fresh = Json::parse(R"({"metadata":{"name":"new"}})");
  EXPECT_EQ(BuildTable(kind, "v1alpha1", std::vector<Json>{fresh}, Opts())["rows"][0]["cells"].dump(),
            R"(["new",null,null,null,null,null])");
}

TEST(TableTest, ControllerRevisionColumnsAsKubectl) {
  const auto& kind = Kind("apps", "ControllerRevision");
  const Json owned = Json::parse(R"({"metadata":{"name":"llm-serve-tcx5l6mfq9",
      "creationTimestamp":"2026-01-01T00:00:00Z","ownerReferences":[
        {"apiVersion":"v1","kind":"ConfigMap","name":"not-the-controller"},
        {"apiVersion":"work.open-cluster-management.io/v1alpha1","kind":"ManifestWorkReplicaSet",
         "name":"llm-serve","controller":true}]},"revision":3})");
  const Json t = BuildTable(kind, "v1", std::vector<Json>{owned}, Opts());
  EXPECT_EQ(Names(t), (std::vector<std::string>{"Name", "Controller", "Revision", "Age"}));
  EXPECT_EQ(t["rows"][0]["cells"].dump(),
            R"(["llm-serve-tcx5l6mfq9","manifestworkreplicaset.work.open-cluster-management.io/llm-serve",3,"60m"])");
  const Json statefulset = Json::parse(R"({"metadata":{"name":"web-1","ownerReferences":[
      {"apiVersion":"apps/v1","kind":"StatefulSet","name":"web","controller":true}]},"revision":1})");
  const Json core_owner = Json::parse(R"({"metadata":{"name":"r","ownerReferences":[
      {"apiVersion":"v1","kind":"Pod","name":"p","controller":true}]}})");
  const Json orphan = Json::parse(R"({"metadata":{"name":"o"},"revision":2})");
  const Json rows = BuildTable(kind, "v1", std::vector<Json>{statefulset, core_owner, orphan}, Opts())["rows"];
  EXPECT_EQ(rows[0]["cells"].dump(), R"(["web-1","statefulset.apps/web",1,"<unknown>"])");
  EXPECT_EQ(rows[1]["cells"].dump(), R"(["r","pod/p",0,"<unknown>"])");
  EXPECT_EQ(rows[2]["cells"].dump(), R"(["o","<none>",2,"<unknown>"])");
}

TEST(TableTest, FederatedLearningColumnsAsTheAddonsCrdPlusProgress) {
  const auto& kind = Kind("federation-ai.open-cluster-management.io", "FederatedLearning");
  const Json fl = Json::parse(R"({"metadata":{"name":"mnist-eu","creationTimestamp":"2026-01-01T00:30:00Z"},
      "spec":{"server":{"rounds":5,"minAvailableClients":2}},
      "status":{"phase":"Running","serverCluster":"eu-1","currentRound":3,"clients":[
        {"clusterName":"eu-1","state":"Training"},{"clusterName":"eu-2","state":"Training"},
        {"clusterName":"us-2","state":"Excluded"}]}})");
  const Json t = BuildTable(kind, "v1alpha1", std::vector<Json>{fl}, Opts());
  EXPECT_EQ(Names(t), (std::vector<std::string>{"Name", "Phase", "Age", "Round", "Clients", "Server"}));
  EXPECT_EQ(t["columnDefinitions"][1]["priority"], 0);
  EXPECT_EQ(t["columnDefinitions"][2]["priority"], 0);
  for (size_t i = 3; i < 6; ++i) EXPECT_EQ(t["columnDefinitions"][i]["priority"], 1) << i;
  EXPECT_EQ(t["rows"][0]["cells"].dump(), R"(["mnist-eu","Running","30m","3/5","2/2","eu-1"])");
  // Rounds left to the server; the default minimum of 1; no status yet.
  const Json open = Json::parse(R"({"metadata":{"name":"o"},"spec":{"server":{}},
      "status":{"phase":"Waiting","currentRound":0,"clients":[{"clusterName":"a","state":"Eligible"}]}})");
  const Json fresh = Json::parse(R"({"metadata":{"name":"f"}})");
  const Json rows = BuildTable(kind, "v1alpha1", std::vector<Json>{open, fresh}, Opts())["rows"];
  EXPECT_EQ(rows[0]["cells"].dump(), R"(["o","Waiting",null,"0","0/1",null])");
  EXPECT_EQ(rows[1]["cells"].dump(), R"(["f",null,null,null,null,null])");
}

TEST(TableTest, IncludeObjectAndHeaders) {
  const Json o = Json::parse(R"({"metadata":{"name":"x"},"spec":{"a":1}})");
  TableOptions opts = Opts();
  opts.include_object = IncludeObject::kObject;
  const auto& rf = Kind("kueue.x-k8s.io", "ResourceFlavor");
  EXPECT_EQ(BuildTable(rf, "v1beta2", std::vector<Json>{o}, opts)["rows"][0]["object"], o);
  opts.include_object = IncludeObject::kNone;
  opts.no_headers = true;
  const Json t = BuildTable(rf, "v1beta2", std::vector<Json>{o}, opts);
  EXPECT_TRUE(t["rows"][0]["object"].is_null());
  EXPECT_TRUE(t["columnDefinitions"].empty());
  EXPECT_EQ(ParseIncludeObject("Object"), IncludeObject::kObject);
  EXPECT_EQ(ParseIncludeObject(""), IncludeObject::kMetadata);
  EXPECT_FALSE(ParseIncludeObject("All").has_value());
}

TEST(TableTest, NegotiatesKubectlsTableAccept) {
  EXPECT_EQ(NegotiateTable("application/json;as=Table;v=v1;g=meta.k8s.io,application/json;"
                           "as=Table;v=v1beta1;g=meta.k8s.io,application/json"),
            "v1");
  EXPECT_EQ(NegotiateTable("application/json;as=Table;v=v1beta1;g=meta.k8s.io"), "v1beta1");
  EXPECT_FALSE(NegotiateTable("application/json").has_value());
  EXPECT_FALSE(NegotiateTable("application/json, application/json;as=Table;v=v1;g=meta.k8s.io")
                   .has_value());
  EXPECT_FALSE(NegotiateTable("application/json;as=Table;v=v2;g=meta.k8s.io").has_value());
  EXPECT_FALSE(NegotiateTable("").has_value());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
