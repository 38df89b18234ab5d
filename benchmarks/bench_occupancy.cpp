// Throughput of roofkit's occupancy engine against NVIDIA's cuda_occupancy.h (the toolkit header,
// used as a reference only) on the same sweep, in one process:
//   every block size 1..1024 x register counts 0..255 step 5 x 3 dynamic shared-memory sizes x
//   carveouts {-1, 50}, on sm_80, sm_90 and sm_120 (~950,000 launches per pass).
// Run: bench_occupancy --benchmark_out=occupancy-benchmark.json --benchmark_out_format=json
#include <vector>

#include <benchmark/benchmark.h>
#include <cuda_occupancy.h>

#include "roofkit/arch.hpp"
#include "roofkit/occupancy.hpp"

#include "../tests/common/occupancy_oracle.hpp"

namespace {

struct sweep_case {
  const roofkit::arch_spec* arch;
  int arch_index;
  roofkit::launch_params launch;
};

struct oracle_input {
  std::vector<cudaOccDeviceProp> devices;
  std::vector<cudaOccFuncAttributes> functions;
  std::vector<cudaOccDeviceState> states;
};

const char* const arch_names[] = {"sm_80", "sm_90", "sm_120"};

const std::vector<sweep_case>& sweep() {
  static const std::vector<sweep_case> cases = [] {
    std::vector<sweep_case> v;
    int index = 0;
    for (const char* name : arch_names) {
      const auto& a = roofkit::find_arch(name);
      for (int carveout : {-1, 50})
        for (std::int64_t smem : {std::int64_t{0}, std::int64_t{20000}, std::int64_t{70000}})
          for (int regs = 0; regs <= 255; regs += 5)
            for (int threads = 1; threads <= 1024; ++threads) {
              roofkit::launch_params l;
              l.threads_per_block = threads;
              l.registers_per_thread = regs;
              l.dynamic_smem = smem;
              l.carveout = carveout;
              v.push_back({&a, index, l});
            }
      ++index;
    }
    return v;
  }();
  return cases;
}

// The same launches as cuda_occupancy.h inputs, built once outside the timed loop.
const oracle_input& oracle() {
  static const oracle_input input = [] {
    oracle_input in;
    for (const char* name : arch_names) {
      in.devices.push_back(roofkit::test::oracle_device(roofkit::find_arch(name)));
    }
    for (const auto& c : sweep()) {
      cudaOccFuncAttributes f;
      f.maxThreadsPerBlock = 1024;
      f.numRegs = c.launch.registers_per_thread;
      f.sharedSizeBytes = 0;
      f.partitionedGCConfig = PARTITIONED_GC_OFF;
      f.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
      f.maxDynamicSharedSizeBytes = static_cast<size_t>(c.arch->shared_memory_per_block_optin);
      f.numBlockBarriers = 1;
      f.virtualResourceCount = 0;
      in.functions.push_back(f);
      cudaOccDeviceState s;
      s.carveoutConfig = c.launch.carveout;
      in.states.push_back(s);
    }
    return in;
  }();
  return input;
}

// state.range(0): 1 = with the reason in words for launches that fit no block (the default of
// compute_occupancy), 0 = without (what sweeps and searches use; cuda_occupancy.h has no text).
void roofkit_engine(benchmark::State& state) {
  const auto& cases = sweep();
  const bool explain = state.range(0) != 0;
  for (auto _ : state) {
    long long blocks = 0;
    for (const auto& c : cases)
      blocks += roofkit::compute_occupancy(*c.arch, c.launch, explain).active_blocks;
    benchmark::DoNotOptimize(blocks);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(cases.size()));
  long long zero = 0;
  for (const auto& c : cases)
    zero += roofkit::compute_occupancy(*c.arch, c.launch, false).active_blocks == 0;
  state.counters["zero_block_share"] =
      static_cast<double>(zero) / static_cast<double>(cases.size());
}

void cuda_occupancy_h(benchmark::State& state) {
  const auto& cases = sweep();
  const auto& in = oracle();
  for (auto _ : state) {
    long long blocks = 0;
    for (std::size_t i = 0; i < cases.size(); ++i) {
      cudaOccResult r{};
      cudaOccMaxActiveBlocksPerMultiprocessor(
          &r, &in.devices[static_cast<std::size_t>(cases[i].arch_index)], &in.functions[i],
          &in.states[i], cases[i].launch.threads_per_block,
          static_cast<size_t>(cases[i].launch.dynamic_smem));
      blocks += r.activeBlocksPerMultiprocessor;
    }
    benchmark::DoNotOptimize(blocks);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(cases.size()));
}

BENCHMARK(roofkit_engine)
    ->ArgName("explain")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);
BENCHMARK(cuda_occupancy_h)->Unit(benchmark::kMillisecond)->MinTime(2.0);

} // namespace

BENCHMARK_MAIN();
