// The berth command: binds flags to the commands' flag structs with CLI11 and calls them.
// No logic lives here (STYLE.md); CLI11's exceptions are caught here and nowhere else.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/agent_command.h"
#include "cli/cluster_command.h"
#include "cli/completion.h"
#include "cli/demo_command.h"
#include "cli/doctor_command.h"
#include "cli/exit_code.h"
#include "cli/explain_command.h"
#include "cli/flags.h"
#include "cli/inventory_command.h"
#include "cli/object_filter.h"
#include "cli/plan_command.h"
#include "cli/rollout_command.h"
#include "cli/serve_command.h"
#include "cli/simulate_command.h"
#include "cli/suggest.h"
#include "cli/up_command.h"
#include "cli/version.h"
#include "cli/why_command.h"

namespace {

constexpr const char* kDescription =
    "berth places AI and GPU workloads on Kubernetes clusters and explains why.\n"
    "It reads the objects you already write (Nodes, Pods, Jobs, Deployments, JobSets,\n"
    "PyTorchJobs, LeaderWorkerSets, PriorityClasses, KubeSchedulerConfiguration) and decides,\n"
    "with kube-scheduler's semantics, where every pending pod goes.\n";

constexpr const char* kFooter =
    "\nExamples:\n"
    "  berth demo                           plan a built-in GPU fleet, explain a pending pod\n"
    "  berth plan -f manifests/ -o table    one line per pod: its node or why it waits\n"
    "  kubectl get nodes,pods -A -o yaml | berth plan -f -\n"
    "  berth why pod/ml/train-0 -f dir      why it waits, across every layer, and verified fixes\n"
    "  berth explain pod/ml/train-0 -f dir  nodes by verdict and class, with free capacity\n"
    "  berth inventory -f manifests/        GPUs per node: MIG layout, sharing, which pods\n"
    "  berth simulate --fleet f/ --trace philly.csv --report out/   replay a trace\n"
    "  berth up --demo                      a whole fleet here: hub, 3 simulated clusters, agents\n"
    "  berth rollout history mwrs/llm-serve -n serving   an MWRS's revisions and rollbacks\n"
    "\nExit codes: 0 all objects planned; 1 some objects were bad (the rest are planned);\n"
    "2 nothing could be planned (bad flags, unreadable input, unknown pod).";

constexpr const char* kPlanFooter =
    "\nReads multi-document YAML, JSON and kind: List (kubectl get -o yaml|json), from files,\n"
    "directories (*.yaml, *.yml, *.json, recursively) or - (stdin). Prints a v1 List of the\n"
    "pods with spec.nodeName and the PodScheduled condition written, then the ResourceClaims\n"
    "the plan allocated (status.allocation, status.reservedFor); or one line per pod, and\n"
    "one per allocated device, with -o table.\n"
    "\nExit codes: 0 all objects planned; 1 some objects were bad (the rest are planned);\n"
    "2 nothing could be planned (bad flags, unreadable input).";

constexpr const char* kRolloutFooter =
    "\nExamples (against the hub, as kubectl rollout against a cluster):\n"
    "  berth rollout status mwrs/llm-serve -n serving --kubeconfig berth-data/kubeconfig --context hub\n"
    "  berth rollout history mwrs/llm-serve -n serving [--revision 2]\n"
    "  berth rollout undo mwrs/llm-serve -n serving [--to-revision 1]\n"
    "  berth rollout pause|resume mwrs/llm-serve -n serving\n"
    "\nExit codes: 0 done; 1 status: the rollout was rolled back, paused by berth or timed out;\n"
    "2 an error (no such MWRS or revision, the hub unreachable, bad flags).";

constexpr const char* kExplainFooter =
    "\nExamples:\n"
    "  berth explain pod/ml/train-0 -f manifests/\n"
    "  berth explain pod/ml-research/llm-pretrain-1 --demo\n"
    "  berth explain pod/ml-research/llm-pretrain-1 --demo --node gpu-h100-01\n"
    "\nThe pod is explained at the state it meets in the cycle: after every pod ahead of it in\n"
    "the queue (higher priority, or older) was placed.";

constexpr const char* kWhyFooter =
    "\nExamples:\n"
    "  berth why pod/ml-research/eval-harness-0 --demo\n"
    "  berth why workload/ml-research/t5-finetune -f examples/demo-fleet -f examples/demo-hub\n"
    "  berth why job/team-a/pretrain-big -f fleet/hub --cluster eu-1=fleet/clusters/eu-1 -o json\n"
    "\nThe first reason of the chain is the layer that blocks. Each fix is verified by planning\n"
    "the input with the change applied; its effect names what else it preempts or delays.\n"
    "\nExit codes: 0 answered; 1 answered, but some objects were bad; 2 bad flags, unreadable\n"
    "input or an unknown target.";

constexpr const char* kDemoFooter =
    "\nThe fleet is examples/demo-fleet, compiled in: CPU, A100 and H100 nodes (some H100s\n"
    "MIG-partitioned), running daemons, and training and inference workloads, some of which\n"
    "cannot fit. `berth plan -f examples/demo-fleet` reads the same files from disk.";

constexpr const char* kFilesHelp = "File, directory or - (stdin) to read; repeatable";
constexpr const char* kScoringHelp =
    "NodeResourcesFit scoring for every profile (spread or bin-pack)";
constexpr const char* kClusterHelp =
    "NAME=PATH: the objects in PATH live in member cluster NAME (its Nodes, pods, queues); "
    "repeatable";
constexpr const char* kCyclesHelp =
    "Run exactly N Kueue scheduling cycles and N kube-scheduler passes and print what the "
    "controllers wrote after them (victims terminating, preemptors waiting); default: the "
    "settled state";
constexpr const char* kNowHelp = "The time the cycle runs at, RFC 3339 (2026-01-02T03:04:05Z)";

// Whether plans check their invariants (engine/invariants.h): BERTH_CHECK_INVARIANTS=1 or 0
// decides; unset, debug builds check and release builds do not. Read once, here, and passed
// down in the flags.
bool CheckInvariantsWanted() {
  if (const char* v = std::getenv("BERTH_CHECK_INVARIANTS"); v != nullptr) {
    return std::string(v) == "1";
  }
#ifdef NDEBUG
  return false;
#else
  return true;
#endif
}

// The CLI11 form of flags.h's checks: a failure is "--flag: problem", exit 2.
CLI::Validator NonEmpty() {
  return CLI::Validator(
      [](std::string& text) { return berth::cli::EmptyFlagValueProblem(text); }, "", "NONEMPTY");
}

CLI::Validator Count(int64_t min, int64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) { return berth::cli::CountFlagProblem(text, min, max); },
      "", "COUNT");
}

// kubectl's -n, -A and -l, filtering what a command prints (cli/object_filter.h).
void AddObjectFilterFlags(CLI::App* command, berth::cli::ObjectFilterFlags& filter) {
  command->add_option("-n,--namespace", filter.namespace_,
                      "Print only objects of this namespace (cluster-scoped ones always)");
  command->add_flag("-A,--all-namespaces", filter.all_namespaces,
                    "Print objects of every namespace (the default; wins over -n)");
  command->add_option("-l,--selector", filter.selector,
                      "Print only objects whose labels match (app=web,tier!=db,env in (a,b),!old)");
}

// The command tree as completion.h reads it: names, flags (a fixed set of values comes from
// the IsMember check, which CLI11 shows in the type name as "TEXT:{a,b}") and subcommands.
berth::cli::CompletionCommand CompletionTree(CLI::App& app) {
  berth::cli::CompletionCommand command;
  command.name = app.get_name();
  for (const CLI::Option* option : app.get_options()) {
    berth::cli::CompletionFlag flag;
    for (const std::string& name : option->get_snames()) flag.names.push_back("-" + name);
    for (const std::string& name : option->get_lnames()) flag.names.push_back("--" + name);
    flag.takes_value = option->get_expected_max() > 0;  // flags expect no value
    const std::string type = option->get_type_name();
    const size_t open = type.find('{');
    const size_t close = type.find('}', open);
    if (open != std::string::npos && close != std::string::npos) {
      std::string word;
      for (char c : type.substr(open + 1, close - open - 1)) {
        if (c == ',') {
          flag.choices.push_back(word);
          word.clear();
        } else if (c != ' ') {
          word += c;
        }
      }
      flag.choices.push_back(word);
    }
    if (flag.names.empty()) {  // a positional argument: its fixed values, if any
      command.arguments.insert(command.arguments.end(), flag.choices.begin(), flag.choices.end());
      continue;
    }
    command.flags.push_back(std::move(flag));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    command.subcommands.push_back(CompletionTree(*sub));
  }
  return command;
}

// kubectl's habit: a mistyped command or flag is an error naming it and the closest valid
// one, before CLI11 parses (which would report a missing required flag or "A subcommand is
// required" instead). Returns the message and the help line, or nullopt when the words are
// known. Short flags are left to CLI11 (a value like "-1" looks like one).
std::optional<std::pair<std::string, std::string>> Mistyped(CLI::App& app,
                                                           const std::vector<std::string>& args) {
  auto names_of = [](CLI::App* parent) {
    std::vector<std::string> names;
    for (CLI::App* sub : parent->get_subcommands([](CLI::App*) { return true; })) {
      names.push_back(sub->get_name());
    }
    return names;
  };
  CLI::App* current = &app;
  std::string path = "berth";
  size_t i = 0;
  // The command words: berth SUB [NESTED].
  while (i < args.size() && !args[i].empty() && args[i][0] != '-') {
    const std::vector<std::string> names = names_of(current);
    if (names.empty()) break;  // positional arguments of a leaf command
    CLI::App* next = nullptr;
    for (CLI::App* sub : current->get_subcommands([](CLI::App*) { return true; })) {
      if (sub->get_name() == args[i]) next = sub;
    }
    if (next == nullptr) {
      std::string message = "unknown command \"" + args[i] + "\" for \"" + path + "\"";
      if (auto near = berth::cli::Closest(args[i], names)) message += "; did you mean \"" + *near + "\"?";
      return std::make_pair(message, path + " --help");
    }
    current = next;
    path += " " + args[i];
    ++i;
  }
  std::vector<std::string> flags{"help"};
  for (const CLI::Option* option : current->get_options()) {
    for (const std::string& name : option->get_lnames()) flags.push_back(name);
  }
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;
    if (a.size() < 3 || a.compare(0, 2, "--") != 0) continue;
    const std::string name = a.substr(2, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 2);
    if (std::find(flags.begin(), flags.end(), name) != flags.end()) continue;
    std::string message = "unknown flag: --" + name;
    if (auto near = berth::cli::Closest(name, flags)) message += " (did you mean --" + *near + "?)";
    return std::make_pair(message, path + " --help");
  }
  return std::nullopt;
}

int Run(int argc, char** argv) {
  CLI::App app(kDescription, "berth");
  app.require_subcommand(1);
  app.set_version_flag("--version", berth::cli::VersionString());

  berth::cli::PlanFlags plan;
  plan.check_invariants = CheckInvariantsWanted();
  CLI::App* plan_cmd = app.add_subcommand(
      "plan", "Admit queued workloads, schedule pending pods; print them with the decisions");
  plan_cmd->add_option("-f,--filename", plan.files, kFilesHelp)->required();
  plan_cmd->add_option("-o,--output", plan.output,
                       "Output format: yaml, json, table, wide (more columns) or name (TYPE/NS/NAME)")
      ->check(CLI::IsMember({"yaml", "json", "table", "wide", "name"}))
      ->capture_default_str();
  plan_cmd->add_flag("--no-headers", plan.no_headers, "Tables without their header rows");
  AddObjectFilterFlags(plan_cmd, plan.filter);
  plan_cmd->add_option("--scoring", plan.scoring, kScoringHelp)
      ->check(CLI::IsMember({"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"}));
  plan_cmd->add_option("--now", plan.now, kNowHelp);
  plan_cmd->add_option("--cluster", plan.clusters, kClusterHelp);
  plan_cmd->add_option_function<std::string>(
      "--cycles", [&plan](const std::string& value) { plan.cycles = value; }, kCyclesHelp);

  berth::cli::ExplainFlags explain;
  CLI::App* explain_cmd = app.add_subcommand(
      "explain",
      "Explain a pod's node, a Kueue workload's admission and cluster, or a Placement's clusters");
  explain_cmd
      ->add_option("target", explain.target,
                   "TYPE/[NAMESPACE/]NAME: pod, workload (or job, deploy, jobset, ...) or placement")
      ->required();
  explain_cmd->add_option("-n,--namespace", explain.namespace_,
                          "The namespace of a target that names none");
  explain_cmd->add_option("-o,--output", explain.output, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  CLI::Option* explain_files = explain_cmd->add_option("-f,--filename", explain.files, kFilesHelp);
  explain_cmd->add_flag("--demo", explain.demo, "Explain a pod of the built-in demo fleet")
      ->excludes(explain_files);
  explain_cmd->add_option("--scoring", explain.scoring, kScoringHelp)
      ->check(CLI::IsMember({"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"}));
  explain_cmd->add_option("--now", explain.now, kNowHelp);
  explain_cmd->add_option("--cluster", explain.clusters, kClusterHelp);
  explain_cmd->add_option_function<std::string>(
      "--cycles", [&explain](const std::string& value) { explain.cycles = value; },
      "Explain the state after N cycles, as plan --cycles N prints it");
  explain_cmd->add_option("--node", explain.node,
                          "For a pod: every filter verdict and score on this one node");

  berth::cli::WhyFlags why;
  CLI::App* why_cmd = app.add_subcommand(
      "why",
      "Why a pod or workload waits, across every layer, and the verified fixes that would run it");
  why_cmd
      ->add_option("target", why.target,
                   "pod/[NAMESPACE/]NAME, workload/[NAMESPACE/]NAME or KIND/[NAMESPACE/]NAME of a "
                   "workload kind (job, deployment, jobset, pytorchjob, ...)")
      ->required();
  CLI::Option* why_files = why_cmd->add_option("-f,--filename", why.files, kFilesHelp);
  why_cmd->add_flag("--demo", why.demo, "Ask about the built-in demo fleet")->excludes(why_files);
  why_cmd->add_option("--cluster", why.clusters, kClusterHelp);
  why_cmd->add_option("--scoring", why.scoring, kScoringHelp)
      ->check(CLI::IsMember({"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"}));
  why_cmd->add_option("--now", why.now, kNowHelp);
  why_cmd->add_option("-o,--output", why.output, "Output format: text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();

  berth::cli::DemoFlags demo;
  CLI::App* demo_cmd =
      app.add_subcommand("demo", "Plan the built-in demo GPU fleet and explain a pending pod");
  demo_cmd
      ->add_option("-o,--output", demo.output,
                   "Output format: table (with an explanation), yaml or json")
      ->check(CLI::IsMember({"table", "yaml", "json"}))
      ->capture_default_str();
  demo_cmd->add_option("--scoring", demo.scoring, kScoringHelp)
      ->check(CLI::IsMember({"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"}));

  berth::cli::InventoryFlags inventory;
  CLI::App* inventory_cmd = app.add_subcommand(
      "inventory", "Show every node's GPUs: model, MIG layout, sharing, which pods use them");
  inventory_cmd->add_option("-f,--filename", inventory.files, kFilesHelp)->required();
  inventory_cmd->add_option("-o,--output", inventory.output, "Output format: table or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  inventory_cmd->add_flag("--no-headers", inventory.no_headers, "Device tables without headers");
  AddObjectFilterFlags(inventory_cmd, inventory.filter);
  inventory_cmd->add_option("--scoring", inventory.scoring, kScoringHelp)
      ->check(CLI::IsMember({"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"}));
  inventory_cmd->add_option("--now", inventory.now, kNowHelp);
  inventory_cmd->add_option("--cluster", inventory.clusters, kClusterHelp);

  berth::cli::SimulateFlags simulate;
  simulate.check_invariants = CheckInvariantsWanted();
  CLI::App* simulate_cmd = app.add_subcommand(
      "simulate", "Replay a trace over virtual time through the engine; compare policies");
  simulate_cmd->add_option("--fleet", simulate.fleet,
                           "The fleet: YAML objects (file or folder), or OpenB's node list CSV");
  simulate_cmd->add_option("--trace", simulate.trace, "The trace file to replay");
  simulate_cmd
      ->add_option("--format", simulate.format,
                   "Trace format: philly, pollux, csv, jsonl or openb (default: detected)")
      ->check(CLI::IsMember({"philly", "pollux", "csv", "berth-csv", "jsonl", "berth-jsonl",
                             "openb"}));
  simulate_cmd->add_option(
      "--policy", simulate.policy,
      "Policies to compare, comma-separated. openb: random, dotprod, clustering, packing, "
      "bestfit, fgd, berth, all (the paper's six) or all+berth (default); queued traces: "
      "default, LeastAllocated, MostAllocated, RequestedToCapacityRatio, or a GPU-sharing "
      "score plugin: random, dotprod, clustering, packing, bestfit, fgd");
  simulate_cmd->add_option("--seeds", simulate.seeds, "Seeds: 42, 42-51 or 1,5,9 (openb)")
      ->capture_default_str();
  simulate_cmd->add_option("--until", simulate.until,
                           "Stop after this much virtual time (30d, 12h, 90m); default: the end");
  simulate_cmd->add_option("--report", simulate.report,
                           "Write summary.json, metrics.csv and report.html into this folder");
  simulate_cmd->add_option("--scenario", simulate.scenario,
                           "A SimulationScenario file (fleet, trace, failure/maintenance events) or a "
                           "ModelLoadStudy file (model-load strategies to compare)");
  simulate_cmd->add_option("--tenant-queues", simulate.tenant_queues,
                           "CSV file tenant,namespace,local_queue mapping trace tenants to queues");
  simulate_cmd->add_option("--tenant-queue", simulate.tenant_queue,
                           "TENANT=NAMESPACE/QUEUE (TENANT * for the rest); repeatable");
  simulate_cmd->add_option("--cluster", simulate.cluster,
                           "The fleet's cluster the trace runs on (default: default)");
  simulate_cmd->add_option("--interval", simulate.interval, "Metrics interval")
      ->capture_default_str();
  simulate_cmd->add_option("--cycle-interval", simulate.cycle_interval,
                           "Run admission every interval instead of after every change");
  simulate_cmd->add_option("--max-gpus-per-pod", simulate.max_gpus_per_pod,
                           "Split larger jobs into pods of at most this many GPUs")
      ->check(Count(1, berth::cli::kMaxGpusPerPodFlag))
      ->capture_default_str();
  simulate_cmd->add_option("--threads", simulate.threads, "Runs in parallel (openb)")
      ->check(Count(1, berth::cli::kMaxSimulateThreads))
      ->capture_default_str();
  simulate_cmd->add_flag("--skip-bad-rows", simulate.skip_bad_rows,
                         "Warn about malformed trace rows and go on without them");

  berth::cli::ServeFlags serve;
  CLI::App* serve_cmd = app.add_subcommand(
      "serve", "Run the hub: a Kubernetes-style API over a durable store (kubectl works)");
  serve_cmd->add_option("--data", serve.data_dir, "Folder of the store and the kubeconfig")
      ->capture_default_str();
  serve_cmd->add_option("--store", serve.store,
                        "sqlite:DIR or postgres://... (default: SQLite in --data)");
  serve_cmd->add_option("--listen", serve.listen, "HOST:PORT to serve on (port 0: any free)")
      ->capture_default_str();
  serve_cmd->add_option("--tokens", serve.tokens,
                        "Token file (kube-apiserver's CSV: token,user,uid,\"group1,group2\"); "
                        "default: a generated admin token in --data/kubeconfig");
  serve_cmd->add_option("--tls-cert", serve.tls_cert, "PEM certificate: serve HTTPS");
  serve_cmd->add_option("--tls-key", serve.tls_key, "PEM private key of --tls-cert");
  serve_cmd->add_option("--client-ca", serve.client_ca,
                        "PEM CA bundle: accept client certificates it signed (CN user, O groups)");
  serve_cmd->add_option("-f,--filename", serve.files,
                        "Objects to apply at start (files, directories, -); repeatable");
  serve_cmd->add_flag("--demo", serve.demo, "Apply the built-in demo fleet at start");
  serve_cmd->add_option("--loop-period", serve.loop_period,
                        "Run a scheduling cycle at least this often (and after every change)")
      ->capture_default_str();
  serve_cmd->add_flag("--no-loop", serve.no_loop, "Serve the API only: no scheduling cycles");
  serve_cmd->add_option("--keep-events", serve.keep_events,
                        "Events the log keeps for watches to resume from (compacted each minute)")
      ->check(CLI::Range(int64_t{1000}, int64_t{100000000}))
      ->capture_default_str();
  serve_cmd->add_option("--lease", serve.lease,
                        "PostgreSQL: the leader's lease; a standby takes over once it lapses")
      ->capture_default_str();
  serve_cmd->add_option("--agent-lease", serve.agent_lease,
                        "A member cluster whose agent is silent this long turns Available=Unknown")
      ->capture_default_str();
  serve_cmd->add_option("--sync-period", serve.sync_period, "How often agents sync (told to them)")
      ->capture_default_str();
  serve_cmd->add_flag("--auto-accept", serve.auto_accept,
                      "Accept every cluster whose agent registers (else: set spec.hubAcceptsClient)");

  berth::cli::AgentFlags agent;
  CLI::App* agent_cmd = app.add_subcommand(
      "agent", "Run beside a member cluster: register it with the hub, sync its inventory, apply its works");
  agent_cmd->add_option("--hub", agent.hub, "The hub's URL (https://HOST:PORT)");
  agent_cmd->add_option("--token", agent.token, "Bearer token for the hub");
  agent_cmd->add_option("--token-file", agent.token_file, "File holding the hub token (re-read when it changes)");
  agent_cmd->add_option("--hub-ca", agent.hub_ca, "PEM file of the CA that signs the hub's certificate");
  agent_cmd->add_flag("--hub-insecure-skip-tls-verify", agent.hub_insecure,
                      "Do not check the hub's certificate (tests only)");
  agent_cmd->add_option("--hub-kubeconfig", agent.hub_kubeconfig,
                        "A kubeconfig of the hub (server, CA, token), instead of --hub/--token/--hub-ca");
  agent_cmd->add_option("--cluster", agent.cluster, "This member cluster's name on the hub")->required();
  agent_cmd->add_option("--kubeconfig", agent.kubeconfig,
                        "The member cluster's kubeconfig (default: the pod's service account)");
  agent_cmd->add_option("--context", agent.context, "The kubeconfig context (default: its current one)");
  agent_cmd->add_option("--state", agent.state_dir, "Folder where the agent keeps what it applied");
  agent_cmd->add_option("--claim", agent.claims, "NAME=VALUE: a ClusterClaim reported to the hub; repeatable");
  agent_cmd->add_option("--resync", agent.resync,
                        "How often a held work is applied again though nothing changed (else its status is read back)")
      ->capture_default_str();
  agent_cmd->add_option("--orphan-grace", agent.orphan_grace,
                        "How long a work the hub no longer has keeps running before it is removed")
      ->capture_default_str();

  berth::cli::ClusterFlags cluster;
  CLI::App* cluster_cmd = app.add_subcommand(
      "cluster", "Serve a simulated member cluster: its API, scheduler, controllers and kubelet");
  cluster_cmd->add_flag("--simulate", cluster.simulate, "Simulate the cluster (the only mode)");
  cluster_cmd->add_option("--nodes", cluster.nodes, "File or folder of the cluster's Nodes (and other objects)");
  cluster_cmd->add_option("--demo", cluster.demo, "An example cluster of examples/fleet: eu-1, us-2 or ap-1");
  cluster_cmd->add_option("--name", cluster.name, "The cluster's name (default: --demo's)");
  cluster_cmd->add_option("--data", cluster.data_dir, "Folder of its store and kubeconfig");
  cluster_cmd->add_option("--listen", cluster.listen, "HOST:PORT to serve on (port 0: any free)")
      ->capture_default_str();
  cluster_cmd->add_option("--pod-duration", cluster.pod_duration,
                          "How long pods without berth.dev/simulated-duration run: none, 30s, "
                          "uniform:10s-60s, exp:30s")
      ->capture_default_str();
  cluster_cmd->add_option("--seed", cluster.seed, "Seed of the sampled durations")->capture_default_str();

  berth::cli::UpFlags up;
  CLI::App* up_cmd = app.add_subcommand(
      "up", "Run a whole demo fleet here: a hub, three simulated clusters and their agents");
  up_cmd->add_flag("--demo", up.demo, "The example fleet (examples/fleet)");
  up_cmd->add_option("--data", up.data_dir, "Folder of every store and the fleet's kubeconfig")
      ->capture_default_str();
  up_cmd->add_option("--port", up.port, "The hub's port; the clusters take the next ones (0: any free)")
      ->capture_default_str();
  up_cmd->add_option("--sync-period", up.sync_period, "How often the agents sync")->capture_default_str();
  up_cmd->add_option("--agent-lease", up.agent_lease, "A silent agent's cluster turns Unknown after")
      ->capture_default_str();

  berth::cli::RolloutFlags rollout;
  CLI::App* rollout_cmd = app.add_subcommand(
      "rollout", "Status, history, undo, pause and resume of a ManifestWorkReplicaSet's rollout on the hub");
  rollout_cmd->require_subcommand(1);
  rollout_cmd->footer(kRolloutFooter);
  const std::pair<const char*, const char*> rollout_actions[] = {
      {"status", "Show the rollout's status; wait until it finishes (--watch)"},
      {"history", "The revisions: change cause, the clusters that took each, rollbacks"},
      {"undo", "Put a previous revision's template back into the MWRS"},
      {"pause", "Pause the rollout (rollout.berth.dev/paused)"},
      {"resume", "Resume a paused rollout"}};
  for (const auto& [action, help] : rollout_actions) {
    CLI::App* sub = rollout_cmd->add_subcommand(action, help);
    sub->add_option("target", rollout.target, "manifestworkreplicaset/NAME (or mwrs NAME)")->required()->expected(1, 2);
    sub->add_option("-n,--namespace", rollout.ns, "The MWRS's namespace (default: the context's, else default)");
    sub->add_option("--kubeconfig", rollout.kubeconfig, "The hub's kubeconfig (default: $KUBECONFIG, ~/.kube/config)");
    sub->add_option("--context", rollout.context, "The kubeconfig context (default: its current one)");
    if (std::string_view(action) == "status") {
      sub->add_flag("-w,--watch{true}", rollout.watch, "Wait until the rollout finishes (--watch=false: print once)")
          ->capture_default_str();
      sub->add_option("--timeout", rollout.timeout, "Give up after this long (0s: never)")->capture_default_str();
    }
    if (std::string_view(action) == "history") {
      sub->add_option("--revision", rollout.revision, "Show this revision in full");
    }
    if (std::string_view(action) == "undo") {
      sub->add_option("--to-revision", rollout.to_revision,
                      "The revision to go back to (default: the newest that is not the MWRS's template)");
    }
    sub->callback([&rollout, action = std::string(action)] { rollout.action = action; });
  }

  berth::cli::DoctorFlags doctor;
  CLI::App* doctor_cmd = app.add_subcommand(
      "doctor", "Find what is misconfigured: GPU stack, scheduling, Kueue, DRA, OCM, tenancy, storage");
  CLI::Option* doctor_files = doctor_cmd->add_option("-f,--filename", doctor.files, kFilesHelp);
  doctor_cmd->add_flag("--demo", doctor.demo, "Check the built-in demo fleet")->excludes(doctor_files);
  doctor_cmd->add_option("--cluster", doctor.clusters, kClusterHelp);
  AddObjectFilterFlags(doctor_cmd, doctor.filter);
  doctor_cmd->add_option("-o,--output", doctor.output, "Output format: table, json or sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"table", "json", "sarif"}))
      ->capture_default_str();
  doctor_cmd
      ->add_option("--fail-on", doctor.fail_on,
                   "Exit 1 when a finding is at or above this severity: error, warning or info")
      ->check(CLI::IsMember({"error", "warning", "info"}))
      ->capture_default_str();
  doctor_cmd->add_option("--rules", doctor.rules, "Run only these rules (ID,ID,...; repeatable)");
  doctor_cmd->add_option("--skip", doctor.skip, "Do not run these rules (ID,ID,...; repeatable)");
  doctor_cmd->add_option("--now", doctor.now, "The time ages are measured from, RFC 3339");
  doctor_cmd->add_flag("--list-rules", doctor.list_rules, "Print every rule: id, severity, area, what it finds");
  doctor_cmd->footer(
      "\nExamples:\n"
      "  berth doctor -f cluster-dump.yaml          kubectl get -A -o yaml of a cluster\n"
      "  berth doctor --demo -o sarif > doctor.sarif\n"
      "  berth doctor -f manifests/ --fail-on warning --skip gpu-node-cordoned\n"
      "\nExit codes: 0 no finding at or above --fail-on (default error); 1 some finding at or\n"
      "above it, or objects that could not be read; 2 nothing could be read or bad flags.\n"
      "Each rule is documented in docs/doctor/<rule>.md.");

  std::string version_output;
  CLI::App* version_cmd = app.add_subcommand("version", "Print the berth version");
  version_cmd
      ->add_option("-o,--output", version_output,
                   "json: version, commit, compiler and build type")
      ->check(CLI::IsMember({"json"}));

  std::string completion_shell;
  CLI::App* completion_cmd = app.add_subcommand(
      "completion", "Print a shell completion script: source <(berth completion bash)");
  completion_cmd->add_option("shell", completion_shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));

  // One rule for every flag that takes a value, so a flag added later cannot forget it.
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    for (CLI::App* app_or_nested : [&] {
           std::vector<CLI::App*> all{sub};
           for (CLI::App* nested : sub->get_subcommands([](CLI::App*) { return true; })) all.push_back(nested);
           return all;
         }()) {
      for (CLI::Option* option : app_or_nested->get_options()) {
        if (option->get_type_size() > 0) option->check(NonEmpty());
      }
    }
  }

  // Set after the subcommands, which would otherwise inherit the top-level footer.
  app.footer(kFooter);
  plan_cmd->footer(kPlanFooter);
  explain_cmd->footer(kExplainFooter);
  why_cmd->footer(kWhyFooter);
  demo_cmd->footer(kDemoFooter);

  // `berth help [COMMAND...]` is `berth [COMMAND...] --help`.
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "help") {
    args.erase(args.begin());
    args.push_back("--help");
  }
  if (auto mistyped = Mistyped(app, args)) {
    std::cerr << "berth: error: " << mistyped->first << "\nRun '" << mistyped->second << "' for usage.\n";
    return berth::cli::ToInt(berth::cli::ExitCode::kFailed);
  }
  std::vector<char*> words{argv[0]};
  for (std::string& a : args) words.push_back(a.data());
  try {
    app.parse(static_cast<int>(words.size()), words.data());
  } catch (const CLI::ParseError& e) {
    // --help and --version arrive as "errors" with exit code 0; CLI11 prints them.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    std::string help = "berth --help";
    for (const CLI::App* sub : app.get_subcommands()) help = "berth " + sub->get_name() + " --help";
    std::cerr << "berth: error: " << e.what() << "\nRun '" << help << "' for usage.\n";
    return berth::cli::ToInt(berth::cli::ExitCode::kFailed);
  }

  if (*plan_cmd) return berth::cli::RunPlanCommand(plan, std::cout, std::cerr);
  if (*explain_cmd) return berth::cli::RunExplainCommand(explain, std::cout, std::cerr);
  if (*why_cmd) return berth::cli::RunWhyCommand(why, std::cout, std::cerr);
  if (*demo_cmd) return berth::cli::RunDemoCommand(demo, std::cout, std::cerr);
  if (*inventory_cmd) return berth::cli::RunInventoryCommand(inventory, std::cout, std::cerr);
  if (*simulate_cmd) return berth::cli::RunSimulateCommand(simulate, std::cout, std::cerr);
  if (*serve_cmd) return berth::cli::RunServeCommand(serve, std::cout, std::cerr);
  if (*agent_cmd) return berth::cli::RunAgentCommand(agent, std::cout, std::cerr);
  if (*cluster_cmd) return berth::cli::RunClusterCommand(cluster, std::cout, std::cerr);
  if (*up_cmd) return berth::cli::RunUpCommand(up, std::cout, std::cerr);
  if (*rollout_cmd) return berth::cli::RunRolloutCommand(rollout, std::cout, std::cerr);
  if (*doctor_cmd) return berth::cli::RunDoctorCommand(doctor, std::cout, std::cerr);
  if (*version_cmd) {
    if (version_output == "json") {
      berth::cli::PrintVersionJson(berth::cli::CurrentBuildInfo(), std::cout);
    } else {
      std::cout << berth::cli::VersionString() << '\n';
    }
    return 0;
  }
  if (*completion_cmd) {
    const berth::core::Status written =
        berth::cli::WriteCompletionScript(completion_shell, CompletionTree(app), std::cout);
    if (written.ok()) return 0;
    berth::cli::PrintError(written.error(), std::cerr);
    return berth::cli::ToInt(berth::cli::ExitCode::kFailed);
  }
  return berth::cli::ToInt(berth::cli::ExitCode::kFailed);
}

}  // namespace

int main(int argc, char** argv) {
  // A peer that closes a connection (a hub restarting, a member API dropping an idle
  // keep-alive socket) must be an error on that request, not the end of the process: the
  // HTTP client's writes would otherwise raise SIGPIPE, whose default action kills berth
  // silently (an agent died this way mid-sync).
  std::signal(SIGPIPE, SIG_IGN);
  // berth code throws nothing; this catches what the libraries below it might (CLI11 on a
  // malformed option table, std::bad_alloc) so that no exception escapes main.
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "berth: internal error: " << e.what() << '\n';
    return berth::cli::ToInt(berth::cli::ExitCode::kFailed);
  }
}
