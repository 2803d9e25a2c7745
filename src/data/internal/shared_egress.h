// SharedEgress: the origin pulls in flight and how they share the origin's egress limit
// (max-min fair: a pull capped below the fair share keeps its cap, the others split the
// rest). Used only by fetch_schedule.cc. Thread-compatible.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <utility>
#include <vector>

namespace berth::data::internal {

class SharedEgress {
 public:
  explicit SharedEgress(double egress_bytes_per_s) : egress_(egress_bytes_per_s) {}

  // Starts pull `id` of `bytes` (> 0) capped at `cap_bytes_per_s` (> 0) at time `now`
  // (>= the last time seen). O(log pulls + caps).
  void Add(int32_t id, double bytes, double cap_bytes_per_s, double now);

  // The time the next pull finishes, +infinity when none is in flight. O(caps).
  double NextCompletion() const;

  // Advances to `now` (= NextCompletion()) and appends the pulls finished by then to `done`
  // (at least one). O((finished + caps) log pulls).
  void PopCompleted(double now, std::vector<int32_t>* done);

  int32_t active() const { return active_; }

 private:
  // Pulls with one cap progress at one rate at all times, so one counter of bytes served
  // per pull (`served`) replaces a counter per pull: a pull finishes when `served` reaches
  // the value it had at the start plus the pull's bytes. That keeps every event
  // O(distinct caps), not O(pulls in flight).
  struct Group {
    double served = 0;
    double rate = 0;
    std::priority_queue<std::pair<double, int32_t>, std::vector<std::pair<double, int32_t>>,
                        std::greater<>>
        finish;  // (served at finish, id)
  };

  void AdvanceTo(double now);
  void Rebalance();  // water-filling over the groups, ascending cap

  double egress_;
  double now_ = 0;
  int32_t active_ = 0;
  std::map<double, Group> groups_;  // by cap
};

}  // namespace berth::data::internal
