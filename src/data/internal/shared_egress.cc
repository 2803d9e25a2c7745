#include "data/internal/shared_egress.h"

#include <algorithm>
#include <limits>

#include "core/check.h"

namespace berth::data::internal {

void SharedEgress::AdvanceTo(double now) {
  const double dt = now - now_;
  if (dt > 0) {
    for (auto& [cap, g] : groups_) g.served += g.rate * dt;
  }
  now_ = std::max(now_, now);
}

void SharedEgress::Rebalance() {
  double left = egress_;
  int64_t pulls = active_;
  for (auto& [cap, g] : groups_) {
    const auto n = static_cast<int64_t>(g.finish.size());
    const double share = left / static_cast<double>(pulls);
    // Caps ascend: once a cap exceeds the fair share, every later group gets the share too.
    g.rate = std::min(cap, share);
    left -= g.rate * static_cast<double>(n);
    pulls -= n;
  }
}

void SharedEgress::Add(int32_t id, double bytes, double cap_bytes_per_s, double now) {
  AdvanceTo(now);
  Group& g = groups_[cap_bytes_per_s];
  g.finish.emplace(g.served + bytes, id);
  ++active_;
  Rebalance();
}

double SharedEgress::NextCompletion() const {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& [cap, g] : groups_) {
    if (g.finish.empty()) continue;
    best = std::min(best, now_ + (g.finish.top().first - g.served) / g.rate);
  }
  return best;
}

void SharedEgress::PopCompleted(double now, std::vector<int32_t>* done) {
  // The group that set `now` may fall a rounding error short of its first finish: pull it
  // up, and take with it every pull within a relative 1e-12 of the finish line.
  double first = std::numeric_limits<double>::infinity();
  Group* due = nullptr;
  for (auto& [cap, g] : groups_) {
    if (g.finish.empty()) continue;
    double t = now_ + (g.finish.top().first - g.served) / g.rate;
    if (t < first) {
      first = t;
      due = &g;
    }
  }
  BERTH_CHECK(due != nullptr, "PopCompleted with no pull in flight");  // callers check active()
  AdvanceTo(now);
  due->served = std::max(due->served, due->finish.top().first);
  for (auto it = groups_.begin(); it != groups_.end();) {
    Group& g = it->second;
    while (!g.finish.empty() && g.finish.top().first <= g.served * (1 + 1e-12)) {
      done->push_back(g.finish.top().second);
      g.finish.pop();
      --active_;
    }
    it = g.finish.empty() ? groups_.erase(it) : std::next(it);
  }
  if (active_ > 0) Rebalance();
}

}  // namespace berth::data::internal
