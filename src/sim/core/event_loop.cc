#include "sim/core/event_loop.h"

#include <algorithm>

#include "core/check.h"

namespace berth::sim {

EventHandle EventLoop::ScheduleAt(int64_t t_ms, const Event& event) {
  BERTH_CHECK(t_ms >= clock_.now_ms(), "EventLoop: event scheduled in the past");
  return queue_.Push(std::min(t_ms, kMaxTimeMs), event);
}

bool EventLoop::Next(int64_t until_ms, EventQueue::Scheduled* out) {
  if (queue_.empty() || queue_.next_time_ms() > until_ms) {
    return false;
  }
  *out = queue_.Pop();
  // ScheduleAt never accepts a time before now, so the popped time is never in the past.
  clock_.AdvanceTo(out->time_ms);
  ++processed_;
  return true;
}

void EventLoop::AdvanceTo(int64_t t_ms) {
  BERTH_CHECK(queue_.empty() || queue_.next_time_ms() >= t_ms,
              "EventLoop::AdvanceTo would skip pending events");
  clock_.AdvanceTo(t_ms);
}

}  // namespace berth::sim
