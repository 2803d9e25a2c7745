#include "dispatch/work_names.h"

#include <cstdint>
#include <string_view>

#include "core/check.h"

namespace berth::dispatch {
namespace {

constexpr size_t kHashDigits = 16;

// FNV-1a, 64 bits: tiny, fast and fixed by its definition, so names stay the same across
// compilers and platforms (std::hash promises neither).
uint64_t Fnv1a64(const std::string& text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string Hex(uint64_t value) {
  constexpr std::string_view kDigits = "0123456789abcdef";
  std::string out(kHashDigits, '0');
  for (size_t i = kHashDigits; i-- > 0;) {
    out[i] = kDigits[value & 0xf];
    value >>= 4;
  }
  return out;
}

bool IsAlphanumeric(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

std::string NamespacedName(const model::Workload& workload) {
  std::string out = workload.meta.namespace_;
  out += '.';
  out += workload.meta.name;
  return out;
}

}  // namespace

std::string BoundedName(const std::string& text, size_t max_length) {
  // The suffix is "-" plus the digits; a shorter limit leaves no room for a prefix. The
  // limits are this module's constants, so a violation is a bug.
  BERTH_CHECK(max_length > kHashDigits + 1, "BoundedName: limit leaves no room for a prefix");
  if (text.size() <= max_length) return text;
  std::string out = text.substr(0, max_length - kHashDigits - 1);
  // A DNS subdomain's parts and a label value must end with an alphanumeric character; the
  // hash suffix starts with '-', so the kept prefix may not end with a separator.
  while (!out.empty() && !IsAlphanumeric(out.back())) out.pop_back();
  out += '-';
  out += Hex(Fnv1a64(text));
  return out;
}

std::string ManifestWorkName(const model::Workload& workload) {
  return BoundedName(NamespacedName(workload), kMaxObjectNameLength);
}

std::string WorkloadLabelValue(const model::Workload& workload) {
  return BoundedName(NamespacedName(workload), kMaxLabelValueLength);
}

}  // namespace berth::dispatch
