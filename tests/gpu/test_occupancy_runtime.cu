// Evidence on a real GPU: roofkit's occupancy engine against the CUDA runtime's own calculator
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor, cudaOccupancyMaxPotentialBlockSize[VariableSMem],
// cudaOccupancyAvailableDynamicSMemPerBlock, cudaOccupancyMaxActiveClusters) for kernels compiled
// with different register counts (__maxnreg__, __launch_bounds__) and static shared memory,
// across block sizes, dynamic shared memory and carveouts. Writes the sweep and its result as
// JSON to $ROOFKIT_VALIDATION_OUT when set (validation/data/occupancy-h100.json).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

namespace {

// ---------------------------------------------------------------------------------------------
// Kernels: N live accumulators keep register pressure high, so a cap sets the register count.

template <int N> __device__ __forceinline__ float churn(const float* in, int n) {
  float acc[N];
#pragma unroll
  for (int i = 0; i < N; ++i)
    acc[i] = in[threadIdx.x + i * 7];
  for (int k = 0; k < n; ++k) {
#pragma unroll
    for (int i = 0; i < N; ++i)
      acc[i] = fmaf(acc[i], acc[(i + 3) % N], in[k + i]);
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < N; ++i)
    s += acc[i] * (i + 1);
  return s;
}

template <int MAXREG, int SMEM>
__global__ void __maxnreg__(MAXREG) probe(const float* in, float* out, int n) {
  constexpr int words = SMEM / 4 > 0 ? SMEM / 4 : 1;
  __shared__ float tile[words];
  extern __shared__ float dyn[];
  tile[threadIdx.x % words] = in[threadIdx.x];
  __syncthreads();
  const float s = churn<(MAXREG > 200 ? 200 : MAXREG)>(in, n) + tile[(threadIdx.x + 1) % words];
  if (n < 0)
    dyn[threadIdx.x] = s;
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <int T, int B>
__global__ void __launch_bounds__(T, B) bounded(const float* in, float* out, int n) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = churn<200>(in, n);
}

struct kernel_entry {
  std::string name;
  const void* fn;
};

std::vector<kernel_entry> probe_kernels() {
  return {{"probe<24,0>", reinterpret_cast<const void*>(&probe<24, 0>)},
          {"probe<32,0>", reinterpret_cast<const void*>(&probe<32, 0>)},
          {"probe<33,0>", reinterpret_cast<const void*>(&probe<33, 0>)},
          {"probe<40,4096>", reinterpret_cast<const void*>(&probe<40, 4096>)},
          {"probe<48,0>", reinterpret_cast<const void*>(&probe<48, 0>)},
          {"probe<56,45000>", reinterpret_cast<const void*>(&probe<56, 45000>)},
          {"probe<64,40000>", reinterpret_cast<const void*>(&probe<64, 40000>)},
          {"probe<72,0>", reinterpret_cast<const void*>(&probe<72, 0>)},
          {"probe<80,0>", reinterpret_cast<const void*>(&probe<80, 0>)},
          {"probe<128,16384>", reinterpret_cast<const void*>(&probe<128, 16384>)},
          {"probe<168,0>", reinterpret_cast<const void*>(&probe<168, 0>)},
          {"probe<255,0>", reinterpret_cast<const void*>(&probe<255, 0>)}};
}

struct bounded_entry {
  int threads;
  int blocks;
  const void* fn;
};

std::vector<bounded_entry> bounded_kernels() {
  return {{800, 1, reinterpret_cast<const void*>(&bounded<800, 1>)},
          {640, 2, reinterpret_cast<const void*>(&bounded<640, 2>)},
          {384, 3, reinterpret_cast<const void*>(&bounded<384, 3>)},
          {96, 16, reinterpret_cast<const void*>(&bounded<96, 16>)},
          {256, 8, reinterpret_cast<const void*>(&bounded<256, 8>)},
          {256, 5, reinterpret_cast<const void*>(&bounded<256, 5>)},
          {1024, 2, reinterpret_cast<const void*>(&bounded<1024, 2>)},
          {128, 12, reinterpret_cast<const void*>(&bounded<128, 12>)},
          {512, 3, reinterpret_cast<const void*>(&bounded<512, 3>)},
          {64, 20, reinterpret_cast<const void*>(&bounded<64, 20>)}};
}

// ---------------------------------------------------------------------------------------------
// The validation record, written as JSON by hand (no JSON library in .cu files).

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

struct validation {
  std::vector<std::pair<std::string, std::string>> sections; // key -> JSON value
  long long cases = 0;
  long long mismatches = 0;

  void add(const std::string& key, const std::string& json) { sections.emplace_back(key, json); }

  void write() const {
    const char* path = std::getenv("ROOFKIT_VALIDATION_OUT");
    if (!path || !*path)
      return;
    const char* command = std::getenv("ROOFKIT_VALIDATION_COMMAND");
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    std::ostringstream out;
    out << "{\n  \"schema\": \"roofkit.validation.occupancy/1\",\n  \"date\": " << quote(date)
        << ",\n  \"command\": "
        << quote(command ? command : "ROOFKIT_VALIDATION_OUT=FILE test_occupancy_runtime")
        << ",\n  \"result\": " << quote(mismatches == 0 ? "pass" : "fail")
        << ",\n  \"cases_compared\": " << cases << ",\n  \"mismatches\": " << mismatches;
    for (const auto& [key, json] : sections)
      out << ",\n  " << quote(key) << ": " << json;
    out << "\n}\n";
    std::ofstream file(path);
    file << out.str();
    std::printf("validation written to %s\n", path);
  }
};

validation& record() {
  static validation v;
  return v;
}

class writer_environment : public testing::Environment {
public:
  void TearDown() override { record().write(); }
};
[[maybe_unused]] testing::Environment* const writer =
    testing::AddGlobalTestEnvironment(new writer_environment);

// ---------------------------------------------------------------------------------------------

struct device_info {
  cudaDeviceProp prop{};
  const roofkit::arch_spec* arch = nullptr;
};

const device_info& device() {
  static device_info d = [] {
    device_info info;
    ROOFKIT_CUDA_CHECK(cudaGetDeviceProperties(&info.prop, 0));
    info.arch = roofkit::find_arch(info.prop.major, info.prop.minor);
    return info;
  }();
  return d;
}

/// The kernel's attributes, after opting in to the largest dynamic shared memory (as roofkit
/// assumes whenever static + dynamic exceeds 48 KB).
cudaFuncAttributes attributes(const void* fn) {
  cudaFuncAttributes attr{};
  ROOFKIT_CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
  const auto& a = *device().arch;
  ROOFKIT_CUDA_CHECK(cudaFuncSetAttribute(
      fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
      static_cast<int>(a.shared_memory_per_block_optin - attr.sharedSizeBytes)));
  ROOFKIT_CUDA_CHECK(cudaFuncGetAttributes(&attr, fn));
  return attr;
}

roofkit::launch_params launch_of(const cudaFuncAttributes& attr, int threads, std::int64_t dynamic,
                                 int carveout) {
  roofkit::launch_params l;
  l.threads_per_block = threads;
  l.registers_per_thread = attr.numRegs;
  l.static_smem = static_cast<std::int64_t>(attr.sharedSizeBytes);
  l.dynamic_smem = dynamic;
  l.carveout = carveout;
  l.barriers = 1;
  return l;
}

const int carveouts[] = {-1, 0, 10, 25, 50, 75, 100};

std::vector<std::int64_t> dynamic_sizes(const roofkit::arch_spec& a, std::int64_t static_smem) {
  const std::int64_t top = a.shared_memory_per_block_optin - static_smem;
  std::vector<std::int64_t> sizes;
  for (std::int64_t s : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1024}, std::int64_t{20480},
                         49152 - static_smem, 49153 - static_smem, std::int64_t{65536},
                         std::int64_t{82944}, std::int64_t{102400}, std::int64_t{116480},
                         std::int64_t{150000}, std::int64_t{200000}, top})
    if (s >= 0 && s <= top && std::find(sizes.begin(), sizes.end(), s) == sizes.end())
      sizes.push_back(s);
  return sizes;
}

TEST(occupancy_runtime, table_matches_device_properties) {
  const auto& d = device();
  ASSERT_NE(d.arch, nullptr) << "no table for CC " << d.prop.major << "." << d.prop.minor;
  const auto& a = *d.arch;
  std::ostringstream json;
  json << "[";
  bool first = true;
  auto field = [&](const char* name, long long device_value, long long table_value) {
    EXPECT_EQ(device_value, table_value) << name;
    json << (first ? "\n    " : ",\n    ") << "{\"field\": " << quote(name)
         << ", \"device\": " << device_value << ", \"table\": " << table_value
         << ", \"equal\": " << (device_value == table_value ? "true" : "false") << "}";
    first = false;
  };
  field("warp_size", d.prop.warpSize, a.warp_size);
  field("max_threads_per_block", d.prop.maxThreadsPerBlock, a.max_threads_per_block);
  field("max_threads_per_sm", d.prop.maxThreadsPerMultiProcessor, a.max_threads_per_sm);
  field("max_blocks_per_sm", d.prop.maxBlocksPerMultiProcessor, a.max_blocks_per_sm);
  field("registers_per_sm", d.prop.regsPerMultiprocessor, a.registers_per_sm);
  field("max_registers_per_block", d.prop.regsPerBlock, a.max_registers_per_block);
  field("shared_memory_per_sm", static_cast<long long>(d.prop.sharedMemPerMultiprocessor),
        a.shared_memory_per_sm);
  field("shared_memory_per_block", static_cast<long long>(d.prop.sharedMemPerBlock),
        a.shared_memory_per_block);
  field("shared_memory_per_block_optin", static_cast<long long>(d.prop.sharedMemPerBlockOptin),
        a.shared_memory_per_block_optin);
  field("reserved_shared_memory_per_block",
        static_cast<long long>(d.prop.reservedSharedMemPerBlock),
        a.reserved_shared_memory_per_block);
  json << "\n  ]";
  int driver = 0;
  int runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::ostringstream dev;
  dev << "{\"name\": " << quote(d.prop.name) << ", \"compute_capability\": "
      << quote(std::to_string(d.prop.major) + "." + std::to_string(d.prop.minor))
      << ", \"sm_count\": " << d.prop.multiProcessorCount << ", \"driver_version\": " << driver
      << ", \"runtime_version\": " << runtime << ", \"arch_table\": " << quote(a.id()) << "}";
  record().add("device", dev.str());
  record().add("table_check", json.str());
}

TEST(occupancy_runtime, active_blocks_match_the_runtime) {
  const auto& d = device();
  ASSERT_NE(d.arch, nullptr);
  const auto& a = *d.arch;
  long long cases = 0;
  long long mismatches = 0;
  long long beyond_bound = 0;
  long long beyond_bound_equal = 0;
  std::ostringstream kernels_json;
  std::ostringstream examples;
  std::ostringstream samples;
  int examples_written = 0;
  int samples_written = 0;
  kernels_json << "[";
  bool first_kernel = true;
  for (const auto& k : probe_kernels()) {
    const auto attr = attributes(k.fn);
    long long kernel_cases = 0;
    long long kernel_mismatches = 0;
    for (int carveout : carveouts) {
      ROOFKIT_CUDA_CHECK(
          cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
      for (std::int64_t dynamic : dynamic_sizes(a, attr.sharedSizeBytes)) {
        for (int threads = 1; threads <= a.max_threads_per_block; ++threads) {
          const bool every = carveout == -1 || carveout == 25;
          if (!every && threads % 32 != 0 && threads % 32 != 1)
            continue;
          int runtime_blocks = -1;
          const cudaError_t status = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
              &runtime_blocks, k.fn, threads, static_cast<size_t>(dynamic));
          if (status != cudaSuccess) {
            cudaGetLastError();
            runtime_blocks = -1;
          }
          const auto ours =
              roofkit::compute_occupancy(a, launch_of(attr, threads, dynamic, carveout));
          if (threads > attr.maxThreadsPerBlock) {
            // Beyond the kernel's own limit a launch fails; recorded, not asserted.
            ++beyond_bound;
            beyond_bound_equal += runtime_blocks == ours.active_blocks;
            continue;
          }
          ++cases;
          ++kernel_cases;
          if (status != cudaSuccess || runtime_blocks != ours.active_blocks) {
            ++mismatches;
            ++kernel_mismatches;
            if (examples_written++ < 20)
              examples << (examples_written > 1 ? ", " : "") << "{\"kernel\": " << quote(k.name)
                       << ", \"threads\": " << threads << ", \"dynamic_smem\": " << dynamic
                       << ", \"carveout\": " << carveout << ", \"runtime\": " << runtime_blocks
                       << ", \"roofkit\": " << ours.active_blocks << "}";
          }
          if (cases % 997 == 0 && samples_written++ < 200)
            samples << (samples_written > 1 ? ",\n      " : "\n      ") << "[" << quote(k.name)
                    << ", " << threads << ", " << dynamic << ", " << carveout << ", "
                    << runtime_blocks << ", " << ours.active_blocks << "]";
        }
      }
    }
    kernels_json << (first_kernel ? "\n    " : ",\n    ") << "{\"kernel\": " << quote(k.name)
                 << ", \"registers\": " << attr.numRegs
                 << ", \"static_smem\": " << attr.sharedSizeBytes
                 << ", \"max_threads_per_block\": " << attr.maxThreadsPerBlock
                 << ", \"cases\": " << kernel_cases << ", \"mismatches\": " << kernel_mismatches
                 << "}";
    first_kernel = false;
    ROOFKIT_CUDA_CHECK(
        cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
  }
  kernels_json << "\n  ]";
  std::ostringstream summary;
  summary << "{\n    \"api\": \"cudaOccupancyMaxActiveBlocksPerMultiprocessor\","
          << "\n    \"block_sizes\": \"1..1024 at carveouts -1 and 25; multiples of 32 and "
             "32k+1 at the others; only up to the kernel's maxThreadsPerBlock\","
          << "\n    \"carveouts\": [-1, 0, 10, 25, 50, 75, 100],"
          << "\n    \"dynamic_smem\": \"0, 1, 1024, 20480, 48K-static, 48K-static+1, 65536, "
             "82944, 102400, 116480, 150000, 200000, optin-static (those <= optin-static); "
             "cudaFuncAttributeMaxDynamicSharedMemorySize = optin - static\","
          << "\n    \"barriers\": 1,"
          << "\n    \"cases\": " << cases << ",\n    \"mismatches\": " << mismatches
          << ",\n    \"first_mismatches\": [" << examples.str() << "],"
          << "\n    \"beyond_kernel_max_threads\": {\"cases\": " << beyond_bound
          << ", \"equal\": " << beyond_bound_equal << "},"
          << "\n    \"sample_columns\": [\"kernel\", \"threads\", \"dynamic_smem\", \"carveout\", "
             "\"runtime_blocks\", \"roofkit_blocks\"],"
          << "\n    \"samples\": [" << samples.str() << "\n    ]\n  }";
  record().add("kernels", kernels_json.str());
  record().add("active_blocks", summary.str());
  record().cases += cases;
  record().mismatches += mismatches;
  EXPECT_EQ(mismatches, 0) << "of " << cases << " cases; first: " << examples.str();
  EXPECT_GT(cases, 100000);
}

size_t per_thread_smem(int threads) { return static_cast<size_t>(threads) * 32; }

TEST(occupancy_runtime, potential_block_size_matches_the_runtime) {
  const auto& d = device();
  ASSERT_NE(d.arch, nullptr);
  const auto& a = *d.arch;
  std::ostringstream json;
  json << "[";
  long long mismatches = 0;
  long long cases = 0;
  for (const auto& k : probe_kernels()) {
    const auto attr = attributes(k.fn);
    for (int carveout : {-1, 0, 50}) {
      ROOFKIT_CUDA_CHECK(
          cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, carveout));
      for (std::int64_t dynamic : {std::int64_t{0}, std::int64_t{10000}, std::int64_t{60000}}) {
        for (bool variable : {false, true}) {
          if (variable && dynamic != 0)
            continue;
          int grid = 0;
          int block = 0;
          if (variable)
            ROOFKIT_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSizeVariableSMem(
                &grid, &block,
                reinterpret_cast<void (*)(const float*, float*, int)>(const_cast<void*>(k.fn)),
                per_thread_smem));
          else
            ROOFKIT_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(
                &grid, &block,
                reinterpret_cast<void (*)(const float*, float*, int)>(const_cast<void*>(k.fn)),
                static_cast<size_t>(dynamic)));
          roofkit::smem_for_block_size smem;
          if (variable)
            smem = [](int t) { return static_cast<std::int64_t>(per_thread_smem(t)); };
          const auto ours = roofkit::suggest_block_size(a, launch_of(attr, 256, dynamic, carveout),
                                                        smem, attr.maxThreadsPerBlock);
          const int our_grid = ours.min_grid_size(d.prop.multiProcessorCount);
          const bool equal = ours.block_size == block && our_grid == grid;
          ++cases;
          mismatches += !equal;
          EXPECT_TRUE(equal) << k.name << " carveout " << carveout << " dynamic " << dynamic
                             << (variable ? " (32 B/thread)" : "") << ": runtime " << block << "/"
                             << grid << ", roofkit " << ours.block_size << "/" << our_grid;
          json << (cases > 1 ? ",\n    " : "\n    ") << "{\"kernel\": " << quote(k.name)
               << ", \"carveout\": " << carveout << ", \"dynamic_smem\": "
               << (variable ? "\"32 x threads\"" : std::to_string(dynamic))
               << ", \"runtime_block_size\": " << block << ", \"runtime_min_grid\": " << grid
               << ", \"roofkit_block_size\": " << ours.block_size
               << ", \"roofkit_min_grid\": " << our_grid << "}";
        }
      }
    }
    ROOFKIT_CUDA_CHECK(
        cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1));
  }
  json << "\n  ]";
  record().add("potential_block_size", json.str());
  record().cases += cases;
  record().mismatches += mismatches;
}

TEST(occupancy_runtime, available_dynamic_smem_and_the_correct_maximum) {
  const auto& d = device();
  ASSERT_NE(d.arch, nullptr);
  const auto& a = *d.arch;
  std::ostringstream json;
  json << "[";
  long long cases = 0;
  long long mismatches = 0;
  for (const auto& k : probe_kernels()) {
    const auto attr = attributes(k.fn);
    for (int threads : {128, 256}) {
      const int limit = roofkit::blocks_without_smem_limit(a, launch_of(attr, threads, 0, -1));
      for (int n = 1; n <= std::min(limit, 8); ++n) {
        size_t available = 0;
        const bool ok =
            cudaOccupancyAvailableDynamicSMemPerBlock(&available, k.fn, n, threads) == cudaSuccess;
        if (!ok)
          cudaGetLastError();
        const auto ours =
            roofkit::max_dynamic_smem_for_blocks(a, launch_of(attr, threads, 0, -1), n);
        auto runtime_blocks = [&](std::int64_t dynamic) {
          int blocks = -1;
          if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                  &blocks, k.fn, threads, static_cast<size_t>(dynamic)) != cudaSuccess) {
            cudaGetLastError();
            return -1;
          }
          return blocks;
        };
        const bool fits = ours.max_dynamic_smem >= 0;
        const int at_correct = fits ? runtime_blocks(ours.max_dynamic_smem) : -1;
        const int above_correct = fits ? runtime_blocks(ours.max_dynamic_smem + 1) : -1;
        const int at_reported = ok ? runtime_blocks(static_cast<std::int64_t>(available)) : -1;
        const bool formula_equal =
            ok ? static_cast<std::int64_t>(available) == ours.runtime_reported
               : ours.runtime_reported == -1;
        const bool correct =
            !fits || (at_correct >= n && (ours.max_dynamic_smem + 1 >
                                              a.shared_memory_per_block_optin -
                                                  static_cast<std::int64_t>(attr.sharedSizeBytes) ||
                                          above_correct < n));
        ++cases;
        mismatches += !(formula_equal && correct);
        EXPECT_TRUE(formula_equal) << k.name << " " << n << " blocks: runtime " << available
                                   << ", roofkit's model of it " << ours.runtime_reported;
        EXPECT_TRUE(correct) << k.name << " " << n << " blocks at " << ours.max_dynamic_smem << ": "
                             << at_correct << ", +1 byte: " << above_correct;
        json << (cases > 1 ? ",\n    " : "\n    ") << "{\"kernel\": " << quote(k.name)
             << ", \"threads\": " << threads << ", \"blocks\": " << n
             << ", \"runtime_available\": " << (ok ? std::to_string(available) : "null")
             << ", \"runtime_blocks_at_runtime_available\": " << at_reported
             << ", \"roofkit_max_dynamic_smem\": " << ours.max_dynamic_smem
             << ", \"runtime_blocks_at_roofkit\": " << at_correct
             << ", \"runtime_blocks_at_roofkit_plus_1\": " << above_correct << "}";
      }
    }
  }
  json << "\n  ]";
  record().add("available_dynamic_smem", json.str());
  record().cases += cases;
  record().mismatches += mismatches;
}

TEST(occupancy_runtime, launch_bounds_registers_equal_the_suggestion) {
  const auto& d = device();
  ASSERT_NE(d.arch, nullptr);
  const auto& a = *d.arch;
  std::ostringstream json;
  json << "[";
  int i = 0;
  for (const auto& b : bounded_kernels()) {
    const auto attr = attributes(b.fn);
    const int warps = (b.threads + a.warp_size - 1) / a.warp_size;
    const double target = static_cast<double>(b.blocks * warps) / a.max_warps_per_sm;
    const auto s = roofkit::suggest_registers(a, launch_of(attr, b.threads, 0, -1), target);
    EXPECT_EQ(attr.numRegs, s.max_registers)
        << "__launch_bounds__(" << b.threads << ", " << b.blocks << ")";
    json << (i++ ? ",\n    " : "\n    ") << "{\"launch_bounds\": [" << b.threads << ", " << b.blocks
         << "], \"ptxas_registers\": " << attr.numRegs
         << ", \"roofkit_max_registers\": " << s.max_registers << "}";
    record().cases += 1;
    record().mismatches += attr.numRegs != s.max_registers;
  }
  json << "\n  ]";
  record().add("launch_bounds", json.str());
}

TEST(occupancy_runtime, cluster_bound_is_an_upper_bound) {
  const auto& d = device();
  ASSERT_NE(d.arch, nullptr);
  const auto& a = *d.arch;
  if (a.max_cluster_size == 0)
    GTEST_SKIP() << "no clusters before CC 9.0";
  const void* fn = reinterpret_cast<const void*>(&probe<32, 0>);
  const auto attr = attributes(fn);
  ROOFKIT_CUDA_CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  std::ostringstream json;
  json << "[";
  int i = 0;
  int answered = 0;
  for (int threads : {1024, 256}) {
    const auto occ = roofkit::compute_occupancy(a, launch_of(attr, threads, 0, -1));
    for (const auto& b :
         roofkit::cluster_bounds(a, occ.active_blocks, d.prop.multiProcessorCount)) {
      cudaLaunchConfig_t config{};
      config.gridDim = dim3(b.cluster_size * 64, 1, 1);
      config.blockDim = dim3(threads, 1, 1);
      cudaLaunchAttribute cluster{};
      cluster.id = cudaLaunchAttributeClusterDimension;
      cluster.val.clusterDim.x = b.cluster_size;
      cluster.val.clusterDim.y = 1;
      cluster.val.clusterDim.z = 1;
      config.attrs = &cluster;
      config.numAttrs = 1;
      int clusters = -1;
      const cudaError_t err = cudaOccupancyMaxActiveClusters(&clusters, fn, &config);
      if (err != cudaSuccess) {
        cudaGetLastError();
        // Only a non-portable size the runtime refuses for this launch may fail, and by name:
        // any other failure is the test's subject going wrong, never a silent skip.
        EXPECT_TRUE(err == cudaErrorInvalidClusterSize && !b.portable)
            << "cudaOccupancyMaxActiveClusters failed for cluster size " << b.cluster_size << ", "
            << threads << " threads: " << cudaGetErrorName(err);
        clusters = -1;
      } else {
        ++answered;
        EXPECT_LE(clusters, b.max_active_clusters_bound) << b.cluster_size;
      }
      json << (i++ ? ",\n    " : "\n    ") << "{\"threads\": " << threads
           << ", \"cluster_size\": " << b.cluster_size
           << ", \"portable\": " << (b.portable ? "true" : "false")
           << ", \"runtime_max_active_clusters\": " << clusters
           << ", \"roofkit_upper_bound\": " << b.max_active_clusters_bound << "}";
    }
  }
  json << "\n  ]";
  EXPECT_GT(answered, 0) << "the runtime answered for no cluster size: nothing was compared";
  record().add("clusters", json.str());
}

} // namespace
