// EventQueue: the simulator's pending events, ordered by (time, sequence number) where the
// sequence number is the push order, so events at the same millisecond come out first-in
// first-out and a run is deterministic (Envoy SimulatedTimeSystem, SimGrid's future event
// set). An indexed 4-ary heap: Push, Pop and Cancel are O(log n), top and size O(1).
// Cancel takes the handle Push returned; a handle whose event was popped or cancelled is
// stale and cancelling it again is a no-op (handles carry a generation count, so a reused
// slot is never mistaken for the old event). Not thread-safe; one queue per run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "sim/core/event.h"

namespace berth::sim {

struct EventHandle {
  uint32_t slot = std::numeric_limits<uint32_t>::max();
  uint32_t generation = 0;
  // False for a default-constructed handle (never returned by Push).
  bool valid() const { return slot != std::numeric_limits<uint32_t>::max(); }
};

class EventQueue {
 public:
  struct Scheduled {
    int64_t time_ms = 0;
    uint64_t sequence = 0;
    Event event;
  };

  // Schedules `event` at time_ms. The queue does not know the clock: the simulator must not
  // push events earlier than the current time (EventLoop enforces it). O(log n).
  EventHandle Push(int64_t time_ms, const Event& event);

  // Removes the event if it is still pending and returns true; false for a stale or default
  // handle. O(log n).
  bool Cancel(EventHandle handle);
  bool IsPending(EventHandle handle) const;

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }

  // Precondition for the three below: !empty() (a bug otherwise; aborts).
  int64_t next_time_ms() const;
  const Event& top() const;
  // Removes and returns the earliest event (lowest sequence among equal times). O(log n).
  Scheduled Pop();

  // Pre-sizes the storage for n pending events (a trace's arrivals, say).
  void Reserve(size_t n);

  // Number of events ever pushed (the next sequence number).
  uint64_t pushed() const { return next_sequence_; }

 private:
  static constexpr uint32_t kNotInHeap = std::numeric_limits<uint32_t>::max();
  static constexpr uint32_t kArity = 4;

  // Keys live in the heap array so sifting compares without touching the payloads.
  struct HeapEntry {
    int64_t time_ms;
    uint64_t sequence;
    uint32_t slot;
  };
  struct Slot {
    Event event;
    uint32_t heap_pos = kNotInHeap;
    uint32_t generation = 0;
  };

  static bool Before(const HeapEntry& a, const HeapEntry& b) {
    return a.time_ms != b.time_ms ? a.time_ms < b.time_ms : a.sequence < b.sequence;
  }
  void Place(uint32_t pos, const HeapEntry& entry);
  void SiftUp(uint32_t pos);
  void SiftDown(uint32_t pos);
  // Takes the entry at pos out of the heap and frees its slot.
  void RemoveAt(uint32_t pos);

  std::vector<HeapEntry> heap_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;
  uint64_t next_sequence_ = 0;
};

}  // namespace berth::sim
