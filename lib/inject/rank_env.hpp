#pragma once
// A rank of a multi-process job (torchrun, mpirun, srun) writes its own record log, named for
// its rank, and takes its own profiler turn: ranks never wait for one another's profiler, so a
// rank waiting for the turn can never hold up a peer's collective (docs/multi-gpu.md).
#include <cuda.h>

#include <string>

namespace roofkit::inject {

/// The record log of this process: `base` itself, or its rank's file when the environment gives
/// a rank ("" stays "").
std::string record_path_for_process(const std::string& base);

/// The rank record for this process on `dev` (rank, local rank, size, GPU ordinal and UUID);
/// "" when the process has no rank.
std::string rank_record(CUdevice dev, long pid);

} // namespace roofkit::inject
