#include "sim/gpushare/arrival_buckets.h"

#include <cmath>
#include <vector>

#include "core/check.h"

namespace berth::sim::gpushare {

int ArrivedBucket(double arrived_pct) {
  // nearbyint rounds in the current mode, round-to-nearest-even by default, like Python's
  // round(x, 0) and numpy's round.
  return static_cast<int>(std::nearbyint(arrived_pct));
}

std::map<int, double> BucketByArrivedPct(std::span<const double> arrived_pct,
                                         std::span<const double> values, int max_pct) {
  BERTH_CHECK(arrived_pct.size() == values.size(), "one value per event");
  // Per bucket 0..max_pct+1 (the window of the last one reaches one further): events, and the
  // sum and count of the non-NaN values.
  const size_t slots = static_cast<size_t>(max_pct) + 2;
  std::vector<int> events(slots, 0);
  std::vector<double> sum(slots, 0.0);
  std::vector<int> counted(slots, 0);
  for (size_t e = 0; e < arrived_pct.size(); ++e) {
    const int bucket = ArrivedBucket(arrived_pct[e]);
    if (bucket < 0 || static_cast<size_t>(bucket) >= slots) continue;
    ++events[bucket];
    if (!std::isnan(values[e])) {
      sum[bucket] += values[e];
      ++counted[bucket];
    }
  }
  std::map<int, double> out;
  for (int k = 0; k <= max_pct; ++k) {
    int window_events = events[k];
    double window_sum = sum[k];
    int window_counted = counted[k];
    if (window_events == 0) {
      for (int j = k - 1; j <= k + 1; ++j) {
        if (j < 0 || static_cast<size_t>(j) >= slots) continue;
        window_events += events[j];
        window_sum += sum[j];
        window_counted += counted[j];
      }
    }
    if (window_events == 0 || window_counted == 0) continue;
    out[k] = window_sum / window_counted;
  }
  return out;
}

}  // namespace berth::sim::gpushare
