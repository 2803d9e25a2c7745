#include "model/scheduler_config.h"

namespace berth::model {

const SchedulerProfile* SchedulerConfig::FindProfile(const std::string& scheduler_name) const {
  for (const auto& profile : profiles) {
    if (profile.scheduler_name == scheduler_name) return &profile;
  }
  return nullptr;
}

}  // namespace berth::model
