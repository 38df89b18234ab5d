// A stand-in for PyTorch's libtorch_cuda for test_nccl_shim: a library that needs libnccl (here
// the stand-in, fake_nccl.cpp) and calls it. The test's second application loads it with
// dlopen(RTLD_LOCAL), as Python imports PyTorch, so that NCCL sits in a local scope.
#include "internal/nccl_api.hpp"

using namespace roofkit::nccl;

extern "C" result_t ncclAllReduce(const void*, void*, std::size_t, data_type_t, red_op_t, comm_t,
                                  stream_t);

extern "C" __attribute__((visibility("default"))) int roofkit_fake_user_all_reduce() {
  return ncclAllReduce(nullptr, nullptr, 64, float32, sum, nullptr, reinterpret_cast<void*>(0x30));
}
