// explain, -o table and -o json agree on every golden `plan` case (issue 13, item 4): per
// Kueue Workload the state, the admission's ClusterQueue and flavors; per pod the node or
// pending/deleted state. The views are produced in-process (one plan per form, one explain
// per sampled object) and read back by their printed layout (plan_views.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/explain_command.h"
#include "cli/plan_command.h"
#include "plan_views.h"

namespace berth::cli::testing {
namespace BERTH_UNITY_ID {

namespace fs = std::filesystem;

// Objects explained per case and kind, spread evenly over the sorted keys: enough to catch a
// form that prints a different decision, while the whole sweep stays well under a second.
constexpr size_t kExplainedPerKind = 6;

fs::path E2eDir() {
  const char* root = std::getenv("BERTH_SOURCE_DIR");
  return fs::path(root != nullptr ? root : ".") / "tests" / "e2e";
}

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct PlanCase {
  std::string name;
  PlanFlags flags;
};

// The golden cases whose command is `berth plan` over files (not stdin) and that plan
// something (exit code below 2); their paths made absolute.
std::vector<PlanCase> PlanCases() {
  std::vector<PlanCase> out;
  for (const auto& entry : fs::directory_iterator(E2eDir())) {
    const fs::path dir = entry.path();
    if (!fs::exists(dir / "cmd") || !fs::exists(dir / "expected.rc")) continue;
    if (std::atoi(ReadFile(dir / "expected.rc").c_str()) >= 2) continue;
    std::istringstream cmd(ReadFile(dir / "cmd").substr(0, ReadFile(dir / "cmd").find('\n')));
    std::vector<std::string> args;
    for (std::string a; cmd >> a;) args.push_back(a);
    if (args.empty() || args[0] != "plan") continue;
    PlanCase c{dir.filename().string(), {}};
    bool usable = true;
    for (size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      const bool has_value = i + 1 < args.size();
      if (a.find_first_of("'\"") != std::string::npos || !has_value) {
        usable = false;  // quoting or a flag without value: not this runner's grammar
      } else if (a == "-f") {
        if (args[i + 1] == "-") usable = false;
        c.flags.files.push_back((dir / args[++i]).string());
      } else if (a == "--cluster") {
        const std::string v = args[++i];
        const size_t eq = v.find('=');
        c.flags.clusters.push_back(v.substr(0, eq + 1) + (dir / v.substr(eq + 1)).string());
      } else if (a == "--now") {
        c.flags.now = args[++i];
      } else if (a == "--scoring") {
        c.flags.scoring = args[++i];
      } else if (a == "-o") {
        ++i;
      } else {
        usable = false;
      }
    }
    if (usable) out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(),
            [](const PlanCase& a, const PlanCase& b) { return a.name < b.name; });
  return out;
}

template <typename Map>
std::vector<std::string> Sample(const Map& m) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : m) keys.push_back(k);
  if (keys.size() <= kExplainedPerKind) return keys;
  std::vector<std::string> out;
  for (size_t i = 0; i < kExplainedPerKind; ++i) {
    out.push_back(keys[i * (keys.size() - 1) / (kExplainedPerKind - 1)]);
  }
  return out;
}

// Explanations known wrong today, left out so the sweep still checks everything else; each
// is a berth bug found by this test (remove its entries when it is fixed). The invalid GPU
// fraction's explain (it threw std::bad_alloc) and the gang members' (they met the state
// after their whole gang was bound) were fixed in #13. Open: a Workload read already
// evicted and requeued (Evicted=True, no admission; here one whose eviction the plan just
// finished, engine/eviction_completion.h) is "Preempted" by its conditions in the table and
// the JSON but "Pending" in explain, whose outcome is this plan's decision only.
const std::set<std::string> kKnownWrong = {
    "kueue-eviction-completes-from-input workload/team-a/job-a1",
    "kueue-eviction-completes-from-input workload/team-a/job-a2",
};

// RunExplainCommand for one target, false when it is known wrong; an exception (berth's main
// reports it as an internal error) is a problem.
bool Explain(const std::string& case_name, ExplainFlags& flags, const std::string& target,
             std::string* out, std::string* err, std::vector<std::string>* problems) {
  if (kKnownWrong.contains(case_name + " " + target)) return false;
  flags.target = target;
  std::ostringstream o, e;
  try {
    RunExplainCommand(flags, o, e);
  } catch (const std::exception& ex) {
    problems->push_back("explain " + target + " threw: " + ex.what());
    return false;
  }
  *out = o.str();
  *err = e.str();
  return true;
}

std::vector<std::string> CheckCase(const PlanCase& c) {
  std::ostringstream json_out, table_out, ignored;
  PlanFlags flags = c.flags;
  flags.output = "json";
  RunPlanCommand(flags, json_out, ignored);
  flags.output = "table";
  RunPlanCommand(flags, table_out, ignored);
  const PlanView json = ParseJsonPlan(json_out.str());
  const PlanView table = ParseTablePlan(table_out.str());
  std::vector<PlanView> explains;
  ExplainFlags explain;
  explain.files = c.flags.files;
  explain.clusters = c.flags.clusters;
  explain.scoring = c.flags.scoring;
  explain.now = c.flags.now;
  std::vector<std::string> problems;
  std::string out, err;
  for (const std::string& key : Sample(json.workloads)) {
    if (Explain(c.name, explain, "workload/" + key, &out, &err, &problems)) {
      explains.push_back(ParseWorkloadExplain(key, out));
    }
  }
  std::map<std::string, PodFacts> plain_pods;  // pods not shown by a workload's explanation
  for (const auto& [key, facts] : table.pods) {
    bool shown = false;
    for (const PlanView& e : explains) shown = shown || e.pods.contains(key);
    if (!shown) plain_pods[key] = facts;
  }
  for (const std::string& key : Sample(plain_pods)) {
    if (Explain(c.name, explain, "pod/" + key, &out, &err, &problems)) {
      explains.push_back(ParsePodExplain(key, out, err));
    }
  }
  for (std::string& d : Disagreements(json, table, explains)) problems.push_back(std::move(d));
  return problems;
}

TEST(PlanConsistencyTest, ExplainTableAndJsonAgreeOnEveryGoldenPlan) {
  const std::vector<PlanCase> cases = PlanCases();
  // The sweep must find the cases (a moved directory would make it pass on nothing).
  ASSERT_GE(cases.size(), 30u) << "golden plan cases found under " << E2eDir();
  for (const PlanCase& c : cases) {
    SCOPED_TRACE(c.name);
    for (const std::string& d : CheckCase(c)) ADD_FAILURE() << c.name << ": " << d;
  }
}

// The checker itself: each kind of disagreement between the forms is reported.
const char* const kJson = R"({"apiVersion":"v1","kind":"List","items":[
 {"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload",
  "metadata":{"name":"job-a","namespace":"team"},
  "status":{"admission":{"clusterQueue":"cq","podSetAssignments":[
    {"name":"main","flavors":{"cpu":"h100","nvidia.com/gpu":"h100"}}]},
   "conditions":[{"type":"QuotaReserved","status":"True"},{"type":"Admitted","status":"True"}]}},
 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"a-0","namespace":"team"},
  "spec":{"nodeName":"n1"}},
 {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"default"},"spec":{}}]})";

const char* const kTable =
    "NAMESPACE   NAME   NODE     STATUS    REASON\n"
    "team        a-0    n1       Bound\n"
    "default     web    <none>   Pending   0/1 nodes are available\n"
    "\n"
    "NAMESPACE   NAME    QUEUE   CLUSTERQUEUE   STATUS     FLAVORS                          "
    "MESSAGE\n"
    "team        job-a   lq      cq             Admitted   main: cpu,nvidia.com/gpu=h100    The "
    "workload is admitted\n";

TEST(PlanConsistencyTest, AgreeingViewsHaveNoDisagreement) {
  const PlanView explain = ParseWorkloadExplain(
      "team/job-a",
      "Workload team/job-a\n  Queue:          lq -> ClusterQueue cq\n"
      "  Outcome:        Admitted (cycle 1)\n"
      "  Admitted main:  1 pods, cpu=h100, nvidia.com/gpu=h100\n\nPods (1)\n  a-0  bound to n1\n");
  const PlanView pod = ParsePodExplain("default/web", "Decision: unschedulable: 0/1 nodes\n", "");
  EXPECT_EQ(Disagreements(ParseJsonPlan(kJson), ParseTablePlan(kTable), {explain, pod}),
            std::vector<std::string>{});
}

TEST(PlanConsistencyTest, ReportsAnOldAdmissionPrintedBesideTheNewOne) {
  // The bug of issue 13: YAML/JSON kept the admission as read while table and explain show
  // the new flavor.
  std::string table = kTable;
  table.replace(table.find("=h100"), 5, "=a100");
  const PlanView explain = ParseWorkloadExplain(
      "team/job-a",
      "Workload team/job-a\n  Queue:    lq -> ClusterQueue cq\n  Outcome:  Admitted (cycle 3)\n"
      "  Admitted main:  1 pods, cpu=a100, nvidia.com/gpu=a100\n");
  const std::vector<std::string> d =
      Disagreements(ParseJsonPlan(kJson), ParseTablePlan(table), {explain});
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0],
            "workload team/job-a flavors: json says main:cpu=h100,nvidia.com/gpu=h100, table says "
            "main:cpu=a100,nvidia.com/gpu=a100");
  EXPECT_EQ(d[1],
            "workload team/job-a flavors: explain says main:cpu=a100,nvidia.com/gpu=a100, json "
            "says main:cpu=h100,nvidia.com/gpu=h100");
}

TEST(PlanConsistencyTest, ReportsStateQueueAndPodDisagreements) {
  std::string table = kTable;
  table.replace(table.find("Admitted   main"), 8, "Pending ");
  table.replace(table.find("cq     "), 2, "cx");
  table.replace(table.find("n1       Bound"), 2, "n2");
  const PlanView pod = ParsePodExplain("default/web", "Decision: bound to node n3: highest\n", "");
  const std::vector<std::string> d =
      Disagreements(ParseJsonPlan(kJson), ParseTablePlan(table), {pod});
  EXPECT_EQ(d, (std::vector<std::string>{
                   "workload team/job-a state: json says admitted, table says waiting",
                   "workload team/job-a clusterQueue: json says cq, table says cx",
                   "pod team/a-0: json says bound:n1, table says bound:n2",
                   "pod default/web: explain says bound:n3, table says pending"}));
}

TEST(PlanConsistencyTest, ReportsObjectsOnlyOneFormShows) {
  const std::string full = kTable;
  const std::string table = full.substr(0, full.find("\n\n") + 1);
  const std::vector<std::string> d = Disagreements(ParseJsonPlan(kJson), ParseTablePlan(table), {});
  EXPECT_EQ(d,
            std::vector<std::string>{"workload team/job-a: in the JSON items, not in the table"});
}

TEST(PlanConsistencyTest, PodBoundInTheInputMayBeKeptOrDeleted) {
  PlanView table;
  table.pods["ns/p"] = "deleted";
  const PlanView pod = ParsePodExplain(
      "ns/p", "",
      "berth: error: pod ns/p is already bound to node n1; only pending pods are scheduled\n");
  EXPECT_TRUE(Disagreements({}, table, {pod}).empty());
  table.pods["ns/p"] = "pending";
  EXPECT_EQ(Disagreements({}, table, {pod}).size(), 2u);  // json lacks it too
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli::testing
