// Why one commit per change and not one per round: the scheduling loop writes the same
// cluster concurrently (pods it binds, Workloads it admits). A round's changes are
// independent facts about different objects, as separate controllers would write them; one
// stale object must not undo the others. The exception is a batch the controllers mark (a
// Job's status and the pods it counted), which is one fact and commits whole.
#include "cli/member_controllers.h"

#include <exception>
#include <set>
#include <utility>
#include <vector>

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
  server::member::ControllerRound round;
  try {
    round = server::member::RunControllers(view, options);
  } catch (const std::exception& e) {
    // The cli is the edge where a library exception becomes a message (STYLE.md); the
    // cluster keeps serving and the next round tries again.
    if (log_) log_(std::string("controllers: a round failed: ") + e.what());
    return stats;
  }
  for (const server::member::Diagnostic& d : round.diagnostics) {
    if (log_ && reported_.insert(d.object + '\x1f' + d.reason).second) {
      log_("controllers: " + d.object + ": " + d.reason + ": " + d.message);
    }
  }
  int64_t committed = 0;
  // Changes of one batch (a Job's status and the pods whose tracking finalizer it released)
  // commit together; every other change alone.
  std::vector<store::Mutation> batch;
  std::string batch_label;
  auto flush = [&] {
    if (batch.empty()) return;
    auto written = store_.Commit(std::move(batch));
    batch.clear();
    if (!written) {
      if (written.error().code() == store::kConflict || written.error().code() == core::ErrorCode::kNotFound ||
          written.error().code() == core::ErrorCode::kAlreadyExists) {
        ++stats.conflicts;
      } else if (log_) {
        log_("controllers: " + batch_label + ": " + written.error().ToString());
      }
      return;
    }
    for (const store::StoredObject& o : *written) committed = std::max(committed, o.meta.resource_version);
    stats.written += written->size();
  };
  for (size_t i = 0; i < round.changes.size(); ++i) {
    const server::member::Change& change = round.changes[i];
    if (i > 0 && change.batch != round.changes[i - 1].batch) flush();
    if (!change.object.is_object()) {
      if (log_) log_(std::string("controllers: a ") + server::member::OpName(change.op) + " change without an object");
      continue;
    }
    const model::KindInfo* kind = KindInfoOf(change.object);
    if (kind == nullptr) continue;
    const store::ObjectKey key = KeyOfObject(*kind, change.object);
    batch_label = key.ToString();
    const int64_t read_rv = ResourceVersionOf(change.object);
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
        auto stored = store_.Get(key);
        if (!stored) continue;
        Json body = change.object;
        if (change.op == Op::kUpdateStatus) {
          // Only the status: the rest as stored now (the resourceVersion check refuses a
          // status decided on a stale object).
          auto served = server::ServedObject(*stored, "");
          if (!served) continue;
          body = std::move(served).value();
          body["status"] = change.object.value("status", Json::object());
        }
        store::Mutation m = store::Mutation::Update(key, server::StoredBody(body), read_rv,
                                                    server::LabelMap(body));
        // The controllers write the generation the API server would give (one more when
        // the spec changed); the store keeps its own counter, so bump it only then.
        int64_t generation = 0;
        if (auto md = change.object.find("metadata"); md != change.object.end() && md->is_object()) {
          if (auto g = md->find("generation"); g != md->end() && g->is_number_integer()) generation = g->get<int64_t>();
        }
        m.bump_generation = change.op == Op::kUpdate && generation > stored->meta.generation;
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
          const Json& md = change.object["metadata"];
          if (auto g = md.find("deletionGracePeriodSeconds"); g != md.end() && g->is_number_integer()) {
            grace = g->get<int64_t>();
          }
          const std::string when = server::StringAt(change.object, {"metadata", "deletionTimestamp"});
          body["metadata"]["deletionTimestamp"] = when.empty() ? core::Timestamp{now_unix_s + grace}.ToString() : when;
          body["metadata"]["deletionGracePeriodSeconds"] = grace;
          store::Mutation m = store::Mutation::Update(key, server::StoredBody(body), stored->meta.resource_version,
                                                      server::LabelMap(body));
          auto at = core::Timestamp::Parse(server::StringAt(body, {"metadata", "deletionTimestamp"}));
          m.deletion_unix_s = at.has_value() ? at->unix_s : now_unix_s + grace;
          batch.push_back(std::move(m));
        } else {
          batch.push_back(store::Mutation::Delete(key, read_rv));
        }
        break;
      }
    }
  }
  flush();
  if (committed > 0) feed_.Publish(committed);
  return stats;
}

}  // namespace berth::cli
