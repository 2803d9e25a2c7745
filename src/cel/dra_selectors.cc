#include "cel/dra_selectors.h"

#include <string>
#include <utility>
#include <vector>

#include "core/check.h"

namespace berth::cel {

namespace {

CompileOptions DraCompileOptions() {
  CompileOptions options;
  options.max_expression_code_points = kDraSelectorMaxLength;
  options.cost_limit = kDraSelectorMaxCost;
  // Upstream checks the estimate against the same constant at validation.
  options.estimated_cost_limit = kDraSelectorMaxCost;
  options.max_variable_size = kDraMaxVariableSize;
  return options;
}

}  // namespace

Type DraDeviceType() {
  std::vector<Type::Field> fields;
  fields.push_back({"driver", Type::String()});
  fields.push_back(
      {"attributes", Type::Map(Type::String(), Type::Map(Type::String(), Type::Dyn()))});
  fields.push_back(
      {"capacity", Type::Map(Type::String(), Type::Map(Type::String(), Type::Quantity()))});
  fields.push_back({"allowMultipleAllocations", Type::Bool()});
  return Type::Object("kubernetes.DRADevice", std::move(fields));
}

DraSelectors::DraSelectors() : cache_(env_, DraCompileOptions()) {
  core::Result<size_t> slot = env_.AddVariable("device", DraDeviceType());
  // "device" is a valid, fresh identifier in a new environment.
  BERTH_CHECK(slot.has_value(), "declaring the DRA device variable");
  device_slot_ = *slot;
}

core::Result<const Program*> DraSelectors::Compile(std::string_view expression) {
  BERTH_ASSIGN_OR_RETURN(const Program* program, cache_.Get(expression));
  TypeKind kind = program->result_type().kind();
  if (kind != TypeKind::kBool && kind != TypeKind::kDyn) {
    return core::InvalidArgument("must evaluate to bool or the unknown type, not " +
                                 program->result_type().ToString());
  }
  return program;
}

core::Result<bool> DraSelectors::Matches(const Program& selector, const DraDevice& device) const {
  Activation activation(env_);
  activation.Bind(device_slot_, device.AsValue());
  return EvaluateBool(selector, activation);
}

}  // namespace berth::cel
