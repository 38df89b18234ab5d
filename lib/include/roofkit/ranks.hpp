#pragma once
// roofkit/ranks.hpp: multi-GPU jobs: ranks from the launcher's environment, collective kernels
// and their bus bandwidth, the NCCL calls matched to them, and the merge of per-rank runs.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/app_profile.hpp"
#include "roofkit/plot.hpp"

// ---- ranks ----
namespace roofkit {

/// A process's place in a multi-process job, as its launcher's environment gives it.
struct rank_info {
  int rank = -1;       ///< global rank
  int local_rank = -1; ///< rank on this node; -1 when the launcher does not say
  int world_size = 0;  ///< ranks in the job; 0 when the launcher does not say
  std::string source;  ///< the variable the rank came from ("RANK", "OMPI_COMM_WORLD_RANK", ...)
};

/// The rank from the environment (lookup returns nullptr for an unset name), trying in order
/// torchrun (RANK, LOCAL_RANK, WORLD_SIZE), Open MPI (OMPI_COMM_WORLD_*), Slurm (SLURM_PROCID,
/// SLURM_LOCALID, SLURM_NTASKS) and PMI (PMI_RANK, PMI_SIZE). Empty when none is set or the
/// value is not a non-negative integer.
std::optional<rank_info> rank_from_environment(const char* (*lookup)(const char*));

/// The record log of one rank: `base` + ".rank" + rank.
std::string rank_record_path(const std::string& base, int rank);

/// The run file of one rank beside `output`: "dir/run.json" -> "dir/run.rank3.json".
std::filesystem::path rank_run_path(const std::filesystem::path& output, int rank);

/// The warning due when `ranks` ranks that ran collectives were profiled while NCCL could use
/// peer-to-peer access between GPUs (`p2p_disable`: NCCL_P2P_DISABLE's value, null if unset);
/// empty when none is due. A replay restores a rank's device memory while a peer may write into
/// it over NVLink, which changed a DDP job's gradients in our runs (with peer access off they
/// were exact). `coordinated`: the ranks shared a peer table (one profile for the whole job,
/// with the NCCL call recorder), under which the gradients were exact too: no warning then.
std::string peer_access_warning(int ranks, const char* p2p_disable, bool coordinated);

/// The record log files of ranks written beside `base` (base.rank0, base.rank1, ...), by rank.
std::vector<std::pair<int, std::filesystem::path>> find_rank_records(const std::string& base);

} // namespace roofkit

// ---- collectives ----
namespace roofkit {

/// What a collective does; it decides its bus bandwidth factor.
enum class collective_op {
  all_reduce,
  all_gather,
  reduce_scatter,
  broadcast,
  reduce,
  send,
  recv,
  send_recv, ///< a kernel of grouped sends and receives (all-to-all, pipelines)
  mixed,     ///< a group of calls of different kinds in one kernel
  unknown,
};
/// "all_reduce", "all_gather", ...
std::string to_string(collective_op op);
/// Parses to_string's names; unknown for anything else.
collective_op parse_collective_op(std::string_view text);

/// Whether a kernel's (demangled) name marks it as a NCCL collective: ncclDevKernel_*,
/// ncclKernel_*, ncclDevKernelDebug_*, ncclSymkDevKernel_*: "nccl", a capitalised word holding
/// "Kernel", "_" and more (an optional "void " in front).
bool is_collective_kernel(std::string_view name);
/// The operation a collective kernel's name says (ncclDevKernel_AllReduce_Sum_f32_RING_LL ->
/// all_reduce); unknown when it says none.
collective_op collective_op_of_kernel(std::string_view name);

/// nccl-tests' bus bandwidth factor: busbw = algbw x factor. all_reduce 2(n-1)/n, all_gather and
/// reduce_scatter (n-1)/n, broadcast, reduce, send, recv 1. NaN for mixed/unknown or n < 1.
double bus_factor(collective_op op, int nranks);

/// One NCCL call as the interposed library records it. `bytes` follows nccl-tests: the
/// all-gather's and reduce-scatter's full buffer (count x nranks x type size), the others'
/// count x type size.
struct nccl_call {
  std::int64_t pid = 0;
  std::uint64_t stream = 0;
  collective_op op = collective_op::unknown;
  double bytes = 0;
  int nranks = 0;
  std::int64_t t_ns = 0; ///< CLOCK_MONOTONIC when it was called
  /// Time the call waited, before it was forwarded, for a peer rank's replay to end.
  std::int64_t peer_wait_ns = 0;
};

/// One launch of a collective kernel, timed on the GPU (events around the launch).
struct collective_launch {
  std::int64_t pid = 0;
  std::int64_t index = 0; ///< launch ordinal in the process
  std::string name;
  std::uint64_t stream = 0;
  std::int64_t t_ns = 0; ///< CLOCK_MONOTONIC at the launch
  double time_s = 0;     ///< its GPU time, waiting for the peers included
};

/// A collective launch with the calls it carried out.
struct collective_record {
  collective_launch launch;
  collective_op op = collective_op::unknown; ///< from the calls, else from the kernel name
  double bytes = 0;                          ///< summed over its calls
  int nranks = 0;
  int calls = 0; ///< NCCL calls matched to it (0: bytes unknown)
  /// Each call's bytes times its operation's bus factor, summed: what nccl-tests' bus bandwidth
  /// counts as moved (a ring all-reduce's sends per rank); 0 when unknown.
  double bus_bytes = 0;
  double algbw = 0; ///< bytes / time (bytes/s); 0 when unknown
  double busbw = 0; ///< nccl-tests' bus bandwidth (bytes/s); 0 when unknown
};

/// Matches calls to launches: a launch carries the unmatched calls of its process made on its
/// stream before it (a group of calls launches one kernel); launches left without a call then
/// take, in time order, the unmatched calls of their process made before them on any stream
/// (NCCL may launch on a stream of its own). Sorted by process and time.
std::vector<collective_record> correlate_collectives(std::vector<nccl_call> calls,
                                                     std::vector<collective_launch> launches);

/// JSON lines of the record log (the "nccl" line is written by the interposed library itself).
std::string rank_line(const rank_info& r, std::int64_t pid, int ordinal, const std::string& uuid);
std::string collective_line(const collective_launch& l);

/// A GPU's NVLink data traffic, all links, between two readings of NVML's cumulative counters.
/// They count the whole GPU: every process's traffic, not one kernel's.
struct nvlink_traffic {
  std::string counter; ///< the NVML fields read; "" when none could be
  std::string why;     ///< why none could be ("" when read)
  double tx_bytes = 0; ///< sent
  double rx_bytes = 0; ///< received
  double seconds = 0;  ///< between the readings
};

/// Reads one GPU's NVLink counters through NVML, loaded at run time: the data throughput fields
/// (KiB, all links), else the byte count fields of newer drivers. The first reading is taken
/// on construction; no exceptions (a GPU without NVLink, or without NVML, says why).
class nvlink_meter {
public:
  /// `pci_bus_id` as cudaDeviceGetPCIBusId writes it.
  explicit nvlink_meter(const std::string& pci_bus_id);
  ~nvlink_meter();
  nvlink_meter(const nvlink_meter&) = delete;
  nvlink_meter& operator=(const nvlink_meter&) = delete;
  /// The traffic since construction (counter "" and `why` when it cannot be read).
  nvlink_traffic since_start() const;

private:
  struct state;
  std::unique_ptr<state> state_;
};
/// The record log's line of a process's NVLink traffic.
std::string nvlink_line(const nvlink_traffic& t, std::int64_t pid);

/// What a rank's record log holds besides what parse_profile_log reads.
struct rank_log {
  std::optional<rank_info> rank;
  int ordinal = -1;
  std::string gpu_uuid;
  std::vector<nccl_call> calls;
  std::vector<collective_launch> launches;
  std::optional<nvlink_traffic> nvlink; ///< its GPU's NVLink traffic over the process's run
};
/// Reads the rank, nccl and collective lines of a record log (other lines are skipped; a
/// truncated last line is ignored).
rank_log parse_rank_log(std::string_view text);

/// Reads the rank record logs written beside `base` (base.rank0, ...), by rank; removes them
/// and their profiler turn files when `remove`.
std::vector<std::pair<int, std::string>> take_rank_logs(const std::string& base, bool remove);

} // namespace roofkit

// ---- rank runs ----
namespace roofkit {

/// One rank's run, built from its record log.
struct rank_run {
  int rank = -1;
  profile_log log;
  rank_log extra;
  std::vector<collective_record> collectives;
  run result;
  std::string json; ///< the run file: profile_run_json's with a "multi_gpu" object
};

/// Builds the run of the rank whose record log is `text`. Roofs: `inputs.ceilings` when given,
/// else the theoretical ones of the rank's GPU (live, or its data/gpus.json spec), with
/// `measured` placed over them. `clock_control`/`clock_note` come from the launcher's log.
rank_run build_rank_run(int rank, const std::string& text, profile_run_inputs inputs,
                        const std::vector<ceiling>& measured, const profile_log& launcher_log);

} // namespace roofkit

// ---- merge ----
namespace roofkit {

/// How a rank's part of the job ended, as its run file tells.
enum class rank_status {
  ok,          ///< its process reached exit (the end record)
  ended_early, ///< no end record: it crashed or was killed; what it had is kept
  unreadable,  ///< its run file is cut short or not a run
  no_file,     ///< a rank of the job without a run file
};
/// "ok", "ended early (crashed or killed)", "unreadable file", "no file".
std::string to_string(rank_status s);

/// What the merge found, besides the merged file.
struct merge_summary {
  struct rank_row {
    int rank = -1;
    std::string file;
    rank_status status = rank_status::no_file;
    std::string gpu_uuid;
    int device = -1;
    std::int64_t launches = 0;
    double compute_s = 0;         ///< GPU time of its other kernels
    double collective_s = 0;      ///< GPU time of its collective kernels
    std::int64_t collectives = 0; ///< its timed collective launches
    double median_busbw = 0;      ///< of those with a bus bandwidth (bytes/s); 0: none
    /// Its collectives' time beyond the fastest rank's copy of each (the k-th collective of
    /// every rank is one collective): the time it waited for later ranks.
    double collective_wait_s = 0;
    /// Collectives in which it was the fastest rank: it came last, the others waited for it.
    std::int64_t last_to_arrive = 0;
    /// Its GPU's NVLink traffic over its run (NVML); counter "" when not read.
    nvlink_traffic nvlink;
    double collective_bus_bytes = 0; ///< its collectives' bus bytes, summed
    double rooted_bus_bytes = 0;     ///< of which broadcasts' and reduces' (sent by the root)
  };
  struct kernel_row {
    std::string name;
    bool collective = false;
    int ranks = 0;
    std::int64_t launches = 0;
    double mean_s = 0; ///< mean over the ranks that ran it of their total time in it
    double min_s = 0;
    double max_s = 0;
    double spread = 0; ///< (max - min) / mean
    int slowest_rank = -1;
  };
  /// Collective launches of one rank, operation and size: their median bus bandwidth.
  struct collective_point {
    int rank = -1;
    collective_op op = collective_op::unknown;
    double bytes = 0;
    double busbw = 0; ///< bytes/s
    std::int64_t launches = 0;
  };
  std::vector<rank_row> ranks;                     ///< by rank
  std::vector<collective_point> collective_points; ///< those with a bus bandwidth
  std::vector<kernel_row> kernels;                 ///< largest mean time first
  double load_imbalance = 0; ///< max / mean of the ranks' compute time (1 = balanced)
  /// Collectives matched across ranks by order; 0 when the ranks' operations differ in order.
  std::int64_t matched_collectives = 0;
  double collective_fastest_s = 0; ///< the fastest copies' time, summed over those collectives
  std::int64_t launches = 0;       ///< profiled launches written, over all ranks
};

/// The merge's tables: the ranks (how each ended, compute and collective time) and the kernels
/// across ranks (at most `max_kernels`, largest mean time first), load imbalance in a note.
std::vector<table> merge_tables(const merge_summary& s, std::size_t max_kernels = 20);

/// Merges per-rank run files into one run file at `output`, reading one input at a time: every
/// rank's kernels (named "... [rank R]", with "rank") and profiled launches (with "rank"), the
/// per-kernel summary across ranks, each rank's collective and compute time, the load
/// imbalance, and how each rank ended ("multi_gpu" object). Ranks missing between 0 and the
/// job's size are listed as "no file"; an unreadable input is listed, never fatal. Throws
/// usage_error when no input is a run file.
merge_summary merge_rank_runs(const std::vector<std::filesystem::path>& inputs,
                              const std::filesystem::path& output,
                              const std::function<void(const std::string&)>& say = {});

/// The interconnect roof a collectives chart is drawn against (0: none).
struct interconnect_roof {
  double all_reduce_busbw = 0;     ///< the best measured NCCL all-reduce bus bandwidth (bytes/s)
  double nvlink_per_direction = 0; ///< the datasheet figure (bytes/s)
};
/// Reads the roof from the JSON of measure_interconnect (interconnect_json); usage_error when
/// the file is not one.
interconnect_roof load_interconnect_roof(const std::filesystem::path& path);

/// The collectives of every rank against the interconnect: bus bandwidth over message size (log-
/// log, nccl-tests' axes), one marker per rank, operation and size, the measured all-reduce roof
/// solid and the NVLink figure dashed.
canvas draw_collectives_chart(const merge_summary& s, const interconnect_roof& roof,
                              const std::string& title);

} // namespace roofkit
