// Why strict types but tolerant of unknown fields: a sync is a machine's message, so a wrong
// type is a bug worth naming exactly (the hub answers 400 with the field), while a field the
// hub does not know is what a newer agent sends to an older hub during an upgrade.
#include "server/agent/sync_protocol.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "server/api/json_depth.h"

namespace berth::server::agent {

namespace {

constexpr int kMaxSyncDepth = 128;

core::Error SyncFieldError(const std::string& field, const std::string& message) {
  return core::InvalidArgument(message, core::Location{"", "", field});
}

core::Status ReadString(const Json& obj, const char* key, const std::string& field,
                        std::string* out, bool required = false) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) {
    if (required) return SyncFieldError(field + key, "Required value");
    return core::OkStatus();
  }
  if (!it->is_string()) return SyncFieldError(field + key, "must be a string");
  *out = it->get<std::string>();
  return core::OkStatus();
}

// An integer JSON value as int64; nullopt for any other value. nlohmann reads an integer past
// INT64_MAX as unsigned, which get<int64_t>() wraps (2^64-1 to -1): refused instead.
std::optional<int64_t> Int64Of(const Json& v) {
  if (!v.is_number_integer()) return std::nullopt;
  if (v.is_number_unsigned() &&
      v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return std::nullopt;
  }
  return v.get<int64_t>();
}

constexpr const char* kNotInt64 = "must be a 64-bit integer";

core::Status ReadInt(const Json& obj, const char* key, const std::string& field, int64_t* out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return core::OkStatus();
  std::optional<int64_t> v = Int64Of(*it);
  if (!v.has_value()) return SyncFieldError(field + key, kNotInt64);
  *out = *v;
  return core::OkStatus();
}

// The array at `key` ("" = absent), bounded by `limit`.
core::Result<const Json*> ReadArray(const Json& obj, const char* key, size_t limit) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return static_cast<const Json*>(nullptr);
  if (!it->is_array()) return SyncFieldError(key, "must be a list");
  if (it->size() > limit) {
    return SyncFieldError(key, "Too many: " + std::to_string(it->size()) + ": must have at most " +
                                   std::to_string(limit) + " items");
  }
  return &*it;
}

core::Result<Json> ParseBody(std::string_view body) {
  if (JsonNestingDepth(body, kMaxSyncDepth) > kMaxSyncDepth) {
    return core::InvalidArgument("the body nests deeper than " + std::to_string(kMaxSyncDepth) +
                                 " levels");
  }
  Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return core::InvalidArgument("the body is not JSON");
  if (!parsed.is_object()) return core::InvalidArgument("the body is not a JSON object");
  return parsed;
}

}  // namespace

std::optional<std::string> SyncPathCluster(std::string_view path) {
  // The prefix ends with the '/' the suffix starts with: without the length check,
  // ".../clusters/sync" matched both and was cut past its end.
  if (path.size() <= kSyncPathPrefix.size() + kSyncPathSuffix.size() ||
      !path.starts_with(kSyncPathPrefix) || !path.ends_with(kSyncPathSuffix)) {
    return std::nullopt;
  }
  path.remove_prefix(kSyncPathPrefix.size());
  path.remove_suffix(kSyncPathSuffix.size());
  if (path.empty() || path.find('/') != std::string_view::npos) return std::nullopt;
  return std::string(path);
}

std::string SyncPath(std::string_view cluster) {
  return std::string(kSyncPathPrefix) + std::string(cluster) + std::string(kSyncPathSuffix);
}

core::Result<SyncRequest> ParseSyncRequest(std::string_view body, const SyncLimits& limits) {
  BERTH_ASSIGN_OR_RETURN(Json j, ParseBody(body));
  SyncRequest r;
  BERTH_RETURN_IF_ERROR(ReadString(j, "cluster", "", &r.cluster, /*required=*/true));
  BERTH_RETURN_IF_ERROR(ReadString(j, "agentId", "", &r.agent_id));
  BERTH_RETURN_IF_ERROR(ReadString(j, "hubId", "", &r.hub_id));
  BERTH_RETURN_IF_ERROR(ReadInt(j, "epoch", "", &r.epoch));
  BERTH_RETURN_IF_ERROR(ReadString(j, "kubernetesVersion", "", &r.kubernetes_version));
  BERTH_RETURN_IF_ERROR(ReadString(j, "inventoryHash", "", &r.inventory_hash));
  BERTH_RETURN_IF_ERROR(ReadInt(j, "worksVersion", "", &r.works_version));
  if (r.works_version < 0) return SyncFieldError("worksVersion", "must not be negative");
  BERTH_ASSIGN_OR_RETURN(const Json* inventory, ReadArray(j, "inventory", limits.max_inventory_objects));
  if (inventory != nullptr) {
    r.inventory.emplace();
    r.inventory->reserve(inventory->size());
    for (size_t i = 0; i < inventory->size(); ++i) {
      const Json& o = (*inventory)[i];
      if (!o.is_object()) {
        return SyncFieldError("inventory[" + std::to_string(i) + "]", "must be an object");
      }
      r.inventory->push_back(o);
    }
  }
  BERTH_ASSIGN_OR_RETURN(const Json* claims, ReadArray(j, "claims", limits.max_claims));
  if (claims != nullptr) {
    for (size_t i = 0; i < claims->size(); ++i) {
      const Json& c = (*claims)[i];
      const std::string field = "claims[" + std::to_string(i) + "].";
      if (!c.is_object()) return SyncFieldError(field.substr(0, field.size() - 1), "must be an object");
      std::pair<std::string, std::string> claim;
      BERTH_RETURN_IF_ERROR(ReadString(c, "name", field, &claim.first, /*required=*/true));
      BERTH_RETURN_IF_ERROR(ReadString(c, "value", field, &claim.second));
      r.claims.push_back(std::move(claim));
    }
  }
  BERTH_ASSIGN_OR_RETURN(const Json* works, ReadArray(j, "works", limits.max_works));
  if (works != nullptr) {
    for (size_t i = 0; i < works->size(); ++i) {
      const Json& w = (*works)[i];
      const std::string field = "works[" + std::to_string(i) + "].";
      if (!w.is_object()) return SyncFieldError(field.substr(0, field.size() - 1), "must be an object");
      HeldWork held;
      BERTH_RETURN_IF_ERROR(ReadString(w, "name", field, &held.name, /*required=*/true));
      BERTH_RETURN_IF_ERROR(ReadString(w, "uid", field, &held.uid));
      BERTH_RETURN_IF_ERROR(ReadInt(w, "generation", field, &held.generation));
      r.works.push_back(std::move(held));
    }
  }
  BERTH_ASSIGN_OR_RETURN(const Json* statuses, ReadArray(j, "statuses", limits.max_works));
  if (statuses != nullptr) {
    for (size_t i = 0; i < statuses->size(); ++i) {
      const Json& s = (*statuses)[i];
      const std::string field = "statuses[" + std::to_string(i) + "].";
      if (!s.is_object()) return SyncFieldError(field.substr(0, field.size() - 1), "must be an object");
      StatusReport report;
      BERTH_RETURN_IF_ERROR(ReadString(s, "name", field, &report.name, /*required=*/true));
      BERTH_RETURN_IF_ERROR(ReadString(s, "uid", field, &report.uid));
      BERTH_RETURN_IF_ERROR(ReadInt(s, "generation", field, &report.generation));
      BERTH_RETURN_IF_ERROR(ReadInt(s, "sequence", field, &report.sequence));
      auto st = s.find("status");
      if (st == s.end() || !st->is_object()) {
        return SyncFieldError(field + "status", "Required value: must be an object");
      }
      if (st->dump().size() > limits.max_status_bytes) {
        return SyncFieldError(field + "status", "Too long: must have at most " +
                                                    std::to_string(limits.max_status_bytes) + " bytes");
      }
      report.status = *st;
      r.statuses.push_back(std::move(report));
    }
  }
  return r;
}

std::string EncodeSyncRequest(const SyncRequest& r) {
  Json j = Json::object();
  j["cluster"] = r.cluster;
  j["agentId"] = r.agent_id;
  j["hubId"] = r.hub_id;
  j["epoch"] = r.epoch;
  if (!r.kubernetes_version.empty()) j["kubernetesVersion"] = r.kubernetes_version;
  j["inventoryHash"] = r.inventory_hash;
  if (r.works_version != 0) j["worksVersion"] = r.works_version;
  if (r.inventory.has_value()) j["inventory"] = Json(*r.inventory);
  Json claims = Json::array();
  for (const auto& [name, value] : r.claims) claims.push_back({{"name", name}, {"value", value}});
  j["claims"] = std::move(claims);
  Json works = Json::array();
  for (const HeldWork& w : r.works) {
    works.push_back({{"name", w.name}, {"uid", w.uid}, {"generation", w.generation}});
  }
  j["works"] = std::move(works);
  Json statuses = Json::array();
  for (const StatusReport& s : r.statuses) {
    statuses.push_back({{"name", s.name},
                        {"uid", s.uid},
                        {"generation", s.generation},
                        {"sequence", s.sequence},
                        {"status", s.status}});
  }
  j["statuses"] = std::move(statuses);
  return j.dump();
}

core::Result<SyncReply> ParseSyncReply(std::string_view body, const SyncLimits& limits) {
  BERTH_ASSIGN_OR_RETURN(Json j, ParseBody(body));
  SyncReply r;
  BERTH_RETURN_IF_ERROR(ReadString(j, "hubId", "", &r.hub_id, /*required=*/true));
  BERTH_RETURN_IF_ERROR(ReadInt(j, "epoch", "", &r.epoch));
  if (auto it = j.find("accepted"); it != j.end() && !it->is_null()) {
    if (!it->is_boolean()) return SyncFieldError("accepted", "must be a boolean");
    r.accepted = it->get<bool>();
  }
  BERTH_RETURN_IF_ERROR(ReadString(j, "inventoryHash", "", &r.inventory_hash));
  BERTH_ASSIGN_OR_RETURN(const Json* apply, ReadArray(j, "apply", limits.max_works));
  if (apply != nullptr) {
    for (size_t i = 0; i < apply->size(); ++i) {
      if (!(*apply)[i].is_object()) {
        return SyncFieldError("apply[" + std::to_string(i) + "]", "must be an object");
      }
      r.apply.push_back((*apply)[i]);
    }
  }
  for (auto [key, out] : {std::pair{"remove", &r.remove}, std::pair{"deleted", &r.deleted}}) {
    BERTH_ASSIGN_OR_RETURN(const Json* names, ReadArray(j, key, limits.max_works));
    if (names == nullptr) continue;
    for (size_t i = 0; i < names->size(); ++i) {
      if (!(*names)[i].is_string()) {
        return SyncFieldError(std::string(key) + "[" + std::to_string(i) + "]", "must be a string");
      }
      out->push_back((*names)[i].get<std::string>());
    }
  }
  BERTH_RETURN_IF_ERROR(ReadInt(j, "worksVersion", "", &r.works_version));
  if (r.works_version < 0) return SyncFieldError("worksVersion", "must not be negative");
  if (auto it = j.find("statusAcks"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) return SyncFieldError("statusAcks", "must be an object");
    for (const auto& [name, seq] : it->items()) {
      std::optional<int64_t> v = Int64Of(seq);
      if (!v.has_value()) return SyncFieldError("statusAcks." + name, kNotInt64);
      r.status_acks[name] = *v;
    }
  }
  BERTH_RETURN_IF_ERROR(ReadInt(j, "syncPeriodSeconds", "", &r.sync_period_s));
  BERTH_RETURN_IF_ERROR(ReadInt(j, "leaseDurationSeconds", "", &r.lease_duration_s));
  BERTH_RETURN_IF_ERROR(ReadString(j, "message", "", &r.message));
  if (r.sync_period_s <= 0) return SyncFieldError("syncPeriodSeconds", "must be positive");
  return r;
}

std::string EncodeSyncReply(const SyncReply& r) {
  Json j = Json::object();
  j["hubId"] = r.hub_id;
  j["epoch"] = r.epoch;
  j["accepted"] = r.accepted;
  j["inventoryHash"] = r.inventory_hash;
  j["apply"] = Json(r.apply);
  j["remove"] = Json(r.remove);
  if (!r.deleted.empty()) j["deleted"] = Json(r.deleted);
  if (r.works_version != 0) j["worksVersion"] = r.works_version;
  Json acks = Json::object();
  for (const auto& [name, seq] : r.status_acks) acks[name] = seq;
  j["statusAcks"] = std::move(acks);
  j["syncPeriodSeconds"] = r.sync_period_s;
  j["leaseDurationSeconds"] = r.lease_duration_s;
  if (!r.message.empty()) j["message"] = r.message;
  return j.dump();
}

}  // namespace berth::server::agent
