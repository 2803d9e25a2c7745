// `berth rollout status|history|undo|pause|resume manifestworkreplicaset/NAME`: kubectl
// rollout for the ManifestWorkReplicaSets the hub rolls out, against the hub's API (the
// kubeconfig from --kubeconfig, else $KUBECONFIG, else ~/.kube/config; --context; the
// namespace from -n, else the context's, else "default"). What each subcommand decides is in
// rollout_view.h. Called by main.cc; returns the process exit code: 0, 1 when `status` finds
// the rollout rolled back or paused by berth (it will not finish by itself), 2 on an error.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "server/kube/kube_client.h"

namespace berth::cli {

struct RolloutFlags {
  std::string action;              // status, history, undo, pause, resume
  std::vector<std::string> target;  // TYPE/NAME or TYPE NAME
  std::string ns;                  // -n, --namespace
  std::string kubeconfig;          // --kubeconfig
  std::string context;             // --context
  int64_t revision = 0;            // history --revision
  int64_t to_revision = 0;         // undo --to-revision
  bool watch = true;               // status --watch
  std::string timeout = "0s";      // status --timeout (0: wait for ever)
  std::string poll = "1s";         // status: time between reads while watching
};

int RunRolloutCommand(const RolloutFlags& flags, std::ostream& out, std::ostream& err);

// The same against a client the caller made (tests: an in-process hub); `ns` is resolved.
int RunRollout(const RolloutFlags& flags, server::kube::Client& client, const std::string& ns,
               std::ostream& out, std::ostream& err);

}  // namespace berth::cli
