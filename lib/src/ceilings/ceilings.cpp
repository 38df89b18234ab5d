#include "roofkit/ceilings.hpp"

#include <algorithm>
#include <cmath>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include "ceiling_kernels.hpp"
#include "roofkit/device_check.hpp"
#include "roofkit/driver_api.hpp"
#include "roofkit/error.hpp"
#include "roofkit/timing.hpp"

namespace roofkit {

namespace {

struct device_buffer {
  void* ptr = nullptr;
  explicit device_buffer(std::size_t bytes) { ROOFKIT_CUDA_CHECK(cudaMalloc(&ptr, bytes)); }
  ~device_buffer() { cudaFree(ptr); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  template <class T> T* as() const { return static_cast<T*>(ptr); }
};

double theoretical_value(const std::vector<ceiling>& roofs, bool memory, precision p,
                         memory_level l) {
  for (const auto& c : roofs)
    if (c.is_memory == memory && (memory ? c.level == l : c.prec == p))
      return c.value;
  return 0;
}

ceiling_measurement measure(const std::string& name, const std::string& unit, double work,
                            const launch_fn& launch, const timing_options& t, double theoretical,
                            std::string method) {
  ceiling_measurement m;
  m.name = name;
  m.unit = unit;
  m.work = work;
  m.time = time_kernel(launch, t).time;
  m.value = m.time.median_s > 0 ? work / m.time.median_s : 0;
  m.best = m.time.min_s > 0 ? work / m.time.min_s : 0;
  m.theoretical = theoretical;
  m.method = std::move(method);
  return m;
}

/// cuBLAS through dlopen, so roofkit neither links it nor needs it.
class cublas_library {
public:
  cublas_library() {
    for (const char* soname : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"})
      if ((handle_ = dlopen(soname, RTLD_NOW | RTLD_LOCAL)))
        break;
    if (!handle_)
      return;
    create = reinterpret_cast<decltype(create)>(dlsym(handle_, "cublasCreate_v2"));
    destroy = reinterpret_cast<decltype(destroy)>(dlsym(handle_, "cublasDestroy_v2"));
    set_stream = reinterpret_cast<decltype(set_stream)>(dlsym(handle_, "cublasSetStream_v2"));
    sgemm = reinterpret_cast<decltype(sgemm)>(dlsym(handle_, "cublasSgemm_v2"));
    dgemm = reinterpret_cast<decltype(dgemm)>(dlsym(handle_, "cublasDgemm_v2"));
  }
  ~cublas_library() {
    if (handle_)
      dlclose(handle_);
  }
  cublas_library(const cublas_library&) = delete;
  cublas_library& operator=(const cublas_library&) = delete;
  bool ok() const { return create && destroy && set_stream && sgemm && dgemm; }

  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
  decltype(&cublasDgemm_v2) dgemm = nullptr;

private:
  void* handle_ = nullptr;
};

void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw runtime_error(fmt::format("{} failed: cuBLAS status {}", call, int(s)));
}

} // namespace

ceilings_result measure_ceilings(const ceilings_options& options,
                                 const std::vector<ceiling>& theoretical) {
  if (visible_device_count() == 0)
    throw no_device_error("no CUDA GPU visible: ceilings are measured on a GPU");
  require_device(options.device);
  ROOFKIT_CUDA_CHECK(cudaSetDevice(options.device));
  cudaDeviceProp prop{};
  ROOFKIT_CUDA_CHECK(cudaGetDeviceProperties(&prop, options.device));
  std::size_t free_bytes = 0, total_bytes = 0;
  ROOFKIT_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));

  timing_options t;
  t.device = options.device;
  t.repetitions = options.repetitions;
  t.observe_clock = false;
  ceilings_result result;
  const double dram_roof =
      theoretical_value(theoretical, true, precision::fp32, memory_level::dram);

  // DRAM: a grid-stride float4 copy far past the L2; bytes counted = read + written.
  std::size_t bytes = options.copy_bytes;
  if (bytes == 0)
    bytes = std::max<std::size_t>(std::size_t(8) * prop.l2CacheSize, std::size_t(1) << 30);
  bytes = std::min(bytes, free_bytes / 4) / 16 * 16;
  {
    device_buffer in(bytes), out(bytes);
    ceiling_kernels::launch_fill(in.as<float>(), bytes / 4, 1.0f, nullptr);
    ROOFKIT_CUDA_CHECK(cudaGetLastError());
    ceiling_measurement best;
    for (int threads : {256, 512, 1024})
      for (int waves : {2, 4, 8}) {
        const int blocks = prop.multiProcessorCount * waves * (2048 / threads) / 2;
        auto m = measure(
            "DRAM copy kernel", "B/s", 2.0 * double(bytes),
            [&](cudaStream_t s) {
              ceiling_kernels::launch_copy(in.ptr, out.ptr, bytes / 16, blocks, threads, s);
            },
            t, dram_roof,
            fmt::format("float4 grid-stride copy of {} MiB, {} x {} threads; bytes read + "
                        "written, median of {}",
                        bytes >> 20, blocks, threads, t.repetitions));
        if (m.value > best.value)
          best = m;
      }
    for (int threads : {256, 1024}) {
      auto m = measure(
          "DRAM copy kernel", "B/s", 2.0 * double(bytes),
          [&](cudaStream_t s) {
            ceiling_kernels::launch_copy_once(in.ptr, out.ptr, bytes / 16, threads, s);
          },
          t, dram_roof,
          fmt::format("float4 copy of {} MiB, one float4 per thread, blocks of {}; bytes read "
                      "+ written, median of {}",
                      bytes >> 20, threads, t.repetitions));
      if (m.value > best.value)
        best = m;
    }
    ROOFKIT_CUDA_CHECK(cudaGetLastError());
    result.measurements.push_back(best);
    if (options.references)
      result.measurements.push_back(measure(
          "cudaMemcpy D2D", "B/s", 2.0 * double(bytes),
          [&](cudaStream_t s) {
            ROOFKIT_CUDA_CHECK(
                cudaMemcpyAsync(out.ptr, in.ptr, bytes, cudaMemcpyDeviceToDevice, s));
          },
          t, dram_roof,
          fmt::format("cudaMemcpyAsync of {} MiB; bytes read + written, median of {}", bytes >> 20,
                      t.repetitions)));
  }

  // Compute: 8 independent FMA chains per thread, 8 resident blocks of 256 per SM.
  const int blocks = prop.multiProcessorCount * 8, threads = 256, iterations = 1 << 15;
  const double fma_flops = 2.0 * 8 * iterations * double(blocks) * threads;
  {
    device_buffer sink(std::size_t(blocks) * threads * sizeof(double));
    result.measurements.push_back(measure(
        "FP32 FMA kernel", "FLOP/s", fma_flops,
        [&](cudaStream_t s) {
          ceiling_kernels::launch_fma_f32(sink.as<float>(), iterations, blocks, threads, s);
        },
        t, theoretical_value(theoretical, false, precision::fp32, memory_level::dram),
        fmt::format("8 independent FFMA chains x {} iterations, {} x {} threads; 2 FLOP per "
                    "FMA, median of {}",
                    iterations, blocks, threads, t.repetitions)));
    result.measurements.push_back(measure(
        "FP64 FMA kernel", "FLOP/s", fma_flops / 4,
        [&](cudaStream_t s) {
          ceiling_kernels::launch_fma_f64(sink.as<double>(), iterations / 4, blocks, threads, s);
        },
        t, theoretical_value(theoretical, false, precision::fp64, memory_level::dram),
        fmt::format("8 independent DFMA chains x {} iterations, {} x {} threads; 2 FLOP per "
                    "FMA, median of {}",
                    iterations / 4, blocks, threads, t.repetitions)));
    ROOFKIT_CUDA_CHECK(cudaGetLastError());
  }

  // References: cuBLAS SGEMM and DGEMM (n = 8192) when the library is installed.
  cublas_library cublas;
  if (options.references && cublas.ok()) {
    const int n = 8192;
    const std::size_t elems = std::size_t(n) * n;
    if (3 * elems * sizeof(double) < free_bytes / 2) {
      device_buffer a(elems * sizeof(double)), b(elems * sizeof(double)), c(elems * sizeof(double));
      cublasHandle_t h = nullptr;
      check_cublas(cublas.create(&h), "cublasCreate");
      timing_options g = t;
      g.repetitions = std::min(t.repetitions, 10);
      try {
        ceiling_kernels::launch_fill(a.as<float>(), elems * 2, 0.5f, nullptr);
        ceiling_kernels::launch_fill(b.as<float>(), elems * 2, 0.25f, nullptr);
        const float alpha = 1, beta = 0;
        result.measurements.push_back(measure(
            "cuBLAS SGEMM 8192^3", "FLOP/s", 2.0 * n * double(n) * n,
            [&](cudaStream_t s) {
              check_cublas(cublas.set_stream(h, s), "cublasSetStream");
              check_cublas(cublas.sgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a.as<float>(),
                                        n, b.as<float>(), n, &beta, c.as<float>(), n),
                           "cublasSgemm");
            },
            g, theoretical_value(theoretical, false, precision::fp32, memory_level::dram),
            fmt::format("cublasSgemm, default math mode (no TF32), median of {}", g.repetitions)));
        const double dalpha = 1, dbeta = 0;
        result.measurements.push_back(measure(
            "cuBLAS DGEMM 8192^3", "FLOP/s", 2.0 * n * double(n) * n,
            [&](cudaStream_t s) {
              check_cublas(cublas.set_stream(h, s), "cublasSetStream");
              check_cublas(cublas.dgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &dalpha,
                                        a.as<double>(), n, b.as<double>(), n, &dbeta,
                                        c.as<double>(), n),
                           "cublasDgemm");
            },
            g, theoretical_value(theoretical, false, precision::tensor_fp64, memory_level::dram),
            fmt::format("cublasDgemm (FP64 tensor cores where present), median of {}",
                        g.repetitions)));
      } catch (...) {
        cublas.destroy(h);
        throw;
      }
      cublas.destroy(h);
    }
  }

  const clock_reading clock = observe_sm_clock(options.device);
  result.sm_clock_mhz = clock.mhz;
  result.sm_clock_method = clock.method;
  const int mem_khz = [&] {
    int v = 0;
    cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, options.device);
    return v;
  }();
  // The DRAM roof is the fastest way this GPU was seen to move data: our copy or cudaMemcpy.
  const ceiling_measurement* dram_best = nullptr;
  for (const auto& m : result.measurements)
    if (m.unit == "B/s" && (!dram_best || m.value > dram_best->value))
      dram_best = &m;
  for (const auto& m : result.measurements) {
    if (m.unit == "B/s" && &m != dram_best)
      continue;
    ceiling c;
    c.source = ceiling_source::measured;
    c.sm_clock_mhz = clock.mhz;
    c.mem_clock_mhz = mem_khz / 1000.0;
    c.value = m.value;
    c.method = "measured: " + m.name + ", " + m.method;
    if (m.unit == "B/s") {
      c.is_memory = true;
      c.level = memory_level::dram;
    } else if (m.name == "FP32 FMA kernel") {
      c.prec = precision::fp32;
    } else if (m.name == "FP64 FMA kernel") {
      c.prec = precision::fp64;
    } else {
      continue;
    }
    result.ceilings.push_back(c);
  }
  return result;
}

table measured_ceilings_table(const ceilings_result& result) {
  table t;
  t.id = "ceilings_measured";
  t.title = "Measured ceilings and references";
  t.columns = {{"name", "Measurement"},
               {"value", "Median rate", "", 1},
               {"unit", "Unit"},
               {"best", "Best rate", "", 1},
               {"theoretical", "Theoretical", "", 1},
               {"pct_of_theoretical", "% of theoretical", "%", 1},
               {"time_us", "Median time", "us", 1},
               {"method", "Method"}};
  for (const auto& m : result.measurements) {
    const bool bytes = m.unit == "B/s";
    const double scale = bytes ? 1e9 : 1e12;
    t.rows.push_back(
        {m.name, m.value / scale, std::string(bytes ? "GB/s" : "TFLOP/s"), m.best / scale,
         m.theoretical > 0 ? cell(m.theoretical / scale) : cell(std::monostate{}),
         m.theoretical > 0 ? cell(100 * m.value / m.theoretical) : cell(std::monostate{}),
         m.time.median_s * 1e6, m.method});
  }
  t.notes.push_back(fmt::format("SM clock observed after the runs: {:.0f} MHz ({}).",
                                result.sm_clock_mhz, result.sm_clock_method));
  return t;
}

} // namespace roofkit
