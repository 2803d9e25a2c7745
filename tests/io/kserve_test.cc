// KServe's InferenceService and serving runtimes, and storage URIs (io/internal/
// storage_uri.h): an InferenceService becomes minReplicas predictor pods with the model's
// resources and the model it serves; bad input names its object and field, and the good
// objects beside it are still read.
#include <gtest/gtest.h>

#include <string>

#include "io/internal/storage_uri.h"
#include "io/reader.h"
#include "io/test_util.h"

namespace berth::io {
namespace BERTH_UNITY_ID {

using internal::ParseStorageUri;
using internal::UriSchemes;
using testing::ReadString;

TEST(StorageUriTest, KServeSchemesSplitIntoLocationAndPath) {
  struct Case {
    const char* uri;
    const char* scheme;
    const char* location;
    const char* path;
  };
  const Case cases[] = {
      {"s3://models/llama/70b", "s3", "models", "llama/70b"},
      {"s3://models", "s3", "models", ""},
      {"gs://kfserving-examples/models/sklearn/1.0/model", "gs", "kfserving-examples",
       "models/sklearn/1.0/model"},
      {"hf://meta-llama/Llama-3.1-8B-Instruct", "hf", "meta-llama", "Llama-3.1-8B-Instruct"},
      {"hf://meta-llama/Llama-3.1-8B:abc123", "hf", "meta-llama", "Llama-3.1-8B:abc123"},
      {"pvc://model-store/llama", "pvc", "model-store", "llama"},
      {"oci://registry.example.com/models/llama:3.1", "oci", "registry.example.com",
       "models/llama:3.1"},
      {"https://example.blob.core.windows.net/models/m", "https",
       "example.blob.core.windows.net", "models/m"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.uri);
    auto parsed = ParseStorageUri(c.uri, UriSchemes::kKServe);
    ASSERT_TRUE(parsed.has_value()) << parsed.error().message();
    EXPECT_EQ(parsed->uri, c.uri);
    EXPECT_EQ(parsed->scheme, c.scheme);
    EXPECT_EQ(parsed->location, c.location);
    EXPECT_EQ(parsed->path, c.path);
  }
}

TEST(StorageUriTest, FluidSchemesIncludeLocalAndHdfs) {
  auto local = ParseStorageUri("local:///mnt/imagenet", UriSchemes::kFluid);
  ASSERT_TRUE(local.has_value());
  EXPECT_EQ(local->location, "");
  EXPECT_EQ(local->path, "/mnt/imagenet");
  auto hdfs = ParseStorageUri("hdfs://namenode:9000/data", UriSchemes::kFluid);
  ASSERT_TRUE(hdfs.has_value());
  EXPECT_EQ(hdfs->location, "namenode:9000");
  EXPECT_FALSE(ParseStorageUri("hf://a/b", UriSchemes::kFluid).has_value());
  EXPECT_FALSE(ParseStorageUri("local://mnt/x", UriSchemes::kKServe).has_value());
}

TEST(StorageUriTest, BadUrisSayWhatIsWrong) {
  struct Case {
    const char* uri;
    const char* message;
  };
  const Case cases[] = {
      {"", "Required value"},
      {"models/llama", "Invalid value: \"models/llama\": not a URI (scheme://...); accepted: "
                       "s3://, gs://, hf://, pvc://, oci://, https://, http://"},
      {"ftp://host/m", "Invalid value: \"ftp://host/m\": unsupported scheme \"ftp\"; accepted: "
                       "s3://, gs://, hf://, pvc://, oci://, https://, http://"},
      {"s3:///models", "Invalid value: \"s3:///models\": no bucket after s3://"},
      {"hf://meta-llama", "Invalid value: \"hf://meta-llama\": no model name after hf://meta-llama"},
      {"oci://registry.example.com",
       "Invalid value: \"oci://registry.example.com\": no repository after "
       "oci://registry.example.com"},
      {"pvc://Bad_Claim/x", "Invalid value: \"pvc://Bad_Claim/x\": claim name: "},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.uri);
    auto parsed = ParseStorageUri(c.uri, UriSchemes::kKServe);
    ASSERT_FALSE(parsed.has_value());
    EXPECT_EQ(parsed.error().message().rfind(c.message, 0), 0u) << parsed.error().message();
  }
}

constexpr const char* kIsvc = R"(
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: llama
  namespace: serve
  annotations:
    berth.dev/model-size: 16Gi
    berth.dev/model-region: eu-west-1
spec:
  predictor:
    minReplicas: 2
    maxReplicas: 4
    nodeSelector: {nvidia.com/gpu.product: NVIDIA-L4}
    model:
      modelFormat: {name: huggingface}
      runtime: kserve-huggingfaceserver
      storageUri: hf://meta-llama/Llama-3.1-8B-Instruct
      resources:
        requests: {cpu: "4", memory: 32Gi, nvidia.com/gpu: "1"}
        limits: {nvidia.com/gpu: "1"}
)";

TEST(KServeReaderTest, InferenceServiceBecomesPredictorPodsAndItsModel) {
  core::Diagnostics diags;
  Input in = ReadString(kIsvc, diags);
  ASSERT_FALSE(diags.has_errors()) << testing::Dump(diags);
  const model::Snapshot& snap = in.snapshot;
  ASSERT_EQ(snap.inference_services.size(), 1u);
  const model::InferenceServiceModel& m = snap.inference_services[0];
  EXPECT_EQ(m.format, "huggingface");
  EXPECT_EQ(m.runtime, "kserve-huggingfaceserver");
  EXPECT_EQ(m.storage.scheme, "hf");
  EXPECT_EQ(m.storage.location, "meta-llama");
  EXPECT_EQ(m.min_replicas, 2);
  EXPECT_EQ(m.max_replicas, 4);
  ASSERT_TRUE(m.size_bytes.has_value());
  EXPECT_EQ(*m.size_bytes, 16LL << 30);
  EXPECT_EQ(m.origin_region, "eu-west-1");
  ASSERT_EQ(snap.pods.size(), 2u);
  const model::Pod& pod = snap.pods[0];
  EXPECT_EQ(pod.meta.name, "llama-0");
  EXPECT_EQ(pod.meta.namespace_, "serve");
  EXPECT_EQ(pod.meta.labels.at("serving.kserve.io/inferenceservice"), "llama");
  EXPECT_EQ(pod.meta.labels.at("component"), "predictor");
  EXPECT_EQ(pod.node_selector.at("nvidia.com/gpu.product"), "NVIDIA-L4");
  ASSERT_EQ(pod.containers.size(), 1u);
  EXPECT_EQ(pod.containers[0].name, "kserve-container");
  model::ResourceId gpu;
  ASSERT_TRUE(snap.resources.Find("nvidia.com/gpu", &gpu));
  EXPECT_EQ(pod.containers[0].requests.Get(gpu), 1);
}

TEST(KServeReaderTest, ScaleToZeroMakesNoPodsAndFrameworkKeysAreModels) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: iris}
spec:
  predictor:
    minReplicas: 0
    sklearn:
      storageUri: gs://kfserving-examples/models/sklearn/1.0/model
)",
                                 diags);
  ASSERT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.inference_services.size(), 1u);
  EXPECT_EQ(in.snapshot.inference_services[0].format, "sklearn");
  EXPECT_EQ(in.snapshot.inference_services[0].storage.location, "kfserving-examples");
  EXPECT_TRUE(in.snapshot.pods.empty());
}

// A dump of a serverless InferenceService: KServe's Deployment (owned by a Knative Revision
// berth does not read, labelled with the service), its ReplicaSet and one running predictor
// pod. The pods are the InferenceService's, counted once: the Deployment is not expanded
// again, and the service makes only the pod it still lacks.
TEST(KServeReaderTest, KnativeDeploymentOfAServiceIsNotExpandedAgain) {
  core::Diagnostics diags;
  Input in = ReadString(std::string(kIsvc) + R"(
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: llama-predictor-00001-deployment
  namespace: serve
  uid: dep-1
  labels: {serving.kserve.io/inferenceservice: llama, component: predictor}
  ownerReferences:
  - {apiVersion: serving.knative.dev/v1, kind: Revision, name: llama-predictor-00001, uid: rev-1, controller: true}
spec:
  replicas: 2
  selector: {matchLabels: {app: llama}}
  template:
    metadata: {labels: {app: llama}}
    spec:
      containers:
      - name: kserve-container
        image: kserve/huggingfaceserver
        resources: {requests: {cpu: "4", nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: llama-predictor-00001-deployment-7d9f
  namespace: serve
  uid: rs-1
  labels: {app: llama}
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: llama-predictor-00001-deployment, uid: dep-1, controller: true}
spec:
  replicas: 2
  selector: {matchLabels: {app: llama}}
  template:
    metadata: {labels: {app: llama}}
    spec:
      containers:
      - name: kserve-container
        image: kserve/huggingfaceserver
        resources: {requests: {cpu: "4", nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}
---
apiVersion: v1
kind: Pod
metadata:
  name: llama-predictor-00001-deployment-7d9f-abcde
  namespace: serve
  labels: {app: llama, serving.kserve.io/inferenceservice: llama, component: predictor}
  ownerReferences:
  - {apiVersion: apps/v1, kind: ReplicaSet, name: llama-predictor-00001-deployment-7d9f, uid: rs-1, controller: true}
spec:
  nodeName: gpu-1
  containers:
  - name: kserve-container
    image: kserve/huggingfaceserver
    resources: {requests: {cpu: "4", nvidia.com/gpu: "1"}, limits: {nvidia.com/gpu: "1"}}
status: {phase: Running}
)",
                        diags);
  ASSERT_FALSE(diags.has_errors()) << testing::Dump(diags);
  EXPECT_EQ(testing::PodNames(in.snapshot),
            (std::vector<std::string>{"llama-predictor-00001-deployment-7d9f-abcde", "llama-1"}));
}

// A huge minReplicas is one error on the workload (berth's expansion limit), not an endless
// expansion; the InferenceService is read but makes no pods.
TEST(KServeReaderTest, HugeMinReplicasIsRejectedNotExpanded) {
  testing::ExpectOneErrorBesideGoodNode(
      "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: {name: m}\n"
      "spec: {predictor: {minReplicas: 2000000000, model: {modelFormat: {name: x}}}}\n",
      "spec", /*objects_read=*/2);
}

TEST(KServeReaderTest, ServingRuntimesListTheirFormats) {
  core::Diagnostics diags;
  Input in = ReadString(R"(
apiVersion: serving.kserve.io/v1alpha1
kind: ClusterServingRuntime
metadata: {name: kserve-huggingfaceserver}
spec:
  supportedModelFormats:
  - {name: huggingface, version: "1", autoSelect: true, priority: 1}
  containers:
  - {name: kserve-container, image: kserve/huggingfaceserver:v0.15.0}
)",
                                 diags);
  ASSERT_FALSE(diags.has_errors()) << testing::Dump(diags);
  ASSERT_EQ(in.snapshot.serving_runtimes.size(), 1u);
  const model::ServingRuntime& rt = in.snapshot.serving_runtimes[0];
  EXPECT_TRUE(rt.cluster_scoped);
  ASSERT_EQ(rt.formats.size(), 1u);
  EXPECT_EQ(rt.formats[0].name, "huggingface");
  EXPECT_TRUE(rt.formats[0].auto_select);
}

TEST(KServeReaderTest, BadInferenceServicesNameTheField) {
  const std::string head =
      "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: m\n";
  struct Case {
    std::string name;
    std::string yaml;
    const char* field;
  };
  const Case cases[] = {
      {"no spec", head, "spec"},
      {"no predictor", head + "spec: {}\n", "spec.predictor"},
      {"predictor of the wrong type", head + "spec: {predictor: 3}\n", "spec.predictor"},
      {"no model nor containers", head + "spec: {predictor: {minReplicas: 1}}\n",
       "spec.predictor"},
      {"negative minReplicas",
       head + "spec: {predictor: {minReplicas: -1, model: {modelFormat: {name: x}}}}\n",
       "spec.predictor.minReplicas"},
      {"maxReplicas below min",
       head + "spec: {predictor: {minReplicas: 3, maxReplicas: 2, model: {modelFormat: {name: x}}}}\n",
       "spec.predictor.maxReplicas"},
      {"model without format", head + "spec: {predictor: {model: {storageUri: s3://b/m}}}\n",
       "spec.predictor.model.modelFormat"},
      {"unparsable storageUri",
       head + "spec: {predictor: {model: {modelFormat: {name: x}, storageUri: 'bucket/m'}}}\n",
       "spec.predictor.model.storageUri"},
      {"bad model resources",
       head + "spec: {predictor: {model: {modelFormat: {name: x}, resources: {requests: {cpu: "
              "lots}}}}}\n",
       "spec.predictor.model.resources.requests.cpu"},
      {"bad predictor nodeSelector",
       head + "spec: {predictor: {nodeSelector: {'bad key!': x}, model: {modelFormat: {name: "
              "x}}}}\n",
       "spec.predictor.nodeSelector"},
      {"two implementations",
       head + "spec: {predictor: {model: {modelFormat: {name: x}}, sklearn: {storageUri: "
              "gs://b/m}}}\n",
       "spec.predictor.sklearn"},
      {"model size not a quantity",
       "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: m\n"
       "  annotations: {berth.dev/model-size: big}\n"
       "spec: {predictor: {model: {modelFormat: {name: x}}}}\n",
       "metadata.annotations[berth.dev/model-size]"},
      {"pull limit not a number",
       "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: m\n"
       "  annotations: {berth.dev/max-origin-pulls: some}\n"
       "spec: {predictor: {model: {modelFormat: {name: x}}}}\n",
       "metadata.annotations[berth.dev/max-origin-pulls]"},
      {"p2p not a boolean",
       "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: m\n"
       "  annotations: {berth.dev/model-p2p: yes-please}\n"
       "spec: {predictor: {model: {modelFormat: {name: x}}}}\n",
       "metadata.annotations[berth.dev/model-p2p]"},
      {"origin bandwidth not a quantity",
       "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: m\n"
       "  annotations: {berth.dev/origin-egress-bandwidth: fast}\n"
       "spec: {predictor: {model: {modelFormat: {name: x}}}}\n",
       "metadata.annotations[berth.dev/origin-egress-bandwidth]"},
      {"origin bandwidth zero",
       "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: m\n"
       "  annotations: {berth.dev/origin-stream-bandwidth: \"0\"}\n"
       "spec: {predictor: {model: {modelFormat: {name: x}}}}\n",
       "metadata.annotations[berth.dev/origin-stream-bandwidth]"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    testing::ExpectOneErrorBesideGoodNode(c.yaml, c.field);
  }
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::io
