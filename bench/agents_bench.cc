// berth_agents_bench: the agents' figures (issue #16), on loopback in one machine.
//
//  1. sync: C member clusters of N nodes each sync with one hub (SqliteStore, synchronous=FULL;
//     the agents' endpoint behind the cpp-httplib listener, plain HTTP) every P seconds at
//     random offsets, for R periods: each cluster's first sync carries its inventory, later
//     ones its hash only, and a tenth of the clusters change their inventory each period (a pod
//     started). The load runs in a forked child, so the hub's CPU is this process's CPU.
//     Prints p50/p99/max sync latency and the hub's CPU use. Checks: every sync 200, every
//     cluster Available with its inventory stored.
//  2. redispatch: a hub with the scheduling loop, two member clusters reported by agents and a
//     job dispatched to the cheaper one; that cluster's agent stops; the time until the
//     Workload runs on the other cluster (lease grace L, Kueue's workerLostTimeout 0, loop
//     period 1 s). Check: it moves, and only once.
//  3. apply: one agent given W ManifestWorks (a Job each) at once: works applied per second
//     into a member API (RestHandler over SqliteStore, in process), then a round with nothing
//     new (the held works only read back). Checks: W Jobs exist; the quiet round applies none.
//
// Without --scale: small sizes, a few seconds (CTest bench_smoke_agents). Goals are printed
// beside the figures, not enforced.
//
//   berth_agents_bench [--scale] [--clusters C] [--nodes N] [--period-s P] [--periods R]
//                      [--lease-s L] [--works W] [--only sync,redispatch,apply]
#include <httplib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cli/hub_loop.h"
#include "cli/serve_validator.h"
#include "server/agent/agent_hub.h"
#include "server/agent/agent_runner.h"
#include "server/agent/sync_protocol.h"
#include "server/http/http_server.h"
#include "server/kube/in_process_transport.h"
#include "server/rest/change_feed.h"
#include "server/rest/rest_handler.h"
#include "server/rest/stored_json.h"
#include "store/sqlite_store.h"
#include "bench_util.h"

namespace berth::bench {
namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;
double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

bool failed = false;
void Check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "CHECK FAILED: %s\n", what.c_str());
    failed = true;
  }
}

struct Flags {
  bool scale = false;
  int clusters = 40;
  int nodes = 20;
  int period_s = 2;
  int periods = 2;
  int lease_s = 3;
  int works = 100;
  std::string only = "sync,redispatch,apply";
};

std::string TempDir(const char* name) {
  std::string dir = (std::filesystem::temp_directory_path() / (std::string("berth-agents-bench-") + name + "-" +
                                                               std::to_string(::getpid())))
                        .string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// One API server in this process: store, feed, handler with io's validator, and (hub) the
// agents' endpoint.
struct Api {
  std::unique_ptr<store::SqliteStore> store;
  server::ChangeFeed feed;
  cli::IoValidator validator;
  std::unique_ptr<server::RestHandler> handler;
  std::unique_ptr<server::agent::AgentHub> agents;
  std::unique_ptr<server::HttpServer> http;

  static std::unique_ptr<Api> Start(const std::string& dir, bool hub, std::chrono::seconds lease, bool listen) {
    auto api = std::make_unique<Api>();
    auto opened = store::SqliteStore::Open(dir);
    if (!opened) {
      std::fprintf(stderr, "open: %s\n", opened.error().ToString().c_str());
      return nullptr;
    }
    api->store = std::move(opened).value();
    api->feed.Publish(api->store->CurrentResourceVersion());
    api->handler = std::make_unique<server::RestHandler>(*api->store, api->feed, &api->validator, server::RestOptions{});
    if (!api->handler->EnsureSystemNamespaces().ok()) return nullptr;
    if (hub) {
      server::agent::AgentHubOptions o;
      o.auto_accept = true;
      o.lease_duration = lease;
      o.sync_period = std::chrono::seconds(1);
      api->agents = std::make_unique<server::agent::AgentHub>(*api->store, api->feed, nullptr, o);
      if (!api->agents->Load().ok()) return nullptr;
      server::agent::AgentHub* a = api->agents.get();
      api->handler->Mount(std::string(server::agent::kSyncPathPrefix),
                          [a](const server::HttpRequest& r) { return a->Serve(r); });
    }
    if (listen) {
      server::HttpServerOptions o;
      o.port = 0;
      o.threads = 64;
      o.max_body_bytes = 16 << 20;
      auto http = server::HttpServer::Start(*api->handler, api->feed, o, [] { return true; });
      if (!http) {
        std::fprintf(stderr, "listen: %s\n", http.error().ToString().c_str());
        return nullptr;
      }
      api->http = std::move(http).value();
    }
    return api;
  }
};

Json NodeOf(int cluster, int node) {
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", "c" + std::to_string(cluster) + "-n" + std::to_string(node)},
                        {"labels", {{"kubernetes.io/hostname", "c" + std::to_string(cluster) + "-n" + std::to_string(node)},
                                    {"nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB"}}}}},
          {"status", {{"capacity", {{"cpu", "128"}, {"memory", "1Ti"}, {"pods", "110"}, {"nvidia.com/gpu", "8"}}},
                      {"allocatable", {{"cpu", "126"}, {"memory", "1000Gi"}, {"pods", "110"}, {"nvidia.com/gpu", "8"}}},
                      {"conditions", Json::array({{{"type", "Ready"}, {"status", "True"}}})}}}};
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// ---- 1. sync ----

// The load: every cluster syncs once per period at its own offset, from a few client threads
// each holding kept-alive connections. Latencies (ms) are written to `out_fd`.
void SyncLoad(const Flags& f, int port, int out_fd) {
  const int threads = std::min(32, f.clusters);
  std::atomic<int> errors{0};
  std::vector<std::vector<double>> lat(static_cast<size_t>(threads));
  const auto start = Clock::now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      httplib::Client client("127.0.0.1", port);
      client.set_keep_alive(true);
      client.set_tcp_nodelay(true);  // as the agent's transport: no Nagle delay on the body
      client.set_read_timeout(60, 0);
      std::mt19937_64 rng(static_cast<uint64_t>(t) + 7);
      std::vector<int> mine;
      for (int c = t; c < f.clusters; c += threads) mine.push_back(c);
      std::vector<double> offset;
      for (size_t i = 0; i < mine.size(); ++i) {
        offset.push_back(std::uniform_real_distribution<double>(0, f.period_s)(rng));
      }
      std::vector<int> version(mine.size(), 0);
      std::vector<std::string> acked(mine.size());
      for (int period = 0; period < f.periods; ++period) {
        std::vector<size_t> order(mine.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return offset[a] < offset[b]; });
        for (size_t i : order) {
          const auto due = start + std::chrono::duration<double>(period * f.period_s + offset[i]);
          std::this_thread::sleep_until(due);
          const int c = mine[i];
          if (period > 0 && rng() % 10 == 0) ++version[i];  // a pod started: a new inventory
          server::agent::SyncRequest r;
          r.cluster = "c" + std::to_string(c);
          r.agent_id = "bench";
          r.inventory_hash = "v" + std::to_string(version[i]);
          if (acked[i] != r.inventory_hash) {
            std::vector<Json> inv;
            for (int n = 0; n < f.nodes; ++n) inv.push_back(NodeOf(c, n));
            r.inventory = std::move(inv);
          }
          const std::string body = server::agent::EncodeSyncRequest(r);
          const auto t0 = Clock::now();
          auto res = client.Post(server::agent::SyncPath(r.cluster), body, "application/json");
          const double ms = Seconds(Clock::now() - t0) * 1000;
          if (!res || res->status != 200) {
            ++errors;
            continue;
          }
          lat[static_cast<size_t>(t)].push_back(ms);
          auto reply = server::agent::ParseSyncReply(res->body);
          if (reply) acked[i] = reply->inventory_hash;
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  std::vector<double> all;
  for (auto& v : lat) all.insert(all.end(), v.begin(), v.end());
  const int e = errors.load();
  (void)!::write(out_fd, &e, sizeof e);
  const size_t n = all.size();
  (void)!::write(out_fd, &n, sizeof n);
  (void)!::write(out_fd, all.data(), n * sizeof(double));
}

void RunSync(const Flags& f) {
  // The load child is forked before the hub starts any thread: a child forked from a threaded
  // process can inherit a lock (ASan's allocator's, malloc's) another thread held, and hang.
  // It learns the hub's port through `port_fds`.
  int fds[2];
  int port_fds[2];
  if (pipe(fds) != 0 || pipe(port_fds) != 0) return;
  const pid_t child = fork();
  if (child == 0) {
    close(fds[0]);
    close(port_fds[1]);
    int port = 0;
    if (::read(port_fds[0], &port, sizeof port) != static_cast<ssize_t>(sizeof port) || port <= 0) _exit(1);
    SyncLoad(f, port, fds[1]);
    _exit(0);
  }
  close(fds[1]);
  close(port_fds[0]);
  const std::string dir = TempDir("sync");
  auto hub = Api::Start(dir, true, std::chrono::seconds(3600), true);
  const int port = hub ? hub->http->port() : 0;
  (void)!::write(port_fds[1], &port, sizeof port);
  close(port_fds[1]);
  if (!hub) {
    failed = true;
    waitpid(child, nullptr, 0);
    return;
  }
  const double cpu0 = CpuSeconds();
  const auto t0 = Clock::now();
  int errors = 0;
  size_t n = 0;
  (void)!::read(fds[0], &errors, sizeof errors);
  (void)!::read(fds[0], &n, sizeof n);
  std::vector<double> lat(n);
  size_t got = 0;
  while (got < n * sizeof(double)) {
    const ssize_t r = ::read(fds[0], reinterpret_cast<char*>(lat.data()) + got, n * sizeof(double) - got);
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  int status = 0;
  waitpid(child, &status, 0);
  const double wall = Seconds(Clock::now() - t0);
  const double cpu = CpuSeconds() - cpu0;
  Check(errors == 0, std::to_string(errors) + " syncs failed");
  Check(n == static_cast<size_t>(f.clusters) * static_cast<size_t>(f.periods), "every sync answered");
  // Every cluster joined, Available, with its inventory.
  store::ListOptions list;
  list.group = server::agent::kInventoryGroup;
  list.kind = server::agent::kInventoryKind;
  auto inventories = hub->store->List(list);
  Check(inventories && inventories->items.size() == static_cast<size_t>(f.clusters), "an inventory per cluster");
  std::printf("sync: %d clusters x %d nodes, one sync each per %d s, %d periods: %zu syncs in %.1f s\n",
              f.clusters, f.nodes, f.period_s, f.periods, n, wall);
  std::printf("  latency p50 %.2f ms, p99 %.2f ms, max %.2f ms (goal p99 < 50 ms)\n", Percentile(lat, 0.5),
              Percentile(lat, 0.99), Percentile(lat, 1.0));
  std::printf("  hub CPU %.2f s over %.1f s = %.1f%% of one core (%.2f ms per sync)\n", cpu, wall, 100 * cpu / wall,
              n > 0 ? 1000 * cpu / static_cast<double>(n) : 0.0);
  // The hub's scheduling cycle over what the agents reported: the first (every inventory
  // decoded) and one after a single cluster's inventory changed (the steady state).
  cli::SchedulingLoop loop(*hub->store, hub->feed, cli::LoopOptions{});
  const auto c0 = Clock::now();
  auto first = loop.RunCycle();
  const double first_s = Seconds(Clock::now() - c0);
  Check(first.has_value(), "the first cycle over the inventories");
  {
    httplib::Client client("127.0.0.1", hub->http->port());
    server::agent::SyncRequest r;
    r.cluster = "c0";
    r.inventory_hash = "changed";
    std::vector<Json> inv;
    for (int n = 0; n < f.nodes; ++n) inv.push_back(NodeOf(0, n));
    inv.back()["metadata"]["labels"]["changed"] = "yes";
    r.inventory = std::move(inv);
    auto res = client.Post(server::agent::SyncPath(r.cluster), server::agent::EncodeSyncRequest(r), "application/json");
    Check(res && res->status == 200, "one inventory changes");
  }
  const auto c1 = Clock::now();
  auto next = loop.RunCycle();
  const double next_s = Seconds(Clock::now() - c1);
  Check(next.has_value(), "the cycle after one inventory changed");
  if (first && next) {
    std::printf("  hub cycle over %zu reported objects: first %.2f s (%zu decoded), after one cluster's change "
                "%.2f s (%zu decoded)\n",
                first->objects_read, first_s, first->decoded, next_s, next->decoded);
  }
  hub->http->Stop();
  std::filesystem::remove_all(dir);
}

// ---- 2. redispatch ----

constexpr const char* kFleet = R"([
{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kueue-system"}},
{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team-a"}},
{"apiVersion":"cluster.open-cluster-management.io/v1","kind":"ManagedCluster","metadata":{"name":"cheap","labels":{"cluster.open-cluster-management.io/clusterset":"gpu","berth.dev/gpu-hour-price":"1.00"}},"spec":{"hubAcceptsClient":true}},
{"apiVersion":"cluster.open-cluster-management.io/v1","kind":"ManagedCluster","metadata":{"name":"dear","labels":{"cluster.open-cluster-management.io/clusterset":"gpu","berth.dev/gpu-hour-price":"4.00"}},"spec":{"hubAcceptsClient":true}},
{"apiVersion":"cluster.open-cluster-management.io/v1beta2","kind":"ManagedClusterSet","metadata":{"name":"gpu"}},
{"apiVersion":"cluster.open-cluster-management.io/v1beta2","kind":"ManagedClusterSetBinding","metadata":{"name":"gpu","namespace":"kueue-system"},"spec":{"clusterSet":"gpu"}},
{"apiVersion":"cluster.open-cluster-management.io/v1beta1","kind":"Placement","metadata":{"name":"training","namespace":"kueue-system"},"spec":{"clusterSets":["gpu"],"prioritizerPolicy":{"mode":"Exact","configurations":[{"scoreCoordinate":{"type":"BuiltIn","builtIn":"Cost"},"weight":1}]}}},
{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavor","metadata":{"name":"fleet"}},
{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"AdmissionCheck","metadata":{"name":"placement"},"spec":{"controllerName":"open-cluster-management.io/placement","parameters":{"apiGroup":"cluster.open-cluster-management.io","kind":"Placement","name":"training"}}},
{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue","metadata":{"name":"training"},"spec":{"namespaceSelector":{},"admissionChecksStrategy":{"admissionChecks":[{"name":"placement"}]},"resourceGroups":[{"coveredResources":["cpu","nvidia.com/gpu"],"flavors":[{"name":"fleet","resources":[{"name":"cpu","nominalQuota":"512"},{"name":"nvidia.com/gpu","nominalQuota":"64"}]}]}]}},
{"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":"training","namespace":"team-a"},"spec":{"clusterQueue":"training"}}
])";

constexpr const char* kJob = R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"train","namespace":"team-a","labels":{"kueue.x-k8s.io/queue-name":"training"}},"spec":{"parallelism":1,"completions":1,"suspend":true,"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"t","image":"t:1","resources":{"requests":{"cpu":"8","nvidia.com/gpu":"4"},"limits":{"nvidia.com/gpu":"4"}}}]}}}})";

std::string WorkloadCluster(server::RestHandler& handler) {
  server::HttpRequest req;
  req.method = "GET";
  req.path = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads/job-train";
  auto r = handler.Serve(req);
  if (r.response.status != 200) return "";
  Json w = Json::parse(r.response.body, nullptr, false);
  return w.is_object() ? w["status"].value("clusterName", "") : "";
}

void Post(server::RestHandler& handler, const std::string& path, const std::string& body) {
  server::HttpRequest req;
  req.method = "POST";
  req.path = path;
  req.body = body;
  req.headers.emplace_back("Content-Type", "application/json");
  auto r = handler.Serve(req);
  Check(r.response.status < 300, path + ": " + r.response.body.substr(0, 300));
}

std::string CollectionOf(const Json& o) {
  const std::string api = o["apiVersion"];
  const std::string kind = o["kind"];
  std::string plural = kind;
  for (char& ch : plural) ch = static_cast<char>(std::tolower(ch));
  if (plural.back() == 's') plural += "es";
  else if (plural.back() == 'y') plural = plural.substr(0, plural.size() - 1) + "ies";
  else plural += "s";
  const std::string base = api.find('/') == std::string::npos ? "/api/" + api : "/apis/" + api;
  const std::string ns = o["metadata"].value("namespace", "");
  return base + (ns.empty() ? "" : "/namespaces/" + ns) + "/" + plural;
}

void RunRedispatch(const Flags& f) {
  const std::string dir = TempDir("redispatch");
  auto hub = Api::Start(dir + "/hub", true, std::chrono::seconds(f.lease_s), false);
  if (!hub) {
    failed = true;
    return;
  }
  for (const Json& o : Json::parse(kFleet)) Post(*hub->handler, CollectionOf(o), o.dump());
  cli::LoopOptions lo;
  lo.period = std::chrono::seconds(1);
  lo.debounce = std::chrono::milliseconds(20);
  lo.configuration = {R"({"apiVersion":"config.kueue.x-k8s.io/v1beta2","kind":"Configuration","multiKueue":{"workerLostTimeout":"0s"}})"};
  cli::SchedulingLoop loop(*hub->store, hub->feed, lo);
  loop.Start();
  hub->agents->Start();
  // Two agents reporting their clusters (4 GPU nodes each) straight to the hub's endpoint.
  auto agent = [&](const std::string& name) {
    server::agent::AgentOptions o;
    o.cluster = name;
    o.hub_server = "bench";
    o.watch_inventory = false;
    auto member = Api::Start(dir + "/" + name, false, std::chrono::seconds(1), false);
    auto runner = std::make_unique<server::agent::AgentRunner>(
        std::make_unique<server::kube::InProcessTransport>(*hub->handler),
        std::make_unique<server::kube::Client>(std::make_unique<server::kube::InProcessTransport>(*member->handler)), o);
    std::vector<Json> inv;
    for (int n = 0; n < 4; ++n) {
      Json node = NodeOf(0, n);
      node["metadata"]["name"] = name + "-n" + std::to_string(n);
      inv.push_back(node);
    }
    runner->SetInventoryForTest(inv);
    return std::make_pair(std::move(member), std::move(runner));
  };
  auto cheap = agent("cheap");
  auto dear = agent("dear");
  Check(cheap.second->Round().has_value() && dear.second->Round().has_value(), "agents register");
  cheap.second->Start();
  dear.second->Start();
  Post(*hub->handler, "/apis/batch/v1/namespaces/team-a/jobs", kJob);
  const auto placed_deadline = Clock::now() + std::chrono::seconds(30);
  while (Clock::now() < placed_deadline && WorkloadCluster(*hub->handler) != "cheap") {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  Check(WorkloadCluster(*hub->handler) == "cheap", "the job runs on the cheaper cluster first");
  // The cheap cluster dies: its agent stops syncing.
  cheap.second->Stop();
  const auto died = Clock::now();
  int moves = 0;
  std::string last = "cheap";
  const auto deadline = died + std::chrono::seconds(f.lease_s + 60);
  while (Clock::now() < deadline) {
    const std::string now = WorkloadCluster(*hub->handler);
    if (now != last && !now.empty()) {
      ++moves;
      last = now;
    }
    if (now == "dear") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const double took = Seconds(Clock::now() - died);
  Check(last == "dear", "the workload moved to the other cluster");
  Check(moves == 1, "it moved once");
  std::printf("redispatch: lease grace %d s, Kueue workerLostTimeout 0, loop period 1 s: re-dispatched %.2f s after "
              "the cluster's last sync (%.2f s past the lease)\n",
              f.lease_s, took, took - f.lease_s);
  dear.second->Stop();
  hub->agents->Stop();
  loop.Stop();
  std::filesystem::remove_all(dir);
}

// ---- 3. apply ----

void RunApply(const Flags& f) {
  const std::string dir = TempDir("apply");
  auto hub = Api::Start(dir + "/hub", true, std::chrono::seconds(3600), false);
  auto member = Api::Start(dir + "/member", false, std::chrono::seconds(1), false);
  if (!hub || !member) {
    failed = true;
    return;
  }
  server::agent::AgentOptions o;
  o.cluster = "m";
  o.hub_server = "bench";
  o.watch_inventory = false;
  server::agent::AgentRunner runner(std::make_unique<server::kube::InProcessTransport>(*hub->handler),
                                    std::make_unique<server::kube::Client>(
                                        std::make_unique<server::kube::InProcessTransport>(*member->handler)),
                                    o);
  runner.SetInventoryForTest({});
  Check(runner.Round().has_value(), "the agent registers");
  std::vector<store::Mutation> batch;
  for (int i = 0; i < f.works; ++i) {
    const std::string name = "w" + std::to_string(i);
    Json job = Json::parse(kJob);
    job["metadata"]["name"] = name;
    job["metadata"]["namespace"] = "default";
    job["metadata"].erase("labels");
    job["spec"]["suspend"] = false;
    Json w = {{"apiVersion", "work.open-cluster-management.io/v1"},
              {"kind", "ManifestWork"},
              {"metadata", {{"name", name}, {"namespace", "m"}}},
              {"spec", {{"workload", {{"manifests", Json::array({job})}}}}}};
    batch.push_back(store::Mutation::Create({"work.open-cluster-management.io", "ManifestWork", "m", name},
                                            server::StoredBody(w)));
  }
  Check(hub->store->Commit(std::move(batch)).has_value(), "works stored");
  const auto t0 = Clock::now();
  auto round = runner.Round();
  const double s = Seconds(Clock::now() - t0);
  Check(round && round->applied == f.works, "every work applied in one round");
  store::ListOptions list;
  list.group = "batch";
  list.kind = "Job";
  auto jobs = member->store->List(list);
  Check(jobs && jobs->items.size() == static_cast<size_t>(f.works), "a Job per work on the member");
  std::printf("apply: one agent applied %d ManifestWorks (a Job each, read back for status) in %.2f s = %.0f works/s\n",
              f.works, s, f.works / s);
  // The steady state: the next round (the status sent) and one with nothing new, which only
  // reads the held works back; then a resync round, which applies every one again.
  Check(runner.Round().has_value(), "the statuses are sent");
  const auto t1 = Clock::now();
  auto quiet = runner.Round();
  const double quiet_s = Seconds(Clock::now() - t1);
  Check(quiet && quiet->refreshed == f.works && quiet->resynced == 0, "a quiet round only reads back");
  std::printf("apply: a round with nothing new over %d held works (status read back) %.3f s\n", f.works, quiet_s);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace berth::bench

int main(int argc, char** argv) {
  using namespace berth::bench;
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](int* out) {
      if (i + 1 >= argc) return false;
      *out = std::atoi(argv[++i]);
      return *out > 0;
    };
    bool ok = true;
    if (a == "--scale") {
      f.scale = true;
      f.clusters = 1000;
      f.nodes = 100;
      f.period_s = 10;
      f.periods = 3;
      f.lease_s = 40;
      f.works = 1000;
    } else if (a == "--clusters") ok = value(&f.clusters);
    else if (a == "--nodes") ok = value(&f.nodes);
    else if (a == "--period-s") ok = value(&f.period_s);
    else if (a == "--periods") ok = value(&f.periods);
    else if (a == "--lease-s") ok = value(&f.lease_s);
    else if (a == "--works") ok = value(&f.works);
    else if (a == "--only" && i + 1 < argc) f.only = argv[++i];
    else ok = false;
    if (!ok) {
      std::fprintf(stderr, "usage: berth_agents_bench [--scale] [--clusters C] [--nodes N] [--period-s P] "
                           "[--periods R] [--lease-s L] [--works W] [--only sync,redispatch,apply]\n");
      return 2;
    }
  }
  auto wanted = [&](const char* phase) { return f.only.find(phase) != std::string::npos; };
  if (wanted("sync")) RunSync(f);
  if (wanted("redispatch")) RunRedispatch(f);
  if (wanted("apply")) RunApply(f);
  return failed ? 1 : 0;
}
