#include "server/member/member_objects.h"

#include <array>
#include <utility>

#include "server/api/json_access.h"

namespace berth::server::member {

namespace {

// The group is what identifies a kind: a client may send any served version, and the
// controllers only read fields every version shares.
struct MemberKindRow {
  KindInfo info;
  std::string_view group;
};

const std::array<MemberKindRow, 9>& MemberKindTable() {
  static const std::array<MemberKindRow, 9> kTable = {{
      {{Kind::kNode, "v1", "Node", false}, ""},
      {{Kind::kPod, "v1", "Pod", true}, ""},
      {{Kind::kJob, "batch/v1", "Job", true}, "batch"},
      {{Kind::kJobSet, "jobset.x-k8s.io/v1alpha2", "JobSet", true}, "jobset.x-k8s.io"},
      {{Kind::kDeployment, "apps/v1", "Deployment", true}, "apps"},
      {{Kind::kReplicaSet, "apps/v1", "ReplicaSet", true}, "apps"},
      {{Kind::kStatefulSet, "apps/v1", "StatefulSet", true}, "apps"},
      {{Kind::kPyTorchJob, "kubeflow.org/v1", "PyTorchJob", true}, "kubeflow.org"},
      {{Kind::kLeaderWorkerSet, "leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", true},
       "leaderworkerset.x-k8s.io"},
  }};
  return kTable;
}

std::string_view GroupOfApiVersion(std::string_view api_version) {
  const size_t slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

}  // namespace

const KindInfo& InfoOf(Kind kind) { return MemberKindTable()[static_cast<size_t>(kind)].info; }

const std::vector<Kind>& AllMemberKinds() {
  static const std::vector<Kind> kKinds = [] {
    std::vector<Kind> kinds;
    for (const MemberKindRow& row : MemberKindTable()) kinds.push_back(row.info.kind);
    return kinds;
  }();
  return kKinds;
}

std::optional<Kind> KindOfRef(std::string_view api_version, std::string_view kind) {
  if (api_version.empty()) return std::nullopt;
  const std::string_view group = GroupOfApiVersion(api_version);
  for (const MemberKindRow& row : MemberKindTable()) {
    if (row.info.name == kind && row.group == group) return row.info.kind;
  }
  return std::nullopt;
}

std::optional<Kind> KindOf(const Json& object) {
  return KindOfRef(StringAt(object, {"apiVersion"}), StringAt(object, {"kind"}));
}

std::string KeyText(const ObjectKey& key) {
  std::string text(InfoOf(key.kind).name);
  if (!key.ns.empty()) text += "/" + key.ns;
  return text + "/" + key.name;
}

std::optional<ObjectKey> KeyOf(const Json& object) {
  const std::optional<Kind> kind = KindOf(object);
  if (!kind) return std::nullopt;
  ObjectKey key{*kind, StringAt(object, {"metadata", "namespace"}),
                StringAt(object, {"metadata", "name"})};
  if (key.name.empty()) return std::nullopt;
  if (!InfoOf(*kind).namespaced) key.ns.clear();
  return key;
}

MemberView::MemberView(std::vector<Json> objects) {
  for (Json& object : objects) Add(std::move(object));
}

void MemberView::Add(Json object) {
  std::optional<ObjectKey> key = KeyOf(object);
  // A name implies metadata is an object (KeyOf reads it through one).
  if (!key) {
    ++skipped_;
    return;
  }
  objects_.insert_or_assign(std::move(*key), std::move(object));
}

const Json* MemberView::Find(const ObjectKey& key) const {
  auto it = objects_.find(key);
  return it == objects_.end() ? nullptr : &it->second;
}

}  // namespace berth::server::member
