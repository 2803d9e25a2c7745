// MetricsRegistry: the hub's metrics in the Prometheus text exposition format (version
// 0.0.4) for /metrics: counters, gauges and histograms, each a family of series told apart
// by labels. Kueue's metric names and labels (kueue_metrics.h) so existing Kueue dashboards
// work, plus berth_* series for the loop, the store and the HTTP layer. Written by request
// threads and the scheduling loop, read by /metrics: thread-safe (one mutex; a write is a
// map lookup, so contention is short).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace berth::server {

// Label pairs in the order given (the exposition keeps it).
using MetricLabels = std::vector<std::pair<std::string, std::string>>;

enum class MetricType { kCounter, kGauge, kHistogram };

// Kueue's histogram buckets (pkg/metrics generalBuckets): 1, 2.5, 5, 10, then doubling.
std::vector<double> KueueBuckets();
// Buckets for sub-second durations (cycle stages, store commits, requests): 0.5 ms .. 10 s.
std::vector<double> LatencyBuckets();

class MetricsRegistry {
 public:
  // Declares a family (help text and type; histograms take their buckets). Using an
  // undeclared name declares it as the call's type with no help.
  void Describe(std::string_view name, MetricType type, std::string_view help,
                std::vector<double> buckets = {});

  void Add(std::string_view name, const MetricLabels& labels, double delta = 1);
  void Set(std::string_view name, const MetricLabels& labels, double value);
  void Observe(std::string_view name, const MetricLabels& labels, double value);
  // Replaces every series of a gauge family at once (series not given disappear), for
  // gauges recomputed from state, where a queue that is gone must not keep its last value.
  void ReplaceGauge(std::string_view name, std::vector<std::pair<MetricLabels, double>> series);

  // The exposition text: families by name, series by label text. O(series).
  std::string Text() const;
  size_t series_count() const;

 private:
  struct Series {
    double value = 0;               // counter, gauge; histogram: the sum
    std::vector<uint64_t> buckets;  // histogram: cumulative counts per upper bound
    uint64_t count = 0;             // histogram
  };
  struct Family {
    MetricType type = MetricType::kGauge;
    std::string help;
    std::vector<double> bounds;
    std::map<std::string, Series> series;  // by rendered label text: {a="x",b="y"}
  };
  Family& FamilyOf(std::string_view name, MetricType type);

  mutable std::mutex mu_;
  std::map<std::string, Family, std::less<>> families_;
};

// {a="x",b="y"} with values escaped as the format requires (backslash, quote, newline); ""
// for no labels.
std::string RenderLabels(const MetricLabels& labels);

}  // namespace berth::server
