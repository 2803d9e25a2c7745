// The document layout follows api work/v1 types.go (AppliedManifestWork,
// AppliedManifestResourceMeta with ResourceIdentifier inlined; uid omitted when empty), and
// the hub hash OCM's helper.HubHash (SHA-256 of the hub's server URL), so a record written by
// berth reads like the AppliedManifestWork OCM's agent keeps.
#include "server/work/applied_record.h"

#include <algorithm>
#include <tuple>

#include "server/auth/token_authenticator.h"

namespace berth::server::work {

namespace {

constexpr const char* kAppliedRecordApiVersion = "work.open-cluster-management.io/v1";
constexpr const char* kAppliedRecordKind = "AppliedManifestWork";

// The string member `key` of `object` into `*out`: absent leaves it empty; a non-string is
// an error at `field`.
core::Status RecordString(const Json& object, const char* key, const std::string& field,
                          std::string* out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return core::OkStatus();
  if (!it->is_string()) {
    return core::InvalidArgument("must be a string", core::Location{"", "", field + key});
  }
  *out = it->get<std::string>();
  return core::OkStatus();
}

}  // namespace

std::string AppliedRecord::Name() const {
  return hub_hash.empty() ? work_name : hub_hash + "-" + work_name;
}

Json AppliedRecord::ToJson() const {
  Json doc = Json::object();
  doc["apiVersion"] = kAppliedRecordApiVersion;
  doc["kind"] = kAppliedRecordKind;
  doc["metadata"] = Json{{"name", Name()}};
  Json spec = Json::object();
  spec["hubHash"] = hub_hash;
  spec["agentID"] = agent_id;
  spec["manifestWorkName"] = work_name;
  doc["spec"] = std::move(spec);
  Json applied = Json::array();
  for (const AppliedResource& r : resources) {
    Json item = Json::object();
    item["group"] = r.group;
    item["resource"] = r.resource;
    item["name"] = r.name;
    item["namespace"] = r.namespace_;
    item["version"] = r.version;
    if (!r.uid.empty()) item["uid"] = r.uid;
    applied.push_back(std::move(item));
  }
  Json status = Json::object();
  if (!applied.empty()) status["appliedResources"] = std::move(applied);
  doc["status"] = std::move(status);
  return doc;
}

core::Result<AppliedRecord> AppliedRecord::FromJson(const Json& document) {
  if (!document.is_object())
    return core::InvalidArgument("an AppliedManifestWork must be an object");
  std::string kind;
  BERTH_RETURN_IF_ERROR(RecordString(document, "kind", "", &kind));
  if (kind != kAppliedRecordKind) {
    return core::InvalidArgument("kind must be AppliedManifestWork, not \"" + kind + "\"",
                                 core::Location{"", "", "kind"});
  }
  AppliedRecord out;
  auto spec = document.find("spec");
  if (spec == document.end() || !spec->is_object()) {
    return core::InvalidArgument("an AppliedManifestWork needs a spec",
                                 core::Location{"", "", "spec"});
  }
  BERTH_RETURN_IF_ERROR(RecordString(*spec, "hubHash", "spec.", &out.hub_hash));
  BERTH_RETURN_IF_ERROR(RecordString(*spec, "agentID", "spec.", &out.agent_id));
  BERTH_RETURN_IF_ERROR(RecordString(*spec, "manifestWorkName", "spec.", &out.work_name));
  if (out.work_name.empty()) {
    return core::InvalidArgument("Required value", core::Location{"", "", "spec.manifestWorkName"});
  }
  auto status = document.find("status");
  if (status == document.end() || status->is_null()) return out;
  if (!status->is_object()) {
    return core::InvalidArgument("must be an object", core::Location{"", "", "status"});
  }
  auto applied = status->find("appliedResources");
  if (applied == status->end() || applied->is_null()) return out;
  if (!applied->is_array()) {
    return core::InvalidArgument("must be a list",
                                 core::Location{"", "", "status.appliedResources"});
  }
  for (size_t i = 0; i < applied->size(); ++i) {
    const Json& item = (*applied)[i];
    const std::string field = "status.appliedResources[" + std::to_string(i) + "].";
    if (!item.is_object()) {
      return core::InvalidArgument("must be an object",
                                   core::Location{"", "", field.substr(0, field.size() - 1)});
    }
    AppliedResource r;
    BERTH_RETURN_IF_ERROR(RecordString(item, "group", field, &r.group));
    BERTH_RETURN_IF_ERROR(RecordString(item, "version", field, &r.version));
    BERTH_RETURN_IF_ERROR(RecordString(item, "resource", field, &r.resource));
    BERTH_RETURN_IF_ERROR(RecordString(item, "namespace", field, &r.namespace_));
    BERTH_RETURN_IF_ERROR(RecordString(item, "name", field, &r.name));
    BERTH_RETURN_IF_ERROR(RecordString(item, "uid", field, &r.uid));
    for (const auto& [value, key] :
         {std::pair{&r.resource, "resource"}, std::pair{&r.version, "version"},
          std::pair{&r.name, "name"}}) {
      if (value->empty()) {
        return core::InvalidArgument("Required value", core::Location{"", "", field + key});
      }
    }
    out.resources.push_back(std::move(r));
  }
  SortAppliedResources(out.resources);
  return out;
}

void SortAppliedResources(std::vector<AppliedResource>& resources) {
  std::stable_sort(resources.begin(), resources.end(),
                   [](const AppliedResource& a, const AppliedResource& b) {
                     return std::tie(a.group, a.version, a.resource, a.namespace_, a.name) <
                            std::tie(b.group, b.version, b.resource, b.namespace_, b.name);
                   });
}

std::string HubHash(std::string_view hub_server) { return Sha256Hex(hub_server); }

}  // namespace berth::server::work
