// The objects are read leniently: `berth rollout` is a viewer of what the hub wrote, so a
// field it cannot read is shown as missing (or named in the output) rather than refused;
// the hub's validator already refused what berth could not plan.
#include "cli/rollout_view.h"

#include "cli/resource_name.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "cli/resource_name.h"
#include "cli/text_table.h"
#include "io/yaml_json.h"
#include "model/controller_revision.h"
#include "model/work_replica_set.h"
#include "server/api/json_access.h"

namespace berth::cli {

namespace {

constexpr const char* kGroup = "work.open-cluster-management.io";
// Past this many clusters a revision's CLUSTERS cell counts outcomes instead of naming them.
constexpr size_t kClustersNamed = 4;

// The object at `key`, or nullptr when absent or not an object (server::Member, typed).
const Json* ObjectAt(const Json& object, const char* key) {
  const Json* member = server::Member(object, key);
  return member != nullptr && member->is_object() ? member : nullptr;
}

std::string Annotation(const Json& object, const char* key) {
  return server::StringAt(object, {"metadata", "annotations", key});
}

std::string Label(const Json& object, const char* key) {
  return server::StringAt(object, {"metadata", "labels", key});
}

// Templates compare as values: key order and 1 vs 1.0 do not matter (nlohmann's json, unlike
// ordered_json, compares objects as maps and numbers by value).
nlohmann::json AsValue(const Json& value) {
  return nlohmann::json::parse(value.dump(), nullptr, /*allow_exceptions=*/false);
}

const Json* SpecTemplate(const Json& mwrs) {
  const Json* spec = ObjectAt(mwrs, "spec");
  return spec ? ObjectAt(*spec, "manifestWorkTemplate") : nullptr;
}

bool OwnedBy(const Json& revision, const std::string& name, const std::string& uid) {
  const Json* meta = ObjectAt(revision, "metadata");
  if (!meta) return false;
  auto refs = meta->find("ownerReferences");
  if (refs == meta->end() || !refs->is_array()) return false;
  for (const Json& ref : *refs) {
    if (!ref.is_object() || !ref.value("controller", false)) continue;
    if (server::StringAt(ref, {"kind"}) != "ManifestWorkReplicaSet" || server::StringAt(ref, {"name"}) != name) continue;
    const std::string ref_uid = server::StringAt(ref, {"uid"});
    return uid.empty() || ref_uid.empty() || ref_uid == uid;
  }
  return false;
}

void ReadClusters(const std::string& text, RolloutRevision* out) {
  if (text.empty()) return;
  const Json records = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!records.is_array()) {
    out->clusters_problem = "rollout.berth.dev/clusters is not a JSON list";
    return;
  }
  for (const Json& r : records) {
    if (!r.is_object()) continue;
    out->clusters.push_back({server::StringAt(r, {"cluster"}), server::StringAt(r, {"takenAt"}), server::StringAt(r, {"outcome"}),
                             server::StringAt(r, {"outcomeAt"}), server::StringAt(r, {"detail"})});
  }
}

std::string OrNone(const std::string& s) { return s.empty() ? "<none>" : s; }

std::string ClustersCell(const RolloutRevision& r) {
  if (r.clusters.empty()) return "<none>";
  std::ostringstream cell;
  if (r.clusters.size() <= kClustersNamed) {
    for (size_t i = 0; i < r.clusters.size(); ++i) {
      cell << (i ? ", " : "") << r.clusters[i].cluster << ' ' << OrNone(r.clusters[i].outcome);
    }
    return cell.str();
  }
  std::map<std::string, int> counts;
  for (const RevisionCluster& c : r.clusters) ++counts[OrNone(c.outcome)];
  bool first = true;
  for (const auto& [outcome, n] : counts) {
    cell << (first ? "" : ", ") << n << ' ' << outcome;
    first = false;
  }
  return cell.str();
}

const Json* Condition(const Json& mwrs, const char* type) {
  const Json* status = ObjectAt(mwrs, "status");
  if (!status) return nullptr;
  auto conditions = status->find("conditions");
  if (conditions == status->end() || !conditions->is_array()) return nullptr;
  for (const Json& c : *conditions) {
    if (server::StringAt(c, {"type"}) == type) return &c;
  }
  return nullptr;
}

bool IsTrue(const Json* condition) { return condition && server::StringAt(*condition, {"status"}) == "True"; }

int64_t SummaryCount(const Json& mwrs, const char* key) {
  const Json* status = ObjectAt(mwrs, "status");
  const Json* summary = status ? ObjectAt(*status, "summary") : nullptr;
  if (!summary) return 0;
  auto it = summary->find(key);
  return it != summary->end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

// JSON pointer escaping of one key (RFC 6901).
std::string PointerKey(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string RolloutObjectName(const std::string& name) {
  return std::string("manifestworkreplicaset.") + kGroup + "/" + name;
}

core::Result<std::string> ParseRolloutTarget(const std::vector<std::string>& args) {
  // The type first, so that a near miss ("mwsr") gets resource_name's "did you mean".
  const bool shaped = (args.size() == 1 && args[0].find('/') != std::string::npos) ||
                      (args.size() == 2 && args[0].find('/') == std::string::npos);
  if (!shaped) {
    return core::InvalidArgument(
        "want the MWRS as TYPE/NAME or TYPE NAME (manifestworkreplicaset/llm-serve, mwrs llm-serve)");
  }
  const std::string type = args.size() == 2 ? args[0] : args[0].substr(0, args[0].find('/'));
  BERTH_ASSIGN_OR_RETURN(const model::KindInfo* kind, ResolveResourceType(type));
  if (kind->kind != "ManifestWorkReplicaSet" || kind->group != kGroup) {
    return core::InvalidArgument(
        "berth rollout works on manifestworkreplicaset (mwrs), not \"" + type +
        "\": berth keeps revision history for ManifestWorkReplicaSets (use kubectl rollout on a "
        "member cluster's Deployments)");
  }
  auto target = ParseResourceWords(args);
  if (!target.has_value() || !target.value().namespace_.empty()) {
    const std::string name = args.size() == 2 ? args[1] : args[0].substr(args[0].find('/') + 1);
    return core::InvalidArgument("\"" + name + "\" is not an object name (give the namespace with -n)");
  }
  return target.value().name;
}

std::vector<RolloutRevision> OwnedRevisions(const Json& mwrs, const Json& list) {
  std::vector<RolloutRevision> out;
  const Json* meta = ObjectAt(mwrs, "metadata");
  const std::string name = meta ? server::StringAt(*meta, {"name"}) : "";
  const std::string uid = meta ? server::StringAt(*meta, {"uid"}) : "";
  const Json* spec_template = SpecTemplate(mwrs);
  const nlohmann::json spec_value = spec_template ? AsValue(*spec_template) : nlohmann::json();
  if (!list.is_object() || !list.contains("items") || !list["items"].is_array()) return out;
  for (const Json& item : list["items"]) {
    if (!OwnedBy(item, name, uid)) continue;
    RolloutRevision r;
    if (auto it = item.find("revision"); it != item.end() && it->is_number_integer()) {
      r.number = it->get<int64_t>();
    }
    r.name = server::StringAt(item, {"metadata", "name"});
    r.hash = Label(item, model::kControllerRevisionHashLabel);
    r.change_cause = Annotation(item, model::kChangeCauseAnnotation);
    r.rolled_back = Annotation(item, model::kRevisionRolledBackAnnotation);
    ReadClusters(Annotation(item, model::kRevisionClustersAnnotation), &r);
    if (const Json* data = ObjectAt(item, "data")) {
      if (const Json* spec = ObjectAt(*data, "spec")) {
        if (const Json* tmpl = ObjectAt(*spec, "manifestWorkTemplate")) r.template_json = *tmpl;
      }
    }
    r.is_spec = spec_template && !r.template_json.is_null() && AsValue(r.template_json) == spec_value;
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(), [](const RolloutRevision& a, const RolloutRevision& b) {
    return a.number != b.number ? a.number < b.number : a.name < b.name;
  });
  return out;
}

std::string HistoryTable(const std::string& name, const std::vector<RolloutRevision>& revisions) {
  std::ostringstream out;
  out << RolloutObjectName(name) << '\n';
  if (revisions.empty()) {
    out << "No revisions yet (the hub writes the first when it rolls the MWRS out).\n";
    return out.str();
  }
  using A = TextTable::Align;
  TextTable table({A::kLeft, A::kLeft, A::kLeft, A::kLeft});
  table.AddRow({"REVISION", "CHANGE-CAUSE", "CLUSTERS", "ROLLED-BACK"});
  for (const RolloutRevision& r : revisions) {
    table.AddRow({std::to_string(r.number), OrNone(r.change_cause), ClustersCell(r), OrNone(r.rolled_back)});
  }
  table.Print(out, "");
  return out.str();
}

core::Result<std::string> RevisionDetail(const std::string& name,
                                         const std::vector<RolloutRevision>& revisions,
                                         int64_t number) {
  auto it = std::find_if(revisions.begin(), revisions.end(),
                         [number](const RolloutRevision& r) { return r.number == number; });
  if (it == revisions.end()) {
    return core::NotFound("unable to find the specified revision " + std::to_string(number) +
                          " in the history of " + RolloutObjectName(name));
  }
  const RolloutRevision& r = *it;
  std::ostringstream out;
  out << RolloutObjectName(name) << " with revision #" << r.number << '\n';
  out << "ControllerRevision: " << r.name << '\n';
  out << "Change cause:       " << OrNone(r.change_cause) << '\n';
  out << "Spec:               " << (r.is_spec ? "this revision is the MWRS's template" : "not the MWRS's template")
      << '\n';
  if (!r.rolled_back.empty()) out << "Rolled back:        " << r.rolled_back << '\n';
  out << "Clusters:\n";
  if (!r.clusters_problem.empty()) out << "  (" << r.clusters_problem << ")\n";
  if (r.clusters.empty()) {
    out << "  <none>\n";
  } else {
    using A = TextTable::Align;
    TextTable table({A::kLeft, A::kLeft, A::kLeft, A::kLeft, A::kLeft});
    table.AddRow({"CLUSTER", "TAKEN", "OUTCOME", "SINCE", "DETAIL"});
    for (const RevisionCluster& c : r.clusters) {
      table.AddRow({c.cluster, OrNone(c.taken_at), OrNone(c.outcome), OrNone(c.outcome_at), c.detail});
    }
    table.Print(out, "  ");
  }
  out << "Template:\n";
  if (r.template_json.is_null()) {
    out << "  <none>\n";
  } else if (auto yaml = io::JsonAsYamlDocument(r.template_json.dump()); yaml) {
    std::istringstream lines(*yaml);
    for (std::string line; std::getline(lines, line);) out << "  " << line << '\n';
  } else {
    out << "  " << r.template_json.dump() << '\n';
  }
  return out.str();
}

RolloutState StatusOf(const Json& mwrs, const std::vector<RolloutRevision>& revisions) {
  const Json* meta = ObjectAt(mwrs, "metadata");
  const std::string quoted = "manifestworkreplicaset \"" + (meta ? server::StringAt(*meta, {"name"}) : "") + "\"";
  RolloutState state;
  // A rollback holds while the spec still holds the template rolled back (docs/fleet.md).
  const std::string rolled_back = Annotation(mwrs, model::kRolloutRolledBackAnnotation);
  if (!rolled_back.empty()) {
    const Json record = Json::parse(rolled_back, nullptr, /*allow_exceptions=*/false);
    const std::string bad_hash = server::StringAt(record, {"templateHash"});
    const bool holds = std::any_of(revisions.begin(), revisions.end(), [&](const RolloutRevision& r) {
      return r.is_spec && r.hash == bad_hash;
    });
    if (holds || bad_hash.empty()) {
      state.failed = true;
      const std::string reason = server::StringAt(record, {"reason"});
      state.message = quoted + " was rolled back" + (reason.empty() ? "" : ": " + reason);
      return state;
    }
  }
  if (Annotation(mwrs, model::kRolloutPausedAnnotation) == "true") {
    state.message = "Waiting for " + quoted + " rollout to finish: paused (" +
                    model::kRolloutPausedAnnotation + "; berth rollout resume)";
    return state;
  }
  if (revisions.empty() || !revisions.back().is_spec) {
    state.message = "Waiting for " + quoted + " spec update to be observed...";
    return state;
  }
  if (const Json* paused = Condition(mwrs, model::kMwrsConditionRolloutPaused); IsTrue(paused)) {
    state.failed = true;
    const std::string reason = server::StringAt(*paused, {"reason"});
    const std::string message = server::StringAt(*paused, {"message"});
    state.message = quoted + " rollout paused (" + reason + ")" + (message.empty() ? "" : ": " + message);
    return state;
  }
  const int64_t revision = revisions.back().number;
  if (IsTrue(Condition(mwrs, "PlacementRolledOut"))) {
    state.done = true;
    state.message = quoted + " successfully rolled out (revision " + std::to_string(revision) + ")";
    return state;
  }
  const int64_t total = SummaryCount(mwrs, "total");
  state.message = "Waiting for " + quoted + " rollout to finish: revision " + std::to_string(revision) +
                  ": " + std::to_string(SummaryCount(mwrs, "applied")) + " of " + std::to_string(total) +
                  " clusters applied, " + std::to_string(SummaryCount(mwrs, "available")) + " available, " +
                  std::to_string(SummaryCount(mwrs, "degraded")) + " degraded...";
  return state;
}

core::Result<UndoPlan> PlanUndo(const Json& mwrs, const std::vector<RolloutRevision>& revisions,
                                int64_t to_revision) {
  const Json* meta = ObjectAt(mwrs, "metadata");
  const std::string name = meta ? server::StringAt(*meta, {"name"}) : "";
  if (revisions.empty()) {
    return core::FailedPrecondition("no rollout history found for " + RolloutObjectName(name));
  }
  const RolloutRevision* target = nullptr;
  if (to_revision == 0) {
    // The newest revision that is not the spec: after berth rolled back, the good revision
    // it restored (renumbered newest); otherwise the one before the spec's.
    for (auto it = revisions.rbegin(); it != revisions.rend() && !target; ++it) {
      if (!it->is_spec && !it->template_json.is_null()) target = &*it;
    }
    if (!target) {
      return core::FailedPrecondition("no revision to roll back to: the history of " + RolloutObjectName(name) +
                                      " holds only the MWRS's template");
    }
  } else {
    for (const RolloutRevision& r : revisions) {
      if (r.number == to_revision) target = &r;
    }
    if (!target) {
      return core::NotFound("unable to find the specified revision " + std::to_string(to_revision) +
                            " in the history of " + RolloutObjectName(name));
    }
    if (target->template_json.is_null()) {
      return core::FailedPrecondition("revision " + std::to_string(to_revision) + " (" + target->name +
                                      ") holds no data.spec.manifestWorkTemplate");
    }
  }
  UndoPlan plan;
  plan.to_revision = target->number;
  if (target->is_spec) return plan;
  Json patch = Json::array();
  // Optimistic concurrency: the patch applies only to the object read.
  if (meta && meta->contains("resourceVersion")) {
    patch.push_back({{"op", "test"}, {"path", "/metadata/resourceVersion"}, {"value", (*meta)["resourceVersion"]}});
  }
  patch.push_back({{"op", "replace"}, {"path", "/spec/manifestWorkTemplate"}, {"value", target->template_json}});
  const bool has_annotations = meta && ObjectAt(*meta, "annotations");
  const std::string cause_path = "/metadata/annotations/" + PointerKey(model::kChangeCauseAnnotation);
  if (!target->change_cause.empty()) {
    if (has_annotations) {
      patch.push_back({{"op", "add"}, {"path", cause_path}, {"value", target->change_cause}});
    } else {
      patch.push_back({{"op", "add"},
                       {"path", "/metadata/annotations"},
                       {"value", Json{{model::kChangeCauseAnnotation, target->change_cause}}}});
    }
  } else if (!Annotation(mwrs, model::kChangeCauseAnnotation).empty()) {
    patch.push_back({{"op", "remove"}, {"path", cause_path}});
  }
  if (has_annotations && (*meta)["annotations"].contains(model::kRolloutRolledBackAnnotation)) {
    patch.push_back({{"op", "remove"},
                     {"path", "/metadata/annotations/" + PointerKey(model::kRolloutRolledBackAnnotation)}});
  }
  plan.patch = patch.dump();
  return plan;
}

std::optional<std::string> PausePatch(const Json& mwrs, bool pause) {
  const bool paused = Annotation(mwrs, model::kRolloutPausedAnnotation) == "true";
  if (paused == pause) return std::nullopt;
  Json patch = {{"metadata", {{"annotations", {{model::kRolloutPausedAnnotation, pause ? Json("true") : Json()}}}}}};
  return patch.dump();
}

}  // namespace berth::cli
