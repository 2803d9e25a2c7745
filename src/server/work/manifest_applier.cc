// Ported from OCM pkg/work/spoke/apply: update_apply.go (applyUnstructured, isSameUnstructured,
// with library-go's resourcemerge.MergeMap, MergeOwnerRefs and WithCleanLabelsAndAnnotations),
// create_only_apply.go, server_side_apply.go (field manager, force, ignoreFields and the
// config-spec-hash skip, removeCreationTimeFromMetadata) and read_only_apply.go, plus
// helper.ApplyOwnerReferences for the owner mark.
//
// Why the Update strategy compares before it writes: the member API server would turn an
// identical PUT into a no-op anyway, but the comparison is what keeps the agent from writing
// every resync, and it is upstream's definition of "changed": anything outside metadata and
// status, compared as Go's DeepEqual compares maps (key order does not matter). Labels and
// annotations only ever gain the manifest's keys (a key ending in '-' removes that key), so
// what other controllers added survives. The live object's status goes back with the PUT: a
// member kind without a status subresource would otherwise lose it.
#include "server/work/manifest_applier.h"

#include <utility>
#include <vector>

#include "server/auth/token_authenticator.h"
#include "server/work/feedback_json_path.h"
#include "server/work/owner_mark.h"

namespace berth::server::work {

namespace {

std::string ApplierMetaString(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  auto it = meta->find(key);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string();
}

// object.metadata, made an object if it was not one. `object` is an object.
Json& ApplierMeta(Json& object) {
  Json& meta = object["metadata"];
  if (!meta.is_object()) meta = Json::object();
  return meta;
}

// object.metadata[key] or null.
Json ApplierMetaMember(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return nullptr;
  auto it = meta->find(key);
  return it == meta->end() ? Json(nullptr) : *it;
}

ManifestApplyOutcome ApplierFailed(std::string error, int http_status = 0) {
  ManifestApplyOutcome out;
  out.error = std::move(error);
  out.http_status = http_status;
  return out;
}

ManifestApplyOutcome ApplierSucceeded(Json object) {
  ManifestApplyOutcome out;
  out.ok = true;
  out.object = std::move(object);
  return out;
}

// A write's reply as an outcome: the object on 2xx, the server's message otherwise.
ManifestApplyOutcome ApplierFromReply(const core::Result<kube::Reply>& reply) {
  if (!reply) return ApplierFailed(reply.error().message());
  if (!reply->ok()) return ApplierFailed(reply->Message(), reply->status);
  Json object = reply->Parsed();
  if (!object.is_object()) {
    return ApplierFailed("the API server's reply is not a JSON object", reply->status);
  }
  return ApplierSucceeded(std::move(object));
}

// Go's reflect.DeepEqual over unstructured content: object key order does not matter.
bool ApplierSemanticEqual(const Json& a, const Json& b) {
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto other = b.find(it.key());
      if (other == b.end() || !ApplierSemanticEqual(*it, *other)) return false;
    }
    return true;
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!ApplierSemanticEqual(a[i], b[i])) return false;
    }
    return true;
  }
  return a == b;
}

// isSameUnstructured: kind, name and namespace, then everything but metadata and status.
bool ApplierSameObject(const Json& required, const Json& existing, bool namespaced) {
  for (const char* key : {"apiVersion", "kind"}) {
    auto a = required.find(key);
    auto b = existing.find(key);
    const bool a_has = a != required.end();
    const bool b_has = b != existing.end();
    if (a_has != b_has || (a_has && *a != *b)) return false;
  }
  if (ApplierMetaString(required, "name") != ApplierMetaString(existing, "name")) return false;
  if (namespaced &&
      ApplierMetaString(required, "namespace") != ApplierMetaString(existing, "namespace")) {
    return false;
  }
  Json a = required;
  Json b = existing;
  for (Json* o : {&a, &b}) {
    o->erase("metadata");
    o->erase("status");
  }
  return ApplierSemanticEqual(a, b);
}

// resourcemerge's removal keys: a key ending in '-' asks to remove the key without them.
bool ApplierRemovalKey(const std::string& key) { return !key.empty() && key.back() == '-'; }

// WithCleanLabelsAndAnnotations: removal keys are instructions, never written.
void ApplierCleanRemovalKeys(Json& object) {
  Json& meta = ApplierMeta(object);
  for (const char* key : {"labels", "annotations"}) {
    auto it = meta.find(key);
    if (it == meta.end() || !it->is_object()) continue;
    Json cleaned = Json::object();
    for (auto kv = it->begin(); kv != it->end(); ++kv) {
      if (!ApplierRemovalKey(kv.key())) cleaned[kv.key()] = *kv;
    }
    *it = std::move(cleaned);
  }
}

// resourcemerge.MergeMap: the manifest's keys set on the live map, removal keys removed.
void ApplierMergeMap(bool* modified, Json& existing, const Json& required) {
  if (!existing.is_object()) existing = Json::object();
  if (!required.is_object()) return;
  for (auto it = required.begin(); it != required.end(); ++it) {
    std::string key = it.key();
    if (ApplierRemovalKey(key)) {
      while (!key.empty() && key.back() == '-') key.pop_back();
      if (existing.contains(key)) {
        existing.erase(key);
        *modified = true;
      }
      continue;
    }
    auto e = existing.find(key);
    if (e == existing.end() || *e != *it) {
      existing[key] = *it;
      *modified = true;
    }
  }
}

std::string ApplierOwnerUid(const Json& ref) {
  auto it = ref.is_object() ? ref.find("uid") : ref.end();
  return it != ref.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// resourcemerge.MergeOwnerRefs, matching references by uid; a uid ending in '-' removes.
void ApplierMergeOwnerRefs(bool* modified, Json& existing, const Json& required) {
  if (!existing.is_array()) existing = Json::array();
  if (!required.is_array()) return;
  for (const Json& ref : required) {
    std::string uid = ApplierOwnerUid(ref);
    const bool remove = ApplierRemovalKey(uid);
    while (remove && !uid.empty() && uid.back() == '-') uid.pop_back();
    size_t i = 0;
    while (i < existing.size() && ApplierOwnerUid(existing[i]) != uid) ++i;
    if (i == existing.size()) {
      if (!remove) {
        existing.push_back(ref);
        *modified = true;
      }
      continue;
    }
    if (remove) {
      existing.erase(i);
      *modified = true;
    } else if (!ApplierSemanticEqual(existing[i], ref)) {
      existing[i] = ref;
      *modified = true;
    }
  }
}

// Sets metadata[key] = value, or drops it when the value is empty or null.
void ApplierSetMeta(Json& object, const char* key, Json value) {
  Json& meta = ApplierMeta(object);
  if (value.is_null() || (value.is_structured() && value.empty())) {
    meta.erase(key);
  } else {
    meta[key] = std::move(value);
  }
}

ManifestApplyOutcome ApplierCreate(kube::Client& client, const kube::Resource& resource,
                                   const std::string& ns, Json required, std::string_view owner,
                                   bool owned) {
  ApplierCleanRemovalKeys(required);
  if (owned) {
    Json annotations = ApplierMetaMember(required, "annotations");
    SetOwnerMark(annotations, owner, true);
    ApplierSetMeta(required, "annotations", std::move(annotations));
  }
  return ApplierFromReply(client.Create(resource, ns, required));
}

// helper.ApplyOwnerReferences: a merge patch of the mark alone, guarded by the object's uid
// and resourceVersion, sent only when the mark changes.
ManifestApplyOutcome ApplierEnsureOwnerMark(kube::Client& client, const kube::Resource& resource,
                                            Json object, std::string_view owner, bool owned) {
  Json annotations = ApplierMetaMember(object, "annotations");
  if (!SetOwnerMark(annotations, owner, owned)) return ApplierSucceeded(std::move(object));
  const std::string key(kAppliedByAnnotation);
  Json patch_meta = Json::object();
  patch_meta["uid"] = ApplierMetaString(object, "uid");
  patch_meta["resourceVersion"] = ApplierMetaString(object, "resourceVersion");
  patch_meta["annotations"] =
      Json{{key, annotations.contains(key) ? annotations[key] : Json(nullptr)}};
  Json patch = Json::object();
  patch["metadata"] = std::move(patch_meta);
  return ApplierFromReply(client.Patch(resource, ApplierMetaString(object, "namespace"),
                                       ApplierMetaString(object, "name"), "merge",
                                       patch.dump(-1, ' ', false, Json::error_handler_t::replace)));
}

ManifestApplyOutcome ApplyUpdate(kube::Client& client, const kube::Resource& resource,
                                 Json required, std::string_view owner, bool owned) {
  const std::string ns = ApplierMetaString(required, "namespace");
  const std::string name = ApplierMetaString(required, "name");
  auto got = client.Get(resource, ns, name);
  if (!got) return ApplierFailed(got.error().message());
  if (got->status == 404)
    return ApplierCreate(client, resource, ns, std::move(required), owner, owned);
  ManifestApplyOutcome read = ApplierFromReply(got);
  if (!read.ok) return read;
  const Json& existing = read.object;

  bool modified = false;
  Json labels = ApplierMetaMember(existing, "labels");
  ApplierMergeMap(&modified, labels, ApplierMetaMember(required, "labels"));
  Json annotations = ApplierMetaMember(existing, "annotations");
  ApplierMergeMap(&modified, annotations, ApplierMetaMember(required, "annotations"));
  if (SetOwnerMark(annotations, owner, owned)) modified = true;
  Json owners = ApplierMetaMember(existing, "ownerReferences");
  ApplierMergeOwnerRefs(&modified, owners, ApplierMetaMember(required, "ownerReferences"));
  ApplierSetMeta(required, "labels", std::move(labels));
  ApplierSetMeta(required, "annotations", std::move(annotations));
  ApplierSetMeta(required, "ownerReferences", std::move(owners));
  ApplierSetMeta(required, "finalizers", ApplierMetaMember(existing, "finalizers"));

  if (!modified && ApplierSameObject(required, existing, resource.namespaced)) return read;
  ApplierMeta(required)["resourceVersion"] = ApplierMetaString(existing, "resourceVersion");
  if (auto status = existing.find("status"); status != existing.end()) {
    required["status"] = *status;
  } else {
    required.erase("status");
  }
  return ApplierFromReply(client.Update(resource, ns, name, required));
}

ManifestApplyOutcome ApplyCreateOnly(kube::Client& client, const kube::Resource& resource,
                                     Json required, std::string_view owner, bool owned) {
  const std::string ns = ApplierMetaString(required, "namespace");
  auto got = client.Get(resource, ns, ApplierMetaString(required, "name"));
  if (!got) return ApplierFailed(got.error().message());
  if (got->status == 404)
    return ApplierCreate(client, resource, ns, std::move(required), owner, owned);
  ManifestApplyOutcome read = ApplierFromReply(got);
  if (!read.ok) return read;
  return ApplierEnsureOwnerMark(client, resource, std::move(read.object), owner, owned);
}

// removeCreationTimeFromMetadata: a null creationTimestamp anywhere (the manifest's own, or
// a pod template's) would make the server bump the generation on every apply.
void ApplierDropNullCreationTimes(Json& value) {
  if (value.is_object()) {
    if (auto meta = value.find("metadata"); meta != value.end() && meta->is_object()) {
      if (auto ts = meta->find("creationTimestamp"); ts != meta->end() && ts->is_null()) {
        meta->erase("creationTimestamp");
      }
    }
    for (auto& [key, child] : value.items()) ApplierDropNullCreationTimes(child);
  } else if (value.is_array()) {
    for (Json& child : value) ApplierDropNullCreationTimes(child);
  }
}

// removeFieldByJSONPath: the last step names the key removed from whatever the rest selects.
// Upstream only logs a path it cannot parse; so does this (the field is simply kept).
void ApplierRemoveByJsonPath(Json& object, const std::string& path) {
  const size_t dot = path.rfind('.');
  if (dot == std::string::npos) return;
  const std::string last = path.substr(dot + 1);
  auto parent = FeedbackJsonPath::Parse(path.substr(0, dot));
  if (!parent) return;
  auto found = parent->FindIn(object);
  if (!found) return;
  for (Json* v : *found) {
    if (v->is_object()) v->erase(last);
  }
}

// RFC 6901 removal; a pointer to nothing is not an error (upstream ignores ErrMissing).
core::Status ApplierRemoveByJsonPointer(Json& object, const std::string& pointer) {
  if (pointer.empty()) return core::InvalidArgument("cannot remove the whole document");
  if (pointer.front() != '/') return core::InvalidArgument("a JSON Pointer must start with '/'");
  std::vector<std::string> tokens;
  size_t pos = 1;
  while (true) {
    const size_t slash = pointer.find('/', pos);
    std::string token =
        pointer.substr(pos, slash == std::string::npos ? std::string::npos : slash - pos);
    std::string unescaped;
    for (size_t i = 0; i < token.size(); ++i) {
      if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
        unescaped += token[i + 1] == '0' ? '~' : '/';
        ++i;
      } else if (token[i] == '~') {
        return core::InvalidArgument("invalid escape in JSON Pointer");
      } else {
        unescaped += token[i];
      }
    }
    tokens.push_back(std::move(unescaped));
    if (slash == std::string::npos) break;
    pos = slash + 1;
  }
  Json* cur = &object;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    const bool last = i + 1 == tokens.size();
    if (cur->is_object()) {
      auto it = cur->find(t);
      if (it == cur->end()) return core::OkStatus();
      if (last) {
        cur->erase(t);
        return core::OkStatus();
      }
      cur = &*it;
    } else if (cur->is_array()) {
      size_t index = 0;
      if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos) {
        return core::OkStatus();
      }
      index = std::stoul(t);
      if (index >= cur->size()) return core::OkStatus();
      if (last) {
        cur->erase(index);
        return core::OkStatus();
      }
      cur = &(*cur)[index];
    } else {
      return core::OkStatus();
    }
  }
  return core::OkStatus();
}

ManifestApplyOutcome ApplyServerSide(kube::Client& client, const kube::Resource& resource,
                                     Json required, const ManifestConfig& config,
                                     std::string_view owner, bool owned) {
  ApplierDropNullCreationTimes(required);
  const std::string ns = ApplierMetaString(required, "namespace");
  const std::string name = ApplierMetaString(required, "name");
  Json body = required;
  if (!config.ignore_fields.empty()) {
    // Fields ignored OnSpokePresent are left out of what is applied (and hashed); those
    // ignored OnSpokeChange stay in both, so a changed manifest still writes them.
    for (const IgnoreField& field : config.ignore_fields) {
      if (field.condition == "OnSpokeChange") continue;
      for (const std::string& path : field.json_paths) ApplierRemoveByJsonPath(body, path);
      for (const std::string& pointer : field.json_pointers) {
        if (core::Status s = ApplierRemoveByJsonPointer(body, pointer); !s.ok()) {
          ManifestApplyOutcome out =
              ApplierFailed("JSON Pointer error in '" + pointer + "': " + s.error().message());
          out.ignore_field_error = true;
          return out;
        }
      }
      for (const std::string& expr : field.jq_path_expressions) {
        ManifestApplyOutcome out =
            ApplierFailed("JQ expression error in '" + expr +
                          "': jq path expressions are not supported by berth");
        out.ignore_field_error = true;
        return out;
      }
    }
    const std::string hash = Sha256Hex(body.dump(-1, ' ', false, Json::error_handler_t::replace));
    for (Json* o : {&body, &required}) {
      Json annotations = ApplierMetaMember(*o, "annotations");
      if (!annotations.is_object()) annotations = Json::object();
      annotations[std::string(kConfigSpecHashAnnotation)] = hash;
      ApplierSetMeta(*o, "annotations", std::move(annotations));
    }
    auto got = client.Get(resource, ns, name);
    if (!got) return ApplierFailed(got.error().message());
    if (got->status == 404) {
      body = required;  // a new object gets the ignored fields too
    } else {
      ManifestApplyOutcome read = ApplierFromReply(got);
      if (!read.ok) return read;
      const Json live = ApplierMetaMember(read.object, "annotations");
      auto live_hash =
          live.is_object() ? live.find(std::string(kConfigSpecHashAnnotation)) : live.end();
      if (live_hash != live.end() && *live_hash == Json(hash)) {
        // Nothing the work controls changed: only the owner mark may need a write.
        return ApplierEnsureOwnerMark(client, resource, std::move(read.object), owner, owned);
      }
    }
  }
  kube::PatchOptions options;
  options.field_manager = config.field_manager;
  options.force = config.force;
  ManifestApplyOutcome applied = ApplierFromReply(
      client.Patch(resource, ns, name, "apply",
                   body.dump(-1, ' ', false, Json::error_handler_t::replace), options));
  if (!applied.ok) return applied;
  return ApplierEnsureOwnerMark(client, resource, std::move(applied.object), owner, owned);
}

}  // namespace

ManifestApplyOutcome ApplyManifest(kube::Client& client, const kube::Resource& resource,
                                   Json required, const ManifestConfig& config,
                                   std::string_view owner, bool owned) {
  if (!required.is_object()) return ApplierFailed("the manifest is not a JSON object");
  if (config.strategy == "Update") {
    return ApplyUpdate(client, resource, std::move(required), owner, owned);
  }
  if (config.strategy == "CreateOnly") {
    return ApplyCreateOnly(client, resource, std::move(required), owner, owned);
  }
  if (config.strategy == "ServerSideApply") {
    return ApplyServerSide(client, resource, std::move(required), config, owner, owned);
  }
  if (config.strategy == "ReadOnly") return ApplierSucceeded(std::move(required));
  return ApplierFailed("unknown update strategy type \"" + config.strategy + "\"");
}

}  // namespace berth::server::work
