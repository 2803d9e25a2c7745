// The Prometheus text of MetricsRegistry, Kueue's workload transition counters and berth's
// FederatedLearning gauges.
#include "server/metrics/metrics_registry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "server/metrics/federated_learning_metrics.h"
#include "server/metrics/kueue_metrics.h"

namespace berth::server {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

TEST(MetricsRegistryTest, CountersGaugesHistogramsInTextFormat) {
  MetricsRegistry r;
  r.Describe("a_total", MetricType::kCounter, "Things done");
  r.Add("a_total", {{"kind", "x"}});
  r.Add("a_total", {{"kind", "x"}}, 2);
  r.Set("b", {{"q", "has \"quote\" and \\ and\nnewline"}}, 1.5);
  r.Describe("c_seconds", MetricType::kHistogram, "Latency", {0.1, 1});
  r.Observe("c_seconds", {}, 0.05);
  r.Observe("c_seconds", {}, 0.5);
  r.Observe("c_seconds", {}, 5);
  const std::string text = r.Text();
  EXPECT_NE(text.find("# HELP a_total Things done\n# TYPE a_total counter\na_total{kind=\"x\"} 3\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("b{q=\"has \\\"quote\\\" and \\\\ and\\nnewline\"} 1.5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("c_seconds_bucket{le=\"0.1\"} 1\nc_seconds_bucket{le=\"1\"} 2\n"
                      "c_seconds_bucket{le=\"+Inf\"} 3\nc_seconds_sum 5.55\nc_seconds_count 3\n"),
            std::string::npos)
      << text;
  r.ReplaceGauge("b", {{{{"q", "new"}}, 2}});
  EXPECT_EQ(r.Text().find("quote"), std::string::npos);
  EXPECT_EQ(r.series_count(), 3u);
}

TEST(MetricsRegistryTest, KueueBucketsDouble) {
  const std::vector<double> b = KueueBuckets();
  ASSERT_EQ(b.size(), 14u);
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(b[1], 2.5);
  EXPECT_EQ(b[4], 20);
}

Json Workload(bool reserved, bool admitted, bool evicted) {
  Json conditions = Json::array();
  if (reserved) conditions.push_back({{"type", "QuotaReserved"}, {"status", "True"}});
  if (admitted) conditions.push_back({{"type", "Admitted"}, {"status", "True"}});
  if (evicted) conditions.push_back({{"type", "Evicted"}, {"status", "True"}, {"reason", "Preempted"}});
  Json w = {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
            {"kind", "Workload"},
            {"metadata", {{"name", "w"}, {"creationTimestamp", "2026-01-01T00:00:00Z"}}},
            {"spec", {{"priorityClassRef", {{"name", "high"}}}}},
            {"status", {{"conditions", conditions}}}};
  if (reserved) w["status"]["admission"] = {{"clusterQueue", "cq"}};
  return w;
}

TEST(KueueMetricsTest, TransitionsCountOnceWithTheirWait) {
  MetricsRegistry r;
  DescribeKueueMetrics(r);
  const int64_t created = 1767225600;  // 2026-01-01T00:00:00Z
  const Json pending = Workload(false, false, false);
  const Json admitted = Workload(true, true, false);
  RecordWorkloadTransition(&pending, admitted, created + 30, "standalone", r);
  RecordWorkloadTransition(&admitted, admitted, created + 60, "standalone", r);  // no change
  const std::string text = r.Text();
  EXPECT_NE(text.find("kueue_admitted_workloads_total{cluster_queue=\"cq\",priority_class=\"high\","
                      "replica_role=\"standalone\"} 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("kueue_admission_wait_time_seconds_sum{cluster_queue=\"cq\",priority_class=\"high\","
                      "replica_role=\"standalone\"} 30\n"),
            std::string::npos)
      << text;
  RecordWorkloadTransition(&admitted, Workload(true, false, true), created + 90, "standalone", r);
  EXPECT_NE(r.Text().find("kueue_evicted_workloads_total{cluster_queue=\"cq\",reason=\"Preempted\","
                          "replica_role=\"standalone\"} 1\n"),
            std::string::npos);
}

engine::FederatedLearningRun FlRun(const std::string& name, model::FlPhase phase) {
  engine::FederatedLearningRun run;
  run.namespace_ = "team-eu";
  run.name = name;
  run.phase = phase;
  return run;
}

TEST(FederatedLearningMetricsTest, GaugesPerFederatedLearningReplacedEachCycle) {
  MetricsRegistry r;
  DescribeFederatedLearningMetrics(r);
  engine::FederatedLearningRun running = FlRun("mnist", model::FlPhase::kRunning);
  running.current_round = 3;
  running.rounds = 5;
  running.clients = 2;
  running.min_clients = 2;
  running.excluded = 1;
  running.loss = 0.25;
  engine::FederatedLearningRun diverged = FlRun("cifar", model::FlPhase::kFailed);
  diverged.lost = 1;
  diverged.loss = std::numeric_limits<double>::quiet_NaN();
  const engine::FederatedLearningRun waiting = FlRun("new", model::FlPhase::kWaiting);
  UpdateFederatedLearningGauges(std::vector{running, diverged, waiting}, r);
  const std::string text = r.Text();
  EXPECT_NE(text.find("# HELP berth_federated_learning_phase FederatedLearnings by phase (Waiting, "
                      "Running, Completed, Failed): 1 for the phase each is in, 0 for the others\n"
                      "# TYPE berth_federated_learning_phase gauge\n"),
            std::string::npos)
      << text;
  // Every phase has a series, 1 for the current one.
  for (const char* line : {
           "berth_federated_learning_phase{namespace=\"team-eu\",name=\"mnist\",phase=\"Running\"} 1\n",
           "berth_federated_learning_phase{namespace=\"team-eu\",name=\"mnist\",phase=\"Waiting\"} 0\n",
           "berth_federated_learning_phase{namespace=\"team-eu\",name=\"mnist\",phase=\"Completed\"} 0\n",
           "berth_federated_learning_phase{namespace=\"team-eu\",name=\"mnist\",phase=\"Failed\"} 0\n",
           "berth_federated_learning_phase{namespace=\"team-eu\",name=\"cifar\",phase=\"Failed\"} 1\n",
           "berth_federated_learning_round{namespace=\"team-eu\",name=\"mnist\"} 3\n",
           "berth_federated_learning_min_clients{namespace=\"team-eu\",name=\"mnist\"} 2\n",
           "berth_federated_learning_clients{namespace=\"team-eu\",name=\"mnist\",state=\"training\"} 2\n",
           "berth_federated_learning_clients{namespace=\"team-eu\",name=\"mnist\",state=\"excluded\"} 1\n",
           "berth_federated_learning_clients{namespace=\"team-eu\",name=\"mnist\",state=\"eligible\"} 0\n",
           "berth_federated_learning_clients{namespace=\"team-eu\",name=\"cifar\",state=\"lost\"} 1\n",
           "berth_federated_learning_loss{namespace=\"team-eu\",name=\"mnist\"} 0.25\n",
           "berth_federated_learning_loss{namespace=\"team-eu\",name=\"cifar\"} NaN\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << text;
  }
  // No loss before the server reported one.
  EXPECT_EQ(text.find("berth_federated_learning_loss{namespace=\"team-eu\",name=\"new\"}"),
            std::string::npos)
      << text;
  // A FederatedLearning gone from the plan leaves no series behind.
  UpdateFederatedLearningGauges(std::vector{waiting}, r);
  const std::string after = r.Text();
  EXPECT_EQ(after.find("name=\"mnist\""), std::string::npos) << after;
  EXPECT_EQ(after.find("name=\"cifar\""), std::string::npos) << after;
  EXPECT_NE(after.find("berth_federated_learning_phase{namespace=\"team-eu\",name=\"new\",phase=\"Waiting\"} 1\n"),
            std::string::npos)
      << after;
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
