// Why one commit per object and not one per round: the scheduling loop writes the same
// cluster concurrently (pods it binds, Workloads it admits). A round's changes are
// independent facts about different objects, as separate controllers would write them; one
// stale object must not undo the others.
#include "cli/member_controllers.h"

#include <set>
#include <utility>

#include "model/kind_info.h"
#include "server/api/json_access.h"
#include "server/member/controller_round.h"
#include "server/member/member_objects.h"
#include "server/rest/stored_json.h"

namespace berth::cli {

namespace {

using Json = nlohmann::ordered_json;

const model::KindInfo* KindInfoOf(const Json& object) {
  return model::FindKindForApiVersion(object.value("apiVersion", ""), object.value("kind", ""));
}

store::ObjectKey KeyOfObject(const model::KindInfo& kind, const Json& object) {
  return server::StoreKey(kind, server::StringAt(object, {"metadata", "namespace"}),
                          server::StringAt(object, {"metadata", "name"}));
}

int64_t ResourceVersionOf(const Json& object) {
  const std::string rv = server::StringAt(object, {"metadata", "resourceVersion"});
  return rv.empty() ? 0 : std::strtoll(rv.c_str(), nullptr, 10);
}

}  // namespace

MemberControllers::MemberControllers(store::Store& store, server::ChangeFeed& feed,
                                     server::member::ControllerOptions options,
                                     std::function<void(const std::string&)> log)
    : store_(store), feed_(feed), options_(options), log_(std::move(log)) {}

MemberRoundStats MemberControllers::RunRound(int64_t now_unix_s) {
  MemberRoundStats stats;
  server::member::MemberView view;
  for (server::member::Kind kind : server::member::AllMemberKinds()) {
    const server::member::KindInfo& info = server::member::InfoOf(kind);
    const model::KindInfo* k = model::FindKindForApiVersion(info.api_version, info.name);
    if (k == nullptr) continue;
    store::ListOptions list;
    list.group = std::string(k->group);
    list.kind = std::string(k->kind);
    for (;;) {
      auto page = store_.List(list);
      if (!page) {
        if (log_) log_("controllers: listing " + std::string(info.name) + ": " + page.error().ToString());
        return stats;
      }
      for (const store::StoredObject& o : page->items) {
        auto served = server::ServedObject(o, "");
        if (!served) continue;
        view.Add(std::move(served).value());
        ++stats.objects;
      }
      if (!page->next.has_value()) break;
      list.start_after = page->next;
    }
  }
  server::member::ControllerOptions options = options_;
  options.now_unix_s = now_unix_s;
  server::member::ControllerRound round = server::member::RunControllers(view, options);
  for (const server::member::Diagnostic& d : round.diagnostics) {
    if (log_ && reported_.insert(d.object + '\x1f' + d.reason).second) {
      log_("controllers: " + d.object + ": " + d.reason + ": " + d.message);
    }
  }
  int64_t committed = 0;
  for (const server::member::Change& change : round.changes) {
    const model::KindInfo* kind = KindInfoOf(change.object);
    if (kind == nullptr) continue;
    const store::ObjectKey key = KeyOfObject(*kind, change.object);
    const int64_t read_rv = ResourceVersionOf(change.object);
    std::vector<store::Mutation> batch;
    using Op = server::member::Change::Op;
    switch (change.op) {
      case Op::kCreate: {
        store::Mutation m = store::Mutation::Create(key, server::StoredBody(change.object),
                                                    server::LabelMap(change.object));
        m.uid = server::StringAt(change.object, {"metadata", "uid"});
        batch.push_back(std::move(m));
        break;
      }
      case Op::kUpdate:
      case Op::kUpdateStatus: {
        Json body = change.object;
        if (change.op == Op::kUpdateStatus) {
          // Only the status: the rest as stored now (a newer spec is not overwritten; the
          // resourceVersion check refuses a stale status anyway).
          auto stored = store_.Get(key);
          if (!stored) continue;
          auto served = server::ServedObject(*stored, "");
          if (!served) continue;
          body = std::move(served).value();
          body["status"] = change.object.value("status", Json::object());
        }
        store::Mutation m = store::Mutation::Update(key, server::StoredBody(body), read_rv,
                                                    server::LabelMap(body));
        m.bump_generation = change.op == Op::kUpdate &&
                            server::StringAt(change.object, {"kind"}) != "Pod" &&
                            server::StringAt(change.object, {"kind"}) != "Node";
        batch.push_back(std::move(m));
        break;
      }
      case Op::kDelete: {
        if (key.kind == "Pod" && key.group.empty()) {
          // Graceful: the pod terminates until its grace passes (the loop deletes it then).
          auto stored = store_.Get(key);
          if (!stored) continue;
          auto served = server::ServedObject(*stored, "");
          if (!served) continue;
          Json body = std::move(served).value();
          if (!server::StringAt(body, {"metadata", "deletionTimestamp"}).empty()) continue;
          int64_t grace = 30;
          if (auto g = change.object["metadata"].find("deletionGracePeriodSeconds");
              g != change.object["metadata"].end() && g->is_number_integer()) {
            grace = g->get<int64_t>();
          }
          const std::string when = server::StringAt(change.object, {"metadata", "deletionTimestamp"});
          body["metadata"]["deletionTimestamp"] =
              when.empty() ? core::Timestamp{now_unix_s + grace}.ToString() : when;
          body["metadata"]["deletionGracePeriodSeconds"] = grace;
          store::Mutation m = store::Mutation::Update(key, server::StoredBody(body),
                                                      stored->meta.resource_version, server::LabelMap(body));
          auto at = core::Timestamp::Parse(server::StringAt(body, {"metadata", "deletionTimestamp"}));
          m.deletion_unix_s = at.has_value() ? at->unix_s : now_unix_s + grace;
          batch.push_back(std::move(m));
        } else {
          batch.push_back(store::Mutation::Delete(key, read_rv));
        }
        break;
      }
    }
    auto written = store_.Commit(std::move(batch));
    if (!written) {
      if (written.error().code() == store::kConflict || written.error().code() == core::ErrorCode::kNotFound ||
          written.error().code() == core::ErrorCode::kAlreadyExists) {
        ++stats.conflicts;
      } else if (log_) {
        log_("controllers: " + key.ToString() + ": " + written.error().ToString());
      }
      continue;
    }
    for (const store::StoredObject& o : *written) committed = std::max(committed, o.meta.resource_version);
    ++stats.written;
  }
  if (committed > 0) feed_.Publish(committed);
  return stats;
}

}  // namespace berth::cli
