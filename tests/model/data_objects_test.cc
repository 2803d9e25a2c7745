#include "model/data_objects.h"

#include <gtest/gtest.h>

namespace berth::model {
namespace {

TEST(ModelCacheNameTest, AnnotationElseTheUrisLastSegment) {
  InferenceServiceModel m;
  m.storage.path = "Llama-3.1-8B-Instruct/";
  m.storage.location = "meta-llama";
  EXPECT_EQ(ModelCacheName(m), "llama-3.1-8b-instruct");
  m.storage.path = "";
  EXPECT_EQ(ModelCacheName(m), "meta-llama");
  m.meta.annotations["berth.dev/models"] = " mistral , other";
  EXPECT_EQ(ModelCacheName(m), "mistral");
  // The annotation's sized form names the model before '='.
  m.meta.annotations["berth.dev/models"] = "llama-70b=140Gi";
  EXPECT_EQ(ModelCacheName(m), "llama-70b");
}

TEST(FluidDatasetLabelTest, NamespaceThenName) {
  ObjectMeta meta;
  meta.namespace_ = "team-a";
  meta.name = "corpus";
  EXPECT_EQ(FluidDatasetLabel(meta), "fluid.io/s-team-a-corpus");
}

}  // namespace
}  // namespace berth::model
