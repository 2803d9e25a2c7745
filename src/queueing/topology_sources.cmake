# Topology-aware scheduling (Kueue TAS): the capacity tree and the placement on it.
list(APPEND QUEUEING_SRCS
  topology_snapshot.cc
  topology_assigner.cc
  topology_cache.cc
  topology_fitter.cc)
