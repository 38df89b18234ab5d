#pragma once
// The coalescing-set counters the bench table and the claim evidence read (metric_sets.cpp).

namespace roofkit::bench_counters {

inline constexpr const char* ld_sectors =
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum";
inline constexpr const char* ld_requests = "smsp__sass_inst_executed_op_global_ld.sum";
inline constexpr const char* st_sectors =
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum";
inline constexpr const char* st_requests = "smsp__sass_inst_executed_op_global_st.sum";

} // namespace roofkit::bench_counters
