// Ported from OCM pkg/work/helper/helpers.go DeleteAppliedResources. Two deliberate
// differences: ownership is the owner-mark annotation, not an ownerReference; and a delete
// the member API server completed at once (its reply has no deletionTimestamp) is done now,
// where upstream keeps every deleted resource as "pending finalization" until a later pass
// reads a 404 (a kube-apiserver's foreground or finalizer-held delete returns the object
// still present; berth's says which by the reply).
#include "server/work/applied_resource_gc.h"

#include "server/work/owner_mark.h"

namespace berth::server::work {

namespace {

kube::Resource GcResourceOf(const AppliedResource& r) {
  kube::Resource out;
  out.group = r.group;
  out.version = r.version;
  out.resource = r.resource;
  out.namespaced = !r.namespace_.empty();
  return out;
}

std::string GcKeyOf(const AppliedResource& r) {
  std::string gvr = r.group.empty() ? r.version : r.group + "/" + r.version;
  return gvr + ", Resource=" + r.resource + " with key " + r.namespace_ + "/" + r.name;
}

std::string GcMetaString(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  auto it = meta->find(key);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

AppliedDeletion DeleteAppliedResources(kube::Client& client,
                                       const std::vector<AppliedResource>& resources,
                                       std::string_view owner, const DeleteOption* option) {
  AppliedDeletion out;
  for (const AppliedResource& r : resources) {
    if (option != nullptr && !option->Owns(r.group, r.resource, r.namespace_, r.name)) continue;
    const kube::Resource resource = GcResourceOf(r);
    auto got = client.Get(resource, r.namespace_, r.name);
    if (got && got->status == 404) continue;
    if (!got || !got->ok()) {
      out.errors.push_back("failed to get resource " + GcKeyOf(r) + ": " +
                           (got ? got->Message() : got.error().message()));
      out.kept.push_back(r);
      continue;
    }
    const Json live = got->Parsed();
    if (!IsMarkedBy(live, owner)) continue;
    if (MarkedOwners(live).size() > 1) {
      // Another work still owns it: only this work's mark goes.
      const std::string key(kAppliedByAnnotation);
      Json remaining = live["metadata"]["annotations"];  // present: IsMarkedBy found the mark
      SetOwnerMark(remaining, owner, false);
      Json annotations = Json::object();
      annotations[key] = remaining.contains(key) ? remaining[key] : Json(nullptr);
      Json patch = Json::object();
      patch["metadata"] = Json{{"uid", GcMetaString(live, "uid")},
                               {"resourceVersion", GcMetaString(live, "resourceVersion")},
                               {"annotations", std::move(annotations)}};
      auto patched = client.Patch(resource, r.namespace_, r.name, "merge",
                                  patch.dump(-1, ' ', false, Json::error_handler_t::replace));
      if (!patched || !patched->ok()) {
        out.errors.push_back("failed to remove owner from resource " + GcKeyOf(r) + ": " +
                             (patched ? patched->Message() : patched.error().message()));
        out.kept.push_back(r);
      }
      continue;
    }
    if (GcMetaString(live, "uid") != r.uid) continue;  // recreated since: not the one applied
    if (!GcMetaString(live, "deletionTimestamp").empty()) {
      out.kept.push_back(r);
      continue;
    }
    kube::DeleteOptions options;
    options.propagation_policy = "Background";
    options.precondition_uid = r.uid;
    auto deleted = client.Delete(resource, r.namespace_, r.name, options);
    if (deleted && (deleted->status == 404 || deleted->status == 409)) continue;
    if (!deleted || !deleted->ok()) {
      out.errors.push_back("failed to delete resource " + GcKeyOf(r) + ": " +
                           (deleted ? deleted->Message() : deleted.error().message()));
      out.kept.push_back(r);
      continue;
    }
    ++out.deleted;
    if (!GcMetaString(deleted->Parsed(), "deletionTimestamp").empty()) out.kept.push_back(r);
  }
  return out;
}

}  // namespace berth::server::work
