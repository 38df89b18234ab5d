#pragma once
// The few NCCL types and entry points roofkit uses, declared from NCCL's documentation so that
// nothing in the build needs NCCL's headers or library: NCCL is loaded at run time (dlopen) by
// the interconnect ceilings, and interposed (LD_PRELOAD) by the collective recorder.
#include <cstddef>

namespace roofkit::nccl {

using result_t = int; ///< ncclResult_t: 0 ncclSuccess, then errors
inline constexpr result_t success = 0;
inline constexpr result_t system_error = 2; ///< ncclSystemError
using comm_t = struct opaque_comm*;         ///< ncclComm_t
using stream_t = void*;                     ///< cudaStream_t
using data_type_t = int;                    ///< ncclDataType_t
using red_op_t = int;                       ///< ncclRedOp_t
inline constexpr red_op_t sum = 0;          ///< ncclSum
inline constexpr data_type_t float32 = 7;   ///< ncclFloat32

/// Bytes of one element of an ncclDataType_t (int8 0, uint8 1, int32 2, uint32 3, int64 4,
/// uint64 5, float16 6, float32 7, float64 8, bfloat16 9, float8 e4m3 10, e5m2 11); 0 unknown.
constexpr std::size_t type_size(data_type_t t) {
  constexpr std::size_t sizes[] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
  return t >= 0 && t < 12 ? sizes[t] : 0;
}

// Entry points (nccl.h's signatures).
using all_reduce_fn = result_t (*)(const void*, void*, std::size_t, data_type_t, red_op_t, comm_t,
                                   stream_t);
using broadcast_fn = result_t (*)(const void*, void*, std::size_t, data_type_t, int, comm_t,
                                  stream_t);
using reduce_fn = result_t (*)(const void*, void*, std::size_t, data_type_t, red_op_t, int, comm_t,
                               stream_t);
using all_gather_fn = result_t (*)(const void*, void*, std::size_t, data_type_t, comm_t, stream_t);
using reduce_scatter_fn = result_t (*)(const void*, void*, std::size_t, data_type_t, red_op_t,
                                       comm_t, stream_t);
using send_fn = result_t (*)(const void*, std::size_t, data_type_t, int, comm_t, stream_t);
using recv_fn = result_t (*)(void*, std::size_t, data_type_t, int, comm_t, stream_t);
using comm_count_fn = result_t (*)(comm_t, int*);
using comm_init_all_fn = result_t (*)(comm_t*, int, const int*);
using group_fn = result_t (*)();
using comm_destroy_fn = result_t (*)(comm_t);
using get_error_string_fn = const char* (*)(result_t);
using get_version_fn = result_t (*)(int*);

} // namespace roofkit::nccl
