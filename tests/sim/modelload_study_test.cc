// sim/modelload/study.h: one plan, then each strategy through the data module's fetch
// schedule. The fleet is two nodes of 2 GPUs and a 1-GPU predictor scaled out to 4 replicas,
// so the plan must put two on each node. The model is 3 GB (decimal) and every bandwidth is
// docs/data.md's default, so the times are exact by hand:
//   origin pull   3e9 / 0.3e9 B/s (one stream)  = 10 s
//   peer copy     3e9 / 1.25e9 B/s (NIC)         = 2.4 s
//   disk read     3e9 / 3e9 B/s (NVMe)           = 1 s
//   GPU copy      3e9 / 25e9 B/s (PCIe)          = 0.12 s
// A node's first replica (by name) pulls and is ready at fetched + 0.12; its second reads the
// node's disk after that: fetched + 1 + 0.12.
#include <gtest/gtest.h>

#include <string>

#include "model/data_objects.h"
#include "sim/modelload/study.h"
#include "sim/report/model_load_report.h"
#include "support/model_builders.h"

namespace berth::sim::modelload {
namespace BERTH_UNITY_ID {

constexpr double kEps = 1e-6;

// Nodes n1 and n2 (2 GPUs each, region r1); `cached` nodes carry the model's cache label.
// One predictor pod svc-0 of InferenceService serve/svc (1 GPU); its model "m" is 3 GB in
// s3://bucket, region r1.
model::Snapshot Fleet(const std::vector<std::string>& cached = {}, int nodes = 2) {
  testing::SnapshotBuilder s;
  for (int i = 1; i <= nodes; ++i) {
    const std::string name = "n" + std::to_string(i);
    testing::NodeBuilder n(name);
    n.Cpu(16'000)
        .Memory(64 * testing::kGi)
        .Gpu(2)
        .Pods(110)
        .Label("topology.kubernetes.io/region", "r1");
    for (const std::string& c : cached) {
      if (c == name) n.Label("models.cache.berth.dev/m", "true");
    }
    s.Add(n);
  }
  s.Add(testing::PodBuilder("svc-0", "serve")
            .Label(model::kInferenceServiceLabel, "svc")
            .Container({{"cpu", 100}, {"nvidia.com/gpu", 1}}));
  model::Snapshot snap = s.Build();
  model::InferenceServiceModel m;
  m.meta.name = "svc";
  m.meta.namespace_ = "serve";
  m.storage.scheme = "s3";
  m.storage.location = "bucket";
  m.storage.path = "m";
  m.size_bytes = 3'000'000'000;
  m.origin_region = "r1";
  snap.inference_services.push_back(m);
  return snap;
}

ModelLoadStudy Study(std::vector<StudyStrategy> strategies, int32_t replicas = 4) {
  ModelLoadStudy s;
  s.path = "study.yaml";
  s.name = "t";
  s.inference_service = "serve/svc";
  s.replicas = replicas;
  s.strategies = std::move(strategies);
  return s;
}

StudyStrategy Named(std::string name) {
  StudyStrategy s;
  s.name = std::move(name);
  return s;
}

StudyResult RunStudy(const ModelLoadStudy& study, const std::vector<std::string>& cached = {}) {
  auto r = RunModelLoadStudy(Fleet(cached), study, engine::PlanOptions{});
  EXPECT_TRUE(r.has_value()) << r.error().ToString();
  return r.has_value() ? *r : StudyResult{};
}

void ExpectReady(const StrategyResult& r, std::vector<double> want) {
  ASSERT_EQ(r.ready_s.size(), want.size()) << r.strategy.name;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(r.ready_s[i], want[i], kEps) << r.strategy.name << " replica " << i;
  }
}

TEST(ModelLoadStudyTest, ScalesOutAndPlansOnce) {
  StudyResult r = RunStudy(Study({Named("storm")}));
  EXPECT_EQ(r.service, "serve/svc");
  EXPECT_EQ(r.artifact, "model/m");
  EXPECT_EQ(r.replicas, 4);
  EXPECT_EQ(r.nodes, 2);
  EXPECT_EQ(r.unplaced, 0);
  ASSERT_EQ(r.strategies.size(), 1u);
}

TEST(ModelLoadStudyTest, OnePullAtATimeQueuesTheSecondNode) {
  StudyStrategy limited = Named("limit-1");
  limited.max_origin_pulls = 1;
  StudyResult r = RunStudy(Study({limited}));
  const StrategyResult& s = r.strategies[0];
  // n1 pulls 0-10 s, n2 10-20 s.
  ExpectReady(s, {10.12, 11.12, 20.12, 21.12});
  // Nearest rank of 4 values: p50 is the 2nd, p95 and p99 the 4th.
  EXPECT_NEAR(s.load_s.p50, 11.12, kEps);
  EXPECT_NEAR(s.load_s.p95, 21.12, kEps);
  EXPECT_NEAR(s.load_s.p99, 21.12, kEps);
  EXPECT_NEAR(s.load_s.max, 21.12, kEps);
  EXPECT_TRUE(s.all_ready);
  EXPECT_NEAR(s.all_ready_s, 21.12, kEps);
  EXPECT_EQ(s.origin_bytes, 6'000'000'000);
  EXPECT_EQ(s.peak_origin_pulls, 1);
  EXPECT_EQ(s.by_source.at("origin"), 2);
  EXPECT_EQ(s.by_source.at("node-cache"), 2);
}

TEST(ModelLoadStudyTest, APerClusterLimitOfOneQueuesTheSecondNodeToo) {
  // One cluster: a per-cluster limit of 1 is a limit of 1.
  StudyStrategy per_cluster = Named("per-cluster-1");
  per_cluster.max_origin_pulls_per_cluster = 1;
  StudyResult r = RunStudy(Study({per_cluster}));
  ExpectReady(r.strategies[0], {10.12, 11.12, 20.12, 21.12});
  EXPECT_EQ(r.strategies[0].peak_origin_pulls, 1);
}

TEST(ModelLoadStudyTest, UnlimitedPullsRunTogetherUntilTheOriginSaturates) {
  StudyStrategy storm = Named("storm");
  StudyStrategy saturated = Named("saturated");
  // The bucket serves 0.3 GB/s in all: two pulls get 0.15 GB/s each, 20 s.
  saturated.origin.egress_gbps = 0.3;
  StudyResult r = RunStudy(Study({storm, saturated}));
  ExpectReady(r.strategies[0], {10.12, 10.12, 11.12, 11.12});
  EXPECT_EQ(r.strategies[0].peak_origin_pulls, 2);
  ExpectReady(r.strategies[1], {20.12, 20.12, 21.12, 21.12});
  EXPECT_EQ(r.strategies[1].origin_bytes, 6'000'000'000);
}

TEST(ModelLoadStudyTest, P2pPullsOnceAndCopies) {
  StudyStrategy p2p = Named("p2p");
  p2p.p2p = true;
  StudyResult r = RunStudy(Study({p2p}));
  const StrategyResult& s = r.strategies[0];
  // n1 pulls 0-10 s; n2 copies from n1 10-12.4 s.
  ExpectReady(s, {10.12, 11.12, 12.52, 13.52});
  EXPECT_EQ(s.origin_bytes, 3'000'000'000);
  EXPECT_EQ(s.by_source.at("origin"), 1);
  EXPECT_EQ(s.by_source.at("peer"), 1);
  EXPECT_EQ(s.by_source.at("node-cache"), 2);
}

TEST(ModelLoadStudyTest, WarmNodesReadTheirDisk) {
  StudyStrategy count = Named("one-warm");
  count.warm_nodes = 1;
  StudyStrategy percent = Named("half-warm");
  percent.warm_percent = 50;  // of 2 nodes: 1, the first by name (n1)
  StudyResult r = RunStudy(Study({count, percent}));
  for (const StrategyResult& s : r.strategies) {
    // n1's two replicas: 1 + 0.12 from the start; n2 pulls 0-10 s.
    ExpectReady(s, {1.12, 1.12, 10.12, 11.12});
    EXPECT_EQ(s.warm_nodes, 1);
    EXPECT_EQ(s.origin_bytes, 3'000'000'000);
  }
}

TEST(ModelLoadStudyTest, StagedWarmUpSeedsThenCopies) {
  StudyStrategy staged = Named("staged");
  staged.warmup_seed_nodes = 1;
  StudyResult r = RunStudy(Study({staged}));
  const StrategyResult& s = r.strategies[0];
  // Before the scale-out: n1 pulls 0-10 s. After it: n1 reads its disk, n2 copies from n1
  // (a seed serves peers with or without p2p), 0-2.4 s.
  ASSERT_EQ(s.seed_nodes, std::vector<std::string>{"n1"});
  EXPECT_NEAR(s.warmup_s, 10, kEps);
  EXPECT_EQ(s.warm_nodes, 0);  // seeds are warmed up, not warm before
  EXPECT_EQ(s.warmup_origin_bytes, 3'000'000'000);
  ExpectReady(s, {1.12, 1.12, 2.52, 3.52});
  EXPECT_EQ(s.origin_bytes, 0);
  EXPECT_EQ(s.peak_origin_pulls, 0);
  EXPECT_EQ(s.by_source.at("peer"), 1);
}

TEST(ModelLoadStudyTest, FleetCacheLabelsCountUnlessTurnedOff) {
  StudyStrategy fleet = Named("fleet");
  StudyStrategy cold = Named("cold");
  cold.fleet_cache = false;
  StudyResult r = RunStudy(Study({fleet, cold}), {"n2"});
  ExpectReady(r.strategies[0], {1.12, 1.12, 10.12, 11.12});
  EXPECT_EQ(r.strategies[0].warm_nodes, 1);
  ExpectReady(r.strategies[1], {10.12, 10.12, 11.12, 11.12});
  EXPECT_EQ(r.strategies[1].warm_nodes, 0);
}

TEST(ModelLoadStudyTest, ReplicasThatDoNotFitNeverLoad) {
  // 4 GPUs, 5 replicas of 1 GPU: one stays pending, so all-ready never comes.
  StudyResult r = RunStudy(Study({Named("storm")}, 5));
  EXPECT_EQ(r.unplaced, 1);
  EXPECT_EQ(r.strategies[0].ready_s.size(), 4u);
  EXPECT_FALSE(r.strategies[0].all_ready);
}

TEST(ModelLoadStudyTest, ErrorsNameTheStudyField) {
  ModelLoadStudy missing = Study({Named("a")});
  missing.inference_service = "serve/nope";
  auto r = RunModelLoadStudy(Fleet(), missing, engine::PlanOptions{});
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().code(), core::ErrorCode::kNotFound);
  EXPECT_EQ(r.error().location().field, "spec.inferenceService");
  EXPECT_EQ(r.error().location().object, "ModelLoadStudy/t");

  model::Snapshot two = Fleet();
  two.pods.push_back(two.pods[0]);
  two.pods.back().meta.name = "svc-1";
  auto fewer = RunModelLoadStudy(std::move(two), Study({Named("a")}, 1), engine::PlanOptions{});
  ASSERT_FALSE(fewer.has_value());
  EXPECT_EQ(fewer.error().location().field, "spec.replicas");

  model::Snapshot sizeless = Fleet();
  sizeless.inference_services[0].size_bytes.reset();
  auto no_size = RunModelLoadStudy(std::move(sizeless), Study({Named("a")}), engine::PlanOptions{});
  ASSERT_FALSE(no_size.has_value());
  EXPECT_EQ(no_size.error().code(), core::ErrorCode::kFailedPrecondition);
}

TEST(ModelLoadStudyTest, DescribesStrategiesAsRun) {
  StrategyResult r;
  r.strategy = Named("x");
  EXPECT_EQ(DescribeStrategy(r), "cold, no pull limit");
  r.strategy.max_origin_pulls = 8;
  r.strategy.p2p = true;
  r.strategy.warm_percent = 25;
  r.strategy.origin.egress_gbps = 4;
  r.warm_nodes = 8;
  EXPECT_EQ(DescribeStrategy(r), "8 nodes warm (25%), 8 origin pulls at once, p2p, origin 4 GB/s");
  r = StrategyResult{};
  r.strategy = Named("y");
  r.strategy.max_origin_pulls = 1;
  r.strategy.fleet_cache = false;
  r.strategy.origin.stream_gbps = 0.5;
  r.seed_nodes = {"n1"};
  EXPECT_EQ(DescribeStrategy(r),
            "fleet cache ignored, warm-up to 1 seed, 1 origin pull at once, 0.5 GB/s per pull");
}

TEST(ModelLoadReportTest, OneChartPerStrategyAndTheFiguresInJson) {
  StudyStrategy limited = Named("limit-1");
  limited.max_origin_pulls = 1;
  StudyResult r = RunStudy(Study({Named("storm"), limited}));
  report::ReportOptions ro;
  ro.berth_version = "test";
  const std::string html = report::RenderModelLoadHtml(r, ro);
  EXPECT_NE(html.find("data-chart=\"ready-storm\""), std::string::npos);
  EXPECT_NE(html.find("data-chart=\"ready-limit-1\""), std::string::npos);
  EXPECT_NE(html.find("data-chart=\"load-percentiles\""), std::string::npos);
  // 21.12 s rounds to 21s in the table.
  EXPECT_NE(html.find("<td>21s</td>"), std::string::npos);
  const std::string json = report::RenderModelLoadJson(r, ro);
  EXPECT_NE(json.find("\"origin_bytes\": 6000000000"), std::string::npos);
  EXPECT_NE(json.find("\"peak_origin_pulls\": 1"), std::string::npos);
  EXPECT_EQ(report::RenderModelLoadJson(r, ro), json);  // same study, same bytes
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim::modelload
