// Decoding and re-issuing kernel launches from CUPTI driver callbacks.
#include "launch_args.hpp"

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
