#pragma once
// Which driver calls may come between launches that are replayed together (a batch), and which
// end the batch first.
#include <cupti.h>

namespace roofkit::inject {

/// True for the driver callbacks that launch one kernel.
bool is_kernel_launch(CUpti_CallbackId cbid);

/// What a driver call does to a batch of launches waiting for their replay.
enum class batch_effect {
  keeps,      ///< launches, and calls that neither touch device memory nor let the host see results
              ///< (no copy, set, allocation, free, sync or query) nor end a stream; module loads
  host_reads, ///< copies to the host, synchronisations, stream and event queries: they touch no
              ///< device memory but let the host see results (and write memory a replay restores)
  replays,    ///< any other call: the batch is replayed before it runs
  drops,      ///< module unloads: replayed at the unload's entry, given up at exit
};
/// The effect of the driver call `cbid` on an open batch.
batch_effect replay_batch_effect(CUpti_CallbackId cbid);

/// True for the calls that make managed memory (allocations, a library's managed variables).
bool creates_managed_memory(CUpti_CallbackId cbid);

/// Whether the injector subscribes to the driver call `cbid`: launches, the profiler markers
/// (cuProfilerStart/Stop) and every call that does more than keep a batch. The queries (context,
/// device, function, stream and event getters, event records) are left alone: a training step makes
/// some fifteen of them per launch, and what they do can neither change what a replay restores nor
/// be changed by it.
bool needs_driver_callback(CUpti_CallbackId cbid);

} // namespace roofkit::inject
