# The admission core (everything but topology_*), appended to the queueing module's sources.
list(APPEND QUEUEING_SRCS
  admission.cc
  admission_scheduler.cc
  admission_state.cc
  amount_text.cc
  flavor_assigner.cc
  pending_queue.cc
  preemptor.cc
  queue_setup.cc
  quota_probe.cc
  quota_tree.cc
  workload_info.cc
  workload_status.cc)
# Fair sharing (#4): DRS, the admission tournament, fair-sharing preemption.
list(APPEND QUEUEING_SRCS
  fair_sharing.cc
  fair_sharing_iterator.cc
  fair_sharing_preemptor.cc)
# DRA-backed quota (#13): devices of ResourceClaimTemplates counted per deviceClassMapping.
list(APPEND QUEUEING_SRCS dra_quota.cc)
# Admission Fair Sharing (#4): LocalQueue usage, entry penalties.
list(APPEND QUEUEING_SRCS admission_fair_sharing.cc)
