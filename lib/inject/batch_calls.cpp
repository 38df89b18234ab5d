// Driver callbacks by what they mean for profiling: kernel launches, and the calls that keep,
// replay or drop a batch of launches waiting for their replay.
#include "batch_calls.hpp"

namespace roofkit::inject {

bool is_kernel_launch(CUpti_CallbackId cbid) {
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    return true;
  default:
    return false;
  }
}

namespace {

// Calls that read or set context, device and function state only, and the error names.
bool context_query(CUpti_CallbackId cbid) {
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxGetFlags:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxGetApiVersion:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxGetLimit:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxGetCacheConfig:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxGetSharedMemConfig:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxGetStreamPriorityRange:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxGetId:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxSetCurrent:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceGet:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceGetCount:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceGetName:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceGetAttribute:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceGetUuid:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceGetUuid_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceGetPCIBusId:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceTotalMem_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceComputeCapability:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceGetProperties:
  case CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState:
  case CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxRetain:
  case CUPTI_DRIVER_TRACE_CBID_cuDriverGetVersion:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceGetDefaultMemPool:
  case CUPTI_DRIVER_TRACE_CBID_cuDeviceGetMemPool:
  case CUPTI_DRIVER_TRACE_CBID_cuMemPoolGetAttribute:
  case CUPTI_DRIVER_TRACE_CBID_cuFuncGetAttribute:
  case CUPTI_DRIVER_TRACE_CBID_cuFuncSetAttribute:
  case CUPTI_DRIVER_TRACE_CBID_cuFuncSetCacheConfig:
  case CUPTI_DRIVER_TRACE_CBID_cuFuncSetSharedMemConfig:
  case CUPTI_DRIVER_TRACE_CBID_cuFuncGetName:
  case CUPTI_DRIVER_TRACE_CBID_cuFuncGetModule:
  case CUPTI_DRIVER_TRACE_CBID_cuFuncIsLoaded:
  case CUPTI_DRIVER_TRACE_CBID_cuFuncGetParamInfo:
  case CUPTI_DRIVER_TRACE_CBID_cuKernelGetFunction:
  case CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute:
  case CUPTI_DRIVER_TRACE_CBID_cuKernelSetAttribute:
  case CUPTI_DRIVER_TRACE_CBID_cuKernelGetName:
  case CUPTI_DRIVER_TRACE_CBID_cuKernelGetParamInfo:
  case CUPTI_DRIVER_TRACE_CBID_cuLibraryGetKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLibraryGetModule:
  case CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction:
  case CUPTI_DRIVER_TRACE_CBID_cuModuleGetGlobal_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuLibraryGetGlobal:
  case CUPTI_DRIVER_TRACE_CBID_cuGetErrorString:
  case CUPTI_DRIVER_TRACE_CBID_cuGetErrorName:
  case CUPTI_DRIVER_TRACE_CBID_cuInit: // the driver is initialised already when a batch is open
    return true;
  default:
    return false;
  }
}

// Calls on events, streams, pointers and occupancy that touch no device memory.
bool stream_or_memory_query(CUpti_CallbackId cbid) {
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuEventCreate:
  case CUPTI_DRIVER_TRACE_CBID_cuEventDestroy:
  case CUPTI_DRIVER_TRACE_CBID_cuEventDestroy_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuEventRecord:
  case CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags:
  case CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuEventElapsedTime:
  case CUPTI_DRIVER_TRACE_CBID_cuEventElapsedTime_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamWaitEvent_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamCreate:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamCreateWithPriority:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetPriority:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetPriority_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetFlags:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetFlags_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetCtx_v2_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetId:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetId_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamIsCapturing_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v2_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v3:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamGetCaptureInfo_v3_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuThreadExchangeStreamCaptureMode:
  case CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttribute:
  case CUPTI_DRIVER_TRACE_CBID_cuPointerGetAttributes:
  case CUPTI_DRIVER_TRACE_CBID_cuMemGetInfo_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemGetAddressRange_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress:
  case CUPTI_DRIVER_TRACE_CBID_cuGetProcAddress_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuGetExportTable:
  case CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveBlocksPerMultiprocessor:
  case CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags:
  case CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialBlockSize:
  case CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialBlockSizeWithFlags:
  case CUPTI_DRIVER_TRACE_CBID_cuOccupancyAvailableDynamicSMemPerBlock:
  case CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxActiveClusters:
  case CUPTI_DRIVER_TRACE_CBID_cuOccupancyMaxPotentialClusterSize:
    return true;
  default:
    return false;
  }
}

// Calls that neither touch device memory nor let the host see results: the batch stays open.
bool queries_only(CUpti_CallbackId cbid) {
  return context_query(cbid) || stream_or_memory_query(cbid);
}

// Copies to the host and waits for or queries of work: they read device memory, not write it.
bool host_read(CUpti_CallbackId cbid) {
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH:
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds:
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync:
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize:
  case CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamQuery:
  case CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz:
  case CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize:
  case CUPTI_DRIVER_TRACE_CBID_cuEventQuery:
    return true;
  default:
    return false;
  }
}

} // namespace

batch_effect replay_batch_effect(CUpti_CallbackId cbid) {
  if (is_kernel_launch(cbid))
    return batch_effect::keeps;
  if (host_read(cbid))
    return batch_effect::host_reads;
  switch (cbid) {
  // The runtime loads modules lazily inside its own calls, holding a lock of its own; replaying
  // there left that lock broken (the PyTorch script hung at its next launch). A module load adds
  // memory the checkpoint does not hold: the injector saves the variables of a module loaded
  // inside a batch at the first launch of its kernels (device_variables.hpp).
  case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData:
  case CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile:
  case CUPTI_DRIVER_TRACE_CBID_cuLibraryGetManaged:
  case CUPTI_DRIVER_TRACE_CBID_cuLibraryGetUnifiedFunction:
  case CUPTI_DRIVER_TRACE_CBID_cuModuleLoad:
  case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData:
  case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx:
  case CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary:
  case CUPTI_DRIVER_TRACE_CBID_cuModuleGetLoadingMode:
  case CUPTI_DRIVER_TRACE_CBID_cuKernelGetLibrary:
    return batch_effect::keeps;
  // Markers for profilers: they touch no memory. Where selection starts at the application's
  // profiler start, they start and end it, which decides only the launches after them.
  case CUPTI_DRIVER_TRACE_CBID_cuProfilerStart:
  case CUPTI_DRIVER_TRACE_CBID_cuProfilerStop:
    return batch_effect::keeps;
  // Unloading takes functions the replay needs: the batch is replayed at the unload's entry, or
  // at exit (under the same lock) given up.
  case CUPTI_DRIVER_TRACE_CBID_cuModuleUnload:
  case CUPTI_DRIVER_TRACE_CBID_cuLibraryUnload:
    return batch_effect::drops;
  default:
    return queries_only(cbid) ? batch_effect::keeps : batch_effect::replays;
  }
}

bool creates_managed_memory(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLibraryGetManaged;
}

bool needs_driver_callback(CUpti_CallbackId cbid) {
  return is_kernel_launch(cbid) || creates_managed_memory(cbid) ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop ||
         replay_batch_effect(cbid) != batch_effect::keeps;
}

} // namespace roofkit::inject
