// Ranks from the environment, the collective kernel rule, nccl-tests' bus bandwidth, and the
// NCCL calls matched to the collective kernels that carried them out.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

#include "roofkit/app_profile.hpp"
#include "roofkit/ranks.hpp"

namespace {

using namespace roofkit;

std::map<std::string, std::string> env;
const char* lookup(const char* name) {
  auto it = env.find(name);
  return it == env.end() ? nullptr : it->second.c_str();
}

TEST(rank_environment, torchrun) {
  env = {{"RANK", "3"}, {"LOCAL_RANK", "1"}, {"WORLD_SIZE", "8"}};
  const auto r = rank_from_environment(lookup);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rank, 3);
  EXPECT_EQ(r->local_rank, 1);
  EXPECT_EQ(r->world_size, 8);
  EXPECT_EQ(r->source, "RANK");
}

TEST(rank_environment, open_mpi_slurm_pmi) {
  env = {{"OMPI_COMM_WORLD_RANK", "5"},
         {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
         {"OMPI_COMM_WORLD_SIZE", "6"}};
  auto r = rank_from_environment(lookup);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rank, 5);
  EXPECT_EQ(r->local_rank, 1);
  EXPECT_EQ(r->world_size, 6);
  EXPECT_EQ(r->source, "OMPI_COMM_WORLD_RANK");
  env = {{"SLURM_PROCID", "12"}, {"SLURM_LOCALID", "4"}, {"SLURM_NTASKS", "16"}};
  r = rank_from_environment(lookup);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rank, 12);
  EXPECT_EQ(r->local_rank, 4);
  EXPECT_EQ(r->world_size, 16);
  env = {{"PMI_RANK", "2"}, {"PMI_SIZE", "4"}};
  r = rank_from_environment(lookup);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rank, 2);
  EXPECT_EQ(r->local_rank, -1);
  EXPECT_EQ(r->world_size, 4);
  EXPECT_EQ(r->source, "PMI_RANK");
}

TEST(rank_environment, torchrun_under_srun_takes_torchrun_rank) {
  env = {{"SLURM_PROCID", "0"}, {"RANK", "7"}, {"LOCAL_RANK", "3"}};
  const auto r = rank_from_environment(lookup);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rank, 7);
  EXPECT_EQ(r->local_rank, 3);
  EXPECT_EQ(r->world_size, 0);
}

TEST(rank_environment, none_or_malformed) {
  env = {};
  EXPECT_FALSE(rank_from_environment(lookup));
  env = {{"RANK", "-1"}};
  EXPECT_FALSE(rank_from_environment(lookup));
  env = {{"RANK", "2x"}};
  EXPECT_FALSE(rank_from_environment(lookup));
  env = {{"RANK", ""}, {"PMI_RANK", "1"}};
  const auto r = rank_from_environment(lookup);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rank, 1);
}

TEST(rank_files, names) {
  EXPECT_EQ(rank_record_path("/tmp/rec", 3), "/tmp/rec.rank3");
  EXPECT_EQ(rank_run_path("out/run.json", 12), std::filesystem::path("out/run.rank12.json"));
  EXPECT_EQ(rank_run_path("run", 0), std::filesystem::path("run.rank0"));
}

TEST(rank_files, found_beside_the_base_without_turn_files) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("roofkit-test-ranks-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string base = (dir / "rec").string();
  for (const char* suffix : {".rank0", ".rank10", ".rank2", ".rank2.turn", ".rankx", ""})
    std::ofstream(base + suffix) << "x\n";
  const auto found = find_rank_records(base);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].first, 0);
  EXPECT_EQ(found[1].first, 2);
  EXPECT_EQ(found[2].first, 10);
  const auto logs = take_rank_logs(base, true);
  ASSERT_EQ(logs.size(), 3u);
  EXPECT_EQ(logs[1].second, "x\n");
  EXPECT_FALSE(fs::exists(base + ".rank2"));
  EXPECT_TRUE(fs::exists(base)); // the launcher's own log is not a rank's
  fs::remove_all(dir);
}

TEST(collective_kernels, name_rule) {
  EXPECT_TRUE(is_collective_kernel(
      "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_TRUE(is_collective_kernel("void ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)"));
  EXPECT_TRUE(is_collective_kernel("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_TRUE(is_collective_kernel("ncclDevKernelDebug_Broadcast_RING_LL"));
  EXPECT_TRUE(is_collective_kernel("ncclSymkDevKernel_AllReduce_AGxLL_R_sum_f32(x)"));
  EXPECT_FALSE(is_collective_kernel("ampere_sgemm_128x64_nn"));
  EXPECT_FALSE(is_collective_kernel("ncclhelper_Kernel_copy"));
  EXPECT_FALSE(is_collective_kernel("ncclDevKernel_"));
  EXPECT_FALSE(is_collective_kernel("nccl_Kernel_x"));
  EXPECT_FALSE(is_collective_kernel("my_ncclDevKernel_copy"));
  EXPECT_FALSE(is_collective_kernel("ncclDevKernel")); // no operation after it
  EXPECT_FALSE(is_collective_kernel(""));
}

TEST(collective_kernels, operation_from_the_name) {
  EXPECT_EQ(collective_op_of_kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL128(x)"),
            collective_op::all_reduce);
  EXPECT_EQ(collective_op_of_kernel("ncclDevKernel_ReduceScatter_Sum_f32_RING_SIMPLE"),
            collective_op::reduce_scatter);
  EXPECT_EQ(collective_op_of_kernel("ncclDevKernel_Reduce_Sum_f32_RING_LL"), collective_op::reduce);
  EXPECT_EQ(collective_op_of_kernel("void ncclKernel_AllGather_RING_LL_Sum_int8_t(x)"),
            collective_op::all_gather);
  EXPECT_EQ(collective_op_of_kernel("ncclDevKernel_Broadcast_RING_LL(x)"),
            collective_op::broadcast);
  EXPECT_EQ(collective_op_of_kernel("ncclDevKernel_SendRecv(x)"), collective_op::send_recv);
  EXPECT_EQ(collective_op_of_kernel("ncclDevKernel_Generic(x)"), collective_op::unknown);
  EXPECT_EQ(collective_op_of_kernel("gemm"), collective_op::unknown);
}

TEST(collective_kernels, nccl_tests_bus_factors) {
  EXPECT_DOUBLE_EQ(bus_factor(collective_op::all_reduce, 2), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(collective_op::all_reduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(bus_factor(collective_op::all_reduce, 1), 0.0);
  EXPECT_DOUBLE_EQ(bus_factor(collective_op::all_gather, 4), 0.75);
  EXPECT_DOUBLE_EQ(bus_factor(collective_op::reduce_scatter, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor(collective_op::broadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(collective_op::reduce, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(collective_op::send, 2), 1.0);
  EXPECT_TRUE(std::isnan(bus_factor(collective_op::mixed, 2)));
  EXPECT_TRUE(std::isnan(bus_factor(collective_op::all_reduce, 0)));
  for (auto op :
       {collective_op::all_reduce, collective_op::reduce_scatter, collective_op::send_recv})
    EXPECT_EQ(parse_collective_op(to_string(op)), op);
}

nccl_call call(std::uint64_t stream, collective_op op, double bytes, std::int64_t t,
               std::int64_t pid = 1, int nranks = 2) {
  return {pid, stream, op, bytes, nranks, t};
}
collective_launch rank_launch(std::uint64_t stream, std::int64_t t, double time_s,
                              std::int64_t pid = 1,
                              const std::string& name = "ncclDevKernel_AllReduce_Sum_f32_RING_LL") {
  return {pid, t, name, stream, t, time_s};
}

TEST(collective_correlation, each_launch_takes_its_streams_calls) {
  // Two streams interleaved: every launch carries the call made on its own stream before it.
  const auto out = correlate_collectives(
      {call(10, collective_op::all_reduce, 1 << 20, 100),
       call(20, collective_op::broadcast, 4096, 110),
       call(10, collective_op::all_reduce, 2 << 20, 300)},
      {rank_launch(20, 120, 1e-5), rank_launch(10, 105, 1e-3), rank_launch(10, 305, 2e-3)});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].launch.stream, 10u); // sorted by time
  EXPECT_EQ(out[0].calls, 1);
  EXPECT_EQ(out[0].op, collective_op::all_reduce);
  EXPECT_DOUBLE_EQ(out[0].bytes, 1 << 20);
  EXPECT_DOUBLE_EQ(out[0].algbw, (1 << 20) / 1e-3);
  EXPECT_DOUBLE_EQ(out[0].busbw, (1 << 20) / 1e-3 * 1.0); // 2 ranks: 2(n-1)/n = 1
  EXPECT_EQ(out[1].op, collective_op::broadcast);
  EXPECT_DOUBLE_EQ(out[1].bytes, 4096);
  EXPECT_DOUBLE_EQ(out[2].bytes, 2 << 20);
  EXPECT_DOUBLE_EQ(out[2].busbw, (2 << 20) / 2e-3);
}

TEST(collective_correlation, a_group_of_calls_is_one_kernel) {
  auto g = call(10, collective_op::all_reduce, 1000, 10, 1, 4);
  auto h = call(10, collective_op::all_reduce, 3000, 11, 1, 4);
  auto out = correlate_collectives({g, h}, {rank_launch(10, 20, 1e-3)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].calls, 2);
  EXPECT_EQ(out[0].op, collective_op::all_reduce);
  EXPECT_DOUBLE_EQ(out[0].bytes, 4000);
  EXPECT_DOUBLE_EQ(out[0].busbw, 4000 * 1.5 / 1e-3); // 4 ranks: 2(3)/4
  EXPECT_DOUBLE_EQ(out[0].bus_bytes, 4000 * 1.5);
  // Different kinds in one group: mixed, each call with its own factor.
  auto a = call(10, collective_op::all_gather, 4000, 10, 1, 4);
  out = correlate_collectives({g, a}, {rank_launch(10, 20, 1e-3)});
  EXPECT_EQ(out[0].op, collective_op::mixed);
  EXPECT_DOUBLE_EQ(out[0].busbw, (1000 * 1.5 + 4000 * 0.75) / 1e-3);
  EXPECT_DOUBLE_EQ(out[0].bus_bytes, 1000 * 1.5 + 4000 * 0.75);
}

TEST(collective_correlation, another_stream_and_no_call) {
  // NCCL launched on a stream of its own: the call on the user's stream is taken in pass two.
  auto out = correlate_collectives({call(10, collective_op::all_reduce, 512, 5)},
                                   {rank_launch(99, 6, 1e-4), rank_launch(99, 50, 1e-4)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].calls, 1);
  EXPECT_DOUBLE_EQ(out[0].bytes, 512);
  EXPECT_EQ(out[1].calls, 0); // nothing left: op from the kernel name, no bandwidth
  EXPECT_EQ(out[1].op, collective_op::all_reduce);
  EXPECT_DOUBLE_EQ(out[1].busbw, 0);
  EXPECT_DOUBLE_EQ(out[1].bus_bytes, 0);
  EXPECT_DOUBLE_EQ(out[0].bus_bytes, 512); // 2 ranks: 2(1)/2
  // A call made after the launch never belongs to it; another process's calls neither.
  out = correlate_collectives(
      {call(10, collective_op::all_reduce, 512, 50), call(10, collective_op::all_reduce, 64, 1, 2)},
      {rank_launch(10, 20, 1e-4)});
  EXPECT_EQ(out[0].calls, 0);
}

TEST(rank_log_lines, round_trip_and_skip_the_rest) {
  rank_info r{1, 1, 2, "RANK"};
  collective_launch l{42, 7, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", 99, 1234, 2.5e-4};
  std::string text = start_line({{"name", "H200"}, {"ordinal", "1"}}, "", 0, 42);
  text += rank_line(r, 42, 1, "GPU-0123");
  text += "{\"type\":\"nccl\",\"pid\":42,\"stream\":99,\"op\":\"all_reduce\",\"bytes\":4096,"
          "\"nranks\":2,\"t_ns\":1200}\n";
  text += collective_line(l);
  text += nvlink_line({"fields", "", 3.5e9, 2.5e9, 1.25}, 42);
  text += end_line(8, 42);
  text += "{\"type\":\"collective\",\"pid\":42,\"ind"; // cut short
  const rank_log log = parse_rank_log(text);
  ASSERT_TRUE(log.rank);
  EXPECT_EQ(log.rank->rank, 1);
  EXPECT_EQ(log.rank->world_size, 2);
  EXPECT_EQ(log.ordinal, 1);
  EXPECT_EQ(log.gpu_uuid, "GPU-0123");
  ASSERT_EQ(log.calls.size(), 1u);
  EXPECT_EQ(log.calls[0].op, collective_op::all_reduce);
  EXPECT_DOUBLE_EQ(log.calls[0].bytes, 4096);
  EXPECT_EQ(log.calls[0].stream, 99u);
  ASSERT_EQ(log.launches.size(), 1u);
  EXPECT_EQ(log.launches[0].index, 7);
  EXPECT_DOUBLE_EQ(log.launches[0].time_s, 2.5e-4);
  ASSERT_TRUE(log.nvlink);
  EXPECT_EQ(log.nvlink->counter, "fields");
  EXPECT_DOUBLE_EQ(log.nvlink->tx_bytes, 3.5e9);
  EXPECT_DOUBLE_EQ(log.nvlink->rx_bytes, 2.5e9);
  EXPECT_DOUBLE_EQ(log.nvlink->seconds, 1.25);
  // Unread: the reason survives; a log without the line has none.
  const rank_log unread = parse_rank_log(nvlink_line({"", "no NVLink here"}, 42));
  ASSERT_TRUE(unread.nvlink);
  EXPECT_EQ(unread.nvlink->counter, "");
  EXPECT_EQ(unread.nvlink->why, "no NVLink here");
  EXPECT_FALSE(parse_rank_log(rank_line(r, 42, 1, "GPU-0123")).nvlink);
  // The profile log reader takes the same text (the multi-GPU lines are not its own).
  const profile_log p = parse_profile_log(text);
  EXPECT_TRUE(p.finished);
  EXPECT_EQ(p.total_launches, 8);
}

} // namespace

TEST(ranks, peer_access_warning_only_for_ranks_that_may_write_into_each_other) {
  EXPECT_TRUE(roofkit::peer_access_warning(1, nullptr, false).empty()); // one rank: no peer
  EXPECT_TRUE(roofkit::peer_access_warning(2, "1", false).empty());     // peer access off
  EXPECT_TRUE(roofkit::peer_access_warning(2, nullptr, true).empty());  // replays waited for
  const std::string w = roofkit::peer_access_warning(2, nullptr, false);
  EXPECT_NE(w.find("NCCL_P2P_DISABLE=1"), std::string::npos);
  EXPECT_NE(w.find("did not wait for one another's replays"), std::string::npos);
  EXPECT_EQ(roofkit::peer_access_warning(4, "0", false), w); // explicitly on
}
