// The interconnect roof: peer copies between every pair of GPUs and NCCL's all-reduce over
// message sizes, the way nccl-tests measures it (one process, ncclCommInitAll).
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "internal/nccl_api.hpp"
#include "roofkit/core.hpp"
#include "roofkit/device.hpp"
#include "roofkit/interconnect.hpp"
#include "roofkit/ranks.hpp"

namespace roofkit {

namespace {

/// Device buffers and a stream per GPU, freed at the end.
struct gpu_buffers {
  std::vector<void*> a;
  std::vector<void*> b;
  std::vector<cudaStream_t> streams;
  ~gpu_buffers() {
    for (std::size_t d = 0; d < a.size(); ++d) {
      cudaSetDevice(static_cast<int>(d));
      cudaFree(a[d]);
      cudaFree(b[d]);
      if (d < streams.size())
        cudaStreamDestroy(streams[d]);
    }
  }
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// Seconds of `copies` issued on stream `s0` of GPU `dev` (and `s1` of GPU `dev1`, joined back),
/// timed with events on `s0`.
template <class F> double timed(int dev, cudaStream_t s0, int dev1, cudaStream_t s1, F&& copies) {
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  cudaEvent_t joined = nullptr;
  ROOFKIT_CUDA_CHECK(cudaSetDevice(dev1)); // an event is recorded on its own device's streams
  ROOFKIT_CUDA_CHECK(cudaEventCreateWithFlags(&joined, cudaEventDisableTiming));
  ROOFKIT_CUDA_CHECK(cudaSetDevice(dev));
  ROOFKIT_CUDA_CHECK(cudaEventCreate(&start));
  ROOFKIT_CUDA_CHECK(cudaEventCreate(&stop));
  ROOFKIT_CUDA_CHECK(cudaEventRecord(start, s0));
  if (s1)
    ROOFKIT_CUDA_CHECK(cudaStreamWaitEvent(s1, start));
  copies();
  if (s1) {
    ROOFKIT_CUDA_CHECK(cudaEventRecord(joined, s1));
    ROOFKIT_CUDA_CHECK(cudaStreamWaitEvent(s0, joined));
  }
  ROOFKIT_CUDA_CHECK(cudaEventRecord(stop, s0));
  ROOFKIT_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  ROOFKIT_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaEventDestroy(joined);
  return ms * 1e-3;
}

peer_bandwidth measure_pair(gpu_buffers& g, int i, int j, const interconnect_options& o) {
  peer_bandwidth p;
  p.src = i;
  p.dst = j;
  p.bytes = o.copy_bytes;
  int can = 0;
  ROOFKIT_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, i, j));
  p.peer_access = can != 0;
  const auto n = static_cast<std::size_t>(o.copy_bytes);
  auto one_way = [&] {
    ROOFKIT_CUDA_CHECK(cudaMemcpyPeerAsync(g.b[j], j, g.a[i], i, n, g.streams[i]));
  };
  auto both = [&] {
    one_way();
    ROOFKIT_CUDA_CHECK(cudaMemcpyPeerAsync(g.b[i], i, g.a[j], j, n, g.streams[j]));
  };
  timed(i, g.streams[i], j, g.streams[j], both); // warm-up
  std::vector<double> t1;
  std::vector<double> t2;
  for (int r = 0; r < o.repetitions; ++r) {
    t1.push_back(timed(i, g.streams[i], j, nullptr, one_way));
    t2.push_back(timed(i, g.streams[i], j, g.streams[j], both));
  }
  p.one_way_bps = o.copy_bytes / median_of(t1);
  p.both_ways_bps = 2 * o.copy_bytes / median_of(t2);
  return p;
}

template <class F> F symbol(void* lib, const char* name) {
  return reinterpret_cast<F>(dlsym(lib, name));
}

void sweep_all_reduce(interconnect_result& out, gpu_buffers& g, const interconnect_options& o) {
  const char* env = std::getenv("ROOFKIT_NCCL_LIB");
  std::vector<std::string> py;
  for (const char* d :
       {"/usr/lib/python3/dist-packages", "/usr/local/lib/python3.10/dist-packages",
        "/usr/local/lib/python3.11/dist-packages", "/usr/local/lib/python3.12/dist-packages",
        "/usr/lib/python3.12/site-packages"})
    py.emplace_back(d);
  if (const char* venv = std::getenv("VIRTUAL_ENV"))
    for (const char* v : {"3.10", "3.11", "3.12", "3.13"})
      py.push_back(fmt::format("{}/lib/python{}/site-packages", venv, v));
  void* lib = nullptr;
  for (const auto& c : nccl_library_candidates(o.nccl_library, env ? env : "", py))
    if ((lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) {
      out.nccl_library = c;
      break;
    }
  if (!lib) {
    out.nccl_note = "NCCL not found (libnccl.so.2; set ROOFKIT_NCCL_LIB to its path): the "
                    "all-reduce sweep is skipped";
    return;
  }
  const auto init_all = symbol<nccl::comm_init_all_fn>(lib, "ncclCommInitAll");
  const auto all_reduce = symbol<nccl::all_reduce_fn>(lib, "ncclAllReduce");
  const auto group_start = symbol<nccl::group_fn>(lib, "ncclGroupStart");
  const auto group_end = symbol<nccl::group_fn>(lib, "ncclGroupEnd");
  const auto destroy = symbol<nccl::comm_destroy_fn>(lib, "ncclCommDestroy");
  const auto version = symbol<nccl::get_version_fn>(lib, "ncclGetVersion");
  if (!init_all || !all_reduce || !group_start || !group_end || !destroy) {
    out.nccl_note = fmt::format("'{}' lacks NCCL's entry points: the all-reduce sweep is skipped",
                                out.nccl_library);
    return;
  }
  if (version)
    version(&out.nccl_version);
  const int n = out.gpus;
  std::vector<nccl::comm_t> comms(static_cast<std::size_t>(n));
  std::vector<int> devs(static_cast<std::size_t>(n));
  for (int d = 0; d < n; ++d)
    devs[static_cast<std::size_t>(d)] = d;
  auto check = [&](nccl::result_t r, const char* what) {
    if (r != nccl::success)
      throw runtime_error(fmt::format("{} failed with NCCL error {}", what, r));
  };
  check(init_all(comms.data(), n, devs.data()), "ncclCommInitAll");
  auto run = [&](std::size_t count, int iterations) {
    for (int d = 0; d < n; ++d) { // every GPU starts from an idle stream
      ROOFKIT_CUDA_CHECK(cudaSetDevice(d));
      ROOFKIT_CUDA_CHECK(cudaDeviceSynchronize());
    }
    std::vector<cudaEvent_t> start(static_cast<std::size_t>(n));
    std::vector<cudaEvent_t> stop(static_cast<std::size_t>(n));
    for (int d = 0; d < n; ++d) {
      const auto u = static_cast<std::size_t>(d);
      ROOFKIT_CUDA_CHECK(cudaSetDevice(d));
      ROOFKIT_CUDA_CHECK(cudaEventCreate(&start[u]));
      ROOFKIT_CUDA_CHECK(cudaEventCreate(&stop[u]));
      ROOFKIT_CUDA_CHECK(cudaEventRecord(start[u], g.streams[u]));
    }
    for (int it = 0; it < iterations; ++it) {
      check(group_start(), "ncclGroupStart");
      for (int d = 0; d < n; ++d) {
        const auto u = static_cast<std::size_t>(d);
        check(all_reduce(g.a[u], g.b[u], count, nccl::float32, nccl::sum, comms[u], g.streams[u]),
              "ncclAllReduce");
      }
      check(group_end(), "ncclGroupEnd");
    }
    double slowest = 0;
    for (int d = 0; d < n; ++d) {
      const auto u = static_cast<std::size_t>(d);
      ROOFKIT_CUDA_CHECK(cudaSetDevice(d));
      ROOFKIT_CUDA_CHECK(cudaEventRecord(stop[u], g.streams[u]));
      ROOFKIT_CUDA_CHECK(cudaEventSynchronize(stop[u]));
      float ms = 0;
      ROOFKIT_CUDA_CHECK(cudaEventElapsedTime(&ms, start[u], stop[u]));
      slowest = std::max(slowest, ms * 1e-3 / iterations);
      cudaEventDestroy(start[u]);
      cudaEventDestroy(stop[u]);
    }
    return slowest;
  };
  for (double bytes = o.min_all_reduce_bytes; bytes <= o.max_all_reduce_bytes; bytes *= 4) {
    const auto count = static_cast<std::size_t>(bytes / 4);
    run(count, 5); // warm-up
    all_reduce_point p;
    p.bytes = static_cast<double>(count) * 4;
    p.time_s = run(count, o.all_reduce_iterations);
    p.algbw = p.bytes / p.time_s;
    p.busbw = p.algbw * bus_factor(collective_op::all_reduce, n);
    out.all_reduce.push_back(p);
  }
  for (auto c : comms)
    destroy(c);
}

} // namespace

std::vector<std::string> nccl_library_candidates(const std::string& explicit_path,
                                                 const std::string& env_path,
                                                 const std::vector<std::string>& python_lib_dirs) {
  std::vector<std::string> out;
  if (!explicit_path.empty())
    return {explicit_path}; // asked for: no other one stands in for it
  if (!env_path.empty())
    out.push_back(env_path);
  out.emplace_back("libnccl.so.2");
  for (const auto& d : python_lib_dirs)
    out.push_back(d + "/nvidia/nccl/lib/libnccl.so.2");
  return out;
}

std::optional<nvlink_spec> theoretical_nvlink(const std::string& device_name, int cc_major,
                                              int cc_minor) {
  const bool pcie =
      device_name.find("PCIe") != std::string::npos || device_name.find("NVL") != std::string::npos;
  auto has = [&](const char* s) { return device_name.find(s) != std::string::npos; };
  nvlink_spec s;
  if (cc_major == 9 && cc_minor == 0 && !pcie && (has("H100") || has("H200") || has("H800"))) {
    s.links = 18;
    s.per_link_per_direction_bps = 25e9;
    s.source = "NVLink 4 (H100/H200 SXM datasheets: 18 links, 900 GB/s total, 25 GB/s per link "
               "and direction)";
  } else if (cc_major == 8 && cc_minor == 0 && !pcie && has("A100")) {
    s.links = 12;
    s.per_link_per_direction_bps = 25e9;
    s.source = "NVLink 3 (A100 SXM datasheet: 12 links, 600 GB/s total)";
  } else {
    return std::nullopt;
  }
  s.per_direction_bps = s.links * s.per_link_per_direction_bps;
  return s;
}

interconnect_result measure_interconnect(const interconnect_options& o) {
  interconnect_result out;
  ROOFKIT_CUDA_CHECK(cudaGetDeviceCount(&out.gpus));
  if (out.gpus < 1)
    return out;
  const device_model m = query_device(0);
  out.device_name = m.name;
  out.theoretical = theoretical_nvlink(m.name, m.cc_major, m.cc_minor);
  if (out.gpus < 2)
    return out;
  gpu_buffers g;
  const auto bytes = static_cast<std::size_t>(std::max(o.copy_bytes, o.max_all_reduce_bytes));
  for (int d = 0; d < out.gpus; ++d) {
    ROOFKIT_CUDA_CHECK(cudaSetDevice(d));
    g.a.push_back(nullptr);
    g.b.push_back(nullptr);
    g.streams.push_back(nullptr);
    ROOFKIT_CUDA_CHECK(cudaMalloc(&g.a.back(), bytes));
    ROOFKIT_CUDA_CHECK(cudaMalloc(&g.b.back(), bytes));
    ROOFKIT_CUDA_CHECK(cudaMemset(g.a.back(), 1, bytes));
    ROOFKIT_CUDA_CHECK(cudaStreamCreateWithFlags(&g.streams.back(), cudaStreamNonBlocking));
    for (int p = 0; p < out.gpus; ++p) {
      int can = 0;
      ROOFKIT_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, d, p));
      if (p != d && can) {
        const cudaError_t e = cudaDeviceEnablePeerAccess(p, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled)
          ROOFKIT_CUDA_CHECK(e);
        cudaGetLastError();
      }
    }
  }
  for (int i = 0; i < out.gpus; ++i)
    for (int j = 0; j < out.gpus; ++j)
      if (i != j)
        out.pairs.push_back(measure_pair(g, i, j, o));
  sweep_all_reduce(out, g, o);
  return out;
}

} // namespace roofkit
