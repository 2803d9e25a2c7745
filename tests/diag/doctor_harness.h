// Test harness for doctor rules: reads YAML through io (as berth doctor does) and runs one
// rule, returning its findings. Each rule test has a broken case that must fire and the
// fixed case that must stay silent.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "diag/doctor.h"
#include "io/reader.h"

namespace berth::diag::testing {

struct RuleRun {
  std::vector<Finding> findings;
  std::vector<SkippedRule> skipped;
  std::vector<std::string> read_errors;
};

inline RuleRun RunRule(const std::string& rule, const std::string& yaml,
                       core::Timestamp now = core::Timestamp{1'767'225'600}) {  // 2026-01-01
  core::Diagnostics diags;
  io::Reader reader(diags);
  reader.ReadText(yaml, "test.yaml");
  io::Input input = reader.Finish();
  RuleRun run;
  for (const core::Diagnostic& d : diags.entries()) {
    if (d.severity == core::Severity::kError) run.read_errors.push_back(d.error.ToString());
  }
  EXPECT_NE(FindRule(rule), nullptr) << "no rule " << rule;
  DoctorOptions options;
  options.only = {rule};
  options.now = now;
  DoctorReport report = RunDoctor(input.snapshot, diags, options);
  run.findings = std::move(report.findings);
  run.skipped = std::move(report.skipped);
  return run;
}

// A node with `gpus` nvidia.com/gpu and extra YAML lines under metadata/spec.
inline std::string GpuNode(const std::string& name, int gpus, const std::string& labels = "",
                           const std::string& taints = "") {
  std::string y = "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
                  "\n  labels:\n    kubernetes.io/hostname: " + name + "\n" + labels;
  if (!taints.empty()) y += "spec:\n  taints:\n" + taints;
  y += "status:\n  allocatable: {cpu: \"64\", memory: 512Gi, pods: \"110\", nvidia.com/gpu: \"" +
       std::to_string(gpus) + "\"}\n---\n";
  return y;
}

}  // namespace berth::diag::testing
