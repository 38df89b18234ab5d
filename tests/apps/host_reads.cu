// A test application for `roofline-cuda profile`: the host reads results between launches and
// writes its own page-locked memory meanwhile. A copy to pageable memory waited for by a stream
// synchronisation, a copy to page-locked memory waited for by an event, and stream and event
// queries come between the launches; after them the host rewrites a page-locked buffer that a
// kernel then reads through its pointer (the batch is replayed before that kernel) and the next
// copy to the device reads; page-locked memory allocated inside the batch and written by the host
// is read by a later copy, and rewritten by the host after it. These calls keep a replay batch
// open where the process has no managed memory, and the copies to the device join it: the
// replays must leave device memory as the launches left it, must copy what the host held at each
// copy, and must not take back what the host wrote into its page-locked memory (a checkpoint
// restore does). With
// "managed", the host also writes a managed counter after the first wait, which a later kernel
// adds: the waits then end the batch. Prints "host_reads: all results correct" and exits 0 when
// every value the host saw and the final ones are right.
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define APP_NAME "host_reads"
#include "app_check.cuh"

__global__ void add(float* x, int n, float v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += v;
}

__global__ void add_from(float* x, int n, const float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += y[i];
}

__global__ void add_counter(float* x, int n, const int* counter) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += static_cast<float>(*counter);
}

static int count_wrong(const float* v, int n, float want) {
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += v[i] != want;
  return wrong;
}

int main(int argc, char** argv) {
  const bool managed = argc > 1 && std::strcmp(argv[1], "managed") == 0;
  const int n = 1 << 20;
  const int blocks = n / 256;
  float *x = nullptr, *y = nullptr, *spare = nullptr, *pinned = nullptr, *staged = nullptr;
  int* counter = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&spare, sizeof(float)));
  CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
  CHECK(cudaMallocHost(&staged, n * sizeof(float)));
  if (managed) {
    CHECK(cudaMallocManaged(&counter, sizeof(int)));
  } else {
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMemset(counter, 0, sizeof(int)));
  }
  CHECK(cudaMemset(x, 0, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    pinned[i] = staged[i] = -1.0f;
  if (managed)
    *counter = 0;
  cudaEvent_t done;
  CHECK(cudaEventCreate(&done));
  CHECK(cudaDeviceSynchronize());

  std::vector<float> seen(n);
  add<<<blocks, 256>>>(x, n, 1.0f); // x = 1
  CHECK(cudaMemcpyAsync(seen.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaStreamSynchronize(0));
  int wrong = count_wrong(seen.data(), n, 1.0f);
  if (managed)
    *counter = 40;                  // the host writes managed memory once it has seen the results
  add<<<blocks, 256>>>(x, n, 1.0f); // x = 2
  CHECK(cudaMemcpyAsync(pinned, x, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaEventRecord(done));
  CHECK(cudaEventSynchronize(done));
  (void)cudaStreamQuery(0);
  (void)cudaEventQuery(done);
  wrong += count_wrong(pinned, n, 2.0f);
  for (int i = 0; i < n; ++i)
    staged[i] = 3.0f; // read by a kernel (through its pointer) and by a copy to the device below
  // A kernel reading page-locked memory the host wrote after a kept wait: the batch is replayed
  // before it, so that its own replays find what the host wrote.
  add_from<<<blocks, 256>>>(x, n, staged);     // x = 5
  add_counter<<<blocks, 256>>>(x, n, counter); // x = 5 (+ 40 with managed)
  add<<<blocks, 256>>>(x, n, 1.0f);            // x = 6 (46)
  float* late = nullptr;                       // page-locked memory allocated inside the batch
  CHECK(cudaMallocHost(&late, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    late[i] = 0.5f;
  // Copies from the host join the batch: its replays copy what the host held at each copy.
  CHECK(cudaMemcpy(y, staged, n * sizeof(float), cudaMemcpyHostToDevice));
  add_from<<<blocks, 256>>>(x, n, y); // x = 9 (49)
  CHECK(cudaMemcpy(y, late, n * sizeof(float), cudaMemcpyHostToDevice));
  for (int i = 0; i < n; ++i)
    late[i] = 0.25f; // after the copy: a replay copying from `late` again would add 0.25
  add_from<<<blocks, 256>>>(x, n, y); // x = 9.5 (49.5)
  CHECK(cudaFree(spare));             // ends the batch still open
  const float want = managed ? 49.5f : 9.5f;
  CHECK(cudaMemcpy(seen.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
  wrong += count_wrong(seen.data(), n, want);
  wrong +=
      count_wrong(pinned, n, 2.0f) + count_wrong(staged, n, 3.0f) + count_wrong(late, n, 0.25f);
  if (managed)
    wrong += *counter != 40;
  std::printf(APP_NAME ": %s memory, %d wrong values\n", managed ? "managed" : "no managed", wrong);
  if (wrong != 0)
    return 1;
  std::printf(APP_NAME ": all results correct\n");
  return 0;
}
