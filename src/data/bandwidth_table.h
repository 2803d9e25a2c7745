// BandwidthTable: the default bandwidth of every link the transfer model knows, in one place.
// Every Topology field left at 0 takes its value from the table, and callers may pass their
// own table to DataView::Build. The numbers and their sources are in docs/data.md ("Default
// bandwidths"). Plain value; thread-compatible.
#pragma once

namespace berth::data {

// All figures are bytes per second (decimal: 1 GB/s = 1e9 bytes/s).
struct BandwidthTable {
  double origin_stream_bytes_per_s = 0;  // one pull from an object store / registry / hub
  double origin_egress_bytes_per_s = 0;  // everything one origin serves at once, shared
  double cross_region_bytes_per_s = 0;   // one pull over a link between two regions
  double nic_bytes_per_s = 0;            // a node's network interface
  double disk_read_bytes_per_s = 0;      // a node's local cache disk (NVMe)
  double host_to_gpu_bytes_per_s = 0;    // host memory to GPU memory (PCIe)
  double cluster_cache_bytes_per_s = 0;  // one reader of a cluster cache (Fluid/Alluxio/JuiceFS)
  double peer_bytes_per_s = 0;           // one node-to-node copy inside a cluster (P2P)
};

// The documented defaults (docs/data.md): 0.3 GB/s per origin stream, 10 GB/s origin egress,
// 0.06 GB/s across regions, 1.25 GB/s NIC (10 Gbit/s), 3 GB/s NVMe, 25 GB/s PCIe, 1.25 GB/s
// cluster cache and peer copies.
BandwidthTable DefaultBandwidthTable();

// `value` when it is > 0, else `fallback`: the "0 = default" rule of every input.
inline double OrDefault(double value, double fallback) { return value > 0 ? value : fallback; }

}  // namespace berth::data
