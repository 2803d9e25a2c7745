// EventLoop: a VirtualClock and an EventQueue kept in step: events come out in (time,
// sequence) order and the clock moves to each event's time as it is taken, so the simulator's
// handlers always see now_ms() == the event's time and can only schedule into the future.
// The simulator owns one per run. Not thread-safe. Schedule/Cancel/Next are O(log n).
#pragma once

#include <cstddef>
#include <cstdint>

#include "sim/core/event.h"
#include "sim/core/event_queue.h"
#include "sim/core/virtual_clock.h"

namespace berth::sim {

class EventLoop {
 public:
  explicit EventLoop(int64_t start_ms = 0) : clock_(start_ms) {}

  int64_t now_ms() const { return clock_.now_ms(); }
  const VirtualClock& clock() const { return clock_; }

  // Precondition: t_ms >= now_ms() (delay_ms >= 0). An event in the past would be handled out
  // of order; the simulator validates scenario times before scheduling, so this is a bug.
  // Times beyond kMaxTimeMs are scheduled at kMaxTimeMs (saturation, never a wrapped time).
  EventHandle ScheduleAt(int64_t t_ms, const Event& event);
  EventHandle ScheduleAfter(int64_t delay_ms, const Event& event) {
    return ScheduleAt(AddMs(now_ms(), delay_ms), event);
  }
  bool Cancel(EventHandle handle) { return queue_.Cancel(handle); }
  bool IsPending(EventHandle handle) const { return queue_.IsPending(handle); }

  // Takes the earliest pending event if its time is <= until_ms, moves the clock to it and
  // returns true; otherwise returns false and leaves queue and clock as they are.
  bool Next(int64_t until_ms, EventQueue::Scheduled* out);

  // Moves the clock to t_ms without taking events (the end of a run at --until).
  // Precondition: t_ms >= now_ms() and no pending event is earlier than t_ms.
  void AdvanceTo(int64_t t_ms);

  size_t pending() const { return queue_.size(); }
  int64_t processed() const { return processed_; }
  EventQueue& queue() { return queue_; }

 private:
  VirtualClock clock_;
  EventQueue queue_;
  int64_t processed_ = 0;
};

}  // namespace berth::sim
