#pragma once
// The coalescing-set counters (metric_sets.cpp) that the bench table, the claim evidence and the
// diagnosis read.

namespace roofkit::bench_counters {

inline constexpr const char* ld_sectors =
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* ld_requests = "smsp__sass_inst_executed_op_global_ld.sum";
inline constexpr const char* st_sectors =
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* st_requests = "smsp__sass_inst_executed_op_global_st.sum";

} // namespace roofkit::bench_counters
