// Decoding and re-issuing kernel launches from CUPTI driver callbacks.
#include "launch_args.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include <fmt/format.h>

namespace roofkit::inject {

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

// A launched function: a CUfunction, or the CUkernel the runtime may pass in its place (as in
// load_function), whose attributes are per device.
struct launched_function {
  CUfunction f = nullptr;
  bool is_function = true;
  CUdevice device = 0;

  static launched_function of(CUfunction f) {
    launched_function fn{f};
    CUfunctionLoadingState state;
    fn.is_function = cuFuncIsLoaded(&state, f) == CUDA_SUCCESS;
    if (!fn.is_function && cuCtxGetDevice(&fn.device) != CUDA_SUCCESS)
      fn.f = nullptr;
    return fn;
  }
  CUkernel kernel() const { return reinterpret_cast<CUkernel>(f); }
  bool get(CUfunction_attribute a, int& value) const {
    if (!f)
      return false;
    return (is_function ? cuFuncGetAttribute(&value, a, f)
                        : cuKernelGetAttribute(&value, a, kernel(), device)) == CUDA_SUCCESS;
  }
  bool set(CUfunction_attribute a, int value) const {
    if (!f)
      return false;
    return (is_function ? cuFuncSetAttribute(f, a, value)
                        : cuKernelSetAttribute(a, value, kernel(), device)) == CUDA_SUCCESS;
  }
};

// The function attributes that libraries set before a launch and that decide whether a launch's
// configuration is valid: cuDNN's batch norms set the largest dynamic shared memory per launch, so
// a launch of more than the last one set fails with CUDA_ERROR_INVALID_VALUE when re-issued.
constexpr std::array<CUfunction_attribute, 7> launch_validity_attributes{
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH,
    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
    CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE};

// The offsets and sizes of a function's parameters; false when the driver cannot tell.
bool param_slots(CUfunction f, std::vector<param_slot>& out) {
  const launched_function fn = launched_function::of(f);
  for (std::size_t i = 0;; ++i) {
    param_slot p;
    const CUresult r = fn.is_function ? cuFuncGetParamInfo(f, i, &p.offset, &p.size)
                                      : cuKernelGetParamInfo(fn.kernel(), i, &p.offset, &p.size);
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
  const launched_function fn = launched_function::of(a.function);
  for (const CUfunction_attribute attribute : launch_validity_attributes) {
    int value = 0;
    if (fn.get(attribute, value))
      c->function_attributes_.emplace_back(attribute, value);
  }
  return c;
}

CUresult captured_launch::relaunch() const {
  const launched_function fn = launched_function::of(args_.function);
  std::vector<std::pair<CUfunction_attribute, int>> found;
  for (const auto& [attribute, value] : function_attributes_) {
    int now = 0;
    if (fn.get(attribute, now) && now != value && fn.set(attribute, value))
      found.emplace_back(attribute, now);
  }
  const CUresult r = inject::relaunch(args_);
  for (auto it = found.rbegin(); it != found.rend(); ++it)
    fn.set(it->first, it->second);
  return r;
}

std::string captured_launch::describe() const {
  const launch_args& a = args_;
  std::string how = a.cooperative ? "a cooperative launch" : "cuLaunchKernel";
  if (a.config) {
    how = "cuLaunchKernelEx";
    for (unsigned i = 0; i < a.config->numAttrs; ++i)
      how += fmt::format("{}{}", i == 0 ? " with attributes " : ", ", int(a.config->attrs[i].id));
  }
  return fmt::format("grid ({},{},{}), block ({},{},{}), {} B dynamic shared memory, {}", a.grid[0],
                     a.grid[1], a.grid[2], a.block[0], a.block[1], a.block[2], a.dynamic_smem, how);
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

namespace roofkit::inject {

namespace {

template <class P, class F> std::function<CUresult()> bound(const void* params, F call) {
  const P p = *static_cast<const P*>(params);
  return [p, call] { return call(p); };
}

// The asynchronous forms on their stream; the stream-ordered ones (ptsz, ptds) on the calling
// thread's: a replay waits for each step, so the stream only orders the memset after the launches
// before it, as it did for the application.
std::function<CUresult()> async_memset(CUpti_CallbackId cbid, const void* params) {
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async:
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async_ptsz:
    return bound<cuMemsetD8Async_params>(params, [](const cuMemsetD8Async_params& p) {
      return cuMemsetD8Async(p.dstDevice, p.uc, p.N, p.hStream);
    });
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async:
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16Async_ptsz:
    return bound<cuMemsetD16Async_params>(params, [](const cuMemsetD16Async_params& p) {
      return cuMemsetD16Async(p.dstDevice, p.us, p.N, p.hStream);
    });
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async:
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32Async_ptsz:
    return bound<cuMemsetD32Async_params>(params, [](const cuMemsetD32Async_params& p) {
      return cuMemsetD32Async(p.dstDevice, p.ui, p.N, p.hStream);
    });
  default:
    return {};
  }
}

} // namespace

std::function<CUresult()> memset_step(CUpti_CallbackId cbid, const void* params) {
  if (!params)
    return {};
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds:
    return bound<cuMemsetD8_v2_params>(
        params, [](const cuMemsetD8_v2_params& p) { return cuMemsetD8(p.dstDevice, p.uc, p.N); });
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD16_v2_ptds:
    return bound<cuMemsetD16_v2_params>(
        params, [](const cuMemsetD16_v2_params& p) { return cuMemsetD16(p.dstDevice, p.us, p.N); });
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemsetD32_v2_ptds:
    return bound<cuMemsetD32_v2_params>(
        params, [](const cuMemsetD32_v2_params& p) { return cuMemsetD32(p.dstDevice, p.ui, p.N); });
  default:
    return async_memset(cbid, params);
  }
}

namespace {

// The driver's value of the attribute `attr` of pointer `p`, or `otherwise` when it has none.
unsigned pointer_attribute(CUdeviceptr p, CUpointer_attribute attr, unsigned otherwise) {
  unsigned value = otherwise;
  return cuPointerGetAttribute(&value, attr, p) == CUDA_SUCCESS ? value : otherwise;
}

// Device memory of `ctx` that only a call can read from the host: not managed, not mapped.
bool plain_device_memory(CUdeviceptr p, CUcontext ctx) {
  CUcontext owner = nullptr;
  return pointer_attribute(p, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, 0) == CU_MEMORYTYPE_DEVICE &&
         pointer_attribute(p, CU_POINTER_ATTRIBUTE_IS_MANAGED, 1) == 0 &&
         cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, p) == CUDA_SUCCESS &&
         owner == ctx;
}

// The copy again when both of its ends are plain device memory of `ctx`.
template <class P, class F>
std::function<CUresult()> plain_copy(const void* params, CUcontext ctx, F call) {
  const auto& p = *static_cast<const P*>(params);
  if (!plain_device_memory(p.dstDevice, ctx) || !plain_device_memory(p.srcDevice, ctx))
    return {};
  return bound<P>(params, call);
}

// Host memory that the driver knows as page-locked (pageable memory is unknown to it).
bool page_locked(const void* p) {
  return pointer_attribute(reinterpret_cast<CUdeviceptr>(p), CU_POINTER_ATTRIBUTE_MEMORY_TYPE, 0) ==
         CU_MEMORYTYPE_HOST;
}

bool managed_memory(const void* p) {
  return pointer_attribute(reinterpret_cast<CUdeviceptr>(p), CU_POINTER_ATTRIBUTE_IS_MANAGED, 0) !=
         0;
}

// The copy again from the host bytes as they are now, once the device has finished writing them.
std::function<CUresult()> copy_from_now(CUdeviceptr dst, const void* src, std::size_t n,
                                        CUcontext ctx, std::size_t max_bytes) {
  if (n == 0 || n > max_bytes || !src || !plain_device_memory(dst, ctx) || managed_memory(src) ||
      (page_locked(src) && cuCtxSynchronize() != CUDA_SUCCESS))
    return {};
  const auto* begin = static_cast<const std::uint8_t*>(src);
  auto bytes = std::make_shared<const std::vector<std::uint8_t>>(begin, begin + n);
  return [dst, bytes] { return cuMemcpyHtoD(dst, bytes->data(), bytes->size()); };
}

} // namespace

std::function<CUresult()> host_copy_step(CUpti_CallbackId cbid, const void* params, CUcontext ctx,
                                         std::size_t max_bytes) {
  if (!params)
    return {};
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds: {
    const auto& p = *static_cast<const cuMemcpyHtoD_v2_params*>(params);
    return copy_from_now(p.dstDevice, p.srcHost, p.ByteCount, ctx, max_bytes);
  }
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz: {
    const auto& p = *static_cast<const cuMemcpyHtoDAsync_v2_params*>(params);
    CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
    if (cuStreamIsCapturing(p.hStream, &capture) != CUDA_SUCCESS ||
        capture != CU_STREAM_CAPTURE_STATUS_NONE)
      return {};
    return copy_from_now(p.dstDevice, p.srcHost, p.ByteCount, ctx, max_bytes);
  }
  default:
    return {};
  }
}

std::function<CUresult()> device_copy_step(CUpti_CallbackId cbid, const void* params,
                                           CUcontext ctx) {
  if (!params)
    return {};
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoD_v2_ptds:
    return plain_copy<cuMemcpyDtoD_v2_params>(params, ctx, [](const cuMemcpyDtoD_v2_params& q) {
      return cuMemcpyDtoD(q.dstDevice, q.srcDevice, q.ByteCount);
    });
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2:
  case CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoDAsync_v2_ptsz:
    return plain_copy<cuMemcpyDtoDAsync_v2_params>(
        params, ctx, [](const cuMemcpyDtoDAsync_v2_params& q) {
          return cuMemcpyDtoDAsync(q.dstDevice, q.srcDevice, q.ByteCount, q.hStream);
        });
  default:
    return {};
  }
}

} // namespace roofkit::inject
