// Decoding and re-issuing kernel launches from CUPTI driver callbacks.
#include "launch_args.hpp"

#include <algorithm>
#include <cstring>

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

bool keeps_replay_batch(CUpti_CallbackId cbid) {
  if (is_kernel_launch(cbid))
    return true;
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

bool runtime_keeps_replay_batch(CUpti_CallbackId cbid) {
  switch (cbid) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaDriverGetVersion_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaRuntimeGetVersion_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceProperties_v12000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaChooseDevice_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorString_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetErrorName_v6050:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
  case CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetCacheConfig_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetAttributes_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetAttribute_v9000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaFuncSetSharedMemConfig_v4020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetName_v12030:
  case CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetParamInfo_v12040:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetFuncBySymbol_v11000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetKernel_v12000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaKernelSetAttributeForDevice_v12060:
  case CUPTI_RUNTIME_TRACE_CBID_cudaSetDevice_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceFlags_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemGetInfo_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetSymbolAddress_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetSymbolSize_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreate_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithFlags_v5000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamCreateWithPriority_v5050:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventCreate_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventCreateWithFlags_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecord_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_v11010:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventRecordWithFlags_ptsz_v11010:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventDestroy_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaEventElapsedTime_v12080:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamWaitEvent_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaPointerGetAttributes_v4000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetLimit_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetCacheConfig_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetByPCIBusId_v4010:
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetPCIBusId_v4010:
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetPriority_v5050:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetPriority_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetFlags_v5050:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetFlags_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetStreamPriorityRange_v5050:
  case CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6050:
  case CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyAvailableDynamicSMemPerBlock_v10200:
  case CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxPotentialClusterSize_v11070:
  case CUPTI_RUNTIME_TRACE_CBID_cudaOccupancyMaxActiveClusters_v11070:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_ptsz_v10000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v10010:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v10010:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_v11030:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v2_ptsz_v11030:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_v12030:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetCaptureInfo_ptsz_v12030:
  case CUPTI_RUNTIME_TRACE_CBID_cudaThreadExchangeStreamCaptureMode_v10010:
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetDefaultMemPool_v11020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetMemPool_v11020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemPoolGetAttribute_v11020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_v11030:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPoint_ptsz_v11030:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_v12050:
  case CUPTI_RUNTIME_TRACE_CBID_cudaGetDriverEntryPointByVersion_ptsz_v12050:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetId_v12000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetId_ptsz_v12000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetDevice_v12080:
  case CUPTI_RUNTIME_TRACE_CBID_cudaStreamGetDevice_ptsz_v12080:
    return true;
  default:
    return false;
  }
}

namespace {

bool per_thread(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
}

template <class P> launch_args classic(const P* p) {
  launch_args a;
  a.function = p->f;
  a.grid = {p->gridDimX, p->gridDimY, p->gridDimZ};
  a.block = {p->blockDimX, p->blockDimY, p->blockDimZ};
  a.dynamic_smem = p->sharedMemBytes;
  a.stream = p->hStream;
  a.params = p->kernelParams;
  return a;
}

} // namespace

launch_args decode_launch(CUpti_CallbackId cbid, const void* params) {
  launch_args a;
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
    const auto* p = static_cast<const cuLaunchKernel_params*>(params);
    a = classic(p);
    a.extra = p->extra;
    break;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
    a = classic(static_cast<const cuLaunchCooperativeKernel_params*>(params));
    a.cooperative = true;
    break;
  }
  default: { // cuLaunchKernelEx
    const auto* p = static_cast<const cuLaunchKernelEx_params*>(params);
    a.function = p->f;
    a.params = p->kernelParams;
    a.extra = p->extra;
    a.config = p->config;
    if (const CUlaunchConfig* c = p->config) {
      a.grid = {c->gridDimX, c->gridDimY, c->gridDimZ};
      a.block = {c->blockDimX, c->blockDimY, c->blockDimZ};
      a.dynamic_smem = c->sharedMemBytes;
      a.stream = c->hStream;
    }
    break;
  }
  }
  if (a.stream == nullptr && per_thread(cbid))
    a.stream = CU_STREAM_PER_THREAD;
  return a;
}

namespace {

struct param_slot {
  std::size_t offset = 0;
  std::size_t size = 0;
};

// The offsets and sizes of a function's parameters; false when the driver cannot tell. The runtime
// may pass a CUkernel where a CUfunction is expected (as in load_function).
bool param_slots(CUfunction f, std::vector<param_slot>& out) {
  CUfunctionLoadingState state;
  const bool is_function = cuFuncIsLoaded(&state, f) == CUDA_SUCCESS;
  for (std::size_t i = 0;; ++i) {
    param_slot p;
    const CUresult r =
        is_function ? cuFuncGetParamInfo(f, i, &p.offset, &p.size)
                    : cuKernelGetParamInfo(reinterpret_cast<CUkernel>(f), i, &p.offset, &p.size);
    if (r == CUDA_ERROR_INVALID_VALUE) // past the last parameter
      return true;
    if (r != CUDA_SUCCESS)
      return false;
    out.push_back(p);
  }
}

} // namespace

std::unique_ptr<captured_launch> captured_launch::copy(const launch_args& a) {
  std::unique_ptr<captured_launch> c(new captured_launch);
  c->args_ = a;
  c->args_.params = nullptr;
  c->args_.extra = nullptr;
  c->args_.config = nullptr;
  if (a.params) {
    std::vector<param_slot> slots;
    if (!param_slots(a.function, slots))
      return nullptr;
    std::size_t total = 0;
    for (const auto& p : slots)
      total = std::max(total, p.offset + p.size);
    c->param_bytes_.resize(total);
    for (std::size_t i = 0; i < slots.size(); ++i) {
      std::memcpy(c->param_bytes_.data() + slots[i].offset, a.params[i], slots[i].size);
      c->param_ptrs_.push_back(c->param_bytes_.data() + slots[i].offset);
    }
    c->args_.params = c->param_ptrs_.data();
  }
  if (a.extra) {
    const void* buffer = nullptr;
    const std::size_t* size = nullptr;
    for (void* const* e = a.extra; *e != CU_LAUNCH_PARAM_END; e += 2) {
      if (e[0] == CU_LAUNCH_PARAM_BUFFER_POINTER)
        buffer = e[1];
      else if (e[0] == CU_LAUNCH_PARAM_BUFFER_SIZE)
        size = static_cast<const std::size_t*>(e[1]);
      else
        return nullptr;
    }
    if ((buffer != nullptr) != (size != nullptr))
      return nullptr;
    if (buffer && size) {
      c->packed_size_ = *size;
      c->packed_.assign(static_cast<const std::uint8_t*>(buffer),
                        static_cast<const std::uint8_t*>(buffer) + *size);
      c->extra_ = {CU_LAUNCH_PARAM_BUFFER_POINTER, c->packed_.data(), CU_LAUNCH_PARAM_BUFFER_SIZE,
                   &c->packed_size_, CU_LAUNCH_PARAM_END};
      c->args_.extra = c->extra_.data();
    }
  }
  if (a.config) {
    c->config_ = *a.config;
    if (a.config->attrs && a.config->numAttrs > 0)
      c->attrs_.assign(a.config->attrs, a.config->attrs + a.config->numAttrs);
    c->config_.attrs = c->attrs_.empty() ? nullptr : c->attrs_.data();
    c->args_.config = &c->config_;
  }
  return c;
}

CUresult relaunch(const launch_args& a) {
  if (a.config)
    return cuLaunchKernelEx(a.config, a.function, a.params, a.extra);
  if (a.cooperative)
    return cuLaunchCooperativeKernel(a.function, a.grid[0], a.grid[1], a.grid[2], a.block[0],
                                     a.block[1], a.block[2], a.dynamic_smem, a.stream, a.params);
  return cuLaunchKernel(a.function, a.grid[0], a.grid[1], a.grid[2], a.block[0], a.block[1],
                        a.block[2], a.dynamic_smem, a.stream, a.params, a.extra);
}

} // namespace roofkit::inject
