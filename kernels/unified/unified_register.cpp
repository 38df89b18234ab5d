// Registers the unified-memory kernels: the same add on device memory, on managed memory first
// touched by the host (page faults inside the kernel), first touched by a GPU kernel, and
// prefetched to the GPU with cudaMemPrefetchAsync.
#include <cstring>

#include "common/array_kernel.hpp"
#include "common/buffers.hpp"
#include "common/check.hpp"
#include "common/fill.hpp"
#include "roofkit/core.hpp"
#include "unified/unified_kernels.hpp"
#include "vadd/vadd_reference.hpp"

namespace roofkit::kernels {

namespace {

constexpr const char* management_seed = "cuda-memory-management.txt";

enum class um_mode { device, host_init, gpu_init, prefetch };

launch_config add_launch(problem_size n) { return launch_1d(n, 256); }

class unified_instance final : public kernel_instance {
public:
  unified_instance(um_mode mode, std::string name) : mode_(mode), name_(std::move(name)) {}
  ~unified_instance() override { teardown(); }

  void setup(problem_size size) override {
    teardown();
    n_ = static_cast<std::size_t>(size);
    require_free_device_memory(3.0 * sizeof(float) * double(n_), name_);
    int device = 0, managed = 0, concurrent = 0;
    ROOFKIT_CUDA_CHECK(cudaGetDevice(&device));
    ROOFKIT_CUDA_CHECK(cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, device));
    ROOFKIT_CUDA_CHECK(
        cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, device));
    if (mode_ != um_mode::device && managed == 0)
      throw runtime_error(name_ + ": this GPU does not support managed memory");
    if (mode_ == um_mode::prefetch && concurrent == 0)
      throw runtime_error(name_ + ": this GPU cannot prefetch managed memory "
                                  "(no concurrent managed access)");
    const auto kind = mode_ == um_mode::device ? memory_kind::device : memory_kind::managed;
    x_ = float_buffer(n_, kind);
    y_ = float_buffer(n_, kind);
    z_ = float_buffer(n_, kind);
    if (mode_ == um_mode::device || mode_ == um_mode::gpu_init) {
      // First touch on the GPU: the pages are created in device memory.
      fill_random(x_.data(), n_, fresh_seed(), value_kind::uniform);
      fill_random(y_.data(), n_, fresh_seed(), value_kind::uniform);
      poison(z_.data(), z_.bytes());
      ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    } else {
      // Random values made on the GPU in scratch memory, kept on the host for every reset.
      float_buffer scratch(n_);
      fill_random(scratch.data(), n_, fresh_seed(), value_kind::uniform);
      x0_ = scratch.to_host();
      fill_random(scratch.data(), n_, fresh_seed(), value_kind::uniform);
      y0_ = scratch.to_host();
      reset(nullptr);
    }
    ready_ = true;
  }

  void reset(cudaStream_t stream) override {
    if (mode_ != um_mode::host_init && mode_ != um_mode::prefetch)
      return;
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    // Host writes: every page of x, y and z moves back to (or is created in) host memory.
    std::memcpy(x_.data(), x0_.data(), x_.bytes());
    std::memcpy(y_.data(), y0_.data(), y_.bytes());
    std::memset(z_.data(), 0xFF, z_.bytes());
    if (mode_ == um_mode::prefetch) {
      int device = 0;
      ROOFKIT_CUDA_CHECK(cudaGetDevice(&device));
      for (const auto* b : {&x_, &y_, &z_}) {
#if CUDART_VERSION >= 13000
        cudaMemLocation where{};
        where.type = cudaMemLocationTypeDevice;
        where.id = device;
        ROOFKIT_CUDA_CHECK(cudaMemPrefetchAsync(b->data(), b->bytes(), where, 0, stream));
#else
        ROOFKIT_CUDA_CHECK(cudaMemPrefetchAsync(b->data(), b->bytes(), device, stream));
#endif
      }
      ROOFKIT_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
  }

  void run(cudaStream_t stream) override {
    if (!ready_)
      throw runtime_error("run() before setup()");
    launch_managed_add(add_launch(static_cast<problem_size>(n_)), x_.data(), y_.data(), z_.data(),
                       n_, stream);
    ++runs_;
  }

  verification verify() override {
    ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    if (runs_ == 0)
      return verification{false, 0, 0, 0, "verify() before any run()"};
    const bool host_values = mode_ == um_mode::host_init || mode_ == um_mode::prefetch;
    const std::vector<float> x = host_values ? x0_ : x_.to_host();
    const std::vector<float> y = host_values ? y0_ : y_.to_host();
    std::vector<float> want(n_);
    add_reference(x, y, want);
    return compare_exact(z_.to_host(), want, "z = x + y");
  }

  void corrupt_output() override { corrupt_device_value(z_.data(), random_index(0, n_)); }

  void teardown() override {
    x_.reset();
    y_.reset();
    z_.reset();
    x0_.clear();
    y0_.clear();
    ready_ = false;
    runs_ = 0;
  }

  launch_config launch() const override {
    return with_attributes(add_launch(static_cast<problem_size>(n_)), managed_add_function());
  }
  const void* kernel_function() const override { return managed_add_function(); }
  std::map<std::string, std::string> facts() const override {
    auto f = function_facts(managed_add_function(), add_launch(static_cast<problem_size>(n_)));
    f["memory"] = mode_ == um_mode::device ? "cudaMalloc" : "cudaMallocManaged";
    return f;
  }

private:
  um_mode mode_;
  std::string name_;
  std::size_t n_ = 0;
  std::uint64_t runs_ = 0;
  bool ready_ = false;
  float_buffer x_, y_, z_;
  std::vector<float> x0_, y0_;
};

kernel_descriptor unified(um_mode mode, const char* name, const char* description,
                          const char* claim) {
  auto d = describe({.name = name,
                     .description = description,
                     .claim_id = claim,
                     .seed_file = management_seed,
                     .size_unit = "elements",
                     .default_size = problem_size{1} << 26,
                     .test_sizes = {1, 257, 100003},
                     .launch = add_launch,
                     .fp32_flops = [](problem_size n) { return double(n); },
                     .flops_formula = "N",
                     .minimal_bytes = [](problem_size n) { return 12.0 * double(n); },
                     .bytes_formula = "12 N",
                     .check = "bitwise: z = x + y"});
  d.family = "unified";
  d.max_size = problem_size{1} << 32;
  const bool moves_pages = mode == um_mode::host_init || mode == um_mode::prefetch;
  d.kind = moves_pages ? measurement::managed_memory : measurement::kernel;
  d.reset_before_each_run = moves_pages;
  d.device_bytes = [](problem_size n) { return 12.0 * double(n); };
  d.make = [mode, n = d.name] { return std::make_unique<unified_instance>(mode, n); };
  return d;
}

const kernel_registration registration{[] {
  return std::vector<kernel_descriptor>{
      unified(um_mode::device, "unified/device",
              "z = x + y on cudaMalloc memory: the bandwidth the managed variants are compared "
              "with",
              "um-gpu-init"),
      unified(um_mode::host_init, "unified/host-init",
              "z = x + y on cudaMallocManaged memory written by the host before every run: the "
              "kernel page-faults every page over to the GPU (reset rewrites x, y and z on the "
              "host)",
              "um-host-init-faults"),
      unified(um_mode::gpu_init, "unified/gpu-init",
              "z = x + y on managed memory first touched by a GPU fill kernel: the pages are "
              "born in device memory",
              "um-gpu-init"),
      unified(um_mode::prefetch, "unified/prefetch",
              "z = x + y on managed memory written by the host, then moved with "
              "cudaMemPrefetchAsync before the kernel (reset rewrites and prefetches, outside "
              "the timing)",
              "um-prefetch"),
  };
}};

} // namespace

} // namespace roofkit::kernels
