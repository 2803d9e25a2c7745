// berth_serve_bench: the hub's figures over HTTP (issue #15), in one process on loopback:
// SqliteStore (synchronous=FULL) in a temporary directory, the REST handler with io's
// validator, the cpp-httplib listener (plain HTTP: the figures are the hub's, TLS adds its
// handshake per connection and ~no per-request cost on kept-alive connections), and
// cpp-httplib clients on their own threads.
//
//  1. creates: acknowledged Workload creates/s from C client threads (kept-alive connections);
//  2. latency: p50/p99/max of creates issued at a paced rate (open loop);
//  3. list: every Workload paged with limit=500 after N are stored;
//  4. watch: W watch streams open, one create, the time until every stream has its event;
//  5. restart: store, handler and listener torn down and built again on the same data until
//     /readyz answers 200 and the first list page is served;
//  6. metrics: GET /metrics with M series;
//  7. cycle: the scheduling loop's first cycle over P pending workloads, the cycle reading its
//     writes back, then the cycle after one more workload (wall time: the steady state).
//
// It checks its answers (every create 201 and listed once, every stream saw the event, the
// restarted hub lists the same objects) and exits 1 when one is wrong. Goals are printed
// beside the figures, not enforced (the machine is shared). Without --scale: small sizes, a
// few seconds (CTest bench_smoke_serve).
//
//   berth_serve_bench [--scale] [--clients 16] [--creates N] [--objects N] [--watchers W]
//                     [--series M] [--pending P] [--only PHASES]
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli/hub_loop.h"
#include "cli/serve_validator.h"
#include "server/http/http_server.h"
#include "server/metrics/metrics_registry.h"
#include "server/rest/change_feed.h"
#include "server/rest/rest_handler.h"
#include "server/rest/stored_json.h"
#include "store/sqlite_store.h"

namespace berth::bench {
namespace {

using Clock = std::chrono::steady_clock;
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
  int clients = 16;
  int creates = 400;
  int rate = 200;
  double paced_s = 1;
  int objects = 2000;
  int watchers = 20;
  int series = 1000;
  int pending = 200;
  std::string only = "creates,latency,list,watch,restart,metrics,cycle";
};

constexpr const char* kWorkloads = "/apis/kueue.x-k8s.io/v1beta2/namespaces/default/workloads";

std::string WorkloadBody(const std::string& name, int gpus = 1) {
  return R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload","metadata":{"name":")" + name +
         R"("},"spec":{"queueName":"main","podSets":[{"name":"main","count":1,"template":{"spec":)"
         R"({"containers":[{"name":"c","image":"trainer:1","resources":{"requests":{"cpu":"1",)"
         R"("nvidia.com/gpu":")" + std::to_string(gpus) + R"("}}}]}}}]}})";
}

// One hub: store, feed, handler, listener. Destroyed in reverse order.
struct Hub {
  std::unique_ptr<store::SqliteStore> store;
  server::ChangeFeed feed;
  cli::IoValidator validator;
  std::unique_ptr<server::RestHandler> handler;
  std::unique_ptr<server::HttpServer> http;
  server::MetricsRegistry metrics;

  static std::unique_ptr<Hub> Start(const std::string& dir, int threads, int max_watches) {
    auto hub = std::make_unique<Hub>();
    auto opened = store::SqliteStore::Open(dir);
    if (!opened) {
      std::fprintf(stderr, "open: %s\n", opened.error().ToString().c_str());
      return nullptr;
    }
    hub->store = std::move(opened).value();
    hub->feed.Publish(hub->store->CurrentResourceVersion());
    hub->handler = std::make_unique<server::RestHandler>(*hub->store, hub->feed, &hub->validator,
                                                         server::RestOptions{});
    if (!hub->handler->EnsureSystemNamespaces().ok()) return nullptr;
    server::HttpServerOptions o;
    o.port = 0;
    o.threads = threads;
    o.max_watches = max_watches;
    o.metrics = &hub->metrics;
    auto http = server::HttpServer::Start(*hub->handler, hub->feed, o, [] { return true; });
    if (!http) {
      std::fprintf(stderr, "listen: %s\n", http.error().ToString().c_str());
      return nullptr;
    }
    hub->http = std::move(http).value();
    return hub;
  }
  int port() const { return http->port(); }
};

std::unique_ptr<httplib::Client> ClientFor(int port) {
  auto c = std::make_unique<httplib::Client>("127.0.0.1", port);
  c->set_keep_alive(true);
  c->set_tcp_nodelay(true);
  c->set_read_timeout(30, 0);
  return c;
}

// Stores `n` Workloads w-<first>.. directly (the list and cycle phases' setup), in batches.
void Populate(store::Store& s, int first, int n, int gpus = 1) {
  std::vector<store::Mutation> batch;
  for (int i = first; i < first + n; ++i) {
    const std::string name = "w-" + std::to_string(i);
    nlohmann::ordered_json body = nlohmann::ordered_json::parse(WorkloadBody(name, gpus));
    body["metadata"]["namespace"] = "default";
    batch.push_back(store::Mutation::Create(store::ObjectKey{"kueue.x-k8s.io", "Workload", "default", name},
                                            body.dump()));
    if (batch.size() == 1000) {
      Check(s.Commit(std::move(batch)).has_value(), "populate commit");
      batch.clear();
    }
  }
  if (!batch.empty()) Check(s.Commit(std::move(batch)).has_value(), "populate commit");
}

void PhaseCreates(const Flags& f, const std::string& dir) {
  auto hub = Hub::Start(dir, f.clients + 8, 4);
  if (!hub) return void(failed = true);
  std::atomic<int> next{0}, ok{0};
  const auto start = Clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < f.clients; ++c) {
    threads.emplace_back([&] {
      auto client = ClientFor(hub->port());
      for (int i = next++; i < f.creates; i = next++) {
        auto r = client->Post(kWorkloads, WorkloadBody("c-" + std::to_string(i)), "application/json");
        if (r && r->status == 201) {
          ++ok;
        } else {
          std::fprintf(stderr, "create c-%d: %s\n", i,
                       r ? (std::to_string(r->status) + " " + r->body.substr(0, 200)).c_str()
                         : httplib::to_string(r.error()).c_str());
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  const double s = Seconds(Clock::now() - start);
  Check(ok == f.creates, "every create answered 201 (" + std::to_string(ok.load()) + ")");
  std::printf("creates     %d acknowledged Workload creates from %d clients in %.2f s: %.0f creates/s "
              "(goal >= 2,000/s)\n", f.creates, f.clients, s, f.creates / s);
}

void PhaseLatency(const Flags& f, const std::string& dir) {
  auto hub = Hub::Start(dir, 40, 4);
  if (!hub) return void(failed = true);
  const int total = static_cast<int>(f.rate * f.paced_s);
  std::vector<double> lat(static_cast<size_t>(total), 0);
  std::atomic<int> next{0}, ok{0};
  const auto t0 = Clock::now() + std::chrono::milliseconds(50);
  std::vector<std::thread> threads;
  for (int c = 0; c < 16; ++c) {
    threads.emplace_back([&] {
      auto client = ClientFor(hub->port());
      for (int i = next++; i < total; i = next++) {
        const auto due = t0 + std::chrono::microseconds(static_cast<int64_t>(1e6 * i / f.rate));
        std::this_thread::sleep_until(due);
        auto r = client->Post(kWorkloads, WorkloadBody("p-" + std::to_string(i)), "application/json");
        lat[static_cast<size_t>(i)] = Seconds(Clock::now() - due) * 1000;
        if (r && r->status == 201) ++ok;
      }
    });
  }
  for (auto& t : threads) t.join();
  Check(ok == total, "every paced create answered 201");
  std::sort(lat.begin(), lat.end());
  std::printf("latency     %d creates at %d/s: p50 %.1f ms, p99 %.1f ms (goal < 25 ms), max %.1f ms\n",
              total, f.rate, lat[lat.size() / 2], lat[lat.size() * 99 / 100], lat.back());
}

void PhaseListAndRestart(const Flags& f, const std::string& dir, bool list, bool restart) {
  auto hub = Hub::Start(dir, 16, 4);
  if (!hub) return void(failed = true);
  Populate(*hub->store, 0, f.objects);
  auto count_pages = [&](int port, int* pages) {
    auto client = ClientFor(port);
    std::set<std::string> names;
    std::string cont;
    *pages = 0;
    while (true) {
      std::string target = std::string(kWorkloads) + "?limit=500";
      if (!cont.empty()) target += "&continue=" + cont;
      auto r = client->Get(target);
      if (!r || r->status != 200) return -1;
      auto doc = nlohmann::json::parse(r->body);
      for (const auto& item : doc["items"]) names.insert(item["metadata"]["name"].get<std::string>());
      ++*pages;
      cont = doc["metadata"].value("continue", "");
      if (cont.empty()) break;
    }
    return static_cast<int>(names.size());
  };
  if (list) {
    int pages = 0;
    const auto start = Clock::now();
    const int n = count_pages(hub->port(), &pages);
    const double s = Seconds(Clock::now() - start);
    Check(n == f.objects, "the paged list has every Workload once (" + std::to_string(n) + ")");
    std::printf("list        %d Workloads in %d pages of 500 over HTTP: %.2f s (%.1f ms per page)\n",
                f.objects, pages, s, 1000 * s / std::max(1, pages));
  }
  if (restart) {
    hub.reset();
    const auto start = Clock::now();
    auto again = Hub::Start(dir, 16, 4);
    if (!again) return void(failed = true);
    auto client = ClientFor(again->port());
    auto ready = client->Get("/readyz");
    const double ready_s = Seconds(Clock::now() - start);
    auto first = client->Get(std::string(kWorkloads) + "?limit=500");
    const double first_s = Seconds(Clock::now() - start);
    Check(ready && ready->status == 200, "/readyz after restart");
    Check(first && first->status == 200, "first page after restart");
    int pages = 0;
    Check(count_pages(again->port(), &pages) == f.objects, "the restarted hub lists every Workload");
    std::printf("restart     %d Workloads stored: ready in %.3f s (goal < 10 s), first page of 500 at %.3f s\n",
                f.objects, ready_s, first_s);
  }
}

void PhaseWatch(const Flags& f, const std::string& dir) {
  auto hub = Hub::Start(dir, f.watchers + 32, f.watchers + 8);
  if (!hub) return void(failed = true);
  const std::string rv = std::to_string(hub->store->CurrentResourceVersion());
  std::atomic<int> connected{0}, seen{0};
  std::atomic<bool> stop{false};
  std::vector<double> when(static_cast<size_t>(f.watchers), 0);
  Clock::time_point created_at{};
  std::mutex created_mu;
  std::vector<std::thread> threads;
  for (int w = 0; w < f.watchers; ++w) {
    threads.emplace_back([&, w] {
      httplib::Client client("127.0.0.1", hub->port());
      client.set_read_timeout(60, 0);
      bool counted = false, got = false;
      std::string buffer;
      client.Get(std::string(kWorkloads) + "?watch=1&resourceVersion=" + rv,
                 [&](const httplib::Response&) {
                   ++connected;
                   counted = true;
                   return true;
                 },
                 [&](const char* data, size_t n) {
                   buffer.append(data, n);
                   if (!got && buffer.find("\"ADDED\"") != std::string::npos) {
                     got = true;
                     std::lock_guard lock(created_mu);
                     when[static_cast<size_t>(w)] = Seconds(Clock::now() - created_at) * 1000;
                     ++seen;
                   }
                   return !stop.load();
                 });
      if (!counted) ++connected;
    });
  }
  // Streams are counted once their headers arrive (the handler has started the session).
  const auto wait_until = Clock::now() + std::chrono::seconds(60);
  while (connected < f.watchers && Clock::now() < wait_until) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  {
    std::lock_guard lock(created_mu);
    created_at = Clock::now();
  }
  auto client = ClientFor(hub->port());
  auto r = client->Post(kWorkloads, WorkloadBody("watched"), "application/json");
  Check(r && r->status == 201, "the watched create");
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  while (seen < f.watchers && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const double all_ms = Seconds(Clock::now() - created_at) * 1000;
  Check(seen == f.watchers, "every watch stream saw the create (" + std::to_string(seen.load()) + " of " +
                                std::to_string(f.watchers) + ")");
  stop = true;
  hub->http->Stop();
  for (auto& t : threads) t.join();
  std::sort(when.begin(), when.end());
  std::printf("watch       %d streams: the create reached all in %.1f ms (median stream %.1f ms)\n",
              f.watchers, all_ms, when[when.size() / 2]);
}

void PhaseMetrics(const Flags& f, const std::string& dir) {
  auto hub = Hub::Start(dir, 8, 4);
  if (!hub) return void(failed = true);
  for (int i = 0; i < f.series; ++i) {
    hub->metrics.Set("kueue_cluster_queue_resource_usage",
                     {{"cohort", "c" + std::to_string(i % 10)}, {"cluster_queue", "cq-" + std::to_string(i)},
                      {"flavor", "a100"}, {"resource", "nvidia.com/gpu"}, {"replica_role", "standalone"}},
                     i);
  }
  auto client = ClientFor(hub->port());
  client->Get("/metrics");
  const auto start = Clock::now();
  auto r = client->Get("/metrics");
  const double ms = Seconds(Clock::now() - start) * 1000;
  Check(r && r->status == 200 && r->body.find("cq-" + std::to_string(f.series - 1)) != std::string::npos,
        "/metrics lists every series");
  std::printf("metrics     GET /metrics with %zu series (%zu KB): %.1f ms (goal < 100 ms)\n",
              hub->metrics.series_count(), r ? r->body.size() / 1024 : 0, ms);
}

void PhaseCycle(const Flags& f, const std::string& dir) {
  auto opened = store::SqliteStore::Open(dir);
  if (!opened) return void(failed = true);
  auto& s = **opened;
  const std::string setup[] = {
      R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"default"}})",
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ResourceFlavor","metadata":{"name":"a100"}})",
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"ClusterQueue","metadata":{"name":"cq"},"spec":{"namespaceSelector":{},"resourceGroups":[{"coveredResources":["cpu","nvidia.com/gpu"],"flavors":[{"name":"a100","resources":[{"name":"cpu","nominalQuota":"64"},{"name":"nvidia.com/gpu","nominalQuota":"8"}]}]}]}})",
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"LocalQueue","metadata":{"name":"main","namespace":"default"},"spec":{"clusterQueue":"cq"}})",
  };
  std::vector<store::Mutation> batch;
  for (const std::string& text : setup) {
    auto j = nlohmann::ordered_json::parse(text);
    const std::string kind = j["kind"];
    const std::string group = kind == "Namespace" ? "" : "kueue.x-k8s.io";
    const std::string ns = kind == "LocalQueue" ? "default" : "";
    batch.push_back(store::Mutation::Create(store::ObjectKey{group, kind, ns, j["metadata"]["name"]}, text));
  }
  Check(s.Commit(std::move(batch)).has_value(), "cycle setup");
  Populate(s, 0, f.pending, /*gpus=*/2);  // 4 fit the quota of 8 GPUs; the rest wait
  server::ChangeFeed feed;
  cli::SchedulingLoop loop(s, feed, cli::LoopOptions{});
  const auto first_start = Clock::now();
  auto first = loop.RunCycle();
  const double first_s = Seconds(Clock::now() - first_start);
  Check(first.has_value(), "the first cycle");
  // The next cycle reads back what the first wrote (every Workload's status): the hub's
  // steady state, from which one more Workload is measured.
  auto settle = loop.RunCycle();
  Check(settle.has_value() && settle->created + settle->updated + settle->deleted == 0,
        "the cycle after the first writes nothing");
  Populate(s, f.pending, 1, 2);
  const auto again_start = Clock::now();
  auto again = loop.RunCycle();
  // The wall time, not the cycle's own figure: freeing the cycle's snapshot and plan comes
  // after the figure is taken and is as much a cost of the cycle.
  const double again_s = Seconds(Clock::now() - again_start);
  // Its status, and its ClusterQueue's and LocalQueue's (one more pending).
  Check(again.has_value() && again->decoded == 1 && again->created + again->updated == 3,
        "the cycle after one more workload decodes it alone and writes its and its queues' status");
  if (first && settle && again) {
    std::printf("cycle       %d pending Workloads: first cycle %.3f s (%zu written), the next %.3f s "
                "(%zu decoded); one more Workload: %.3f s (goal < %s; read %.3f, plan %.3f, write "
                "%.3f), %zu decoded, %zu written\n",
                f.pending, first_s, first->created + first->updated, settle->seconds, settle->decoded,
                again_s, f.pending >= 100000 ? "500 ms" : "50 ms", again->read_seconds,
                again->plan_seconds, again->write_seconds, again->decoded,
                again->created + again->updated);
  }
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
      f.creates = 20000;
      f.paced_s = 10;
      f.objects = 100000;
      f.watchers = 500;
      f.series = 10000;
      f.pending = 10000;
    } else if (a == "--clients") ok = value(&f.clients);
    else if (a == "--creates") ok = value(&f.creates);
    else if (a == "--objects") ok = value(&f.objects);
    else if (a == "--watchers") ok = value(&f.watchers);
    else if (a == "--series") ok = value(&f.series);
    else if (a == "--pending") ok = value(&f.pending);
    else if (a == "--only" && i + 1 < argc) f.only = argv[++i];
    else ok = false;
    if (!ok) {
      std::fprintf(stderr, "usage: berth_serve_bench [--scale] [--clients N] [--creates N] [--objects N] "
                           "[--watchers N] [--series N] [--pending N] [--only a,b]\n");
      return 2;
    }
  }
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("berth-serve-bench-" + std::to_string(::getpid()));
  std::error_code made;
  fs::create_directories(root, made);
  auto wants = [&](const char* phase) { return f.only.find(phase) != std::string::npos; };
  if (wants("creates")) PhaseCreates(f, (root / "creates").string());
  if (wants("latency")) PhaseLatency(f, (root / "latency").string());
  if (wants("list") || wants("restart")) {
    PhaseListAndRestart(f, (root / "list").string(), wants("list"), wants("restart"));
  }
  if (wants("watch")) PhaseWatch(f, (root / "watch").string());
  if (wants("metrics")) PhaseMetrics(f, (root / "metrics").string());
  if (wants("cycle")) PhaseCycle(f, (root / "cycle").string());
  std::error_code ec;
  fs::remove_all(root, ec);
  return failed ? 1 : 0;
}
