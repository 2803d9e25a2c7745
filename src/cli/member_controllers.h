// MemberControllers: a simulated member cluster's workload controllers and kubelet
// (server/member) run against its store after each scheduling cycle: the objects they read
// are listed from the store, one round runs (controllers repeated until nothing changes), and
// each change is written as a controller writes it, one object (or one marked batch) at a
// time, conditional on the resourceVersion the round read (a change that lost a race is dropped; the next round decides
// again on the newer object). Pods are deleted gracefully: marked with a deletionTimestamp,
// removed by the scheduling loop once it passes. Lives in cli because it joins the store and
// server/member; called on the loop's thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>

#include "server/member/controller_options.h"
#include "server/rest/change_feed.h"
#include "store/store.h"

namespace berth::cli {

struct MemberRoundStats {
  size_t objects = 0;
  size_t written = 0;
  size_t conflicts = 0;  // changes dropped: the object changed since the round read it
};

class MemberControllers {
 public:
  MemberControllers(store::Store& store, server::ChangeFeed& feed,
                    server::member::ControllerOptions options,
                    std::function<void(const std::string&)> log);

  // One round at `now_unix_s` (empty clock: the system's).
  MemberRoundStats RunRound(int64_t now_unix_s);

 private:
  store::Store& store_;
  server::ChangeFeed& feed_;
  server::member::ControllerOptions options_;
  std::function<void(const std::string&)> log_;
  std::set<std::string> reported_;  // diagnostics already logged (object + reason)
};

}  // namespace berth::cli
