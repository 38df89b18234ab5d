// A stand-in for libnccl.so for test_nccl_shim: the entry points the recorder forwards to, each
// returning a code of its own so that the test sees the call reached it.
#include <cstddef>

extern "C" {
int ncclCommCount(void*, int* count) {
  *count = 4;
  return 0;
}
int ncclAllReduce(const void*, void*, std::size_t, int, int, void*, void*) { return 42; }
int ncclAllGather(const void*, void*, std::size_t, int, void*, void*) { return 43; }
int ncclReduceScatter(const void*, void*, std::size_t, int, int, void*, void*) { return 44; }
}
