#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "sim/core/event.h"
#include "sim/core/event_loop.h"
#include "sim/core/event_queue.h"
#include "sim/core/rng.h"
#include "sim/core/virtual_clock.h"

namespace berth::sim {
namespace BERTH_UNITY_ID {

int32_t JobOf(const Event& e) { return std::get<ArrivalEvent>(e).job.v; }

Event Arrival(int32_t job) { return ArrivalEvent{JobIndex{job}}; }

TEST(EventQueueTest, PopsInTimeOrder) {
  EventQueue q;
  q.Push(30, Arrival(3));
  q.Push(10, Arrival(1));
  q.Push(20, Arrival(2));
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q.next_time_ms(), 10);
  std::vector<int32_t> jobs;
  std::vector<int64_t> times;
  while (!q.empty()) {
    EventQueue::Scheduled s = q.Pop();
    jobs.push_back(JobOf(s.event));
    times.push_back(s.time_ms);
  }
  EXPECT_EQ(jobs, (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(times, (std::vector<int64_t>{10, 20, 30}));
}

TEST(EventQueueTest, EqualTimesComeOutInPushOrder) {
  EventQueue q;
  for (int32_t j = 0; j < 50; ++j) {
    q.Push(j % 2 == 0 ? 5 : 7, Arrival(j));
  }
  std::vector<int32_t> jobs;
  uint64_t last_seq = 0;
  bool first = true;
  while (!q.empty()) {
    EventQueue::Scheduled s = q.Pop();
    if (!first && s.time_ms == 5) {
      EXPECT_GT(s.sequence, last_seq);
    }
    first = false;
    last_seq = s.sequence;
    jobs.push_back(JobOf(s.event));
  }
  std::vector<int32_t> want;
  for (int32_t j = 0; j < 50; j += 2) want.push_back(j);
  for (int32_t j = 1; j < 50; j += 2) want.push_back(j);
  EXPECT_EQ(jobs, want);
}

TEST(EventQueueTest, CancelRemovesOnlyThatEvent) {
  EventQueue q;
  EventHandle a = q.Push(10, Arrival(1));
  EventHandle b = q.Push(10, Arrival(2));
  EventHandle c = q.Push(5, Arrival(3));
  EXPECT_TRUE(q.IsPending(b));
  EXPECT_TRUE(q.Cancel(b));
  EXPECT_FALSE(q.IsPending(b));
  EXPECT_FALSE(q.Cancel(b));  // second cancel is a no-op
  EXPECT_TRUE(q.Cancel(c));   // the top
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(JobOf(q.Pop().event), 1);
  EXPECT_FALSE(q.Cancel(a));  // already popped
  EXPECT_FALSE(q.Cancel(EventHandle{}));
}

TEST(EventQueueTest, StaleHandleDoesNotCancelReusedSlot) {
  EventQueue q;
  EventHandle old = q.Push(1, Arrival(1));
  q.Pop();
  EventHandle fresh = q.Push(2, Arrival(2));
  EXPECT_EQ(fresh.slot, old.slot);  // the slot is reused ...
  EXPECT_FALSE(q.Cancel(old));      // ... but the old handle no longer names it
  EXPECT_TRUE(q.IsPending(fresh));
  EXPECT_EQ(q.size(), 1u);
}

TEST(EventQueueTest, RandomPushPopCancelMatchesReference) {
  // Against a std::multimap keyed by (time, sequence): the same multiset in the same order.
  EventQueue q;
  std::map<std::pair<int64_t, uint64_t>, int32_t> ref;
  std::vector<std::pair<EventHandle, std::pair<int64_t, uint64_t>>> handles;
  Rng rng(2024);
  uint64_t seq = 0;
  int32_t next_job = 0;
  for (int step = 0; step < 20000; ++step) {
    const uint64_t op = rng.UniformInt(10);
    if (op < 5 || ref.empty()) {
      const auto t = static_cast<int64_t>(rng.UniformInt(1000));
      handles.push_back({q.Push(t, Arrival(next_job)), {t, seq}});
      ref[{t, seq}] = next_job;
      ++seq;
      ++next_job;
    } else if (op < 8) {
      EventQueue::Scheduled s = q.Pop();
      ASSERT_EQ(s.time_ms, ref.begin()->first.first);
      ASSERT_EQ(s.sequence, ref.begin()->first.second);
      ASSERT_EQ(JobOf(s.event), ref.begin()->second);
      ref.erase(ref.begin());
    } else {
      const auto i = static_cast<size_t>(rng.UniformInt(handles.size()));
      const bool was = ref.erase(handles[i].second) > 0;
      EXPECT_EQ(q.Cancel(handles[i].first), was);
    }
    ASSERT_EQ(q.size(), ref.size());
  }
}

TEST(EventTest, KindAndNames) {
  Event e = GpuFailureEvent{NodeIndex{4}, 3};
  EXPECT_EQ(KindOf(e), EventKind::kGpuFailure);
  EXPECT_STREQ(EventKindName(KindOf(e)), "gpu_failure");
  EXPECT_STREQ(EventKindName(EventKind::kArrival), "arrival");
  EXPECT_STREQ(EventKindName(EventKind::kMigReprofileStart), "mig_reprofile_start");
  EXPECT_STREQ(EventKindName(EventKind::kMetricsTick), "metrics_tick");
  EXPECT_EQ(KindOf(Event{CapacityChangeEvent{PoolIndex{1}, 4, 90'000}}),
            EventKind::kCapacityChange);
  EXPECT_LE(sizeof(Event), 24u);
}

TEST(VirtualClockTest, StartsWhereToldAndMovesForward) {
  VirtualClock clock;
  EXPECT_EQ(clock.now_ms(), 0);
  clock.AdvanceTo(1500);
  EXPECT_EQ(clock.now_ms(), 1500);
  EXPECT_DOUBLE_EQ(clock.now_s(), 1.5);
  clock.AdvanceTo(1500);  // staying put is allowed
  EXPECT_EQ(VirtualClock(7).now_ms(), 7);
  EXPECT_DEATH(clock.AdvanceTo(1499), "backwards");
}

TEST(EventLoopTest, ClockFollowsEventsAndStopsAtLimit) {
  EventLoop loop;
  loop.ScheduleAt(100, Arrival(1));
  loop.ScheduleAt(50, Arrival(0));
  EventHandle late = loop.ScheduleAt(400, Arrival(3));
  EventQueue::Scheduled s;
  ASSERT_TRUE(loop.Next(1000, &s));
  EXPECT_EQ(loop.now_ms(), 50);
  // A handler schedules a completion relative to now.
  loop.ScheduleAfter(25, CompletionEvent{JobIndex{0}, 1});
  ASSERT_TRUE(loop.Next(1000, &s));
  EXPECT_EQ(s.time_ms, 75);
  EXPECT_EQ(KindOf(s.event), EventKind::kCompletion);
  EXPECT_EQ(loop.now_ms(), 75);
  ASSERT_TRUE(loop.Next(1000, &s));
  EXPECT_EQ(loop.now_ms(), 100);
  EXPECT_TRUE(loop.Cancel(late));
  EXPECT_FALSE(loop.Next(1000, &s));
  EXPECT_EQ(loop.now_ms(), 100);
  loop.ScheduleAt(2000, Arrival(4));
  EXPECT_FALSE(loop.Next(1000, &s));  // beyond the limit: stays queued
  EXPECT_EQ(loop.pending(), 1u);
  loop.AdvanceTo(1000);
  EXPECT_EQ(loop.now_ms(), 1000);
  EXPECT_EQ(loop.processed(), 3);
  EXPECT_DEATH(loop.ScheduleAt(999, Arrival(5)), "past");
}

// Issue 14: virtual-time sums saturate at kMaxTimeMs instead of wrapping past INT64_MAX
// into the past (which aborted the loop).
TEST(EventLoopTest, TimesSaturateAtTheEndOfVirtualTime) {
  EXPECT_EQ(AddMs(5, 7), 12);
  EXPECT_EQ(AddMs(kMaxTimeMs - 1, 1), kMaxTimeMs);
  EXPECT_EQ(AddMs(kMaxTimeMs - 1, INT64_MAX), kMaxTimeMs);
  EXPECT_EQ(AddMs(kMaxTimeMs, 0), kMaxTimeMs);
  EXPECT_EQ(SecondsToMs(90), 90'000);
  EXPECT_EQ(SecondsToMs(INT64_MAX), kMaxTimeMs);
  EXPECT_EQ(SecondsToMs(kMaxTimeMs / 1000), kMaxTimeMs);
  EventLoop loop;
  loop.ScheduleAt(100, Arrival(0));
  EventQueue::Scheduled s;
  ASSERT_TRUE(loop.Next(INT64_MAX, &s));
  loop.ScheduleAfter(INT64_MAX, Arrival(1));
  loop.ScheduleAt(INT64_MAX, Arrival(2));
  ASSERT_TRUE(loop.Next(INT64_MAX, &s));
  EXPECT_EQ(s.time_ms, kMaxTimeMs);
  ASSERT_TRUE(loop.Next(INT64_MAX, &s));
  EXPECT_EQ(s.time_ms, kMaxTimeMs);
  EXPECT_EQ(loop.now_ms(), kMaxTimeMs);
}

}  // namespace BERTH_UNITY_ID
}  // namespace berth::sim
