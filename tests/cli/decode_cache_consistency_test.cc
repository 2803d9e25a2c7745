// Reader::ReadCached plans exactly as a full read does (the hub's incremental cycle relies on
// it): for seeded random fleets (tests/engine/random_fleet.h) plus objects that take the
// cached read's other paths (an unknown kind, an object io refuses, a Kueue Configuration,
// which is read again each time), the plan printed from a cached read equals the one
// printed from reading the same objects as one List, on the first read and after rounds
// of changes (edited, removed and added objects) through the same cache. A failure names
// the seed and the round.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/plan_items.h"
#include "engine/plan.h"
#include "engine/random_fleet.h"  // tests/engine: the property test's generator
#include "io/decode_cache.h"
#include "io/reader.h"
#include "io/writer.h"

namespace berth::cli {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

struct Object {
  std::string key;
  int64_t version = 1;
  std::string json;
};

// The fleet's objects as compact JSON, in the order read: the documents a Reader stores for
// the objects it decodes come first in its Input, before the ones expansion adds.
std::vector<Object> ObjectsOf(const std::string& yaml) {
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(yaml, "fleet.yaml");
  const io::Input input = reader.Finish();
  std::vector<Object> out;
  for (size_t i = 0; i < input.objects_read; ++i) {
    const io::Document& d = input.documents.Get(model::SourceRef{static_cast<int32_t>(i)});
    out.push_back({d.api_version + "/" + d.kind + "/" + d.namespace_ + "/" + d.name, 1, std::string(d.json)});
  }
  return out;
}

struct Printed {
  std::string plan;
  size_t errors = 0;
  size_t warnings = 0;
};

Printed PlanOf(core::Diagnostics& diags, io::Input input) {
  engine::PlanOptions options;
  options.now = core::Timestamp{1767225600};
  const engine::Plan plan = engine::RunPlan(std::move(input.snapshot), options);
  std::ostringstream out;
  io::WritePlan(plan.planned, PlanItemsOf(plan), input.documents, io::OutputFormat::kJson, out);
  Printed p;
  p.plan = out.str();
  for (const core::Diagnostic& d : diags.entries()) {
    (d.severity == core::Severity::kError ? p.errors : p.warnings) += 1;
  }
  return p;
}

Printed FullRead(const std::vector<Object>& objects) {
  std::string list = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (size_t i = 0; i < objects.size(); ++i) list += (i ? "," : "") + objects[i].json;
  list += "]}";
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(list, "<hub>");
  return PlanOf(diags, reader.Finish());
}

Printed CachedRead(const std::vector<Object>& objects, io::DecodeCache& cache) {
  std::vector<io::SourceObject> sources;
  for (const Object& o : objects) sources.push_back({o.key, o.version, o.json});
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadCached(sources, cache, "<hub>");
  return PlanOf(diags, reader.Finish());
}

// Objects outside the random fleets' kinds, each taking another path of ReadCached.
std::vector<Object> Extras() {
  return {
      {"config", 1,
       R"({"apiVersion":"config.kueue.x-k8s.io/v1beta2","kind":"Configuration","waitForPodsReady":{"timeout":"10m"}})"},
      {"widget", 1, R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"}})"},
      {"bad-pod", 1,
       R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"bad","namespace":"default"},)"
       R"("spec":{"containers":[{"name":"c","image":"x","resources":{"requests":{"cpu":"lots"}}}]}})"},
  };
}

// One round of changes: every 7th object gets a label (a new version), every 11th is
// removed, and a copy of every 13th is added under a new name.
void Change(std::vector<Object>* objects, int round) {
  std::vector<Object> next;
  for (size_t i = 0; i < objects->size(); ++i) {
    Object o = (*objects)[i];
    if (o.key.starts_with("config") || o.key.starts_with("widget") || o.key.starts_with("bad")) {
      next.push_back(o);
      continue;
    }
    if ((i + static_cast<size_t>(round)) % 11 == 0) continue;
    Json body = Json::parse(o.json);
    if ((i + static_cast<size_t>(round)) % 7 == 0) {
      body["metadata"]["labels"]["round"] = std::to_string(round);
      o.json = body.dump();
      ++o.version;
    }
    next.push_back(o);
    if ((i + static_cast<size_t>(round)) % 13 == 0 && body["metadata"].contains("name")) {
      body["metadata"]["name"] = body["metadata"]["name"].get<std::string>() + "-r" + std::to_string(round);
      next.push_back({o.key + "-r" + std::to_string(round), 1, body.dump()});
    }
  }
  *objects = std::move(next);
}

TEST(DecodeCacheConsistencyTest, CachedReadsPlanAsFullReadsDo) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    std::vector<Object> objects = ObjectsOf(engine::testing::RandomFleetYaml(seed));
    ASSERT_FALSE(objects.empty()) << "seed " << seed;
    for (Object& extra : Extras()) objects.push_back(std::move(extra));
    io::DecodeCache cache;
    for (int round = 0; round < 4; ++round) {
      if (round > 0) Change(&objects, round);
      const Printed full = FullRead(objects);
      const Printed cached = CachedRead(objects, cache);
      EXPECT_EQ(cached.plan, full.plan) << "seed " << seed << ", round " << round;
      EXPECT_EQ(cached.errors, full.errors) << "seed " << seed << ", round " << round;
      EXPECT_EQ(cached.warnings, full.warnings) << "seed " << seed << ", round " << round;
      EXPECT_EQ(cache.size(), objects.size());
      if (round > 0) {
        EXPECT_LT(cache.last_decoded(), objects.size())
            << "seed " << seed << ", round " << round << ": unchanged objects were decoded again";
      }
      if (::testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::cli
