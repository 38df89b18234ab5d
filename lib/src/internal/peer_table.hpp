#pragma once
// The ranks of one profiled job on one node, coordinated through a small file that each of them
// maps (MAP_SHARED): every rank's count of collective calls, counted by the NCCL call recorder
// before it forwards a call, and whether its replay span is open (from the checkpoint of a batch
// to the batch's last restore). A replay restores device memory into which a peer's collective
// may be writing over NVLink; so a rank opens a span only when no peer has called a collective
// that it has not, and a rank about to call its n-th collective first ends its own span, then
// waits while a peer's span is open that began before that peer called its n-th (a span that
// began after it holds the collective's data already, or waits for it in its first
// synchronisation). Each side writes its own slot before it reads the others' (sequentially
// consistent atomics), so of two racing ranks at least one sees the other.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace roofkit::detail {

/// One rank's slot of the table.
struct peer_slot {
  std::atomic<std::uint64_t> collectives{0};
  std::atomic<std::uint64_t> span_collectives{0}; ///< `collectives` when the open span began
  std::atomic<std::uint32_t> span_open{0}; ///< open spans (processes of one rank share a slot)
  std::uint32_t unused = 0;
};

/// The table: a slot per rank of the job.
struct peer_slots {
  static constexpr int max_ranks = 1024;
  peer_slot rank[max_ranks];
};

static_assert(std::atomic<std::uint64_t>::is_always_lock_free &&
                  std::atomic<std::uint32_t>::is_always_lock_free,
              "the table is shared between processes: its atomics must be lock-free");

/// A rank's view of its job's table.
class peer_table {
public:
  /// Maps the table file at `path`, creating it (zeroed) if needed; null, with `why_not`, when
  /// the file cannot be mapped or `rank` is outside [0, peer_slots::max_ranks).
  static std::unique_ptr<peer_table> open(const std::string& path, int rank, std::string& why_not);
  /// This process's view of the table of the job whose record log is `record_base`, as the rank
  /// its environment gives (rank_from_environment); null when it has no rank or the base is "",
  /// or, with `why_not` set, when open() fails.
  static std::unique_ptr<peer_table> for_process(const std::string& record_base,
                                                 std::string& why_not);
  /// Over a table in this process's memory (tests).
  peer_table(peer_slots& slots, int rank) : slots_(&slots), rank_(rank) {}
  ~peer_table();
  peer_table(const peer_table&) = delete;
  peer_table& operator=(const peer_table&) = delete;

  /// Before a collective call is forwarded (this rank's own span ended): counts it, then waits,
  /// for at most `limit`, while another rank's span is open that began before that rank had
  /// called as many collectives. Returns the time waited; `gave_up` is set when the limit passed.
  std::chrono::nanoseconds enter_collective(std::chrono::nanoseconds limit, bool& gave_up);
  /// Opens this rank's span, unless a peer has called more collectives than this rank: then it
  /// stays closed and the answer is false.
  bool open_span();
  /// Closes this process's span of this rank (none open: nothing happens).
  void close_span();
  /// Whether this process has a span of this rank open.
  bool span_is_open() const { return open_; }
  /// This rank's count of collective calls.
  std::uint64_t collectives() const;

  /// The table file of a job whose record log is `record_base` (the launcher removes it).
  static std::string path_for(const std::string& record_base) { return record_base + ".peers"; }

private:
  bool peer_span_before(std::uint64_t collective) const;
  bool peer_ahead() const;

  peer_slots* slots_;
  int rank_;
  bool mapped_ = false;
  bool open_ = false;
};

} // namespace roofkit::detail
