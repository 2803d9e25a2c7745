// Fuzz target: io's cached read (Reader::ReadCached, the hub's cycle) against a full read of
// the same objects. The input is read once to find its objects (their documents, as compact
// JSON); then the objects go through a DecodeCache twice (cold, then with every third
// object given a new version and every fifth left out) and, each time, through ReadText as
// one List. Every count the plan depends on must agree: objects read, documents, each list of
// the snapshot, errors and warnings. A difference is a property failure (the differential
// test in tests/cli/decode_cache_consistency_test.cc compares whole plans on random fleets).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"
#include "fuzz/fuzz_expansion.h"
#include "fuzz/fuzz_support.h"
#include "fuzz/yaml_mutator.h"
#include "io/decode_cache.h"
#include "io/reader.h"

BERTH_FUZZ_YAML_MUTATOR()

namespace {

struct Object {
  std::string key;
  int64_t version = 1;
  std::string json;
};

// What must not differ between the two reads.
std::string Counts(const berth::io::Input& input, const berth::core::Diagnostics& diags) {
  const berth::model::Snapshot& s = input.snapshot;
  size_t errors = 0;
  for (const berth::core::Diagnostic& d : diags.entries()) {
    errors += d.severity == berth::core::Severity::kError ? 1 : 0;
  }
  std::string out;
  for (size_t n : {input.objects_read, input.documents.size(), s.nodes.size(), s.pods.size(),
                   s.workloads.size(), s.kueue_workloads.size(), s.cluster_queues.size(),
                   s.local_queues.size(), s.resource_claims.size(), s.resource_slices.size(),
                   s.managed_clusters.size(), s.placements.size(), s.manifest_works.size(),
                   s.pod_groups.size(), errors, diags.entries().size() - errors}) {
    out += std::to_string(n) + ",";
  }
  return out;
}

void Compare(const std::vector<Object>& objects, berth::io::DecodeCache& cache) {
  std::string list = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (size_t i = 0; i < objects.size(); ++i) list += (i ? "," : "") + objects[i].json;
  list += "]}";
  berth::core::Diagnostics full_diags;
  berth::io::Reader full(full_diags);
  full.ReadText(list, "<hub>");
  const berth::io::Input a = full.Finish(berth::fuzz::kFuzzExpansionLimits);
  std::vector<berth::io::SourceObject> sources;
  for (const Object& o : objects) sources.push_back({o.key, o.version, o.json});
  berth::core::Diagnostics cached_diags;
  berth::io::Reader cached(cached_diags);
  cached.ReadCached(sources, cache, "<hub>");
  const berth::io::Input b = cached.Finish(berth::fuzz::kFuzzExpansionLimits);
  const std::string want = Counts(a, full_diags);
  const std::string got = Counts(b, cached_diags);
  if (want != got) berth::fuzz::PropertyFailed("cached read differs from full read", want + " vs " + got);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = berth::fuzz::AsText(data, size);
  if (berth::fuzz::MayAskForHugeCounts(text)) return 0;
  std::vector<Object> objects;
  {
    berth::core::Diagnostics diags;
    berth::io::Reader reader(diags);
    reader.ReadText(text, "fuzz.yaml");
    const berth::io::Input input = reader.Finish(berth::fuzz::kFuzzExpansionLimits);
    // The documents of decoded objects come first; keys by position keep them unique.
    for (size_t i = 0; i < input.objects_read && i < input.documents.size(); ++i) {
      const berth::io::Document& d = input.documents.Get(berth::model::SourceRef{static_cast<int32_t>(i)});
      objects.push_back({std::to_string(i) + "/" + d.kind + "/" + d.name, 1, std::string(d.json)});
    }
  }
  if (objects.empty()) return 0;
  berth::io::DecodeCache cache;
  Compare(objects, cache);
  std::vector<Object> next;
  for (size_t i = 0; i < objects.size(); ++i) {
    if (i % 5 == 4) continue;
    Object o = objects[i];
    if (i % 3 == 0) ++o.version;
    next.push_back(std::move(o));
  }
  Compare(next, cache);
  return 0;
}
