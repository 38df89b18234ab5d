// Two or more MPI ranks, one GPU each, pass a vector round a ring for the multi-GPU checks
// (issue 40): each step a kernel scales and adds the received vector into the rank's own
// (saxpy), then the result is sent to the next rank, staged through pinned host memory (works
// with any MPI, CUDA-aware or not). A second kernel reduces the vector to a checksum that every
// rank prints, equal across runs with and without a profiler.
// Build: validation/scripts/build-mpi-ring.sh (mpicxx + nvcc; not built by CMake)
// Run:   mpirun -np 2 build/mpi_ring [elements] [steps]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));  \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                                \
    }                                                                                              \
  } while (0)

__global__ void ring_saxpy(float* mine, const float* received, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    mine[i] = a * received[i] + 0.5f * mine[i];
}

__global__ void ring_checksum(const float* v, int n, double* sum) {
  double s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    s += v[i];
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(sum, s);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 24;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 8;
  int gpus = 0;
  CHECK(cudaGetDeviceCount(&gpus));
  CHECK(cudaSetDevice(rank % gpus));
  float* mine = nullptr;
  float* received = nullptr;
  double* sum = nullptr;
  float* host_out = nullptr;
  float* host_in = nullptr;
  const size_t bytes = size_t(n) * sizeof(float);
  CHECK(cudaMalloc(&mine, bytes));
  CHECK(cudaMalloc(&received, bytes));
  CHECK(cudaMalloc(&sum, sizeof(double)));
  CHECK(cudaMallocHost(&host_out, bytes));
  CHECK(cudaMallocHost(&host_in, bytes));
  std::vector<float> init(size_t(n), float(rank + 1));
  CHECK(cudaMemcpy(mine, init.data(), bytes, cudaMemcpyHostToDevice));
  const int next = (rank + 1) % size;
  const int prev = (rank + size - 1) % size;
  const double t0 = MPI_Wtime();
  for (int s = 0; s < steps; ++s) {
    CHECK(cudaMemcpy(host_out, mine, bytes, cudaMemcpyDeviceToHost));
    MPI_Sendrecv(host_out, n, MPI_FLOAT, next, s, host_in, n, MPI_FLOAT, prev, s, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(cudaMemcpy(received, host_in, bytes, cudaMemcpyHostToDevice));
    ring_saxpy<<<264, 256>>>(mine, received, 0.25f, n);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaMemset(sum, 0, sizeof(double)));
  ring_checksum<<<264, 256>>>(mine, n, sum);
  CHECK(cudaGetLastError());
  double checksum = 0;
  CHECK(cudaMemcpy(&checksum, sum, sizeof(double), cudaMemcpyDeviceToHost));
  const double wall = MPI_Wtime() - t0;
  std::printf("{\"rank\": %d, \"size\": %d, \"elements\": %d, \"steps\": %d, \"wall_s\": %.6f, "
              "\"checksum\": %.6f}\n",
              rank, size, n, steps, wall, checksum);
  cudaFree(mine);
  cudaFree(received);
  cudaFree(sum);
  cudaFreeHost(host_out);
  cudaFreeHost(host_in);
  MPI_Finalize();
  return 0;
}
