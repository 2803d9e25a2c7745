// berth doctor's GPU compatibility table, shipped with its sources (docs/gpus.md,
// "Compatibility table"): the driver each CUDA toolkit minor release needs, the driver each
// CUDA major family needs under minor-version compatibility, the first CUDA release and driver
// of each GPU architecture, and the Kubernetes minors each GPU Operator release was validated
// with. Read by the gpu-stack rules. Constant data and pure functions; thread-safe.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace berth::diag::rules {

// An NVIDIA driver version "535.104.05" as (535, 104, 5); ordered.
struct DriverVersion {
  int major = 0;
  int minor = 0;
  int revision = 0;
  auto operator<=>(const DriverVersion&) const = default;
  std::string ToString() const;  // "535.104.05" (the revision padded to two digits)
};
std::optional<DriverVersion> ParseDriverVersion(std::string_view text);

struct CudaVersion {
  int major = 0;
  int minor = 0;
  auto operator<=>(const CudaVersion&) const = default;
  std::string ToString() const;  // "12.4"
};

// CUDA toolkit X.Y (GA) and the Linux x86_64 driver released with it (CUDA Toolkit release
// notes, "CUDA Toolkit and Corresponding Driver Versions"). A driver at or above it runs
// every X.Y application with all features.
struct CudaDriverRow {
  CudaVersion cuda;
  DriverVersion driver;
};
std::span<const CudaDriverRow> CudaToolkitDrivers();

// The lowest driver of a CUDA major family that runs its applications through minor-version
// compatibility (CUDA Compatibility guide, "Minor Version Compatibility"); nullopt before 11.
std::optional<DriverVersion> CudaFamilyMinimumDriver(int cuda_major);

// The highest CUDA version a driver fully supports by the table; nullopt below every row.
std::optional<CudaVersion> CudaOfDriver(const DriverVersion& driver);

// GPU architecture as GFD's nvidia.com/gpu.family names it, with the first CUDA release that
// compiles for it and that release's driver (the earliest driver that drives it).
struct ArchitectureRow {
  std::string_view family;  // "ampere", "ada-lovelace", "hopper", "blackwell"
  CudaVersion first_cuda;
  DriverVersion first_driver;
};
const ArchitectureRow* FindArchitecture(std::string_view family);

// GPU Operator release line "YY.M" and the Kubernetes minors its platform-support page lists
// (the Ubuntu 22.04 row, as last published for that line).
struct OperatorRow {
  std::string_view release;  // "24.9"
  int kubernetes_min_minor;  // 1.<min>
  int kubernetes_max_minor;
};
std::span<const OperatorRow> GpuOperatorReleases();
// The row of an operator version "v24.9.2" / "24.9.0"; nullptr when the line is not tabled.
const OperatorRow* FindOperatorRelease(std::string_view version);

// How a node's driver serves a CUDA X.Y application.
enum class CudaFit {
  kSupported,     // the driver supports X.Y
  kMinorCompat,   // same major, older minor: runs with minor-version compatibility only
  kUnsupported,   // the driver cannot run X.Y applications
  kUnknown,       // the node carries no driver labels
};
// `driver` from GFD's cuda.driver-version labels, `driver_cuda` from its cuda.runtime-version
// labels (the highest CUDA the driver supports); either may be missing.
CudaFit FitCuda(CudaVersion app, const std::optional<DriverVersion>& driver,
                const std::optional<CudaVersion>& driver_cuda);

// The CUDA version an image is built for, from its tag: nvidia/cuda:12.4.1-runtime-ubuntu22.04
// (repository "cuda", tag starting with X.Y) or a tag naming cudaX.Y
// (pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime); nullopt otherwise.
std::optional<CudaVersion> CudaOfImage(std::string_view image);

}  // namespace berth::diag::rules
