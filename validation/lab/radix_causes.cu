// What limits Thrust's radix sort of 32-bit keys on this GPU? The fft_blas_thrust application's
// sort (S = 2^22 random ints) is where roofkit and Nsight Compute name different limiters for two
// kernels of CUB's onesweep sort:
//   - DeviceRadixSortOnesweepKernel (575 blocks of 384 threads, 3 blocks per SM by registers):
//     roofkit says register-limited occupancy, ncu a partial last wave (up to 50%);
//   - DeviceRadixSortHistogramKernel (one wave of 128-thread blocks, shared-memory atomics into
//     one 256-bin histogram per digit): roofkit says too few bytes in flight from a one-wave grid,
//     ncu bank conflicts (63% excessive wavefronts).
// This program runs the sorts that separate the causes; Nsight Compute times each kernel
// (radix-causes.sh). Every sort is checked against std::sort on the host. Prints one JSON object
// listing the sorts in launch order, each CUB launch of a sort one row of ncu's output.
//
//   radix_causes sweep   random keys, n = tiles x 7296 keys for onesweep grids from one wave
//                        (396 blocks) to two (792): a partial wave costs time only if the time
//                        per key steps at the wave boundaries
//   radix_causes keys    n = 2^22 keys whose digits fall, within each warp's 32 keys, on 32
//                        distinct banks (spread), on random banks (random, the application's) or
//                        on one bank (one_bank); the bins are the same in number and use
//   radix_causes app     n = 2^22 random keys only (the build with fewer registers runs this)
//   radix_causes sizes   random keys, n = 2^20 to 2^26: the histogram kernel's grid is one wave
//                        whatever n (SMs x blocks per SM), so its time against n splits a
//                        fixed cost from the cost per key at the same warps and bytes in flight
#include <thrust/device_vector.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "lab_timing.cuh"

constexpr int reps = 5;
constexpr long onesweep_tile = 384 * 19; // CUB 3.0's onesweep tile for 4-byte keys on sm_90
constexpr long app_keys = 1L << 22;

enum class bank_pattern { random, spread, one_bank };

const char* name_of(bank_pattern p) {
  return p == bank_pattern::random ? "random" : p == bank_pattern::spread ? "spread" : "one_bank";
}

// Key i's four digits (bytes). The histogram kernel loads keys striped, so a warp's atomics
// for one item are 32 consecutive keys, and a bin's counter lies in bank (digit % 32). `spread`
// makes digit % 32 the lane, `one_bank` makes it 0; the top three bits of each digit stay random
// so that every pattern fills 8 or more of the 256 bins of each digit and the sort does real work.
std::vector<int> make_keys(long n, bank_pattern p, std::mt19937& rng) {
  std::vector<int> keys(n);
  for (long i = 0; i < n; ++i) {
    std::uint32_t k = 0;
    for (int d = 0; d < 4; ++d) {
      const std::uint32_t r = rng();
      std::uint32_t digit = r & 0xFFu;
      if (p == bank_pattern::spread)
        digit = (r & 0xE0u) | static_cast<std::uint32_t>(i % 32);
      else if (p == bank_pattern::one_bank)
        digit = r & 0xE0u;
      // CUB flips the sign bit of signed keys before taking digits: undo it for the top digit.
      if (d == 3)
        digit ^= 0x80u;
      k |= digit << (8 * d);
    }
    std::memcpy(&keys[i], &k, sizeof k);
  }
  return keys;
}

struct sort_row {
  long n;
  const char* keys;
  bool ok;
};

sort_row sort_and_check(long n, bank_pattern p, std::mt19937& rng) {
  std::vector<int> keys = make_keys(n, p, rng);
  thrust::device_vector<int> d(keys.begin(), keys.end());
  thrust::sort(d.begin(), d.end());
  CHECK(cudaDeviceSynchronize());
  std::vector<int> got(n);
  thrust::copy(d.begin(), d.end(), got.begin());
  std::sort(keys.begin(), keys.end());
  return {n, name_of(p), got == keys};
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  std::vector<std::pair<long, bank_pattern>> plan;
  if (mode == "sweep") {
    for (long tiles : {396L, 462L, 528L, 575L, 594L, 660L, 726L, 792L})
      for (int r = 0; r < reps; ++r)
        plan.push_back({tiles * onesweep_tile, bank_pattern::random});
  } else if (mode == "keys") {
    for (bank_pattern p : {bank_pattern::random, bank_pattern::spread, bank_pattern::one_bank})
      for (int r = 0; r < reps; ++r)
        plan.push_back({app_keys, p});
  } else if (mode == "sizes") {
    for (int log2 = 20; log2 <= 26; ++log2)
      for (int r = 0; r < 3; ++r)
        plan.push_back({1L << log2, bank_pattern::random});
  } else if (mode == "app") {
    for (int r = 0; r < reps; ++r)
      plan.push_back({app_keys, bank_pattern::random});
  } else {
    std::fprintf(stderr, "usage: radix_causes sweep|keys|app|sizes (got '%s')\n", mode.c_str());
    return 2;
  }
  std::mt19937 rng(std::random_device{}());
  bool all_ok = true;
  std::printf("{\"mode\": \"%s\", \"onesweep_tile\": %ld, \"sorts\": [", mode.c_str(),
              onesweep_tile);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const sort_row row = sort_and_check(plan[i].first, plan[i].second, rng);
    all_ok = all_ok && row.ok;
    std::printf("%s{\"n\": %ld, \"keys\": \"%s\", \"sorted_like_std_sort\": %s}", i ? ", " : "",
                row.n, row.keys, row.ok ? "true" : "false");
  }
  std::printf("], \"all_sorted\": %s}\n", all_ok ? "true" : "false");
  return all_ok ? 0 : 1;
}
