// `berth simulate`: replays a trace over virtual time and writes a report. Two kinds of run:
// - a queued trace (--format philly, pollux, csv, jsonl) on a fleet of YAML objects
//   (--fleet): the jobs go through the fleet's own Kueue queues and binding over time
//   (sim::RunQueueReplay), once per --policy (the binding scoring: default, LeastAllocated,
//   MostAllocated), with a --scenario file's failures and maintenance;
// - the OpenB GPU-sharing trace (--format openb; --fleet is its node list CSV): the FGD
//   paper's protocol for every (--policy, --seeds) pair (sim::RunOpenbGrid);
// - a model-load study (--scenario names a ModelLoadStudy file): one InferenceService's
//   scale-out under several loading strategies (simulate_study.h).
// Prints one line per run, and with --report DIR writes summary.json, metrics.csv and
// report.html. Called by main.cc; returns the process exit code (exit_code.h).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace berth::cli {

struct SimulateFlags {
  std::string fleet;     // a folder or file of YAML objects, or OpenB's node list CSV
  std::string trace;
  std::string format;    // philly, pollux, csv, jsonl, openb; empty: detect
  std::string policy;    // comma-separated; empty: default (queued) or all+berth (openb)
  std::string seeds = "42";
  std::string until;     // a duration; empty: until the trace is done
  std::string report;    // output folder; empty: print the table only
  std::string scenario;  // a SimulationScenario or ModelLoadStudy file
  std::string tenant_queues;              // mapping file
  std::vector<std::string> tenant_queue;  // TENANT=NAMESPACE/QUEUE
  std::string cluster;                    // which cluster of the fleet; empty: default
  std::string interval = "60s";           // metrics interval
  std::string cycle_interval;             // empty: a cycle per batch of events
  int max_gpus_per_pod = 8;
  int threads = 2;
  bool skip_bad_rows = false;
  // Check the engine's invariants after every step of a queued replay (main.cc: debug
  // builds and BERTH_CHECK_INVARIANTS=1); a violation is an internal error, exit 70.
  bool check_invariants = false;
};

int RunSimulateCommand(const SimulateFlags& flags, std::ostream& out, std::ostream& err);

}  // namespace berth::cli
