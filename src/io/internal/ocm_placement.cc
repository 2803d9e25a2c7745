// cluster.open-cluster-management.io/v1beta1: Placement and PlacementDecision. Validation
// follows the CRD (api:cluster/v1beta1/types_placement.go): enum values, weight in
// [-10, 10], at most 8 spread constraints, numberOfClusters >= 0. Semantic problems the CRD
// cannot see (an unknown prioritizer, an empty-key Equal toleration, a CEL expression that
// does not compile) are kept: the placement module reports them as PlacementMisconfigured,
// as upstream's scheduler does, instead of dropping the object.
#include <cstdint>
#include <string>
#include <utility>

#include "io/internal/decoders.h"
#include "io/internal/json_fields.h"
#include "io/internal/object_fields.h"

namespace berth::io::internal {

namespace {

core::Result<model::ClusterSelector> DecodeClusterSelector(dom::object obj) {
  model::ClusterSelector sel;
  dom::object part;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "labelSelector", &part, &found));
  if (found) {
    auto ls = DecodeLabelSelector(part);
    BERTH_IO_RETURN_IF_ERROR_AT(ls, "labelSelector");
    sel.label_selector = std::move(*ls);
  }
  BERTH_RETURN_IF_ERROR(GetObject(obj, "claimSelector", &part, &found));
  if (found) {
    // A claimSelector is a LabelSelector without matchLabels: same requirement rules.
    auto ls = DecodeLabelSelector(part);
    BERTH_IO_RETURN_IF_ERROR_AT(ls, "claimSelector");
    sel.claim_selector = model::ClaimSelector{std::move(ls->match_expressions)};
  }
  BERTH_RETURN_IF_ERROR(GetObject(obj, "celSelector", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetStringList(part, "celExpressions", &sel.cel_expressions),
                                "celSelector");
  }
  return sel;
}

core::Result<model::ClusterSelector> DecodePredicate(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  dom::object req;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "requiredClusterSelector", &req, &found));
  if (!found) return model::ClusterSelector{};
  auto sel = DecodeClusterSelector(req);
  BERTH_IO_RETURN_IF_ERROR_AT(sel, "requiredClusterSelector");
  return std::move(*sel);
}

core::Result<model::PrioritizerConfig> DecodePrioritizerConfig(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::PrioritizerConfig config;
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "weight", &config.weight));
  if (config.weight < -10 || config.weight > 10) {
    return FieldError("weight", "must be between -10 and 10");
  }
  dom::object sc;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "scoreCoordinate", &sc, &found));
  if (!found) return config;
  model::ScoreCoordinate coord;
  std::string type;
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(sc, "type", &type), "scoreCoordinate");
  if (type.empty() || type == "BuiltIn") {
    coord.type = model::ScoreCoordinateType::kBuiltIn;
  } else if (type == "AddOn") {
    coord.type = model::ScoreCoordinateType::kAddOn;
  } else {
    return Unsupported("scoreCoordinate.type", type, "\"BuiltIn\", \"AddOn\"");
  }
  BERTH_IO_RETURN_IF_ERROR_AT(GetString(sc, "builtIn", &coord.built_in), "scoreCoordinate");
  dom::object addon;
  BERTH_IO_RETURN_IF_ERROR_AT(GetObject(sc, "addOn", &addon, &found), "scoreCoordinate");
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(addon, "resourceName", &coord.addon_resource_name),
                                "scoreCoordinate.addOn");
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(addon, "scoreName", &coord.addon_score_name),
                                "scoreCoordinate.addOn");
  }
  config.score_coordinate = std::move(coord);
  return config;
}

core::Result<model::ClusterTaintEffect> DecodeEffect(const std::string& text) {
  if (text == "NoSelect") return model::ClusterTaintEffect::kNoSelect;
  if (text == "PreferNoSelect") return model::ClusterTaintEffect::kPreferNoSelect;
  if (text == "NoSelectIfNew") return model::ClusterTaintEffect::kNoSelectIfNew;
  return Unsupported("effect", text, "\"NoSelect\", \"PreferNoSelect\", \"NoSelectIfNew\"");
}

core::Result<model::PlacementToleration> DecodePlacementToleration(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::PlacementToleration t;
  BERTH_RETURN_IF_ERROR(GetString(obj, "key", &t.key));
  BERTH_RETURN_IF_ERROR(GetString(obj, "value", &t.value));
  std::string op;
  BERTH_RETURN_IF_ERROR(GetString(obj, "operator", &op));
  if (op.empty() || op == "Equal") {
    t.op = model::PlacementTolerationOp::kEqual;
  } else if (op == "Exists") {
    t.op = model::PlacementTolerationOp::kExists;
  } else {
    return Unsupported("operator", op, "\"Equal\", \"Exists\"");
  }
  std::string effect;
  BERTH_RETURN_IF_ERROR(GetString(obj, "effect", &effect));
  if (!effect.empty()) {
    BERTH_ASSIGN_OR_RETURN(t.effect, DecodeEffect(effect));
  }
  int64_t seconds = 0;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetInt64(obj, "tolerationSeconds", &seconds, &found));
  if (found) t.toleration_seconds = seconds;
  return t;
}

core::Result<model::SpreadConstraint> DecodeSpreadConstraint(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::SpreadConstraint c;
  BERTH_RETURN_IF_ERROR(GetString(obj, "topologyKey", &c.topology_key));
  if (c.topology_key.empty()) return FieldError("topologyKey", "Required value");
  std::string text;
  BERTH_RETURN_IF_ERROR(GetString(obj, "topologyKeyType", &text));
  if (text.empty()) return FieldError("topologyKeyType", "Required value");
  if (text == "Label") {
    c.topology_key_type = model::TopologyKeyType::kLabel;
  } else if (text == "Claim") {
    c.topology_key_type = model::TopologyKeyType::kClaim;
  } else {
    return Unsupported("topologyKeyType", text, "\"Label\", \"Claim\"");
  }
  BERTH_RETURN_IF_ERROR(GetInt32(obj, "maxSkew", &c.max_skew));
  if (c.max_skew < 1) return FieldError("maxSkew", "must be greater than or equal to 1");
  text.clear();
  BERTH_RETURN_IF_ERROR(GetString(obj, "whenUnsatisfiable", &text));
  if (text.empty() || text == "ScheduleAnyway") {
    c.when_unsatisfiable = model::WhenUnsatisfiable::kScheduleAnyway;
  } else if (text == "DoNotSchedule") {
    c.when_unsatisfiable = model::WhenUnsatisfiable::kDoNotSchedule;
  } else {
    return Unsupported("whenUnsatisfiable", text, "\"DoNotSchedule\", \"ScheduleAnyway\"");
  }
  return c;
}

core::Result<model::DecisionGroupSpec> DecodeDecisionGroup(dom::element e) {
  BERTH_ASSIGN_OR_RETURN(dom::object obj, AsObject(e));
  model::DecisionGroupSpec group;
  BERTH_RETURN_IF_ERROR(GetString(obj, "groupName", &group.group_name));
  if (group.group_name.empty()) return FieldError("groupName", "Required value");
  dom::object sel;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "groupClusterSelector", &sel, &found));
  if (found) {
    auto decoded = DecodeClusterSelector(sel);
    BERTH_IO_RETURN_IF_ERROR_AT(decoded, "groupClusterSelector");
    group.group_cluster_selector = std::move(*decoded);
  }
  return group;
}

}  // namespace

core::Status DecodePlacementSpec(dom::object spec, model::Placement* out) {
  model::Placement& p = *out;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetStringList(spec, "clusterSets", &p.cluster_sets));
  int32_t n = 0;
  BERTH_RETURN_IF_ERROR(GetInt32(spec, "numberOfClusters", &n, &found));
  if (found) {
    if (n < 0) return FieldError("numberOfClusters", "must be greater than or equal to 0");
    p.number_of_clusters = n;
  }
  BERTH_RETURN_IF_ERROR(DecodeList(spec, "predicates", DecodePredicate, &p.predicates));
  BERTH_RETURN_IF_ERROR(DecodeList(spec, "tolerations", DecodePlacementToleration, &p.tolerations));
  dom::object part;
  BERTH_RETURN_IF_ERROR(GetObject(spec, "prioritizerPolicy", &part, &found));
  if (found) {
    std::string mode;
    BERTH_IO_RETURN_IF_ERROR_AT(GetString(part, "mode", &mode), "prioritizerPolicy");
    p.prioritizer_policy.mode_text = mode;
    if (mode.empty() || mode == "Additive") {
      p.prioritizer_policy.mode = model::PrioritizerMode::kAdditive;
    } else if (mode == "Exact") {
      p.prioritizer_policy.mode = model::PrioritizerMode::kExact;
    } else {
      p.prioritizer_policy.mode = model::PrioritizerMode::kOther;
    }
    BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(part, "configurations", DecodePrioritizerConfig,
                                           &p.prioritizer_policy.configurations),
                                "prioritizerPolicy");
  }
  BERTH_RETURN_IF_ERROR(GetObject(spec, "spreadPolicy", &part, &found));
  if (found) {
    BERTH_IO_RETURN_IF_ERROR_AT(
        DecodeList(part, "spreadConstraints", DecodeSpreadConstraint, &p.spread_constraints, 8),
        "spreadPolicy");
  }
  BERTH_RETURN_IF_ERROR(GetObject(spec, "decisionStrategy", &part, &found));
  if (found) {
    dom::object gs;
    BERTH_IO_RETURN_IF_ERROR_AT(GetObject(part, "groupStrategy", &gs, &found), "decisionStrategy");
    if (found) {
      const char* prefix = "decisionStrategy.groupStrategy";
      BERTH_IO_RETURN_IF_ERROR_AT(
          DecodeList(gs, "decisionGroups", DecodeDecisionGroup, &p.group_strategy.decision_groups),
          prefix);
      BERTH_IO_RETURN_IF_ERROR_AT(DecodeIntOrPercent(gs, "clustersPerDecisionGroup",
                                                     &p.group_strategy.clusters_per_decision_group),
                                  prefix);
    }
  }
  return core::OkStatus();
}

core::Result<model::Placement> DecodePlacement(dom::object obj) {
  model::Placement p;
  BERTH_ASSIGN_OR_RETURN(p.meta, DecodeObjectMeta(obj, true, true));
  dom::object spec;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "spec", &spec, &found));
  if (!found) return p;
  BERTH_IO_RETURN_IF_ERROR_AT(DecodePlacementSpec(spec, &p), "spec");
  return p;
}

core::Result<model::PlacementDecision> DecodePlacementDecision(dom::object obj) {
  model::PlacementDecision pd;
  BERTH_ASSIGN_OR_RETURN(pd.meta, DecodeObjectMeta(obj, true, true));
  if (auto owner = pd.meta.labels.find(model::kPlacementLabel); owner != pd.meta.labels.end()) {
    pd.placement = owner->second;
  }
  dom::object status;
  bool found = false;
  BERTH_RETURN_IF_ERROR(GetObject(obj, "status", &status, &found));
  if (!found) return pd;
  auto decode = [](dom::element e) -> core::Result<model::ClusterDecision> {
    BERTH_ASSIGN_OR_RETURN(dom::object item, AsObject(e));
    model::ClusterDecision d;
    BERTH_RETURN_IF_ERROR(GetString(item, "clusterName", &d.cluster_name));
    if (d.cluster_name.empty()) return FieldError("clusterName", "Required value");
    BERTH_RETURN_IF_ERROR(GetString(item, "reason", &d.reason));
    return d;
  };
  BERTH_IO_RETURN_IF_ERROR_AT(DecodeList(status, "decisions", decode, &pd.decisions), "status");
  return pd;
}

}  // namespace berth::io::internal
