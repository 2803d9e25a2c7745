// Reads go through the hub's API like kubectl's: one GET of the MWRS and one list of the
// namespace's ControllerRevisions (owned ones are picked by ownerReference, so a name cut to
// fit a label still matches). Writes are patches guarded by the resourceVersion read, so an
// undo never overwrites a template someone changed meanwhile.
#include "cli/rollout_command.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "cli/agent_command.h"
#include "cli/exit_code.h"
#include "cli/rollout_view.h"
#include "server/kube/http_transport.h"
#include "sim/trace/values.h"

namespace berth::cli {

namespace {

namespace kube = server::kube;

constexpr int kRolloutFailed = 1;

int FailRollout(const core::Error& e, std::ostream& err) {
  PrintError(e, err);
  return ToInt(ExitCode::kFailed);
}

// kubectl's order: --kubeconfig, the first existing file of $KUBECONFIG, ~/.kube/config.
std::string KubeconfigPath(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("KUBECONFIG"); env && *env) {
    std::string list = env;
    size_t start = 0;
    while (start <= list.size()) {
      const size_t end = std::min(list.find(':', start), list.size());
      const std::string path = list.substr(start, end - start);
      if (!path.empty() && std::filesystem::exists(path)) return path;
      start = end + 1;
    }
  }
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.kube/config";
  return "";
}

struct Observed {
  Json mwrs;
  std::vector<RolloutRevision> revisions;
};

core::Result<Observed> Observe(kube::Client& client, const std::string& ns, const std::string& name) {
  BERTH_ASSIGN_OR_RETURN(kube::Resource mwrs_resource,
                         kube::ResourceFor("work.open-cluster-management.io/v1alpha1", "ManifestWorkReplicaSet"));
  BERTH_ASSIGN_OR_RETURN(kube::Resource revision_resource, kube::ResourceFor("apps/v1", "ControllerRevision"));
  BERTH_ASSIGN_OR_RETURN(kube::Reply got, client.Get(mwrs_resource, ns, name));
  if (got.status == 404) {
    return core::NotFound("manifestworkreplicasets.work.open-cluster-management.io \"" + name +
                          "\" not found in namespace " + ns);
  }
  if (!got.ok()) return core::Error(core::ErrorCode::kUnavailable, "reading the MWRS: " + got.Message());
  Observed observed;
  observed.mwrs = got.Parsed();
  BERTH_ASSIGN_OR_RETURN(kube::Reply listed, client.ListAll(revision_resource, ns));
  if (!listed.ok()) return core::Error(core::ErrorCode::kUnavailable, "listing ControllerRevisions: " + listed.Message());
  observed.revisions = OwnedRevisions(observed.mwrs, listed.Parsed());
  return observed;
}

int Status(const RolloutFlags& flags, kube::Client& client, const std::string& ns, const std::string& name,
           std::ostream& out, std::ostream& err) {
  auto timeout = sim::ParseDuration(flags.timeout);
  if (!timeout || *timeout < 0) return FailRollout(core::InvalidArgument("--timeout " + flags.timeout + ": want a duration (0s: no limit)"), err);
  auto poll = sim::ParseDuration(flags.poll);
  if (!poll || *poll <= 0) return FailRollout(core::InvalidArgument("--poll " + flags.poll + ": want a positive duration"), err);
  const auto start = std::chrono::steady_clock::now();
  std::string last;
  while (true) {
    auto observed = Observe(client, ns, name);
    if (!observed) return FailRollout(observed.error(), err);
    const RolloutState state = StatusOf(observed->mwrs, observed->revisions);
    if (state.failed) {
      PrintError(core::FailedPrecondition(state.message), err);
      return kRolloutFailed;
    }
    if (state.message != last) {
      out << state.message << '\n';
      out.flush();
      last = state.message;
    }
    if (state.done || !flags.watch) return ToInt(ExitCode::kOk);
    const auto waited = std::chrono::steady_clock::now() - start;
    if (*timeout > 0 && waited >= std::chrono::seconds(*timeout)) {
      PrintError(core::Error(core::ErrorCode::kUnavailable, "timed out waiting for the rollout of " + RolloutObjectName(name) +
                                        " (--timeout " + flags.timeout + ")"),
                 err);
      return kRolloutFailed;
    }
    std::this_thread::sleep_for(std::chrono::seconds(*poll));
  }
}

int Patch(kube::Client& client, const std::string& ns, const std::string& name, const char* type,
          const std::string& body, std::ostream& err) {
  auto resource = kube::ResourceFor("work.open-cluster-management.io/v1alpha1", "ManifestWorkReplicaSet");
  if (!resource) return FailRollout(resource.error(), err);
  auto reply = client.Patch(*resource, ns, name, type, body);
  if (!reply) return FailRollout(reply.error(), err);
  if (reply->status == 409 || reply->status == 422) {
    return FailRollout(core::FailedPrecondition(RolloutObjectName(name) + " changed while berth read it (" + reply->Message() +
                              "): run the command again"),
                err);
  }
  if (!reply->ok()) return FailRollout(core::Error(core::ErrorCode::kUnavailable, "patching " + RolloutObjectName(name) + ": " + reply->Message()), err);
  return ToInt(ExitCode::kOk);
}

}  // namespace

int RunRollout(const RolloutFlags& flags, kube::Client& client, const std::string& ns, std::ostream& out,
               std::ostream& err) {
  auto name = ParseRolloutTarget(flags.target);
  if (!name) return FailRollout(name.error(), err);
  if (flags.action == "status") return Status(flags, client, ns, *name, out, err);
  auto observed = Observe(client, ns, *name);
  if (!observed) return FailRollout(observed.error(), err);
  if (flags.action == "history") {
    if (flags.revision != 0) {
      auto detail = RevisionDetail(*name, observed->revisions, flags.revision);
      if (!detail) return FailRollout(detail.error(), err);
      out << *detail;
    } else {
      out << HistoryTable(*name, observed->revisions);
    }
    return ToInt(ExitCode::kOk);
  }
  if (flags.action == "undo") {
    auto plan = PlanUndo(observed->mwrs, observed->revisions, flags.to_revision);
    if (!plan) return FailRollout(plan.error(), err);
    if (!plan->patch) {
      out << RolloutObjectName(*name) << " skipped rollback (current template already matches revision "
          << plan->to_revision << ")\n";
      return ToInt(ExitCode::kOk);
    }
    if (int rc = Patch(client, ns, *name, "json", *plan->patch, err); rc != 0) return rc;
    out << RolloutObjectName(*name) << " rolled back to revision " << plan->to_revision << '\n';
    return ToInt(ExitCode::kOk);
  }
  if (flags.action == "pause" || flags.action == "resume") {
    const bool pause = flags.action == "pause";
    auto patch = PausePatch(observed->mwrs, pause);
    if (!patch) {
      out << RolloutObjectName(*name) << (pause ? " already paused\n" : " already resumed\n");
      return ToInt(ExitCode::kOk);
    }
    if (int rc = Patch(client, ns, *name, "merge", *patch, err); rc != 0) return rc;
    out << RolloutObjectName(*name) << (pause ? " paused\n" : " resumed\n");
    return ToInt(ExitCode::kOk);
  }
  return FailRollout(core::InvalidArgument("unknown rollout subcommand \"" + flags.action + "\""), err);
}

int RunRolloutCommand(const RolloutFlags& flags, std::ostream& out, std::ostream& err) {
  // The arguments first: a wrong kind is named before any kubeconfig is looked for.
  if (auto name = ParseRolloutTarget(flags.target); !name) return FailRollout(name.error(), err);
  const std::string path = KubeconfigPath(flags.kubeconfig);
  if (path.empty()) return FailRollout(core::InvalidArgument("no kubeconfig: give --kubeconfig or set KUBECONFIG"), err);
  auto config = HttpConfigFromKubeconfigFile(path, flags.context);
  if (!config) return FailRollout(config.error(), err);
  const std::string ns = !flags.ns.empty() ? flags.ns
                         : !config->default_namespace.empty() ? config->default_namespace
                                                               : "default";
  auto transport = kube::NewHttpTransport(*config);
  if (!transport) return FailRollout(transport.error(), err);
  kube::Client client(std::move(transport).value());
  return RunRollout(flags, client, ns, out, err);
}

}  // namespace berth::cli
