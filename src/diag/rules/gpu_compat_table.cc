// The rows below are data copied by hand from the sources named beside them; docs/gpus.md
// ("Compatibility table") lists the same rows with the same sources. Add a row when NVIDIA
// publishes a release; never change a published row.
#include "diag/rules/gpu_compat_table.h"

#include <array>
#include <cstdio>

namespace berth::diag::rules {

namespace {

// CUDA Toolkit release notes (docs.nvidia.com/cuda/cuda-toolkit-release-notes), table "CUDA
// Toolkit and Corresponding Driver Versions", Linux x86_64 column, the GA row of each minor.
constexpr std::array<CudaDriverRow, 19> kGpuCompatCudaDrivers{{
    {{11, 0}, {450, 51, 5}},   // CUDA 11.0.2 GA  >= 450.51.05
    {{11, 1}, {455, 23, 0}},   // CUDA 11.1 GA    >= 455.23
    {{11, 2}, {460, 27, 3}},   // CUDA 11.2.0 GA  >= 460.27.03
    {{11, 3}, {465, 19, 1}},   // CUDA 11.3.0 GA  >= 465.19.01
    {{11, 4}, {470, 42, 1}},   // CUDA 11.4.0 GA  >= 470.42.01
    {{11, 5}, {495, 29, 5}},   // CUDA 11.5 GA    >= 495.29.05
    {{11, 6}, {510, 39, 1}},   // CUDA 11.6 GA    >= 510.39.01
    {{11, 7}, {515, 43, 4}},   // CUDA 11.7 GA    >= 515.43.04
    {{11, 8}, {520, 61, 5}},   // CUDA 11.8 GA    >= 520.61.05
    {{12, 0}, {525, 60, 13}},  // CUDA 12.0 GA    >= 525.60.13
    {{12, 1}, {530, 30, 2}},   // CUDA 12.1 GA    >= 530.30.02
    {{12, 2}, {535, 54, 3}},   // CUDA 12.2 GA    >= 535.54.03
    {{12, 3}, {545, 23, 6}},   // CUDA 12.3 GA    >= 545.23.06
    {{12, 4}, {550, 54, 14}},  // CUDA 12.4 GA    >= 550.54.14
    {{12, 5}, {555, 42, 2}},   // CUDA 12.5 GA    >= 555.42.02
    {{12, 6}, {560, 28, 3}},   // CUDA 12.6 GA    >= 560.28.03
    {{12, 8}, {570, 26, 0}},   // CUDA 12.8 GA    >= 570.26
    {{12, 9}, {575, 51, 3}},   // CUDA 12.9 GA    >= 575.51.03
    {{13, 0}, {580, 65, 6}},   // CUDA 13.0 GA    >= 580.65.06
}};

// CUDA Compatibility guide (docs.nvidia.com/deploy/cuda-compatibility), "Minor Version
// Compatibility", Table 1: CUDA 11.x >= 450.80.02, 12.x >= 525.60.13, 13.x >= 580.
struct GpuCompatFamilyRow {
  int cuda_major;
  DriverVersion driver;
};
constexpr std::array<GpuCompatFamilyRow, 3> kGpuCompatFamilies{{
    {11, {450, 80, 2}},
    {12, {525, 60, 13}},
    {13, {580, 0, 0}},
}};

// GFD family names (k8s-device-plugin internal/lm/resource.go getArchFamily: compute
// capability 8.0-8.7 ampere, 8.9 ada-lovelace, 9.x hopper, 10.x and 12.x blackwell) and the
// CUDA release notes that first target them: 11.0 (sm_80), 11.8 (sm_89, sm_90), 12.8 (sm_100,
// sm_120); the driver is that release's row above.
constexpr std::array<ArchitectureRow, 4> kGpuCompatArchitectures{{
    {"ampere", {11, 0}, {450, 51, 5}},
    {"ada-lovelace", {11, 8}, {520, 61, 5}},
    {"hopper", {11, 8}, {520, 61, 5}},
    {"blackwell", {12, 8}, {570, 26, 0}},
}};

// NVIDIA GPU Operator "Platform Support" (NVIDIA/cloud-native-docs
// gpu-operator/platform-support.rst), Kubernetes column of the Ubuntu 22.04 LTS row as last
// published for each release line (the commit of that page is in docs/gpus.md).
constexpr std::array<OperatorRow, 10> kGpuCompatOperators{{
    {"23.3", 21, 27},   // 23.3.2
    {"23.6", 21, 27},   // 23.6.1
    {"23.9", 22, 29},   // 23.9.2
    {"24.3", 22, 30},   // 24.3.0
    {"24.6", 23, 30},   // 24.6.2
    {"24.9", 24, 31},   // 24.9.1
    {"25.3", 29, 33},   // 25.3.3
    {"25.10", 30, 35},  // 25.10.1
    {"26.3", 32, 36},   // 26.3.2
    {"26.7", 33, 36},   // 26.7.0
}};

// A decimal number at the front of `text`; advances past it. nullopt without a digit.
std::optional<int> GpuCompatNumber(std::string_view& text) {
  int v = 0;
  size_t i = 0;
  while (i < text.size() && i < 6 && text[i] >= '0' && text[i] <= '9') v = v * 10 + (text[i++] - '0');
  if (i == 0) return std::nullopt;
  text.remove_prefix(i);
  return v;
}

// "X.Y" at the front of `text` (anything may follow).
std::optional<CudaVersion> GpuCompatCudaPrefix(std::string_view text) {
  auto major = GpuCompatNumber(text);
  if (!major.has_value() || text.empty() || text.front() != '.') return std::nullopt;
  text.remove_prefix(1);
  auto minor = GpuCompatNumber(text);
  if (!minor.has_value() || *major < 7 || *major > 20) return std::nullopt;
  return CudaVersion{*major, *minor};
}

}  // namespace

std::string DriverVersion::ToString() const {
  char buffer[48];
  if (revision > 0) {
    std::snprintf(buffer, sizeof buffer, "%d.%d.%02d", major, minor, revision);
  } else {
    std::snprintf(buffer, sizeof buffer, "%d.%d", major, minor);
  }
  return buffer;
}

std::string CudaVersion::ToString() const { return std::to_string(major) + "." + std::to_string(minor); }

std::optional<DriverVersion> ParseDriverVersion(std::string_view text) {
  DriverVersion v;
  auto major = GpuCompatNumber(text);
  if (!major.has_value()) return std::nullopt;
  v.major = *major;
  if (!text.empty() && text.front() == '.') {
    text.remove_prefix(1);
    auto minor = GpuCompatNumber(text);
    if (!minor.has_value()) return std::nullopt;
    v.minor = *minor;
    if (!text.empty() && text.front() == '.') {
      text.remove_prefix(1);
      auto revision = GpuCompatNumber(text);
      if (!revision.has_value()) return std::nullopt;
      v.revision = *revision;
    }
  }
  if (!text.empty()) return std::nullopt;
  return v;
}

std::span<const CudaDriverRow> CudaToolkitDrivers() { return kGpuCompatCudaDrivers; }

std::optional<DriverVersion> CudaFamilyMinimumDriver(int cuda_major) {
  for (const GpuCompatFamilyRow& row : kGpuCompatFamilies) {
    if (row.cuda_major == cuda_major) return row.driver;
  }
  return std::nullopt;
}

std::optional<CudaVersion> CudaOfDriver(const DriverVersion& driver) {
  std::optional<CudaVersion> best;
  for (const CudaDriverRow& row : kGpuCompatCudaDrivers) {
    if (row.driver <= driver) best = row.cuda;
  }
  return best;
}

const ArchitectureRow* FindArchitecture(std::string_view family) {
  for (const ArchitectureRow& row : kGpuCompatArchitectures) {
    if (row.family == family) return &row;
  }
  return nullptr;
}

std::span<const OperatorRow> GpuOperatorReleases() { return kGpuCompatOperators; }

const OperatorRow* FindOperatorRelease(std::string_view version) {
  if (!version.empty() && (version.front() == 'v' || version.front() == 'V')) version.remove_prefix(1);
  auto year = GpuCompatNumber(version);
  if (!year.has_value() || version.empty() || version.front() != '.') return nullptr;
  version.remove_prefix(1);
  auto month = GpuCompatNumber(version);
  if (!month.has_value()) return nullptr;
  const std::string line = std::to_string(*year) + "." + std::to_string(*month);
  for (const OperatorRow& row : kGpuCompatOperators) {
    if (row.release == line) return &row;
  }
  return nullptr;
}

CudaFit FitCuda(CudaVersion app, const std::optional<DriverVersion>& driver,
                const std::optional<CudaVersion>& driver_cuda) {
  std::optional<CudaVersion> supports = driver_cuda;
  if (!supports.has_value() && driver.has_value()) supports = CudaOfDriver(*driver);
  if (!supports.has_value() && !driver.has_value()) return CudaFit::kUnknown;
  if (supports.has_value() && *supports >= app) return CudaFit::kSupported;
  // Minor-version compatibility: same major family, a driver at or above the family minimum.
  const std::optional<DriverVersion> family = CudaFamilyMinimumDriver(app.major);
  if (!family.has_value()) return CudaFit::kUnsupported;
  if (driver.has_value()) return *driver >= *family ? CudaFit::kMinorCompat : CudaFit::kUnsupported;
  return supports->major == app.major ? CudaFit::kMinorCompat : CudaFit::kUnsupported;
}

std::optional<CudaVersion> CudaOfImage(std::string_view image) {
  // Drop a digest, then split repository and tag at the last ':' after the last '/'.
  if (size_t at = image.find('@'); at != std::string_view::npos) image = image.substr(0, at);
  const size_t slash = image.rfind('/');
  const size_t colon = image.rfind(':');
  if (colon == std::string_view::npos || (slash != std::string_view::npos && colon < slash)) return std::nullopt;
  const std::string_view repository = image.substr(slash == std::string_view::npos ? 0 : slash + 1,
                                                   colon - (slash == std::string_view::npos ? 0 : slash + 1));
  const std::string_view tag = image.substr(colon + 1);
  if (repository == "cuda") return GpuCompatCudaPrefix(tag);
  for (size_t at = tag.find("cuda"); at != std::string_view::npos; at = tag.find("cuda", at + 4)) {
    if (auto v = GpuCompatCudaPrefix(tag.substr(at + 4)); v.has_value()) return v;
  }
  return std::nullopt;
}

}  // namespace berth::diag::rules
