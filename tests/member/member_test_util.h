// Test support for the member cluster's controllers: object builders and SimCluster, a
// cluster driven the way the lead's loop drives it (a round, its changes applied, pending pods
// bound, time passing, graceful deletions finishing). Every SimCluster round also checks the
// level-triggered contract: the same round run again on its own result changes nothing
// (unless it deleted a non-pod object, whose removal from the store is new state).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "server/member/apply_changes.h"
#include "server/member/controller_round.h"
#include "server/member/member_objects.h"

namespace berth::server::member::testing {

// 2026-01-01T00:00:00Z: the clock of every test.
inline constexpr int64_t kT0 = 1767225600;

Json J(std::string_view text);

// A Node with `gpus` nvidia.com/gpu in capacity and allocatable.
Json MakeNode(const std::string& name, int64_t gpus = 0);
// An object of apiVersion/kind in namespace "default" with uid "uid-<name>", generation 1,
// creationTimestamp kT0 and `spec`.
Json MakeObject(std::string_view api_version, std::string_view kind, const std::string& name,
                Json spec);
// A pod template: labels {app: <app>}, one container "main" (image busybox), the annotations
// given, restartPolicy when not empty.
Json PodTemplate(const std::string& app, Json annotations = Json::object(),
                 const std::string& restart_policy = "");

// Changes of `round` of the given op and kind.
std::vector<const Change*> ChangesOf(const ControllerRound& round, Change::Op op, Kind kind);
std::string Describe(const std::vector<Change>& changes);

class SimCluster {
 public:
  explicit SimCluster(int64_t now = kT0);

  ControllerOptions options;
  int64_t now;
  // Whether Round() checks that a second run on its result changes nothing.
  bool check_idempotent = true;

  void Add(Json object);
  void Replace(Json object);  // replaces the object with the same key
  void Remove(Kind kind, const std::string& ns, const std::string& name);

  // One round at `now`, its changes applied (pods deleted gracefully).
  ControllerRound Round();
  // Binds every unbound, active pod to the given nodes in turn (the scheduler's part), skipping
  // nodes with the unreachable taint. Returns how many were bound.
  int Bind(const std::vector<std::string>& nodes);
  // Moves the clock and completes the graceful deletions that are due.
  void Advance(int64_t seconds);
  // Round, Bind, Advance(step_s), `steps` times.
  void Run(int steps, int64_t step_s, const std::vector<std::string>& nodes);

  const Json* Find(Kind kind, const std::string& ns, const std::string& name) const;
  // The object (an empty object and a test failure when absent).
  const Json& Get(Kind kind, const std::string& name, const std::string& ns = "default") const;
  std::vector<const Json*> List(Kind kind) const;
  // Pods whose controller is `owner`, by name.
  std::vector<const Json*> PodsOf(const Json& owner) const;
  std::vector<const Json*> OwnedBy(Kind kind, const Json& owner) const;
  const MemberView& view() const { return view_; }

 private:
  MemberView view_;
};

}  // namespace berth::server::member::testing
