#include "gpu/fraction_request.h"

#include <limits>

namespace berth::gpu {

namespace {

core::Location AnnotationField(std::string_view key) {
  core::Location loc;
  loc.field = "metadata.annotations[" + std::string(key) + "]";
  return loc;
}

// A positive integer without sign, exponent or suffix; nullopt otherwise (or on overflow).
std::optional<int64_t> ParsePositiveInt(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v <= 0) return std::nullopt;
  return v;
}

}  // namespace

std::optional<int64_t> ParseDecimalMilli(std::string_view text) {
  // KAI parses the annotation as a float; berth keeps exact milli-units and accepts the plain
  // decimal spellings ("0.5", ".25", "1", "1.0"), which are what users write.
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (whole.empty() && frac.empty()) return std::nullopt;
  if (whole.size() > 12) return std::nullopt;
  int64_t milli = 0;
  for (char c : whole) {
    if (c < '0' || c > '9') return std::nullopt;
    milli = milli * 10 + (c - '0');
  }
  milli *= 1000;
  bool round_up = false;
  for (size_t i = 0; i < frac.size(); ++i) {
    char c = frac[i];
    if (c < '0' || c > '9') return std::nullopt;
    if (i < 3) {
      int64_t scale = i == 0 ? 100 : (i == 1 ? 10 : 1);
      milli += (c - '0') * scale;
    } else if (c != '0') {
      round_up = true;  // below a milli-GPU: round up, as Quantity's MilliValue does
    }
  }
  return milli + (round_up ? 1 : 0);
}

std::optional<GpuPortion> FractionRequest::On(int64_t gpu_memory_mib) const {
  GpuPortion p;
  if (!by_memory()) {
    p.milli = milli;
    p.memory_mib = gpu_memory_mib * milli / kMilliGpu;
    return p;
  }
  if (gpu_memory_mib <= 0 || memory_mib > gpu_memory_mib) return std::nullopt;
  p.memory_mib = memory_mib;
  p.milli = (memory_mib * kMilliGpu + gpu_memory_mib - 1) / gpu_memory_mib;
  return p;
}

std::string FractionRequest::ToString() const {
  std::string one;
  if (by_memory()) {
    one = std::to_string(memory_mib) + " MiB";
  } else {
    one = std::to_string(milli / kMilliGpu);
    int64_t rest = milli % kMilliGpu;
    if (rest != 0) {
      std::string digits = std::to_string(rest);
      digits.insert(0, 3 - digits.size(), '0');
      while (digits.back() == '0') digits.pop_back();
      one += "." + digits;
    }
    one += " GPU";
  }
  if (num_devices == 1) return one;
  return std::to_string(num_devices) + " x " + one;
}

bool HasFractionAnnotations(const core::Labels& annotations) {
  return annotations.count(kGpuFractionAnnotation) > 0 ||
         annotations.count(kGpuMemoryAnnotation) > 0 ||
         annotations.count(kGpuFractionNumDevicesAnnotation) > 0;
}

core::Result<std::optional<FractionRequest>> ParseFractionRequest(const core::Labels& annotations,
                                                                  int64_t whole_gpus_requested) {
  auto fraction = annotations.find(kGpuFractionAnnotation);
  auto memory = annotations.find(kGpuMemoryAnnotation);
  auto devices = annotations.find(kGpuFractionNumDevicesAnnotation);
  const bool has_fraction = fraction != annotations.end();
  const bool has_memory = memory != annotations.end();
  const bool has_devices = devices != annotations.end();
  if (!has_fraction && !has_memory && !has_devices) return std::optional<FractionRequest>();

  FractionRequest r;
  if (has_fraction && has_memory) {
    return core::InvalidArgument("cannot request both gpu-fraction and gpu-memory",
                                 AnnotationField(kGpuMemoryAnnotation));
  }
  if (has_fraction) {
    std::optional<int64_t> milli = ParseDecimalMilli(fraction->second);
    if (!milli.has_value() || *milli <= 0 || *milli > kMilliGpu) {
      return core::InvalidArgument("invalid value \"" + fraction->second +
                                       "\": must be a number greater than 0 and at most 1",
                                   AnnotationField(kGpuFractionAnnotation));
    }
    r.milli = *milli;
  }
  if (has_memory) {
    std::optional<int64_t> mib = ParsePositiveInt(memory->second);
    if (!mib.has_value()) {
      return core::InvalidArgument(
          "invalid value \"" + memory->second + "\": must be a positive integer (MiB)",
          AnnotationField(kGpuMemoryAnnotation));
    }
    r.memory_mib = *mib;
  }
  if (has_devices) {
    if (!has_fraction && !has_memory) {
      return core::InvalidArgument(
          "gpu-fraction-num-devices needs gpu-fraction or gpu-memory beside it",
          AnnotationField(kGpuFractionNumDevicesAnnotation));
    }
    std::optional<int64_t> n = ParsePositiveInt(devices->second);
    if (!n.has_value() || *n > std::numeric_limits<int32_t>::max()) {
      return core::InvalidArgument(
          "invalid value \"" + devices->second + "\": must be a positive integer",
          AnnotationField(kGpuFractionNumDevicesAnnotation));
    }
    r.num_devices = static_cast<int32_t>(*n);
  }
  if (whole_gpus_requested > 0) {
    return core::InvalidArgument(
        "cannot request a GPU fraction and whole nvidia.com/gpu devices in one pod",
        AnnotationField(has_fraction ? kGpuFractionAnnotation : kGpuMemoryAnnotation));
  }
  return std::optional<FractionRequest>(r);
}

}  // namespace berth::gpu
