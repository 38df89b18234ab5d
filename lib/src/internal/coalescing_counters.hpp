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
/// The bytes the active threads of global loads (stores) asked for, summed per instruction:
/// 32 of them fill a sector, so bytes / 32 is the fewest sectors the accesses could move.
inline constexpr const char* ld_bytes = "smsp__sass_data_bytes_mem_global_op_ld.sum";
inline constexpr const char* st_bytes = "smsp__sass_data_bytes_mem_global_op_st.sum";
/// cp.async loads from global memory (LDGSTS), counted apart from LDG.
inline constexpr const char* ldgsts_requests = "smsp__sass_inst_executed_op_ldgsts.sum";
inline constexpr const char* ldgsts_sectors =
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum";
inline constexpr const char* ldgsts_bytes = "smsp__sass_data_bytes_mem_global_op_ldgsts.sum";

} // namespace roofkit::bench_counters
