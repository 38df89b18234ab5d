// Registers per thread of every kernel launch as CUPTI's activity records give them
// (CUpti_ActivityKernel10::registersPerThread, what Nsight Systems shows), beside
// cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS) of the launched function (what roofkit records).
// An injection library: CUDA_INJECTION64_PATH=libregs_activity.so APP; one line per launch on
// stderr at exit: "regs activity=A attribute=F name=N". Used by validation/lab/regs.sh.
#include <cuda.h>
#include <cupti.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::mutex lock;
std::vector<int> attribute_regs; // per launch, in launch order (correlation order)
std::vector<std::string> lines;

void CUPTIAPI requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 8 << 20;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
      continue;
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    std::lock_guard<std::mutex> g(lock);
    const int attr =
        k->correlationId < attribute_regs.size() ? attribute_regs[k->correlationId] : -1;
    lines.push_back("regs activity=" + std::to_string(k->registersPerThread) +
                    " attribute=" + std::to_string(attr) + " name=" + k->name);
  }
  std::free(buffer);
}

void CUPTIAPI on_launch(void*, CUpti_CallbackDomain, CUpti_CallbackId id, const void* data) {
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (cb->callbackSite != CUPTI_API_ENTER)
    return;
  CUfunction f = nullptr;
  if (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
      id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz)
    f = static_cast<const cuLaunchKernel_params*>(cb->functionParams)->f;
  else if (id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
           id == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz)
    f = static_cast<const cuLaunchKernelEx_params*>(cb->functionParams)->f;
  else
    return;
  CUfunctionLoadingState state;
  if (cuFuncIsLoaded(&state, f) != CUDA_SUCCESS) {
    CUfunction g = nullptr;
    if (cuKernelGetFunction(&g, reinterpret_cast<CUkernel>(f)) == CUDA_SUCCESS)
      f = g;
  }
  int regs = -1;
  if (cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f) != CUDA_SUCCESS)
    regs = -2;
  std::lock_guard<std::mutex> g(lock);
  if (attribute_regs.size() <= cb->correlationId)
    attribute_regs.resize(cb->correlationId + 1, -1);
  attribute_regs[cb->correlationId] = regs;
}

void at_exit() {
  cuptiActivityFlushAll(1);
  std::lock_guard<std::mutex> g(lock);
  for (const auto& l : lines)
    std::fprintf(stderr, "%s\n", l.c_str());
}

} // namespace

extern "C" int InitializeInjection() {
  CUpti_SubscriberHandle sub;
  bool ok = cuptiSubscribe(&sub, on_launch, nullptr) == CUPTI_SUCCESS;
  for (CUpti_CallbackId id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz})
    ok = ok && cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_DRIVER_API, id) == CUPTI_SUCCESS;
  if (!ok || cuptiActivityRegisterCallbacks(requested, completed) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
    std::fprintf(stderr, "regs_activity: CUPTI set-up failed\n");
    return 0;
  }
  std::atexit(at_exit);
  return 1;
}
