// sim/replay scenarios: the SimulationScenario YAML file (ParseScenario, ReadScenarioFile):
// a full valid file, relative paths, and an error naming the file and the field for each
// mistake; and ResolveActions turning node names and selectors into node indices.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/replay/scenario.h"
#include "sim/replay/scenario_file.h"
#include "support/model_builders.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

constexpr const char* kPath = "/studies/drain.yaml";

std::string Doc(const std::string& spec) {
  return "apiVersion: sim.berth.dev/v1alpha1\nkind: SimulationScenario\nmetadata:\n"
         "  name: study\nspec:\n" +
         spec;
}

std::string Event(const std::string& body) { return Doc("  events:\n  - " + body); }

// The error message of parsing `text`, or "" when it parsed.
std::string ErrorOf(const std::string& text) {
  auto r = ParseScenario(text, kPath);
  return r.has_value() ? "" : r.error().message();
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(ReplayScenarioFileTest, ParsesAFullFile) {
  const std::string text = Doc(R"(  fleet: fleet/
  trace: ../traces/philly.csv
  format: philly
  tenantQueues: /etc/berth/tenants.csv
  tenantQueue: ["vc1=ml/lq-a", "*=shared/lq"]
  cluster: east
  until: 30d
  metricsInterval: 5m
  maxGpusPerPod: "4"
  events:
  - action: NodeFailure
    at: 1h
    nodes: [gpu-a-1, gpu-a-2]
    recoverAfter: 30m
  - action: GpuFailure
    at: "90"
    selector:
      matchLabels: {pool: a}
    gpus: "2"
    recoverAfter: 1h30m
  - action: Drain
    at: 2d
    selector:
      matchExpressions:
      - {key: pool, operator: In, values: [h100]}
      - {key: spot, operator: DoesNotExist}
    duration: 4h
    maxUnavailable: "2"
    waveInterval: 10m
  - action: ScaleUp
    at: 1.5h
    selector:
      matchLabels: {sim.berth.dev/standby: "true"}
    count: "3"
    coldStart: 7m
)");
  auto r = ParseScenario(text, kPath);
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  const ScenarioFile& f = *r;
  EXPECT_EQ(f.name, "study");
  // Paths are relative to the file's folder.
  EXPECT_EQ(f.fleet, "/studies/fleet/");
  EXPECT_EQ(f.trace, "/traces/philly.csv");
  EXPECT_EQ(f.tenant_queues, "/etc/berth/tenants.csv");
  EXPECT_EQ(f.format, "philly");
  EXPECT_EQ(f.tenant_queue, (std::vector<std::string>{"vc1=ml/lq-a", "*=shared/lq"}));
  EXPECT_EQ(f.cluster, "east");
  EXPECT_EQ(f.until_s, 30 * 86400);
  EXPECT_EQ(f.metrics_interval_s, 300);
  EXPECT_EQ(f.max_gpus_per_pod, 4);
  ASSERT_EQ(f.actions.size(), 4u);

  const ScenarioAction& fail = f.actions[0];
  EXPECT_EQ(fail.kind, ActionKind::kNodeFailure);
  EXPECT_EQ(fail.at_ms, 3'600'000);
  EXPECT_EQ(fail.node_names, (std::vector<std::string>{"gpu-a-1", "gpu-a-2"}));
  EXPECT_FALSE(fail.selector.has_value());
  EXPECT_EQ(fail.recover_after_ms, 1'800'000);
  EXPECT_EQ(fail.line, "events[0]");

  const ScenarioAction& gpu = f.actions[1];
  EXPECT_EQ(gpu.kind, ActionKind::kGpuFailure);
  EXPECT_EQ(gpu.at_ms, 90'000);
  ASSERT_TRUE(gpu.selector.has_value());
  EXPECT_EQ(gpu.selector->match_labels.at("pool"), "a");
  EXPECT_EQ(gpu.gpus, 2);
  EXPECT_EQ(gpu.recover_after_ms, 5'400'000);

  const ScenarioAction& drain = f.actions[2];
  EXPECT_EQ(drain.kind, ActionKind::kDrain);
  EXPECT_EQ(drain.at_ms, 2 * 86'400'000LL);
  ASSERT_TRUE(drain.selector.has_value());
  ASSERT_EQ(drain.selector->match_expressions.size(), 2u);
  EXPECT_EQ(drain.selector->match_expressions[0].op, core::SelectorOp::kIn);
  EXPECT_EQ(drain.selector->match_expressions[0].values, std::vector<std::string>{"h100"});
  EXPECT_EQ(drain.selector->match_expressions[1].op, core::SelectorOp::kDoesNotExist);
  EXPECT_EQ(drain.duration_ms, 4 * 3'600'000);
  EXPECT_EQ(drain.max_unavailable, 2);
  EXPECT_EQ(drain.wave_interval_ms, 600'000);
  EXPECT_EQ(drain.line, "events[2]");

  const ScenarioAction& up = f.actions[3];
  EXPECT_EQ(up.kind, ActionKind::kScaleUp);
  EXPECT_EQ(up.at_ms, 5'400'000);
  EXPECT_EQ(up.count, 3);
  EXPECT_EQ(up.cold_start_ms, 420'000);
}

TEST(ReplayScenarioFileTest, DefaultsOfAMinimalFile) {
  auto r = ParseScenario(Event("{action: Drain, at: 0s, nodes: [n1]}"), "s.yaml");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  EXPECT_TRUE(r->fleet.empty());
  EXPECT_FALSE(r->until_s.has_value());
  EXPECT_FALSE(r->max_gpus_per_pod.has_value());
  ASSERT_EQ(r->actions.size(), 1u);
  const ScenarioAction& a = r->actions[0];
  EXPECT_EQ(a.at_ms, 0);
  EXPECT_EQ(a.duration_ms, 0);  // never uncordoned
  EXPECT_EQ(a.max_unavailable, 1);
  EXPECT_EQ(a.wave_interval_ms, 300'000);
  // A relative file name: paths stay relative to the working folder.
  auto rel = ParseScenario(Doc("  fleet: fleet.yaml\n"), "s.yaml");
  ASSERT_TRUE(rel.has_value());
  EXPECT_EQ(rel->fleet, "fleet.yaml");
}

TEST(ReplayScenarioFileTest, UnknownActionNamesFileAndField) {
  const std::string e = ErrorOf(Event("{action: Reboot, at: 1h, nodes: [n1]}"));
  EXPECT_TRUE(Contains(e, "/studies/drain.yaml: spec.events[0].action: unknown action \"Reboot\""))
      << e;
  EXPECT_TRUE(Contains(e, "NodeFailure, GpuFailure, Drain, ScaleUp")) << e;
}

TEST(ReplayScenarioFileTest, MissingFieldsNameTheField) {
  EXPECT_EQ(ErrorOf(Doc("  events:\n  - {action: Drain, nodes: [n1]}\n"
                        "  - {action: Drain, nodes: [n1]}\n")),
            "/studies/drain.yaml: spec.events[0].at: is required");
  EXPECT_EQ(ErrorOf(Doc("  events:\n  - {action: Drain, at: 1h, nodes: [n1]}\n"
                        "  - {at: 1h, nodes: [n1]}\n")),
            "/studies/drain.yaml: spec.events[1].action: is required");
  EXPECT_EQ(ErrorOf(Event("{action: NodeFailure, at: 1h}")),
            "/studies/drain.yaml: spec.events[0]: names no nodes (give nodes or selector)");
  EXPECT_EQ(ErrorOf("apiVersion: v1\nkind: SimulationScenario\n"),
            "/studies/drain.yaml: spec: is required");
}

TEST(ReplayScenarioFileTest, BadDurationNamesTheField) {
  const std::string at = ErrorOf(Event("{action: NodeFailure, at: soon, nodes: [n1]}"));
  EXPECT_TRUE(Contains(at, "/studies/drain.yaml: spec.events[0].at: ")) << at;
  const std::string neg = ErrorOf(Event("{action: NodeFailure, at: \"-5m\", nodes: [n1]}"));
  EXPECT_TRUE(Contains(neg, "spec.events[0].at: ")) << neg;
  const std::string recover =
      ErrorOf(Event("{action: NodeFailure, at: 1h, nodes: [n1], recoverAfter: 3x}"));
  EXPECT_TRUE(Contains(recover, "/studies/drain.yaml: spec.events[0].recoverAfter: ")) << recover;
  const std::string until = ErrorOf(Doc("  until: forever\n"));
  EXPECT_TRUE(Contains(until, "/studies/drain.yaml: spec.until: ")) << until;
  const std::string list = ErrorOf(Event("{action: Drain, at: [1h], nodes: [n1]}"));
  EXPECT_TRUE(Contains(list, "spec.events[0].at: must be a string")) << list;
  const std::string count =
      ErrorOf(Event("{action: Drain, at: 1h, nodes: [n1], maxUnavailable: x}"));
  EXPECT_TRUE(Contains(count, "spec.events[0].maxUnavailable: ")) << count;
}

// Issue 14: this coldStart aborted berth (an event scheduled in the past after the
// seconds-to-milliseconds product wrapped); now it is an error naming file and field.
TEST(ReplayScenarioFileTest, HugeTimesAreErrorsNamingFileAndField) {
  const std::string cold = ErrorOf(Event(
      "{action: ScaleUp, at: 8h, selector: {matchLabels: {a: b}}, count: \"1\", "
      "coldStart: \"9223372036854775807\"}"));
  EXPECT_EQ(cold,
            "/studies/drain.yaml: spec.events[0].coldStart: \"9223372036854775807\" is too "
            "large: at most 36525d (100 years)");
  const std::string at =
      ErrorOf(Event("{action: NodeFailure, at: 106751991167d, nodes: [n1]}"));
  EXPECT_TRUE(Contains(at, "/studies/drain.yaml: spec.events[0].at: ")) << at;
  const std::string interval = ErrorOf(Doc("  metricsInterval: 36526d\n"));
  EXPECT_TRUE(Contains(interval, "/studies/drain.yaml: spec.metricsInterval: ")) << interval;
  // Zero intervals and ends, and zero GPUs per pod, were taken silently (issue 14).
  EXPECT_EQ(ErrorOf(Doc("  metricsInterval: 0s\n")),
            "/studies/drain.yaml: spec.metricsInterval: must be at least 1s");
  EXPECT_EQ(ErrorOf(Doc("  until: \"0\"\n")), "/studies/drain.yaml: spec.until: must be at least 1s");
  EXPECT_EQ(ErrorOf(Doc("  maxGpusPerPod: \"0\"\n")),
            "/studies/drain.yaml: spec.maxGpusPerPod: must be positive");
}

TEST(ReplayScenarioFileTest, UnknownFieldsNameTheField) {
  // A field of another action is unknown for this one.
  EXPECT_EQ(ErrorOf(Event("{action: NodeFailure, at: 1h, nodes: [n1], duration: 1h}")),
            "/studies/drain.yaml: spec.events[0].duration: unknown field for action NodeFailure");
  EXPECT_EQ(ErrorOf(Event("{action: ScaleUp, at: 1h, nodes: [n1], gpus: \"1\"}")),
            "/studies/drain.yaml: spec.events[0].gpus: unknown field for action ScaleUp");
  const std::string spec = ErrorOf(Doc("  fleet: f\n  policy: fgd\n"));
  EXPECT_TRUE(Contains(spec, "/studies/drain.yaml: spec.policy: unknown field (fleet, trace"))
      << spec;
  const std::string sel = ErrorOf(Event("{action: Drain, at: 1h, selector: {matchLabel: {a: b}}}"));
  EXPECT_TRUE(Contains(sel, "spec.events[0].selector.matchLabel: unknown field")) << sel;
}

TEST(ReplayScenarioFileTest, BadSelectorOperatorNamesTheField) {
  const std::string e = ErrorOf(
      Event("{action: Drain, at: 1h, selector: {matchExpressions: [{key: a, operator: Gt, values: "
            "[\"1\"]}]}}"));
  EXPECT_EQ(e,
            "/studies/drain.yaml: spec.events[0].selector.matchExpressions[0].operator: unknown "
            "operator \"Gt\" (In, NotIn, Exists, DoesNotExist)");
  const std::string no_key =
      ErrorOf(Event("{action: Drain, at: 1h, selector: {matchExpressions: [{operator: In}]}}"));
  EXPECT_TRUE(
      Contains(no_key, "spec.events[0].selector.matchExpressions[0]: needs key and operator"))
      << no_key;
  // In with no values is a malformed selector.
  const std::string empty_in = ErrorOf(
      Event("{action: Drain, at: 1h, selector: {matchExpressions: [{key: a, operator: In}]}}"));
  EXPECT_TRUE(Contains(empty_in, "/studies/drain.yaml: spec.events[0].selector: ")) << empty_in;
}

TEST(ReplayScenarioFileTest, InvalidValuesNameTheField) {
  EXPECT_EQ(ErrorOf(Event("{action: Drain, at: 1h, nodes: [n1], waveInterval: 0s}")),
            "/studies/drain.yaml: spec.events[0].waveInterval: must be positive");
  EXPECT_EQ(ErrorOf(Event("{action: GpuFailure, at: 1h, nodes: [n1], gpus: \"0\"}")),
            "/studies/drain.yaml: spec.events[0].gpus: must be at least 1");
  EXPECT_EQ(ErrorOf(Event("{action: Drain, at: 1h, nodes: n1}")),
            "/studies/drain.yaml: spec.events[0].nodes: must be a list of node names");
  EXPECT_EQ(ErrorOf(Doc("  events: {a: b}\n")), "/studies/drain.yaml: spec.events: must be a list");
  EXPECT_EQ(ErrorOf(Doc("  events:\n  - just-a-string\n")),
            "/studies/drain.yaml: spec.events[0]: must be a map");
}

TEST(ReplayScenarioFileTest, WrongKindAndNonMapDocument) {
  EXPECT_EQ(ErrorOf("kind: Pod\nspec: {}\n"),
            "/studies/drain.yaml: kind: must be SimulationScenario, got \"Pod\"");
  EXPECT_TRUE(Contains(ErrorOf("- a\n- b\n"), "/studies/drain.yaml: ")) << ErrorOf("- a\n- b\n");
}

TEST(ReplayScenarioFileTest, MalformedYamlGivesTheLine) {
  const std::string e = ErrorOf(
      "kind: SimulationScenario\nspec:\n  events:\n  - {action: Drain, at: 1h\n  nodes: [\n");
  EXPECT_TRUE(Contains(e, "/studies/drain.yaml: line ")) << e;
  EXPECT_TRUE(Contains(e, "malformed YAML")) << e;
}

// Regression (found by this test, fixed): a value of the wrong YAML type where a string is read with
// as<std::string>() (action, a node name, a tenantQueue entry) throws inside yaml-cpp, and
// the catch-all turns it into "FILE: line N: bad conversion" without the field. Expected: the
// field named like every other error ("spec.events[0].action: must be a string").
TEST(ReplayScenarioFileTest, WrongTypedValuesNameTheField) {
  const std::string action = ErrorOf(Event("{action: [Drain], at: 1h, nodes: [n1]}"));
  EXPECT_TRUE(Contains(action, "/studies/drain.yaml: spec.events[0].action")) << action;
  const std::string node = ErrorOf(Event("{action: Drain, at: 1h, nodes: [{name: n1}]}"));
  EXPECT_TRUE(Contains(node, "/studies/drain.yaml: spec.events[0].nodes")) << node;
  const std::string tenant = ErrorOf(Doc("  tenantQueue: [{a: b}]\n"));
  EXPECT_TRUE(Contains(tenant, "/studies/drain.yaml: spec.tenantQueue")) << tenant;
}

TEST(ReplayScenarioFileTest, ReadScenarioFileReportsAMissingFile) {
  auto r = ReadScenarioFile("/nonexistent/berth/scenario.yaml");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), core::ErrorCode::kNotFound);
  EXPECT_TRUE(Contains(r.error().message(), "/nonexistent/berth/scenario.yaml"))
      << r.error().message();
}

// --- ResolveActions -------------------------------------------------------------------

model::Snapshot Fleet() {
  testing::SnapshotBuilder b;
  b.Add(testing::NodeBuilder("a-0").Label("pool", "a"));
  b.Add(testing::NodeBuilder("b-0").Label("pool", "b"));
  b.Add(testing::NodeBuilder("a-1").Label("pool", "a"));
  b.Add(testing::NodeBuilder("a-x").Label("pool", "a").Cluster("other"));
  return b.Build();
}

ScenarioAction Action(ActionKind kind, std::vector<std::string> names,
                      std::optional<core::LabelSelector> selector, const std::string& line) {
  ScenarioAction a;
  a.kind = kind;
  a.node_names = std::move(names);
  a.selector = std::move(selector);
  a.line = line;
  return a;
}

TEST(ReplayScenarioTest, ResolvesNamesAndSelectorsToAscendingIndices) {
  const model::Snapshot fleet = Fleet();
  const std::vector<ScenarioAction> actions = {
      Action(ActionKind::kNodeFailure, {"a-1", "b-0"}, std::nullopt, "events[0]"),
      Action(ActionKind::kDrain, {}, testing::MatchLabels({{"pool", "a"}}), "events[1]"),
      // Union of names and selector, each node once.
      Action(ActionKind::kScaleUp, {"a-0", "b-0"}, testing::MatchLabels({{"pool", "a"}}),
             "events[2]"),
  };
  auto r = ResolveActions(actions, fleet, "default");
  ASSERT_TRUE(r.has_value()) << r.error().ToString();
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ((*r)[0].nodes, (std::vector<int32_t>{1, 2}));
  EXPECT_EQ((*r)[0].action.kind, ActionKind::kNodeFailure);
  // The node of cluster "other" is not matched.
  EXPECT_EQ((*r)[1].nodes, (std::vector<int32_t>{0, 2}));
  EXPECT_EQ((*r)[2].nodes, (std::vector<int32_t>{0, 1, 2}));
  auto other = ResolveActions({actions[1]}, fleet, "other");
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ((*other)[0].nodes, std::vector<int32_t>{3});
}

TEST(ReplayScenarioTest, UnknownNodeIsAnErrorNamingTheAction) {
  const model::Snapshot fleet = Fleet();
  auto r =
      ResolveActions({Action(ActionKind::kDrain, {"a-0"}, std::nullopt, "events[0]"),
                      Action(ActionKind::kNodeFailure, {"gpu-x-9"}, std::nullopt, "events[1]")},
                     fleet, "default");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message(),
            "events[1]: node gpu-x-9 not found in cluster \"default\" of the fleet");
  // A node of another cluster is not found either.
  auto elsewhere = ResolveActions({Action(ActionKind::kDrain, {"a-x"}, std::nullopt, "events[0]")},
                                  fleet, "default");
  ASSERT_FALSE(elsewhere.has_value());
  EXPECT_TRUE(Contains(elsewhere.error().message(), "a-x")) << elsewhere.error().message();
}

TEST(ReplayScenarioTest, SelectorMatchingNothingIsAnError) {
  auto r = ResolveActions(
      {Action(ActionKind::kScaleUp, {}, testing::MatchLabels({{"pool", "z"}}), "events[4]")},
      Fleet(), "default");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message(), "events[4]: ScaleUp matches no node of cluster \"default\"");
}

// Issue 14: resolution errors of an action read from a file name the file and the spec. path.
TEST(ReplayScenarioTest, ErrorsOfAFileActionNameFileAndField) {
  auto scenario = ParseScenario(
      Doc("  events:\n  - {action: NodeFailure, at: 1h, nodes: [a-0, gpu-x-9]}\n"
          "  - {action: ScaleUp, at: 2h, selector: {matchLabels: {pool: z}}}\n"),
      kPath);
  ASSERT_TRUE(scenario.has_value()) << scenario.error().message();
  auto unknown = ResolveActions({scenario->actions[0]}, Fleet(), "default");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().message(),
            "/studies/drain.yaml: spec.events[0].nodes: node gpu-x-9 not found in cluster "
            "\"default\" of the fleet");
  auto nothing = ResolveActions({scenario->actions[1]}, Fleet(), "default");
  ASSERT_FALSE(nothing.has_value());
  EXPECT_EQ(nothing.error().message(),
            "/studies/drain.yaml: spec.events[1].selector: ScaleUp matches no node of cluster "
            "\"default\"");
}

TEST(ReplayScenarioTest, ActionKindNames) {
  EXPECT_STREQ(ActionKindName(ActionKind::kNodeFailure), "NodeFailure");
  EXPECT_STREQ(ActionKindName(ActionKind::kGpuFailure), "GpuFailure");
  EXPECT_STREQ(ActionKindName(ActionKind::kDrain), "Drain");
  EXPECT_STREQ(ActionKindName(ActionKind::kScaleUp), "ScaleUp");
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
