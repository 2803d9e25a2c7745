// berth_server_bench: the per-request costs of the hub's API machinery (src/server/api):
// building the aggregated /apis document (what kubectl fetches first, and what the HTTP layer
// should cache since it is constant), routing a request, filtering 10,000 Workloads by label
// and field selector, printing a 500-row Workload Table (kubectl's list chunk), and a merge
// and a JSON patch of a Workload. Each benchmark checks its answer before timing.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "model/kind_info.h"
#include "server/api/discovery.h"
#include "server/api/list_options.h"
#include "server/api/patch.h"
#include "server/api/request_info.h"
#include "server/api/table.h"

namespace berth::bench {
namespace {

using Json = nlohmann::ordered_json;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "server_bench: wrong answer: %s\n", what);
    std::abort();
  }
}

Json Workload(int i) {
  Json w = Json::parse(R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload",
      "metadata":{"creationTimestamp":"2026-01-01T00:00:00Z","labels":{}},
      "spec":{"queueName":"lq","podSets":[{"name":"main","count":4}]},
      "status":{"admission":{"clusterQueue":"cq"},"conditions":[
        {"type":"QuotaReserved","status":"True"},{"type":"Admitted","status":"True"}]}})");
  w["metadata"]["name"] = "job-" + std::to_string(i);
  w["metadata"]["namespace"] = "team-" + std::to_string(i % 20);
  w["metadata"]["labels"]["team"] = "t" + std::to_string(i % 20);
  w["metadata"]["labels"]["tier"] = i % 3 == 0 ? "batch" : "online";
  return w;
}

void BM_AggregatedDiscoveryApis(benchmark::State& state) {
  const Json doc = server::AggregatedDiscovery(false, server::DiscoveryFormat::kAggregatedV2);
  Check(doc["items"].size() == server::ServedGroups().size(), "one item per group");
  for (auto _ : state) {
    std::string bytes =
        server::AggregatedDiscovery(false, server::DiscoveryFormat::kAggregatedV2).dump();
    benchmark::DoNotOptimize(bytes);
  }
}
BENCHMARK(BM_AggregatedDiscoveryApis);

void BM_ParseRequest(benchmark::State& state) {
  const auto query = server::ParseQuery("watch=1&resourceVersion=10").value();
  const std::string path = "/apis/kueue.x-k8s.io/v1beta2/namespaces/team-a/workloads";
  auto r = server::ParseRequest("GET", path, query);
  Check(r.has_value() && r->verb == server::RequestVerb::kWatch, "watch route");
  for (auto _ : state) {
    auto info = server::ParseRequest("GET", path, query);
    benchmark::DoNotOptimize(info);
  }
}
BENCHMARK(BM_ParseRequest);

void BM_ListFilter_10kWorkloads(benchmark::State& state) {
  std::vector<Json> objects;
  for (int i = 0; i < 10000; ++i) objects.push_back(Workload(i));
  const model::KindInfo& kind = *model::FindKind("kueue.x-k8s.io", "Workload");
  const auto query = server::ParseQuery(
                         "labelSelector=team%3Dt3,tier+in+(batch)&fieldSelector=metadata."
                         "namespace%3Dteam-3")
                         .value();
  const server::ListOptions opts = server::ParseListOptions(query, kind, false).value();
  size_t expected = 0;
  for (int i = 0; i < 10000; ++i) expected += (i % 20 == 3 && i % 3 == 0) ? 1 : 0;
  size_t got = 0;
  for (const Json& o : objects) got += opts.Matches(o) ? 1 : 0;
  Check(got == expected, "selector matches");
  for (auto _ : state) {
    size_t n = 0;
    for (const Json& o : objects) n += opts.Matches(o) ? 1 : 0;
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(BM_ListFilter_10kWorkloads)->Unit(benchmark::kMillisecond);

void BM_BuildTable_500Workloads(benchmark::State& state) {
  std::vector<Json> objects;
  for (int i = 0; i < 500; ++i) objects.push_back(Workload(i));
  const model::KindInfo& kind = *model::FindKind("kueue.x-k8s.io", "Workload");
  server::TableOptions opts;
  opts.now = core::Timestamp{1767229200};  // 2026-01-01T01:00:00Z
  const Json t = server::BuildTable(kind, "v1beta2", objects, opts);
  Check(t["rows"].size() == 500 && t["rows"][0]["cells"][5] == "60m", "table rows");
  for (auto _ : state) {
    std::string bytes = server::BuildTable(kind, "v1beta2", objects, opts).dump();
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations() * 500);
}
BENCHMARK(BM_BuildTable_500Workloads)->Unit(benchmark::kMillisecond);

void BM_MergeAndJsonPatch(benchmark::State& state) {
  const Json w = Workload(1);
  const std::string merge = R"({"spec":{"active":false},"metadata":{"labels":{"tier":null}}})";
  const std::string json_patch =
      R"([{"op":"test","path":"/spec/queueName","value":"lq"},)"
      R"({"op":"replace","path":"/spec/podSets/0/count","value":8}])";
  Check(server::ApplyMergePatch(w, merge).value()["spec"]["active"] == false, "merge");
  Check(server::ApplyJsonPatch(w, json_patch).value()["spec"]["podSets"][0]["count"] == 8,
        "json patch");
  for (auto _ : state) {
    auto a = server::ApplyMergePatch(w, merge);
    auto b = server::ApplyJsonPatch(w, json_patch);
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK(BM_MergeAndJsonPatch);

}  // namespace
}  // namespace berth::bench

BENCHMARK_MAIN();
