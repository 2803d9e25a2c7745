// Fractional GPU requests (KAI Scheduler's gpu-fraction / gpu-memory annotations) and the
// per-node ledger that packs them on GPUs.
#include "gpu/fraction_request.h"

#include <gtest/gtest.h>

#include "gpu/fraction_ledger.h"

namespace berth::gpu {
namespace BERTH_UNITY_ID {

FractionRequest Parse(const core::Labels& annotations, int64_t whole_gpus = 0) {
  auto r = ParseFractionRequest(annotations, whole_gpus);
  EXPECT_TRUE(r.has_value()) << r.error().ToString();
  if (!r.has_value() || !r.value().has_value()) return {};
  return *r.value();
}

std::string ParseError(const core::Labels& annotations, int64_t whole_gpus = 0) {
  auto r = ParseFractionRequest(annotations, whole_gpus);
  if (r.has_value()) return "<parsed>";
  return r.error().ToString();
}

TEST(FractionRequestTest, ParsesDecimalFractionsInMilli) {
  EXPECT_EQ(ParseDecimalMilli("0.5"), 500);
  EXPECT_EQ(ParseDecimalMilli(".25"), 250);
  EXPECT_EQ(ParseDecimalMilli("1"), 1000);
  EXPECT_EQ(ParseDecimalMilli("1."), 1000);
  EXPECT_EQ(ParseDecimalMilli("0.125"), 125);
  EXPECT_EQ(ParseDecimalMilli("0.3333"), 334);  // below a milli-GPU rounds up
  EXPECT_EQ(ParseDecimalMilli("0.5000"), 500);
  EXPECT_EQ(ParseDecimalMilli(""), std::nullopt);
  EXPECT_EQ(ParseDecimalMilli("."), std::nullopt);
  EXPECT_EQ(ParseDecimalMilli("-0.5"), std::nullopt);
  EXPECT_EQ(ParseDecimalMilli("500m"), std::nullopt);
  EXPECT_EQ(ParseDecimalMilli("5e-1"), std::nullopt);
  EXPECT_EQ(ParseDecimalMilli("0.5.1"), std::nullopt);
}

TEST(FractionRequestTest, ReadsTheAnnotations) {
  auto none = ParseFractionRequest({{"other", "x"}}, 0);
  ASSERT_TRUE(none.has_value());
  EXPECT_FALSE(none.value().has_value());

  FractionRequest half = Parse({{"gpu-fraction", "0.5"}});
  EXPECT_EQ(half.milli, 500);
  EXPECT_EQ(half.memory_mib, 0);
  EXPECT_EQ(half.num_devices, 1);
  EXPECT_FALSE(half.by_memory());

  FractionRequest mem = Parse({{"gpu-memory", "2000"}});
  EXPECT_EQ(mem.memory_mib, 2000);
  EXPECT_TRUE(mem.by_memory());

  FractionRequest multi = Parse({{"gpu-fraction", "0.3"}, {"gpu-fraction-num-devices", "2"}});
  EXPECT_EQ(multi.milli, 300);
  EXPECT_EQ(multi.num_devices, 2);
  EXPECT_EQ(Parse({{"gpu-memory", "1000"}, {"gpu-fraction-num-devices", "2"}}).num_devices, 2);
  EXPECT_EQ(Parse({{"gpu-fraction", "1"}}).milli, 1000);
}

TEST(FractionRequestTest, RejectsWhatKaiAdmissionRejects) {
  EXPECT_EQ(ParseError({{"gpu-fraction", "1.5"}}),
            "metadata.annotations[gpu-fraction]: invalid value \"1.5\": must be a number greater "
            "than 0 and at most 1");
  EXPECT_NE(ParseError({{"gpu-fraction", "-1"}}), "<parsed>");
  EXPECT_NE(ParseError({{"gpu-fraction", "0"}}), "<parsed>");
  EXPECT_NE(ParseError({{"gpu-fraction", "half"}}), "<parsed>");
  EXPECT_EQ(ParseError({{"gpu-memory", "-1"}}),
            "metadata.annotations[gpu-memory]: invalid value \"-1\": must be a positive integer "
            "(MiB)");
  EXPECT_NE(ParseError({{"gpu-memory", "0"}}), "<parsed>");
  EXPECT_NE(ParseError({{"gpu-memory", "2Gi"}}), "<parsed>");
  EXPECT_EQ(ParseError({{"gpu-fraction", "0.5"}, {"gpu-memory", "1"}}),
            "metadata.annotations[gpu-memory]: cannot request both gpu-fraction and gpu-memory");
  EXPECT_EQ(ParseError({{"gpu-fraction-num-devices", "1"}}),
            "metadata.annotations[gpu-fraction-num-devices]: gpu-fraction-num-devices needs "
            "gpu-fraction or gpu-memory beside it");
  EXPECT_NE(ParseError({{"gpu-fraction", "0.2"}, {"gpu-fraction-num-devices", "1.2"}}), "<parsed>");
  EXPECT_EQ(ParseError({{"gpu-fraction", "0.5"}}, /*whole_gpus=*/1),
            "metadata.annotations[gpu-fraction]: cannot request a GPU fraction and whole "
            "nvidia.com/gpu devices in one pod");
}

TEST(FractionRequestTest, PortionOnAGpu) {
  FractionRequest half{500, 0, 1};
  EXPECT_EQ(half.On(81920)->milli, 500);
  EXPECT_EQ(half.On(81920)->memory_mib, 40960);
  EXPECT_EQ(half.On(0)->memory_mib, 0);  // memory unknown: the fraction still counts
  FractionRequest mem{0, 20000, 1};
  EXPECT_EQ(mem.On(80000)->milli, 250);
  EXPECT_EQ(mem.On(80000)->memory_mib, 20000);
  EXPECT_EQ(mem.On(81559)->milli, 246);  // 20000/81559 = 0.2452..., rounded up
  EXPECT_FALSE(mem.On(0).has_value());
  EXPECT_FALSE(mem.On(16000).has_value());
}

TEST(FractionRequestTest, Prints) {
  EXPECT_EQ((FractionRequest{500, 0, 1}).ToString(), "0.5 GPU");
  EXPECT_EQ((FractionRequest{1000, 0, 1}).ToString(), "1 GPU");
  EXPECT_EQ((FractionRequest{125, 0, 1}).ToString(), "0.125 GPU");
  EXPECT_EQ((FractionRequest{250, 0, 2}).ToString(), "2 x 0.25 GPU");
  EXPECT_EQ((FractionRequest{0, 20000, 1}).ToString(), "20000 MiB");
}

TEST(FractionLedgerTest, PacksOnTheFullestGpuThatFits) {
  FractionLedger ledger(81920, true);
  const FractionRequest half{500, 0, 1};
  const FractionRequest quarter{250, 0, 1};
  auto place = [&](const FractionRequest& r, int64_t free_whole, int32_t pod) {
    auto choice = ledger.Choose(r, free_whole);
    if (!choice.has_value()) return -2;
    int32_t slot = (*choice)[0];
    int32_t opened = ledger.Apply(r, *choice, model::PodIndex{pod});
    return slot < 0 ? -static_cast<int32_t>(opened) : slot;  // -1: opened a new GPU
  };
  EXPECT_EQ(place(half, 2, 0), -1);    // opens GPU slot 0
  EXPECT_EQ(place(quarter, 1, 1), 0);  // packs: 0.75 on slot 0
  EXPECT_EQ(place(half, 1, 2), -1);    // slot 0 has 0.25 left: opens slot 1
  EXPECT_EQ(place(quarter, 0, 3), 0);  // the fullest that fits: slot 0 (0.75) over slot 1 (0.5)
  EXPECT_EQ(place(quarter, 0, 4), 1);
  EXPECT_EQ(place(half, 0, 5), -2);  // 0.25 free on slot 1, nothing on slot 0, no free GPU
  ASSERT_EQ(ledger.shared().size(), 2u);
  EXPECT_EQ(ledger.shared()[0].milli_used, 1000);
  EXPECT_EQ(ledger.shared()[0].memory_used_mib, 81920);
  EXPECT_EQ(ledger.shared()[1].milli_used, 750);
  ASSERT_EQ(ledger.shared()[0].holders.size(), 3u);
  EXPECT_EQ(ledger.shared()[0].holders[1].pod.v, 1);
}

TEST(FractionLedgerTest, MultiDevicePortionsTakeDistinctGpus) {
  FractionLedger ledger(40960, true);
  const FractionRequest two_halves{500, 0, 2};
  auto choice = ledger.Choose(two_halves, 2);
  ASSERT_TRUE(choice.has_value());
  EXPECT_EQ(*choice, (std::vector<int32_t>{-1, -1}));
  EXPECT_EQ(ledger.Apply(two_halves, *choice, model::PodIndex{0}), 2);
  // Both GPUs have 0.5 left: a second pod fits, one portion on each.
  choice = ledger.Choose(two_halves, 0);
  ASSERT_TRUE(choice.has_value());
  EXPECT_EQ(*choice, (std::vector<int32_t>{0, 1}));
  EXPECT_EQ(ledger.Apply(two_halves, *choice, model::PodIndex{1}), 0);
  EXPECT_FALSE(ledger.Choose(FractionRequest{100, 0, 1}, 0).has_value());
}

TEST(FractionLedgerTest, MemoryRequestsNeedKnownMemory) {
  FractionLedger unknown(0, true);
  EXPECT_FALSE(unknown.Choose(FractionRequest{0, 1000, 1}, 4).has_value());
  EXPECT_TRUE(unknown.Choose(FractionRequest{500, 0, 1}, 4).has_value());
  FractionLedger t4(15360, true);
  EXPECT_TRUE(t4.Choose(FractionRequest{0, 15360, 1}, 1).has_value());
  EXPECT_FALSE(t4.Choose(FractionRequest{0, 16000, 1}, 1).has_value());
  auto c = t4.Choose(FractionRequest{0, 10000, 1}, 1);
  ASSERT_TRUE(c.has_value());
  t4.Apply(FractionRequest{0, 10000, 1}, *c, model::PodIndex{0});
  EXPECT_FALSE(t4.Choose(FractionRequest{0, 6000, 1}, 0).has_value());  // 5360 MiB left
  EXPECT_TRUE(t4.Choose(FractionRequest{0, 5000, 1}, 0).has_value());
}

TEST(FractionLedgerTest, NothingFitsOnUnshareableNodes) {
  FractionLedger ledger(81920, false);
  EXPECT_FALSE(ledger.Choose(FractionRequest{100, 0, 1}, 8).has_value());
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::gpu
