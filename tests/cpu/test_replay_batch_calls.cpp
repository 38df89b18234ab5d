// Which driver calls keep a batch of launches waiting for their replay, replay it first, or drop
// it (lib/inject/batch_calls.cpp), checked over every driver callback CUPTI names: a call that
// touches device memory, lets the host see results or ends what a replay needs must never keep a
// batch open. Needs CUPTI's callback names only, no GPU.
#include <gtest/gtest.h>

#include <cupti.h>

#include <string>
#include <vector>

#include "batch_calls.hpp"

namespace {

using roofkit::inject::batch_effect;
using roofkit::inject::replay_batch_effect;

std::string driver_call(CUpti_CallbackId id) {
  const char* name = nullptr;
  if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, id, &name) != CUPTI_SUCCESS || !name)
    return "";
  return name;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

TEST(replay_batch_calls, calls_that_touch_memory_or_show_results_never_just_keep_a_batch) {
  // Families of calls that copy, set, allocate, free, map or migrate memory, wait for or query
  // the device, run host work in a stream, signal, or end a stream, context or capture (their
  // getters of attributes aside): they replay the batch first, or, for copies to the host and
  // waits, leave the injector to decide (host_reads).
  const std::vector<std::string> ending = {"cuMemcpy",
                                           "cuMemset",
                                           "cuMemAlloc",
                                           "cuMemFree",
                                           "cuMemHost",
                                           "cuMemPrefetch",
                                           "cuMemAdvise",
                                           "cuMemMap",
                                           "cuMemUnmap",
                                           "cuMemRelease",
                                           "cuMemCreate",
                                           "cuMemPool",
                                           "cuMemDiscard",
                                           "cuCtxSynchronize",
                                           "cuStreamSynchronize",
                                           "cuEventSynchronize",
                                           "cuStreamQuery",
                                           "cuEventQuery",
                                           "cuLaunchHostFunc",
                                           "cuStreamAddCallback",
                                           "cuStreamDestroy",
                                           "cuCtxDestroy",
                                           "cuCtxReset",
                                           "cuDevicePrimaryCtxReset",
                                           "cuGraphLaunch",
                                           "cuStreamBeginCapture",
                                           "cuStreamWriteValue",
                                           "cuStreamWaitValue",
                                           "cuStreamBatchMemOp",
                                           "cuSignalExternal",
                                           "cuWaitExternal",
                                           "cuArray",
                                           "cuMipmappedArray",
                                           "cuIpc"};
  int named = 0;
  int checked = 0;
  for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id) {
    const std::string name = driver_call(id);
    if (name.empty())
      continue;
    ++named;
    const bool getter = name.find("Get") != std::string::npos; // reads an attribute, no more
    for (const auto& prefix : ending)
      if (!getter && starts_with(name, prefix)) {
        ++checked;
        EXPECT_NE(replay_batch_effect(id), batch_effect::keeps) << name;
        EXPECT_NE(replay_batch_effect(id), batch_effect::drops) << name;
        break;
      }
  }
  EXPECT_GT(named, 600);   // this CUPTI names its driver callbacks
  EXPECT_GT(checked, 150); // and the families above are there
}

// Only copies from the device to the host and waits for or queries of work (every form of each)
// are host reads; a copy that writes device memory, or host work in a stream, is not.
TEST(replay_batch_calls, host_reads_are_copies_to_the_host_and_waits) {
  const std::vector<std::string> reads = {"cuMemcpyDtoH",        "cuCtxSynchronize",
                                          "cuStreamSynchronize", "cuEventSynchronize",
                                          "cuStreamQuery",       "cuEventQuery"};
  int host_reads = 0;
  for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id) {
    const std::string name = driver_call(id);
    if (name.empty())
      continue;
    bool read = false;
    for (const auto& prefix : reads)
      read = read || starts_with(name, prefix);
    EXPECT_EQ(replay_batch_effect(id) == batch_effect::host_reads, read) << name;
    host_reads += read ? 1 : 0;
  }
  EXPECT_EQ(host_reads, 14); // 6 copies (sync, async; plain, _v2, per-thread) and 8 waits
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2),
            batch_effect::replays);
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync), batch_effect::replays);
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuLaunchHostFunc), batch_effect::replays);
  // Profiler markers touch no memory: a step bracketed by cudaProfilerStart/Stop keeps its batch.
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuProfilerStart), batch_effect::keeps);
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuProfilerStop), batch_effect::keeps);
  EXPECT_TRUE(roofkit::inject::needs_driver_callback(CUPTI_DRIVER_TRACE_CBID_cuProfilerStart));
  EXPECT_TRUE(roofkit::inject::needs_driver_callback(CUPTI_DRIVER_TRACE_CBID_cuProfilerStop));
  EXPECT_TRUE(roofkit::inject::creates_managed_memory(CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged));
  EXPECT_TRUE(roofkit::inject::needs_driver_callback(CUPTI_DRIVER_TRACE_CBID_cuLibraryGetManaged));
  EXPECT_FALSE(roofkit::inject::creates_managed_memory(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2));
}

TEST(replay_batch_calls, launches_and_module_loads_keep_a_batch_unloads_drop_it) {
  int launches = 0;
  for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id) {
    const std::string name = driver_call(id);
    if (roofkit::inject::is_kernel_launch(id)) {
      ++launches;
      EXPECT_TRUE(starts_with(name, "cuLaunch")) << name;
      EXPECT_EQ(replay_batch_effect(id), batch_effect::keeps) << name;
    } else if (starts_with(name, "cuLaunch")) {
      // Multi-device, host-function and other launches are not kernel launches of one context.
      EXPECT_NE(replay_batch_effect(id), batch_effect::keeps) << name;
    }
  }
  EXPECT_EQ(launches, 6); // cuLaunchKernel, -Ex, cooperative; each also per-thread-stream
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData), batch_effect::keeps);
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData), batch_effect::keeps);
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuModuleUnload), batch_effect::drops);
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload), batch_effect::drops);
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuEventRecord), batch_effect::keeps);
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent), batch_effect::keeps);
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute), batch_effect::keeps);
  // A call nobody listed (here: setting a context limit) replays the batch first.
  EXPECT_EQ(replay_batch_effect(CUPTI_DRIVER_TRACE_CBID_cuCtxSetLimit), batch_effect::replays);
}

} // namespace

TEST(replay_batch_calls, the_injector_subscribes_to_launches_and_batch_enders_only) {
  using roofkit::inject::needs_driver_callback;
  int seen = 0;
  int named = 0;
  for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id) {
    if (driver_call(id).empty())
      continue;
    ++named;
    seen += needs_driver_callback(id) ? 1 : 0;
    if (replay_batch_effect(id) != batch_effect::keeps) {
      EXPECT_TRUE(needs_driver_callback(id)) << driver_call(id);
    }
  }
  // What the injector handles besides launches: capture, graphs, profiler start and stop, the
  // memsets and allocations that ride along in a batch, and calls that end or drop one.
  for (CUpti_CallbackId id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture,
        CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiateWithFlags,
        CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2,
        CUPTI_DRIVER_TRACE_CBID_cuEventQuery, CUPTI_DRIVER_TRACE_CBID_cuModuleUnload,
        CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2,
        CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2, CUPTI_DRIVER_TRACE_CBID_cuGraphInstantiate_v2,
        CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph,
        CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop})
    EXPECT_TRUE(needs_driver_callback(id)) << driver_call(id);
  for (CUpti_CallbackId id :
       {CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent, CUPTI_DRIVER_TRACE_CBID_cuEventRecord,
        CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2, CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress,
        CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction, CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData,
        CUPTI_DRIVER_TRACE_CBID_cuGetErrorString, CUPTI_DRIVER_TRACE_CBID_cuGetErrorName,
        CUPTI_DRIVER_TRACE_CBID_cuInit})
    EXPECT_FALSE(needs_driver_callback(id)) << driver_call(id);
  EXPECT_GT(seen, 0);
  EXPECT_LT(seen, named);
}
