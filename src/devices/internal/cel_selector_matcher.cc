// The production SelectorMatcher: DRA selectors compiled and evaluated by the cel module.
// The allocator memoises every (selector set, device) answer, so each device is converted
// to the cel module's DraDevice once per run of evaluations; the last one is kept because
// the search evaluates all selectors of a node device by device.
#include <memory>
#include <vector>

#include "cel/dra_device.h"
#include "cel/dra_selectors.h"
#include "devices/internal/selector_matcher.h"

namespace berth::devices::internal {
namespace {

class CelSelectorMatcher final : public SelectorMatcher {
 public:
  core::Result<int32_t> Compile(const std::string& expression) override {
    BERTH_ASSIGN_OR_RETURN(const cel::Program* program, selectors_.Compile(expression));
    programs_.push_back(program);
    return static_cast<int32_t>(programs_.size() - 1);
  }

  core::Result<bool> Matches(int32_t program, const std::string& driver,
                             const model::Device& device) override {
    if (last_device_ != &device || last_driver_ != driver) Convert(driver, device);
    // An attribute that cannot be represented (a version that is not semver) makes every
    // evaluation on the device fail, as upstream's conversion does.
    if (!conversion_error_.ok()) return conversion_error_.error();
    return selectors_.Matches(*programs_[static_cast<size_t>(program)], *dra_);
  }

 private:
  void Convert(const std::string& driver, const model::Device& device) {
    dra_ = std::make_unique<cel::DraDevice>(driver);
    conversion_error_ = core::OkStatus();
    for (const auto& [name, attr] : device.attributes) {
      core::Status st;
      switch (attr.type) {
        case model::DeviceAttribute::Type::kInt:
          st = dra_->AddAttribute(name, cel::Value::Int(attr.int_value));
          break;
        case model::DeviceAttribute::Type::kBool:
          st = dra_->AddAttribute(name, cel::Value::Bool(attr.bool_value));
          break;
        case model::DeviceAttribute::Type::kString:
          // Borrowed: the Snapshot outlives the allocator and so this device.
          st = dra_->AddAttribute(name, cel::Value::StringView(attr.string_value));
          break;
        case model::DeviceAttribute::Type::kVersion:
          st = dra_->AddVersionAttribute(name, attr.string_value);
          break;
      }
      if (!st.ok() && conversion_error_.ok()) conversion_error_ = st;
    }
    for (const auto& [name, cap] : device.capacity) {
      core::Status st = dra_->AddCapacity(name, cap.value);
      if (!st.ok() && conversion_error_.ok()) conversion_error_ = st;
    }
    dra_->set_allow_multiple_allocations(device.allow_multiple_allocations);
    last_device_ = &device;
    last_driver_ = driver;
  }

  cel::DraSelectors selectors_;
  std::vector<const cel::Program*> programs_;
  std::unique_ptr<cel::DraDevice> dra_;
  const model::Device* last_device_ = nullptr;
  std::string last_driver_;
  core::Status conversion_error_;
};

}  // namespace

std::unique_ptr<SelectorMatcher> NewCelSelectorMatcher() {
  return std::make_unique<CelSelectorMatcher>();
}

}  // namespace berth::devices::internal
