// Summary statistics used by the run metrics and the reports: exact nearest-rank percentiles,
// distribution summaries, mean and sample standard deviation, and Jain's fairness index.
// Pure functions of their inputs; thread-safe. Sorting is O(n log n), the rest O(n).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace berth::sim {

// The nearest-rank percentile of ascending values: the smallest value such that at least p%
// of the values are <= it, i.e. sorted[ceil(p/100 * n) - 1] (and sorted[0] for p == 0). It is
// always one of the values (no interpolation), so p50 of {1, 2, 3, 4} is 2 and p99 of 100
// values is the 99th. Preconditions (bugs otherwise): sorted is non-empty and ascending,
// 0 <= p <= 100.
double NearestRankPercentile(std::span<const double> sorted, double p);

struct DistributionSummary {
  int64_t count = 0;
  double mean = 0;  // all five are 0 when count == 0
  double p50 = 0;
  double p95 = 0;
  double p99 = 0;
  double max = 0;
};

// Summary of ascending values (empty gives count 0 and zeros).
DistributionSummary SummarizeSorted(std::span<const double> sorted);
// Sorts a copy, then SummarizeSorted.
DistributionSummary Summarize(std::vector<double> values);

struct MeanSd {
  int64_t n = 0;
  double mean = 0;
  double sd = 0;  // sample standard deviation (divisor n-1); 0 when n < 2
};
MeanSd ComputeMeanSd(std::span<const double> values);

// Jain's fairness index (Jain, Chiu, Hawe 1984): (sum x)^2 / (n * sum x^2), in [1/n, 1]; 1
// when every x is equal. Defined as 1 for an empty input and for all-zero x (nobody is treated
// differently). Precondition: x >= 0.
double JainIndex(std::span<const double> x);

}  // namespace berth::sim
