// A plan's List is printed by walking the table of kinds (internal/kind_table.h): each row
// with a status writer (internal/status_writer.h) contributes the objects of its kind the
// plan lists, in table order. Items are made one at a time so that a writer can print each
// and let it go: a plan's List would otherwise hold every pod's document as a tree at once
// (a few times the input's size).
#include "io/writer.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "core/ascii.h"
#include "io/internal/kind_table.h"
#include "io/internal/status_writer.h"
#include "io/internal/yaml_emitter.h"
#include "io/table_writer.h"
#include "model/kind_info.h"

namespace berth::io {

namespace {

using OrderedJson = nlohmann::ordered_json;

// Calls `emit(writer, i)` for each item of the List, in print order: the rows of the table
// of kinds in order, each row's items in the order the plan lists them.
template <typename Emit>
void ForEachItem(const PlanItems& plan, Emit&& emit) {
  for (const internal::KindRow& row : internal::KindRows()) {
    if (row.status_writer == nullptr) continue;
    const internal::StatusWriter& writer = *row.status_writer;
    const size_t n = writer.count(plan);
    for (size_t i = 0; i < n; ++i) emit(writer, i);
  }
}

// The List as `list.dump(2)` prints it, one item at a time: an item nested two levels deep
// is its own dump(2) with every line after the first indented by four more spaces (a dump
// has no raw newline inside a string: JSON escapes them), and the array's own brackets and
// commas around it. Items whose writer prints text (pods) print from their stored text when
// the pretty printer can.
void WriteJsonList(const model::Snapshot& planned, const PlanItems& plan,
                   const DocumentStore& documents, std::ostream& out) {
  out << "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [";
  bool first = true;
  std::string text;
  std::string indented;
  auto write_tree = [&](const OrderedJson& item) {
    text = item.dump(2, ' ', false, OrderedJson::error_handler_t::replace);
    indented.reserve(indented.size() + text.size() + text.size() / 8);
    size_t from = 0;
    for (size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
      indented.append(text, from, nl + 1 - from);
      indented += "    ";
      from = nl + 1;
    }
    indented.append(text, from, std::string::npos);
  };
  auto flush = [&] {
    out.write(indented.data(), static_cast<std::streamsize>(indented.size()));
    indented.clear();
  };
  internal::PlanWriteContext context(planned, plan, documents);
  ForEachItem(plan, [&](const internal::StatusWriter& writer, size_t i) {
    indented += first ? "\n    " : ",\n    ";
    first = false;
    if (writer.text == nullptr || !writer.text(context, i, /*indent=*/4, &indented)) {
      write_tree(writer.tree(context, i));
    }
    flush();
  });
  out << (first ? "]" : "\n  ]") << ",\n  \"metadata\": {\n    \"resourceVersion\": \"\"\n  }\n}\n";
}

// -o name: the items' identities, read from the very trees the List prints (so the lines
// are the List's items, in its order). The kind's row gives the type word.
void WriteNameList(const model::Snapshot& planned, const PlanItems& plan,
                   const DocumentStore& documents, std::ostream& out) {
  internal::PlanWriteContext context(planned, plan, documents);
  ForEachItem(plan, [&](const internal::StatusWriter& writer, size_t i) {
    const OrderedJson item = writer.tree(context, i);
    auto text_at = [](const OrderedJson& object, const char* key) {
      auto it = object.find(key);
      return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const std::string api_version = text_at(item, "apiVersion");
    const std::string kind = text_at(item, "kind");
    std::string type = core::AsciiLower(kind);
    const std::string_view group = model::ApiGroupOf(api_version);
    if (!group.empty()) type += "." + std::string(group);
    std::string ns;
    std::string name;
    if (auto meta = item.find("metadata"); meta != item.end() && meta->is_object()) {
      ns = text_at(*meta, "namespace");
      name = text_at(*meta, "name");
    }
    // A namespaced object read without metadata.namespace lives in "default".
    const model::KindInfo* info = model::FindKind(group, kind);
    if (ns.empty() && info != nullptr && info->namespaced()) ns = "default";
    out << type << '/' << (ns.empty() ? "" : ns + "/") << name << '\n';
  });
}

// `items` with federated_learnings listed: the caller's list, else every FederatedLearning
// the plan decided (its status set), copied into *storage only when there is one to add.
const PlanItems& WithFederatedLearnings(const model::Snapshot& planned, const PlanItems& items,
                                        PlanItems* storage) {
  if (items.federated_learnings.has_value()) return items;
  std::vector<int32_t> decided;
  for (size_t i = 0; i < planned.federated_learnings.size(); ++i) {
    if (planned.federated_learnings[i].status.has_value()) {
      decided.push_back(static_cast<int32_t>(i));
    }
  }
  if (decided.empty()) return items;
  *storage = items;
  storage->federated_learnings = std::move(decided);
  return *storage;
}

// `items` with replica_sets and controller_revisions listed: the caller's lists, else the
// MWRSs the plan stepped and the revisions it created or changed, copied into *storage only
// when there is one to add.
const PlanItems& WithReplicaSets(const model::Snapshot& planned, const PlanItems& items,
                                 PlanItems* storage) {
  std::vector<int32_t> stepped;
  std::vector<int32_t> revisions;
  if (!items.replica_sets.has_value()) {
    for (size_t i = 0; i < planned.manifest_work_replica_sets.size(); ++i) {
      if (planned.manifest_work_replica_sets[i].stepped) stepped.push_back(static_cast<int32_t>(i));
    }
  }
  if (!items.controller_revisions.has_value()) {
    for (size_t i = 0; i < planned.controller_revisions.size(); ++i) {
      const model::ControllerRevision& r = planned.controller_revisions[i];
      if (r.created || r.changed) revisions.push_back(static_cast<int32_t>(i));
    }
  }
  if (stepped.empty() && revisions.empty()) return items;
  *storage = items;
  if (!items.replica_sets.has_value()) storage->replica_sets = std::move(stepped);
  if (!items.controller_revisions.has_value()) storage->controller_revisions = std::move(revisions);
  return *storage;
}

// `items` with volume_claims and volumes listed: the caller's lists, else the claims and
// volumes the plan's binds bound, copied into *storage only when there is one to add.
const PlanItems& WithPlannedStorage(const model::Snapshot& planned, const PlanItems& items,
                                    PlanItems* storage) {
  std::vector<int32_t> claims;
  std::vector<int32_t> volumes;
  if (!items.volume_claims.has_value()) {
    for (size_t i = 0; i < planned.persistent_volume_claims.size(); ++i) {
      if (planned.persistent_volume_claims[i].planned) claims.push_back(static_cast<int32_t>(i));
    }
  }
  if (!items.volumes.has_value()) {
    for (size_t i = 0; i < planned.persistent_volumes.size(); ++i) {
      if (planned.persistent_volumes[i].planned) volumes.push_back(static_cast<int32_t>(i));
    }
  }
  if (claims.empty() && volumes.empty()) return items;
  *storage = items;
  if (!items.volume_claims.has_value()) storage->volume_claims = std::move(claims);
  if (!items.volumes.has_value()) storage->volumes = std::move(volumes);
  return *storage;
}

}  // namespace

void WritePlanList(const model::Snapshot& planned, const std::vector<model::PodDecision>& decisions,
                   const DocumentStore& documents, OutputFormat format, std::ostream& out) {
  WritePlanList(planned, decisions, {}, documents, format, out);
}

void WritePlanList(const model::Snapshot& planned, const std::vector<model::PodDecision>& decisions,
                   const std::vector<int32_t>& claims, const DocumentStore& documents,
                   OutputFormat format, std::ostream& out) {
  PlanItems items;
  items.pods = &decisions;
  items.claims = claims;
  WritePlan(planned, items, documents, format, out);
}

PlanItems WithPrintedLists(const model::Snapshot& planned, const PlanItems& items) {
  PlanItems storage;
  PlanItems replica_set_storage;
  PlanItems storage_storage;
  PlanItems out = WithPlannedStorage(
      planned,
      WithReplicaSets(planned, WithFederatedLearnings(planned, items, &storage),
                      &replica_set_storage),
      &storage_storage);
  if (!out.federated_learnings) out.federated_learnings.emplace();
  if (!out.volume_claims) out.volume_claims.emplace();
  if (!out.volumes) out.volumes.emplace();
  if (!out.replica_sets) out.replica_sets.emplace();
  if (!out.controller_revisions) out.controller_revisions.emplace();
  return out;
}

void WritePlan(const model::Snapshot& planned, const PlanItems& items,
               const DocumentStore& documents, OutputFormat format, std::ostream& out,
               const TableOptions& table) {
  PlanItems storage;
  PlanItems replica_set_storage;
  PlanItems storage_storage;
  const PlanItems& plan = WithPlannedStorage(
      planned,
      WithReplicaSets(planned, WithFederatedLearnings(planned, items, &storage),
                      &replica_set_storage),
      &storage_storage);
  if (format == OutputFormat::kTable) {
    WritePlanTable(planned, plan, out, table);
    return;
  }
  if (format == OutputFormat::kName) {
    WriteNameList(planned, plan, documents, out);
    return;
  }
  if (format == OutputFormat::kJson) {
    WriteJsonList(planned, plan, documents, out);
    return;
  }
  // Streamed one item at a time, as the JSON writer does: a tree of the whole list (then its
  // text) held about 7 KB per pod, twice what the plan itself needs.
  OrderedJson head = OrderedJson::object();
  head["apiVersion"] = "v1";
  head["kind"] = "List";
  std::string text;
  internal::EmitYaml(head, &text);
  out << text;
  internal::PlanWriteContext context(planned, plan, documents);
  bool any = false;
  ForEachItem(plan, [&](const internal::StatusWriter& writer, size_t i) {
    if (!any) out << "items:\n";
    any = true;
    text.clear();
    internal::EmitYamlSequenceItem(writer.tree(context, i), 0, &text);
    out << text;
  });
  if (!any) out << "items: []\n";
  text.clear();
  internal::EmitYaml(OrderedJson::object({{"metadata", OrderedJson::object({{"resourceVersion", ""}})}}),
                     &text);
  out << text;
}

}  // namespace berth::io
