#include "devices/internal/claim_plan.h"

#include <algorithm>
#include <bit>

namespace berth::devices::internal {
namespace {

const char* TypeName(int type) {
  switch (static_cast<model::DeviceAttribute::Type>(type)) {
    case model::DeviceAttribute::Type::kInt:
      return "int";
    case model::DeviceAttribute::Type::kBool:
      return "bool";
    case model::DeviceAttribute::Type::kString:
      return "string";
    case model::DeviceAttribute::Type::kVersion:
      return "version";
  }
  return "unknown";
}

bool Covers(const std::vector<std::string>& names, const RequestPlan& plan,
            const std::string& base) {
  if (names.empty()) return true;
  if (std::find(names.begin(), names.end(), base) != names.end()) return true;
  return plan.sub >= 0 && std::find(names.begin(), names.end(), plan.full_name) != names.end();
}

}  // namespace

ClaimPlanner::ClaimPlanner(const model::Snapshot& snapshot, const std::string& cluster,
                           SelectorCache& selectors, AttributeIndex& attributes,
                           core::Diagnostics& diags)
    : snapshot_(snapshot), selectors_(selectors), attributes_(attributes), diags_(diags) {
  // DeviceClasses are cluster-scoped objects without a cluster of their own in the model;
  // every class is visible to every cluster. The first of a name wins.
  (void)cluster;
  for (size_t i = 0; i < snapshot.device_classes.size(); ++i) {
    const model::DeviceClass& cls = snapshot.device_classes[i];
    auto [it, fresh] = classes_.try_emplace(cls.meta.name);
    if (!fresh) continue;
    it->second.index = static_cast<int32_t>(i);
    int32_t failed = -1;
    auto programs = selectors_.CompileAll(cls.selectors, &failed);
    if (!programs.has_value()) {
      const std::string prefix = "class " + cls.meta.name + ": selector #" +
                                 std::to_string(failed) + ": CEL compile error: ";
      it->second.error = prefix + programs.error().message();
      diags_.Report(
          core::InvalidArgument("CEL compile error: " + programs.error().message(),
                                {"", "DeviceClass/" + cls.meta.name,
                                 "spec.selectors[" + std::to_string(failed) + "].cel.expression"}));
      continue;
    }
    it->second.programs = std::move(*programs);
  }
}

const ClaimPlanner::ClassInfo* ClaimPlanner::FindClass(const std::string& name) {
  auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : &it->second;
}

void ClaimPlanner::PlanRequest(const model::ResourceClaim& claim, const std::string& object,
                               const model::ExactDeviceRequest& spec, const std::string& field,
                               RequestPlan& plan, ClaimPlan& out) {
  plan.spec = &spec;
  plan.all = spec.allocation_mode == model::DeviceAllocationMode::kAll;
  plan.count = spec.count;
  plan.admin = spec.admin_access;
  auto fail = [&](std::string message) {
    if (out.error.empty()) out.error = std::move(message);
  };
  const std::string who = "claim " + out.display + ", request " + plan.name;
  for (size_t i = 0; i < spec.selectors.size(); ++i) {
    if (spec.selectors[i].cel_expression.empty()) {
      fail(who + ", selector #" + std::to_string(i) +
           ": CEL expression empty (unsupported selector type?)");
      diags_.Report(core::InvalidArgument(
          "empty CEL expression",
          {"", object, field + ".selectors[" + std::to_string(i) + "].cel.expression"}));
      return;
    }
  }
  if (spec.device_class_name.empty()) {
    fail(who + ": missing device class name (unsupported request type?)");
    diags_.Report(core::InvalidArgument("deviceClassName is required",
                                        {"", object, field + ".deviceClassName"}));
    return;
  }
  const ClassInfo* cls = FindClass(spec.device_class_name);
  if (cls == nullptr) {
    fail(who + ": could not retrieve device class " + spec.device_class_name +
         ": deviceclass.resource.k8s.io \"" + spec.device_class_name + "\" not found");
    diags_.Report(core::NotFound("DeviceClass " + spec.device_class_name + " not found",
                                 {"", object, field + ".deviceClassName"}));
    return;
  }
  plan.class_index = cls->index;
  if (!cls->error.empty()) {
    fail(cls->error);
    return;
  }
  int32_t failed = -1;
  auto programs = selectors_.CompileAll(spec.selectors, &failed);
  if (!programs.has_value()) {
    fail("claim " + out.display + ": selector #" + std::to_string(failed) +
         ": CEL compile error: " + programs.error().message());
    diags_.Report(core::InvalidArgument(
        "CEL compile error: " + programs.error().message(),
        {"", object, field + ".selectors[" + std::to_string(failed) + "].cel.expression"}));
    return;
  }
  plan.selectors = selectors_.Intern(cls->index, cls->programs, *programs);
  (void)claim;
}

ClaimPlan ClaimPlanner::Plan(int32_t index) {
  const model::ResourceClaim& claim = snapshot_.resource_claims[static_cast<size_t>(index)];
  ClaimPlan out;
  out.claim = index;
  out.display = claim.meta.namespace_.empty() ? claim.meta.name
                                              : claim.meta.namespace_ + "/" + claim.meta.name;
  const std::string object = "ResourceClaim/" + out.display;
  const model::ResourceClaimSpec& spec = claim.spec;

  for (size_t r = 0; r < spec.requests.size(); ++r) {
    const model::DeviceRequest& req = spec.requests[r];
    const std::string field = "spec.devices.requests[" + std::to_string(r) + "]";
    RequestGroup group;
    group.name = req.name;
    if (req.exactly.has_value()) {
      RequestPlan plan;
      plan.full_name = req.name;
      plan.name = req.name;
      plan.request = static_cast<int32_t>(r);
      PlanRequest(claim, object, *req.exactly, field + ".exactly", plan, out);
      group.alternatives.push_back(std::move(plan));
    } else if (!req.first_available.empty()) {
      group.has_subrequests = true;
      for (size_t s = 0; s < req.first_available.size(); ++s) {
        const model::DeviceSubRequest& sub = req.first_available[s];
        RequestPlan plan;
        plan.full_name = req.name + "/" + sub.name;
        plan.name = sub.name;
        plan.request = static_cast<int32_t>(r);
        plan.sub = static_cast<int32_t>(s);
        PlanRequest(claim, object, sub.spec, field + ".firstAvailable[" + std::to_string(s) + "]",
                    plan, out);
        group.alternatives.push_back(std::move(plan));
      }
    } else {
      if (out.error.empty()) {
        out.error = "claim " + out.display + ", request " + req.name +
                    ": missing device class name (unsupported request type?)";
      }
      diags_.Report(
          core::InvalidArgument("a request needs exactly or firstAvailable", {"", object, field}));
      continue;
    }
    out.requests.push_back(std::move(group));
  }

  for (size_t c = 0; c < spec.constraints.size(); ++c) {
    const model::DeviceConstraint& con = spec.constraints[c];
    const std::string field = "spec.devices.constraints[" + std::to_string(c) + "]";
    ConstraintPlan plan;
    if (!con.match_attribute.empty()) {
      plan.column = attributes_.Column(con.match_attribute);
    } else if (!con.distinct_attribute.empty()) {
      plan.distinct = true;
      plan.column = attributes_.Column(con.distinct_attribute);
    } else {
      if (out.error.empty()) {
        out.error = "claim " + out.display + ", constraint #" + std::to_string(c) +
                    ": empty constraint (unsupported constraint type?)";
      }
      diags_.Report(core::InvalidArgument("a constraint needs matchAttribute or distinctAttribute",
                                          {"", object, field}));
      plan.column = -1;
    }
    if (c >= 64) {
      // The API allows 32 constraints; more cannot be tracked in the 64-bit masks.
      if (out.error.empty()) out.error = "claim " + out.display + ": too many constraints";
      break;
    }
    if (plan.column >= 0 && !plan.distinct) {
      auto [it, fresh] = mixed_types_checked_.try_emplace(plan.column, 0);
      if (fresh) it->second = attributes_.TypesSeen(plan.column);
      if (std::popcount(it->second) > 1) {
        std::string types;
        for (int t = 0; t < 4; ++t) {
          if ((it->second & (1u << t)) == 0) continue;
          if (!types.empty()) types += ", ";
          types += TypeName(t);
        }
        diags_.Report(core::InvalidArgument("attribute " + con.match_attribute +
                                                " has different types on different devices (" +
                                                types + "); devices whose types differ never match",
                                            {"", object, field + ".matchAttribute"}));
      }
    }
    for (RequestGroup& group : out.requests) {
      for (RequestPlan& plan_req : group.alternatives) {
        if (plan.column >= 0 && Covers(con.requests, plan_req, group.name)) {
          plan_req.constraint_mask |= uint64_t{1} << c;
        }
      }
    }
    out.constraints.push_back(plan);
  }
  return out;
}

}  // namespace berth::devices::internal
