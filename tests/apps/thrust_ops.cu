// A test application for `roofline-cuda profile`: Thrust and CUB algorithms, which launch several
// kernels per call, allocate temporary storage, and keep tile states and atomic counters in
// device memory between their kernels (radix sort, scan with decoupled look-back, reduction).
// Every result is checked against the host. Prints "thrust_ops: all results correct" and exits 0
// when they match. Built on demand (not part of `all`: Thrust is slow to compile).
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

struct square_plus_one {
  __host__ __device__ long long operator()(int v) const { return 1LL * v * v + 1; }
};

int main() {
  const int n = 1 << 24;
  std::mt19937 rng(20261126);
  std::uniform_int_distribution<int> pick(-1000000, 1000000);
  std::vector<int> host(n);
  for (auto& v : host)
    v = pick(rng);

  thrust::device_vector<int> keys(host.begin(), host.end());
  thrust::sort(keys.begin(), keys.end());
  std::vector<int> sorted(n);
  thrust::copy(keys.begin(), keys.end(), sorted.begin());
  std::vector<int> want_sorted = host;
  std::sort(want_sorted.begin(), want_sorted.end());
  bool ok = sorted == want_sorted;
  if (!ok)
    std::fprintf(stderr, "thrust_ops: sort differs from the host's\n");

  thrust::device_vector<long long> values(host.begin(), host.end());
  thrust::inclusive_scan(values.begin(), values.end(), values.begin()); // in place
  std::vector<long long> scanned(n);
  thrust::copy(values.begin(), values.end(), scanned.begin());
  std::vector<long long> want_scan(host.begin(), host.end());
  std::inclusive_scan(want_scan.begin(), want_scan.end(), want_scan.begin());
  if (scanned != want_scan) {
    std::fprintf(stderr, "thrust_ops: scan differs from the host's\n");
    ok = false;
  }

  thrust::device_vector<int> source(host.begin(), host.end());
  thrust::device_vector<long long> squares(n);
  thrust::transform(source.begin(), source.end(), squares.begin(), square_plus_one());
  const long long sum = thrust::reduce(squares.begin(), squares.end(), 0LL);
  long long want_sum = 0;
  for (int v : host)
    want_sum += 1LL * v * v + 1;
  if (sum != want_sum) {
    std::fprintf(stderr, "thrust_ops: reduce gave %lld, expected %lld\n", sum, want_sum);
    ok = false;
  }
  std::printf("thrust_ops: %s\n", ok ? "all results correct" : "WRONG RESULTS");
  return ok ? 0 : 1;
}
