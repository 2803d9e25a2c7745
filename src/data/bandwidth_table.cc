#include "data/bandwidth_table.h"

namespace berth::data {

// Sources: /work/shared/reference/data_locality.md §2.5, §2.6, §1.5, as listed in
// docs/data.md. The figures are deliberately round: they are orders of magnitude for ranking
// sources and spotting storms, not predictions; operators override them per node or link.
BandwidthTable DefaultBandwidthTable() {
  BandwidthTable t;
  t.origin_stream_bytes_per_s = 0.3e9;   // "~0.3 GB/s (one object-store stream)" §2.6
  t.origin_egress_bytes_per_s = 10e9;    // assumption: an origin saturates at ~80 Gbit/s
  t.cross_region_bytes_per_s = 0.06e9;   // NetEase: ~140 GB in 42 min cross-region ≈ 0.056 GB/s
  t.nic_bytes_per_s = 1.25e9;            // 10 Gbit/s, §2.6 rule of thumb
  t.disk_read_bytes_per_s = 3e9;         // local NVMe, low end of "3-7 GB/s per drive" §2.6
  t.host_to_gpu_bytes_per_s = 25e9;      // assumption: PCIe 4.0 x16, ~25 GB/s effective
  t.cluster_cache_bytes_per_s = 1.25e9;  // an in-cluster cache reaches the NIC line rate
  t.peer_bytes_per_s = 1.25e9;           // node to node inside a cluster: the NIC
  return t;
}

}  // namespace berth::data
