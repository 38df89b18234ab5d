// A stand-in for libnccl.so for test_nccl_shim: the entry points the recorder forwards to, each
// returning a code of its own so that the test sees the call reached it.
#include <cstddef>

#include "internal/nccl_api.hpp"

// The recorder's own declarations, so that the types match exactly (UBSan's function check
// compares the type a call goes through with the callee's).
using namespace roofkit::nccl;

extern "C" {
result_t ncclCommCount(comm_t, int* count) {
  *count = 4;
  return success;
}
result_t ncclAllReduce(const void*, void*, std::size_t, data_type_t, red_op_t, comm_t, stream_t) {
  return 42;
}
result_t ncclAllGather(const void*, void*, std::size_t, data_type_t, comm_t, stream_t) {
  return 43;
}
result_t ncclReduceScatter(const void*, void*, std::size_t, data_type_t, red_op_t, comm_t,
                           stream_t) {
  return 44;
}
}
