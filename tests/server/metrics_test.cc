// The Prometheus text of MetricsRegistry and Kueue's workload transition counters.
#include "server/metrics/metrics_registry.h"

#include <gtest/gtest.h>

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

}  // namespace BERTH_UNITY_ID
}  // namespace berth::server
