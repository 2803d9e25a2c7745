// The declarations mirror upstream's: `managedCluster` is dyn at compile time (upstream
// declares map(string, dyn), which accepts the same expressions) and scores is one member
// overload (dyn, string) -> list(map(string, dyn)), so `scores(managedCluster, "x")`
// (global style) does not compile, as upstream.
#include "placement/cluster_cel_library.h"

#include <string>

#include "core/check.h"

namespace berth::placement {

cel::Value ScoresFunction::Call(std::span<const cel::Value> args) const {
  // The planner only calls with (map-or-anything, string); the receiver may still be a
  // value other than a map at run time.
  const cel::Value& cluster = args[0];
  if (cluster.kind() != cel::ValueKind::kMap)
    return cel::Value::Error("failed to get cluster metadata");
  std::optional<cel::Value> metadata = cluster.map_value().Find(cel::Value::StringView("metadata"));
  if (!metadata.has_value() || metadata->kind() != cel::ValueKind::kMap) {
    return cel::Value::Error("failed to get cluster metadata");
  }
  std::optional<cel::Value> name = metadata->map_value().Find(cel::Value::StringView("name"));
  if (!name.has_value() || name->kind() != cel::ValueKind::kString) {
    return cel::Value::Error("failed to get cluster name");
  }
  std::string_view score_name = args[1].string_value();
  const cel::ListValue* list =
      index_ == nullptr ? nullptr : index_->CelScores(name->string_value(), score_name);
  if (list == nullptr) {
    return cel::Value::Error(
        "failed to get score: addonplacementscore.cluster.open-cluster-management.io \"" +
        std::string(score_name) + "\" not found");
  }
  return cel::Value::ListView(list);
}

ClusterCelLibrary::ClusterCelLibrary(const AddOnScoreIndex* scores) : scores_(scores) {
  // Both declarations are fixed and valid, so neither can fail.
  cluster_slot_ = env_.AddVariable("managedCluster").value();
  cel::FunctionDecl decl;
  decl.name = "scores";
  decl.receiver = true;
  decl.params = {cel::Type::Dyn(), cel::Type::String()};
  decl.result = cel::Type::List(cel::Type::Map(cel::Type::String(), cel::Type::Dyn()));
  decl.impl = &scores_;
  core::Status added = env_.AddFunction(std::move(decl));
  BERTH_CHECK(added.ok(), "ClusterCelLibrary: scores() declaration refused");
}

}  // namespace berth::placement
