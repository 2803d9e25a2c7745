#include "cli/object_filter.h"

#include <utility>

#include "core/selector_text.h"

namespace berth::cli {

core::Result<ObjectFilter> ObjectFilter::FromFlags(const ObjectFilterFlags& flags) {
  ObjectFilter filter;
  if (!flags.all_namespaces) filter.namespace_ = flags.namespace_;
  auto requirements = core::ParseLabelSelectorText(flags.selector);
  if (!requirements.has_value()) {
    return core::InvalidArgument("--selector: " + requirements.error().message());
  }
  filter.selector_ = std::move(requirements.value());
  return filter;
}

bool ObjectFilter::MatchesNamespace(std::string_view object_namespace) const {
  return namespace_.empty() || object_namespace.empty() || object_namespace == namespace_;
}

bool ObjectFilter::MatchesLabels(const core::Labels& labels) const {
  return core::MatchesAll(selector_, labels);
}

bool ObjectFilter::Matches(std::string_view object_namespace, const core::Labels& labels) const {
  return MatchesNamespace(object_namespace) && core::MatchesAll(selector_, labels);
}

}  // namespace berth::cli
