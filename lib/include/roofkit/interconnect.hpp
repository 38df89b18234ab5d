#pragma once
// roofkit/interconnect.hpp: the interconnect roof of a multi-GPU node: peer-to-peer copy
// bandwidth per GPU pair, NCCL all-reduce bus bandwidth over message sizes (NCCL loaded at run
// time), beside the theoretical NVLink figure.

#include <optional>
#include <string>
#include <vector>

#include "roofkit/printer.hpp"

namespace roofkit {

/// Copy bandwidth between two GPUs (cudaMemcpyPeerAsync, events, median of the repetitions).
struct peer_bandwidth {
  int src = 0;
  int dst = 0;
  bool peer_access = false; ///< direct access (NVLink or PCIe P2P); false: staged by the driver
  double bytes = 0;         ///< per copy
  double one_way_bps = 0;   ///< src -> dst alone
  double both_ways_bps = 0; ///< src -> dst and dst -> src at once, both directions' bytes
};

/// One message size of the all-reduce sweep (nccl-tests' definitions).
struct all_reduce_point {
  double bytes = 0;  ///< per rank (count x 4, float32 sum)
  double time_s = 0; ///< per all-reduce, the slowest GPU's
  double algbw = 0;  ///< bytes / time
  double busbw = 0;  ///< algbw x 2(n-1)/n
};

/// The theoretical per-GPU NVLink bandwidth and where the figure comes from.
struct nvlink_spec {
  int links = 0;
  double per_link_per_direction_bps = 0;
  double per_direction_bps = 0;
  std::string source;
};

/// The datasheet NVLink of a GPU, by its name and compute capability: NVLink 4 on H100/H200
/// SXM (18 links x 25 GB/s per direction = 450 GB/s per direction, 900 GB/s both), NVLink 3 on
/// A100 SXM (12 x 25 GB/s = 300 GB/s per direction). Empty for others (PCIe cards, unknown).
std::optional<nvlink_spec> theoretical_nvlink(const std::string& device_name, int cc_major,
                                              int cc_minor);

/// What to measure.
struct interconnect_options {
  double copy_bytes = 512.0 * 1024 * 1024; ///< per peer copy: past any L2
  int repetitions = 10;
  double min_all_reduce_bytes = 1024;
  double max_all_reduce_bytes = 1024.0 * 1024 * 1024; ///< DDP buckets reach 1 GiB
  int all_reduce_iterations = 20;
  std::string nccl_library; ///< explicit libnccl path; "" = ROOFKIT_NCCL_LIB, then the usual
};

/// The interconnect of this node.
struct interconnect_result {
  int gpus = 0;
  std::string device_name;
  std::vector<peer_bandwidth> pairs;
  std::vector<all_reduce_point> all_reduce;
  std::string nccl_library; ///< the libnccl loaded ("" when none)
  int nccl_version = 0;     ///< ncclGetVersion's code (e.g. 22805)
  std::string nccl_note;    ///< why the all-reduce sweep is absent
  std::optional<nvlink_spec> theoretical;
};

/// The libnccl files tried, in order: `explicit_path`, `env_path` (ROOFKIT_NCCL_LIB), the
/// soname (the loader's search), then PyTorch's wheel (site-packages/nvidia/nccl/lib) under each
/// of `python_lib_dirs`.
std::vector<std::string> nccl_library_candidates(const std::string& explicit_path,
                                                 const std::string& env_path,
                                                 const std::vector<std::string>& python_lib_dirs);

/// Measures the node's interconnect: nothing (gpus < 2) on one GPU; without NCCL the sweep is
/// left out with a note. Throws roofkit::error on a failing CUDA call.
interconnect_result measure_interconnect(const interconnect_options& options);

/// The measured all-reduce sizes (and the ceiling) as nccl-tests-style rows.
std::vector<table> interconnect_tables(const interconnect_result& r);
/// The result as JSON ("interconnect" object of a machine file or a rank's run).
std::string interconnect_json(const interconnect_result& r);

} // namespace roofkit
