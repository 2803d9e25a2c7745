// Every decoder treats a missing, null or wrong-typed field the same way (issue 14). For one
// rich object of every kind (tests/fixtures/io/every_kind.yaml) and the minimal object of
// every row and version of the table of kinds (testing::MinimalObject), each field in turn is
// removed, set to null, and set to a value of another type (a number, a string, a list),
// and read in a List beside a good Node. The reader must not crash and must keep the good
// Node; the mutated object is either read (the field is optional, or one berth does not read:
// fields berth does not own are carried through as written) or dropped with an error whose
// field is one of the object's own (the mutated field, the parent that requires it, or a
// field checked against it). The fields every decoder reads (metadata, its name, labels and
// annotations, and spec) must be refused by name when retyped, and the required fields of
// the minimal objects when removed or nulled.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "io/internal/yaml_to_json.h"
#include "io/reader.h"
#include "io/test_util.h"
#include "model/kind_info.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using Json = nlohmann::ordered_json;

constexpr const char* kGoodNodeName = "good-node-beside";

Json GoodNode() {
  return Json::parse(
      R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"good-node-beside"},)"
      R"("status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}})");
}

// A field path as segments: "spec.a[b.c][0]" and "spec.a.b.c[0]" differ in how a map key is
// printed (decoders bracket keys with '.' or '/', some every map key, as upstream's Key()),
// so paths are compared as segment lists: {"spec", "a", "b.c", "0"}.
std::vector<std::string> Segments(const std::string& field) {
  std::vector<std::string> out;
  std::string cur;
  for (size_t i = 0; i < field.size(); ++i) {
    const char c = field[i];
    if (c == '.') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c == '[') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      const size_t end = field.find(']', i);
      out.push_back(field.substr(i + 1, end - i - 1));
      i = end == std::string::npos ? field.size() : end;
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool IsPrefix(const std::vector<std::string>& prefix, const std::vector<std::string>& of) {
  return prefix.size() <= of.size() && std::equal(prefix.begin(), prefix.end(), of.begin());
}

struct FieldPath {
  Json::json_pointer pointer;
  std::vector<std::string> segments;
  std::string field;
  bool in_array = false;
};

void CollectPaths(const Json& value, const FieldPath& at, std::vector<FieldPath>* out) {
  auto add = [&](const Json::json_pointer& pointer, const std::string& segment,
                 const std::string& field, bool in_array, const Json& child) {
    FieldPath p{pointer, at.segments, field, in_array};
    p.segments.push_back(segment);
    out->push_back(p);
    CollectPaths(child, p, out);
  };
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      std::string field = at.field.empty() ? it.key() : at.field + "." + it.key();
      add(at.pointer / it.key(), it.key(), field, false, it.value());
    }
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      add(at.pointer / i, std::to_string(i), at.field + "[" + std::to_string(i) + "]", true,
          value[i]);
    }
  }
}

std::vector<Json> Objects() {
  std::vector<Json> out;
  auto add_yaml = [&](const std::string& text) {
    core::Status status = internal::ConvertYamlStream(
        text, [&](std::string&& json, int) { out.push_back(Json::parse(json)); });
    EXPECT_TRUE(status.ok());
  };
  std::ifstream in(testing::FixturePath("every_kind.yaml"));
  std::stringstream text;
  text << in.rdbuf();
  add_yaml(text.str());
  for (const model::KindInfo& k : model::AllKinds()) {
    for (std::string_view v : k.versions) add_yaml(testing::MinimalObject(k, v));
    for (std::string_view v : k.read_only_versions) add_yaml(testing::MinimalObject(k, v));
  }
  return out;
}

enum class Mutation { kRemove, kNull, kNumber, kString, kList };

const char* Name(Mutation m) {
  switch (m) {
    case Mutation::kRemove:
      return "removed";
    case Mutation::kNull:
      return "null";
    case Mutation::kNumber:
      return "7";
    case Mutation::kString:
      return "\"x\"";
    case Mutation::kList:
      return "[]";
  }
  return "";
}

// The mutation changes the field's type (a number for a string, ...), not only its value.
bool Retypes(Mutation m, const Json& original) {
  switch (m) {
    case Mutation::kNumber:
      return !original.is_number();
    case Mutation::kString:
      return !original.is_string();
    case Mutation::kList:
      return !original.is_array();
    default:
      return false;
  }
}

Json Apply(const Json& base, const FieldPath& p, Mutation m) {
  Json out = base;
  switch (m) {
    case Mutation::kRemove:
      out.at(p.pointer.parent_pointer()).erase(p.pointer.back());
      break;
    case Mutation::kNull:
      out.at(p.pointer) = nullptr;
      break;
    case Mutation::kNumber:
      out.at(p.pointer) = 7;
      break;
    case Mutation::kString:
      out.at(p.pointer) = "x";
      break;
    case Mutation::kList:
      out.at(p.pointer) = Json::array();
      break;
  }
  return out;
}

struct Outcome {
  bool read = false;       // the mutated object was read
  bool good_kept = false;  // and the good Node beside it
  std::vector<std::string> error_field;
  std::string dump;
};

Outcome Read(const Json& object) {
  Json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", {object, GoodNode()}}};
  // A TrainJob is read with the runtime its minimal object names ("r"), which it needs.
  if (object.is_object() && object.value("kind", "") == "TrainJob") {
    list["items"].push_back(Json::parse(
        R"({"apiVersion":"trainer.kubeflow.org/v1alpha1","kind":"ClusterTrainingRuntime",)"
        R"("metadata":{"name":"r"},"spec":{"template":{"spec":{"replicatedJobs":[{"name":"node",)"
        R"("template":{"spec":{"template":{"spec":{"containers":[{"name":"node","image":"i"}]}}}}}]}}}})"));
  }
  // A Dataset is read with a runtime of its own name, without which Fluid binds it to none.
  if (object.is_object() && object.value("kind", "") == "Dataset" && object.contains("metadata") &&
      object["metadata"].is_object()) {
    const Json& meta = object["metadata"];
    Json runtime_meta = Json::object();
    if (meta.contains("name") && meta["name"].is_string()) runtime_meta["name"] = meta["name"];
    if (meta.contains("namespace") && meta["namespace"].is_string()) {
      runtime_meta["namespace"] = meta["namespace"];
    }
    list["items"].push_back({{"apiVersion", "data.fluid.io/v1alpha1"},
                             {"kind", "AlluxioRuntime"},
                             {"metadata", runtime_meta}});
  }
  core::Diagnostics diags;
  Input in = testing::ReadString(list.dump(), diags, "mutated.json");
  Outcome out;
  for (const model::Node& n : in.snapshot.nodes) {
    if (n.meta.name == kGoodNodeName) out.good_kept = true;
  }
  out.read = in.objects_read == list["items"].size() && !diags.has_errors();
  for (const core::Diagnostic& d : diags.entries()) {
    if (d.severity == core::Severity::kError) {
      out.error_field = Segments(d.error.location().field);
      break;
    }
  }
  out.dump = testing::Dump(diags);
  return out;
}

// The fields every kind's decoder reads, which a wrong type must never slip past.
bool AlwaysRead(const std::string& field, const Json& base) {
  static const std::set<std::string> kFields = {"metadata", "metadata.name", "metadata.labels",
                                                "metadata.annotations", "metadata.namespace"};
  return kFields.count(field) > 0 || (field == "spec" && base.contains("spec"));
}

TEST(FieldMutationTest, EveryFieldRemovedNulledAndRetyped) {
  size_t mutations = 0;
  size_t refused = 0;
  for (const Json& base : Objects()) {
    const std::string kind = base.value("apiVersion", "") + " " + base.value("kind", "");
    SCOPED_TRACE(kind);
    {
      Outcome o = Read(base);
      ASSERT_TRUE(o.read) << "the object as given reads\n" << o.dump;
    }
    // Config objects carry no name; every other object's own fields.
    const bool is_config = !base.contains("metadata") ||
                           base.value("kind", "") == "KubeSchedulerConfiguration" ||
                           base.value("kind", "") == "Configuration";
    std::vector<FieldPath> paths;
    CollectPaths(base, FieldPath{Json::json_pointer(), {}, "", false}, &paths);
    std::vector<std::vector<std::string>> own_fields;
    for (const FieldPath& p : paths) own_fields.push_back(p.segments);
    for (const FieldPath& p : paths) {
      if (p.field == "apiVersion" || p.field == "kind") continue;  // the reader's, not a decoder's
      const Json& original = base.at(p.pointer);
      for (Mutation m : {Mutation::kRemove, Mutation::kNull, Mutation::kNumber, Mutation::kString,
                         Mutation::kList}) {
        if (m == Mutation::kRemove && p.in_array) continue;
        if (m != Mutation::kRemove && m != Mutation::kNull && !Retypes(m, original)) continue;
        SCOPED_TRACE(p.field + " " + Name(m));
        ++mutations;
        Outcome o = Read(Apply(base, p, m));
        EXPECT_TRUE(o.good_kept) << o.dump;
        if (!o.read) {
          ++refused;
          // The error names one of the object's fields, or one inside the mutated one.
          bool own = IsPrefix(p.segments, o.error_field);
          // A field the object has, or a required one beside them (its parent is the object's).
          std::vector<std::string> parent = o.error_field;
          if (!parent.empty()) parent.pop_back();
          for (const auto& f : own_fields) own = own || f == o.error_field || f == parent;
          EXPECT_FALSE(o.error_field.empty()) << "the error names a field\n" << o.dump;
          EXPECT_TRUE(own) << "the error names one of the object's fields\n" << o.dump;
        }
        if (Retypes(m, original) && AlwaysRead(p.field, base) && !is_config) {
          EXPECT_FALSE(o.read) << "a retyped " << p.field << " is refused";
          EXPECT_EQ(o.error_field, p.segments) << o.dump;
        }
        if (!is_config && p.field == "metadata.name") {
          EXPECT_FALSE(o.read) << "metadata.name is required";
        }
      }
    }
  }
  // The figures for the report: how many mutated objects were read and how many refused.
  std::printf("field mutations: %zu, refused: %zu\n", mutations, refused);
  EXPECT_GT(mutations, 5000u);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
