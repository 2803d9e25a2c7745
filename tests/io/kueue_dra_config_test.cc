// Kueue's Configuration resources.deviceClassMappings (DRA-backed quota): decoded, checked
// strictly field by field, validated as Kueue validates it before starting, and its names
// interned in the snapshot's resource catalog.
#include <gtest/gtest.h>

#include <string>

#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using testing::Dump;
using testing::ReadString;

TEST(KueueDraConfigTest, DecodesMappingsAndInternsTheirNames) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  excludeResourcePrefixes: [example.org/]
  deviceClassMappings:
  - name: example.com/gpu
    deviceClassNames: [gpu.example.com, gpu-small.example.com]
  - name: example.com/mig
    deviceClassNames: [mig.nvidia.com]
    sources:
    - counter:
        name: memory
        driver: gpu.nvidia.com
        deviceSelector: {cel: {expression: "true"}}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << Dump(diags);
  ASSERT_TRUE(in.snapshot.kueue_config.has_value());
  const auto& mappings = in.snapshot.kueue_config->device_class_mappings;
  ASSERT_EQ(mappings.size(), 2u);
  EXPECT_EQ(mappings[0].name, "example.com/gpu");
  EXPECT_EQ(mappings[0].device_class_names,
            (std::vector<std::string>{"gpu.example.com", "gpu-small.example.com"}));
  EXPECT_FALSE(mappings[0].has_sources);
  EXPECT_TRUE(mappings[1].has_sources);
  EXPECT_EQ(in.snapshot.resources.Name(mappings[0].resource), "example.com/gpu");
  EXPECT_EQ(in.snapshot.resources.Name(mappings[1].resource), "example.com/mig");
}

TEST(KueueDraConfigTest, MisspelledFieldsAreStrictDecodingErrors) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  deviceClassMapping: []
  deviceClassMappings:
  - name: example.com/gpu
    deviceClasses: [gpu.example.com]
    sources:
    - counters: {}
      capacity: {name: memory, driver: d, selector: {}}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 1u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.message(),
            "strict decoding error: unknown field \"resources.deviceClassMapping\", unknown "
            "field \"resources.deviceClassMappings[0].deviceClasses\", unknown field "
            "\"resources.deviceClassMappings[0].sources[0].counters\", unknown field "
            "\"resources.deviceClassMappings[0].sources[0].capacity.selector\"");
  EXPECT_FALSE(in.snapshot.kueue_config.has_value());
}

// pkg/config/validation.go validateDeviceClassMappings: Kueue does not start.
TEST(KueueDraConfigTest, InvalidMappingsNameTheField) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  deviceClassMappings:
  - {name: example.com/gpu, deviceClassNames: [gpu.example.com]}
  - {name: example.com/gpu, deviceClassNames: [other.example.com]}
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  deviceClassMappings:
  - {name: example.com/gpu, deviceClassNames: []}
---
apiVersion: config.kueue.x-k8s.io/v1beta2
kind: Configuration
resources:
  deviceClassMappings:
  - {name: example.com/gpu, deviceClassNames: [gpu.example.com]}
  - {name: example.com/other, deviceClassNames: [gpu.example.com]}
)",
                        diags);
  ASSERT_EQ(diags.error_count(), 3u) << Dump(diags);
  EXPECT_EQ(diags.entries()[0].error.location().field, "resources.deviceClassMappings[1].name");
  EXPECT_EQ(diags.entries()[1].error.location().field,
            "resources.deviceClassMappings[0].deviceClassNames");
  EXPECT_EQ(diags.entries()[2].error.location().field,
            "resources.deviceClassMappings[1].deviceClassNames[0]");
  EXPECT_NE(diags.entries()[2].error.message().find(
                "device class already mapped to resource example.com/gpu"),
            std::string::npos)
      << diags.entries()[2].error.message();
  EXPECT_FALSE(in.snapshot.kueue_config.has_value());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
