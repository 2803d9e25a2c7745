// federation-ai.open-cluster-management.io/v1alpha1: FederatedLearning. The fields follow
// upstream's type (addon-contrib federated-learning-controller api/v1alpha1
// federatedlearning_types.go): framework enum flower|openfl|other (default other),
// server.minAvailableClients >= 1, status.phase Waiting|Running|Completed|Failed|Start.
// berth's additions are checked here too, so that a mistake is an error naming its field
// rather than a setting that silently never applies: spec.server.resources and
// spec.client.resources (quantities, not negative), images required (the Jobs berth makes
// would be refused without them), and the berth.dev/ annotations (docs/fleet.md).
// The status is read as well: it is the state the next plan continues from.
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "core/labels.h"
#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

std::string FlAnnotationField(const char* key) { return KeyField("metadata.annotations", key); }

std::string FlTrimmed(std::string_view text) {
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && (text[begin] == ' ' || text[begin] == '\t')) ++begin;
  while (end > begin && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  return std::string(text.substr(begin, end - begin));
}

core::Status DecodeFlAnnotations(const core::Labels& annotations, model::FederatedLearning* fl) {
  if (auto it = annotations.find(model::kFlDataComplianceAnnotation); it != annotations.end()) {
    std::string_view rest = it->second;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      std::string item = FlTrimmed(rest.substr(0, comma));
      if (!item.empty()) fl->data_compliance.push_back(std::move(item));
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  if (auto it = annotations.find(model::kFlRoundTimeoutAnnotation); it != annotations.end()) {
    auto seconds = ParseDurationSeconds(it->second);
    BERTH_IO_RETURN_IF_ERROR_AT(seconds, FlAnnotationField(model::kFlRoundTimeoutAnnotation));
    if (*seconds <= 0) {
      return InvalidValue(FlAnnotationField(model::kFlRoundTimeoutAnnotation), it->second,
                          "must be a positive duration");
    }
    fl->round_timeout_s = *seconds;
  }
  if (auto it = annotations.find(model::kFlDivergenceRoundsAnnotation); it != annotations.end()) {
    const std::string& text = it->second;
    int64_t n = 0;
    bool digits = !text.empty() && text.size() <= 9;
    for (char c : text) {
      digits = digits && c >= '0' && c <= '9';
      if (digits) n = n * 10 + (c - '0');
    }
    if (!digits || n < 1) {
      return InvalidValue(FlAnnotationField(model::kFlDivergenceRoundsAnnotation), text,
                          "must be a whole number of rounds, at least 1");
    }
    fl->divergence_rounds = static_cast<int32_t>(n);
  }
  if (auto it = annotations.find(model::kFlServerClusterAnnotation); it != annotations.end()) {
    if (std::string problem = core::Dns1123LabelProblem(it->second); !problem.empty()) {
      return InvalidValue(FlAnnotationField(model::kFlServerClusterAnnotation), it->second,
                          problem);
    }
    fl->server_cluster = it->second;
  }
  return core::OkStatus();
}

core::Status DecodeFlResources(dom::object parent, model::FlResources* out) {
  dom::object resources;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(parent, "resources", &resources, &found));
  if (!found) return core::OkStatus();
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeQuantityMap(resources, "requests", &out->requests, /*non_negative=*/true),
                              "resources");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeQuantityMap(resources, "limits", &out->limits, /*non_negative=*/true), "resources");
  return core::OkStatus();
}

core::Status RequireFlImage(dom::object parent, std::string* image) {
  BERTH_RETURN_IF_ERROR(GetString(parent, "image", image));
  if (image->empty()) return FieldError("image", "Required value");
  return core::OkStatus();
}

core::Result<model::FlListener> DecodeFlListener(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::FlListener l;
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", &l.name));
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "port", &l.port, &found));
  if (found && (l.port < 1 || l.port > 65535)) {
    return FieldError("port", "must be between 1 and 65535, inclusive");
  }
  BERTH_RETURN_IF_ERROR(GetString(obj, "type", &l.type));
  if (!l.type.empty() && l.type != "LoadBalancer" && l.type != "NodePort" && l.type != "Route") {
    return Unsupported("type", l.type, {"LoadBalancer", "NodePort", "Route"});
  }
  return l;
}

core::Status DecodeFlServer(dom::object server, model::FlServerSpec* out) {
  BERTH_RETURN_IF_ERROR(RequireFlImage(server, &out->image));
  BERTH_RETURN_IF_ERROR(GetInt32(server, "rounds", &out->rounds));
  if (out->rounds < 0) return FieldError("rounds", "must be greater than or equal to 0");
  bool found = false;
  BERTH_RETURN_IF_ERROR(
      GetInt32(server, "minAvailableClients", &out->min_available_clients, &found));
  // The CRD's minimum is 1; upstream's omitempty leaves an unset one out, which berth reads
  // as one client.
  if (found && out->min_available_clients < 1) {
    return FieldError("minAvailableClients", "must be greater than or equal to 1");
  }
  if (!found) out->min_available_clients = 1;
  BERTH_RETURN_IF_ERROR(DecodeList(server, "listeners", DecodeFlListener, &out->listeners));
  dom::object storage;
  BERTH_RETURN_IF_ERROR(GetObject(server, "storage", &storage, &found));
  if (found) {
    model::FlStorage& s = out->storage;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(storage, "type", &s.type), "storage");
    if (!s.type.empty() && s.type != "PersistentVolumeClaim" && s.type != "HostPath" &&
        s.type != "S3Bucket") {
      return Unsupported("storage.type", s.type, {"PersistentVolumeClaim", "HostPath", "S3Bucket"});
    }
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(storage, "name", &s.name), "storage");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(storage, "path", &s.path), "storage");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(storage, "size", &s.size), "storage");
    if (s.type == "PersistentVolumeClaim" && s.name.empty()) {
      return FieldError("storage.name", "Required value: the PersistentVolumeClaim's name");
    }
    if ((s.type == "PersistentVolumeClaim" || s.type == "HostPath") && s.path.empty()) {
      return FieldError("storage.path", "Required value: where the model store is mounted");
    }
  }
  return DecodeFlResources(server, &out->resources);
}

core::Status DecodeFlClient(dom::object client, model::FlClientSpec* out) {
  BERTH_RETURN_IF_ERROR(RequireFlImage(client, &out->image));
  dom::object placement;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(client, "placement", &placement, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(DecodePlacementSpec(placement, &out->placement), "placement");
  }
  return DecodeFlResources(client, &out->resources);
}

core::Result<model::FlPhase> ParseFlPhase(const std::string& text) {
  // Start is upstream's manual trigger to begin: it waits for clients like Waiting.
  if (text.empty() || text == "Waiting" || text == "Start") return model::FlPhase::kWaiting;
  if (text == "Running") return model::FlPhase::kRunning;
  if (text == "Completed") return model::FlPhase::kCompleted;
  if (text == "Failed") return model::FlPhase::kFailed;
  return Unsupported("phase", text, {"Waiting", "Running", "Completed", "Failed", "Start"});
}

core::Result<model::FlListenerStatus> DecodeFlListenerStatus(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::FlListenerStatus l;
  BERTH_RETURN_IF_ERROR(GetString(obj, "name", &l.name));
  BERTH_RETURN_IF_ERROR(GetString(obj, "type", &l.type));
  BERTH_RETURN_IF_ERROR(GetString(obj, "address", &l.address));
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "port", &l.port));
  return l;
}

core::Result<model::FlClientStatus> DecodeFlClientStatus(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::FlClientStatus c;
  BERTH_RETURN_IF_ERROR(GetString(obj, "clusterName", &c.cluster));
  if (c.cluster.empty()) return FieldError("clusterName", "Required value");
  std::string state;
  BERTH_RETURN_IF_ERROR(GetString(obj, "state", &state));
  if (state == "Eligible") {
    c.state = model::FlClientState::kEligible;
  } else if (state == "Training") {
    c.state = model::FlClientState::kTraining;
  } else if (state == "Excluded") {
    c.state = model::FlClientState::kExcluded;
  } else if (state == "Lost") {
    c.state = model::FlClientState::kLost;
  } else if (state == "Finished") {
    c.state = model::FlClientState::kFinished;
  } else {
    return Unsupported("state", state, {"Eligible", "Training", "Excluded", "Lost", "Finished"});
  }
  BERTH_RETURN_IF_ERROR(GetString(obj, "reason", &c.reason));
  BERTH_RETURN_IF_ERROR(GetString(obj, "message", &c.message));
  BERTH_RETURN_IF_ERROR(GetString(obj, "dataConfig", &c.data_config));
  return c;
}

core::Result<model::FlRoundLoss> DecodeFlRoundLoss(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::FlRoundLoss r;
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "round", &r.round));
  BERTH_RETURN_IF_ERROR(GetString(obj, "loss", &r.loss));
  return r;
}

core::Status DecodeFlStatus(dom::object status, model::FederatedLearningStatus* out) {
  std::string phase;
  BERTH_RETURN_IF_ERROR(GetString(status, "phase", &phase));
  BERTH_ASSIGN_OR_RETURN(out->phase, ParseFlPhase(phase));
  BERTH_RETURN_IF_ERROR(GetString(status, "message", &out->message));
  BERTH_RETURN_IF_ERROR(DecodeList(status, "listeners", DecodeFlListenerStatus, &out->listeners));
  BERTH_RETURN_IF_ERROR(GetString(status, "serverCluster", &out->server_cluster));
  BERTH_RETURN_IF_ERROR(DecodeList(status, "clients", DecodeFlClientStatus, &out->clients));
  BERTH_RETURN_IF_ERROR(GetInt32(status, "currentRound", &out->current_round));
  if (out->current_round < 0) {
    return FieldError("currentRound", "must be greater than or equal to 0");
  }
  std::string time;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetString(status, "roundStartTime", &time, &found));
  if (found) {
    auto t = core::Timestamp::Parse(time);
    if (!t.has_value()) return FieldError("roundStartTime", t.error().message());
    out->round_start_time = *t;
  }
  BERTH_RETURN_IF_ERROR(DecodeList(status, "roundLosses", DecodeFlRoundLoss, &out->round_losses));
  return DecodeList(status, "conditions", DecodeMetaCondition, &out->conditions);
}

}  // namespace

core::Result<model::FederatedLearning> DecodeFederatedLearning(dom::object obj) {
  model::FederatedLearning fl;
  BERTH_ASSIGN_OR_RETURN(fl.meta, DecodeObjectMeta(obj, /*namespaced=*/true,
                                                   /*name_required=*/true));
  BERTH_RETURN_IF_ERROR(DecodeFlAnnotations(fl.meta.annotations, &fl));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return FieldError("spec", "Required value");
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(spec, "framework", &fl.framework), "spec");
  if (fl.framework.empty()) fl.framework = "other";
  if (fl.framework != "flower" && fl.framework != "openfl" && fl.framework != "other") {
    return Unsupported("spec.framework", fl.framework, {"flower", "openfl", "other"});
  }
  dom::object part;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "server", &part, &found), "spec");
  if (!found) return FieldError("spec.server", "Required value");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeFlServer(part, &fl.server), "spec.server");
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(spec, "client", &part, &found), "spec");
  if (!found) return FieldError("spec.client", "Required value");
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeFlClient(part, &fl.client), "spec.client");
  // The Placement upstream's controller creates for the clients: same name and namespace.
  fl.client.placement.meta.name = fl.meta.name;
  fl.client.placement.meta.namespace_ = fl.meta.namespace_;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &part, &found));
  if (found) BERTH_IO_RETURN_IF_ERROR_AT(DecodeFlStatus(part, &fl.read_status), "status");
  return fl;
}

}  // namespace berth::io::internal
