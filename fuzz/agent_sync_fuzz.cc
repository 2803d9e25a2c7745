// Fuzz target: the hub-agent sync protocol's decoders (server/agent/sync_protocol.h), which
// read what the other side of a sync sends: the hub reads an agent's request body, an agent
// the hub's reply. The first byte picks what reads the rest, the second the limits:
//   first byte % 3   0: the hub's ParseSyncRequest, 1: the agent's ParseSyncReply, 2: the text
//                    as a request path (SyncPathCluster);
//   second byte      < 128: the default SyncLimits, else small ones made of its bits, so the
//                    fuzzer reaches every bound with a short body.
// Properties (sync_protocol.h promises them):
//   - nothing throws and nothing crashes, whatever the body (libFuzzer reports an escaping
//     exception as a crash);
//   - what decodes is within the limits given (list lengths, one status's bytes) and says
//     what the body says: each integer field is the body's integer, never one wrapped into
//     int64 from a larger one;
//   - a decoded message encoded again decodes, with the same limits, to the same message;
//   - a path's cluster makes the same path again.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz/fuzz_support.h"
#include "server/agent/sync_protocol.h"

namespace {

using berth::fuzz::PropertyFailed;
using berth::server::agent::Json;
using berth::server::agent::SyncLimits;
using berth::server::agent::SyncReply;
using berth::server::agent::SyncRequest;

SyncLimits LimitsOf(uint8_t pick) {
  SyncLimits limits;
  if (pick < 128) return limits;
  limits.max_inventory_objects = pick & 3;
  limits.max_works = (pick >> 2) & 3;
  limits.max_claims = (pick >> 4) & 1;
  limits.max_status_bytes = (pick & 0x20) != 0 ? 16 : 256;
  return limits;
}

// The body's member `key` of `obj` as the decoder should have read it into `decoded`: absent
// or null leaves the default, an integer must be the same integer (nlohmann compares an
// unsigned value with a signed one after a cast, so the check is done by hand here).
bool SameInteger(const Json& obj, const std::string& key, int64_t decoded, int64_t fallback) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return decoded == fallback;
  if (it->is_number_unsigned()) {
    const uint64_t v = it->get<uint64_t>();
    return v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) &&
           static_cast<int64_t>(v) == decoded;
  }
  return it->is_number_integer() && it->get<int64_t>() == decoded;
}

// The array `key` of the body, or an empty one.
const Json& ArrayOf(const Json& obj, const char* key) {
  static const Json kEmpty = Json::array();  // function-local constant
  auto it = obj.find(key);
  return it != obj.end() && it->is_array() ? *it : kEmpty;
}

bool SameRequest(const SyncRequest& a, const SyncRequest& b) {
  if (a.cluster != b.cluster || a.agent_id != b.agent_id || a.hub_id != b.hub_id ||
      a.epoch != b.epoch || a.kubernetes_version != b.kubernetes_version ||
      a.inventory_hash != b.inventory_hash || a.inventory != b.inventory || a.claims != b.claims ||
      a.works.size() != b.works.size() || a.statuses.size() != b.statuses.size()) {
    return false;
  }
  for (size_t i = 0; i < a.works.size(); ++i) {
    const auto& x = a.works[i];
    const auto& y = b.works[i];
    if (x.name != y.name || x.uid != y.uid || x.generation != y.generation) return false;
  }
  for (size_t i = 0; i < a.statuses.size(); ++i) {
    const auto& x = a.statuses[i];
    const auto& y = b.statuses[i];
    if (x.name != y.name || x.uid != y.uid || x.generation != y.generation ||
        x.sequence != y.sequence || x.status != y.status) {
      return false;
    }
  }
  return true;
}

bool SameReply(const SyncReply& a, const SyncReply& b) {
  return a.hub_id == b.hub_id && a.epoch == b.epoch && a.accepted == b.accepted &&
         a.inventory_hash == b.inventory_hash && a.apply == b.apply && a.remove == b.remove &&
         a.status_acks == b.status_acks && a.sync_period_s == b.sync_period_s &&
         a.lease_duration_s == b.lease_duration_s && a.message == b.message;
}

void Request(std::string_view body, const SyncLimits& limits) {
  auto decoded = berth::server::agent::ParseSyncRequest(body, limits);
  if (!decoded.has_value()) return;
  const SyncRequest& r = *decoded;
  if ((r.inventory.has_value() && r.inventory->size() > limits.max_inventory_objects) ||
      r.claims.size() > limits.max_claims || r.works.size() > limits.max_works ||
      r.statuses.size() > limits.max_works) {
    PropertyFailed("a request over the limits was read", body);
  }
  for (const auto& s : r.statuses) {
    if (!s.status.is_object() || s.status.dump().size() > limits.max_status_bytes) {
      PropertyFailed("a status that is not an object or over the limit was read", body);
    }
  }
  if (r.inventory.has_value()) {
    for (const Json& o : *r.inventory) {
      if (!o.is_object()) PropertyFailed("an inventory object that is not an object was read", body);
    }
  }
  // The same body as the decoder saw it: every integer is the one written.
  const Json j = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!SameInteger(j, "epoch", r.epoch, 0)) PropertyFailed("epoch differs from the body's", body);
  const Json& works = ArrayOf(j, "works");
  for (size_t i = 0; i < r.works.size(); ++i) {
    if (!SameInteger(works[i], "generation", r.works[i].generation, 0)) {
      PropertyFailed("a work's generation differs from the body's", body);
    }
  }
  const Json& statuses = ArrayOf(j, "statuses");
  for (size_t i = 0; i < r.statuses.size(); ++i) {
    if (!SameInteger(statuses[i], "generation", r.statuses[i].generation, 0) ||
        !SameInteger(statuses[i], "sequence", r.statuses[i].sequence, 0)) {
      PropertyFailed("a status's generation or sequence differs from the body's", body);
    }
  }
  const std::string again = berth::server::agent::EncodeSyncRequest(r);
  auto back = berth::server::agent::ParseSyncRequest(again, limits);
  if (!back.has_value()) PropertyFailed("an encoded request does not decode", back.error().ToString());
  if (!SameRequest(r, *back)) PropertyFailed("a request re-encoded decodes differently", again);
}

void Reply(std::string_view body, const SyncLimits& limits) {
  auto decoded = berth::server::agent::ParseSyncReply(body, limits);
  if (!decoded.has_value()) return;
  const SyncReply& r = *decoded;
  if (r.apply.size() > limits.max_works || r.remove.size() > limits.max_works) {
    PropertyFailed("a reply over the limits was read", body);
  }
  if (r.sync_period_s <= 0) PropertyFailed("a reply with a sync period below 1 s was read", body);
  for (const Json& w : r.apply) {
    if (!w.is_object()) PropertyFailed("a work to apply that is not an object was read", body);
  }
  const Json j = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!SameInteger(j, "epoch", r.epoch, 0) ||
      !SameInteger(j, "syncPeriodSeconds", r.sync_period_s, 10) ||
      !SameInteger(j, "leaseDurationSeconds", r.lease_duration_s, 40)) {
    PropertyFailed("an integer of the reply differs from the body's", body);
  }
  if (auto acks = j.find("statusAcks"); acks != j.end() && acks->is_object()) {
    for (const auto& [name, seq] : r.status_acks) {
      if (!SameInteger(*acks, name, seq, 0)) {
        PropertyFailed("a status acknowledgement differs from the body's", body);
      }
    }
  }
  const std::string again = berth::server::agent::EncodeSyncReply(r);
  auto back = berth::server::agent::ParseSyncReply(again, limits);
  if (!back.has_value()) PropertyFailed("an encoded reply does not decode", back.error().ToString());
  if (!SameReply(r, *back)) PropertyFailed("a reply re-encoded decodes differently", again);
}

void Path(std::string_view text) {
  auto cluster = berth::server::agent::SyncPathCluster(text);
  if (cluster.has_value() && berth::server::agent::SyncPath(*cluster) != text) {
    PropertyFailed("a sync path's cluster makes another path", text);
  }
  if (!text.empty() && text.find('/') == std::string_view::npos) {
    auto back = berth::server::agent::SyncPathCluster(berth::server::agent::SyncPath(text));
    if (!back.has_value() || *back != text) PropertyFailed("a cluster's sync path names another", text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string_view body = berth::fuzz::AsText(data + 2, size - 2);
  const SyncLimits limits = LimitsOf(data[1]);
  switch (data[0] % 3) {
    case 0: Request(body, limits); break;
    case 1: Reply(body, limits); break;
    default: Path(body); break;
  }
  return 0;
}
