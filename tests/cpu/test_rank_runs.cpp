// The launcher's side of a multi-process job, without a GPU: two ranks' record logs (one of
// them cut short by a crash) become one run per rank, with their collectives matched to the
// NCCL calls, and a merged run.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofkit/app_profile.hpp"
#include "roofkit/ranks.hpp"
#include "roofkit/results.hpp"

namespace {

using namespace roofkit;
namespace fs = std::filesystem;
using json = nlohmann::json;

/// A rank's record log: two profiled GEMM launches, one all-reduce of 64 MiB over 2 ranks taking
/// `allreduce_s`, the NCCL call behind it, and the end record when `finished`.
std::string rank_log_text(int rank, double allreduce_s, bool finished) {
  const std::int64_t pid = 100 + rank;
  std::string t = start_line(
      {{"name", "NVIDIA H200"}, {"cc", "9.0"}, {"sms", "132"}, {"ordinal", std::to_string(rank)}},
      "roofline", 8, pid);
  t += rank_line({rank, rank, 2, "RANK"}, pid, rank, "GPU-rank" + std::to_string(rank));
  for (int i = 0; i < 2; ++i) {
    launch_record r;
    r.pid = pid;
    r.index = i;
    r.kernel.name = "gemm_kernel(float*)";
    r.kernel.launch.grid = {132, 1, 1};
    r.kernel.launch.block = {256, 1, 1};
    r.kernel.flops[precision::fp32] = 2e12;
    r.kernel.bytes[memory_level::dram] = 1e9;
    r.kernel.gpu_time_s = 1e-3 * (rank + 1);
    r.stream = 7;
    t += launch_line(r);
  }
  t += "{\"type\":\"nccl\",\"pid\":" + std::to_string(pid) +
       ",\"stream\":9,\"op\":\"all_reduce\",\"bytes\":67108864,\"nranks\":2,\"t_ns\":5000}\n";
  t +=
      collective_line({pid, 2, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", 9, 5100, allreduce_s});
  t += timing_line({"gemm_kernel(float*)", 2, 2e-3 * (rank + 1), 1e-3 * (rank + 1), 0, 0});
  t += timing_line(
      {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)", 1, allreduce_s, allreduce_s, 0, 0});
  // Rank 0's GPU sent 70 MB over NVLink; rank 1's counters could not be read.
  t += rank == 0 ? nvlink_line({"fields", "", 70e6, 69e6, 2.0}, pid)
                 : nvlink_line({"", "no NVLink on this GPU"}, pid);
  if (finished)
    t += end_line(3, pid);
  return t;
}

TEST(rank_runs, one_run_per_rank_with_collectives_then_the_merge) {
  const fs::path dir =
      fs::temp_directory_path() / ("roofkit-rank-runs-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  profile_run_inputs in;
  in.command = "roofline-cuda profile -- torchrun";
  in.host = "node";
  profile_log launcher;
  launcher.clock_control = "none";
  std::vector<fs::path> files;
  for (int rank = 0; rank < 2; ++rank) {
    const rank_run r = build_rank_run(
        rank, rank_log_text(rank, rank == 0 ? 0.5e-3 : 1e-3, rank == 0), in, {}, launcher);
    EXPECT_EQ(r.log.launches.size(), 2u);
    ASSERT_EQ(r.collectives.size(), 1u);
    const collective_record& c = r.collectives[0];
    EXPECT_EQ(c.calls, 1);
    EXPECT_DOUBLE_EQ(c.bytes, 67108864);
    // 2 ranks: busbw = algbw x 2(1)/2.
    EXPECT_DOUBLE_EQ(c.busbw, 67108864 / (rank == 0 ? 0.5e-3 : 1e-3));
    EXPECT_EQ(r.result.context.gpu_uuid, "GPU-rank" + std::to_string(rank));
    EXPECT_FALSE(r.result.ceilings.empty()); // the H200's datasheet roofs without a GPU here
    const json j = json::parse(r.json);
    EXPECT_EQ(j.at("multi_gpu").at("rank"), rank);
    EXPECT_EQ(j.at("multi_gpu").at("world_size"), 2);
    EXPECT_EQ(j.at("multi_gpu").at("status"), rank == 0 ? "ok" : "ended early (crashed or killed)");
    EXPECT_EQ(j.at("multi_gpu").at("collectives")[0].at("op"), "all_reduce");
    EXPECT_DOUBLE_EQ(j.at("multi_gpu").at("collectives")[0].at("bus_bytes"), 67108864);
    const json& nv = j.at("multi_gpu").at("nvlink");
    if (rank == 0) {
      EXPECT_DOUBLE_EQ(nv.at("tx_bytes"), 70e6);
      EXPECT_DOUBLE_EQ(nv.at("collective_bus_bytes"), 67108864);
      EXPECT_DOUBLE_EQ(nv.at("tx_per_bus_byte"), 70e6 / 67108864);
      EXPECT_DOUBLE_EQ(nv.at("rooted_bus_bytes"), 0); // an all-reduce: every rank sends
    } else {
      EXPECT_EQ(nv.at("counter"), "");
      EXPECT_EQ(nv.at("why"), "no NVLink on this GPU");
    }
    files.push_back(rank_run_path(dir / "run.json", rank));
    std::ofstream(files.back()) << r.json;
  }
  const merge_summary s = merge_rank_runs(files, dir / "run.json");
  ASSERT_EQ(s.ranks.size(), 2u);
  EXPECT_EQ(s.ranks[0].status, rank_status::ok);
  EXPECT_EQ(s.ranks[1].status, rank_status::ended_early);
  EXPECT_DOUBLE_EQ(s.ranks[1].compute_s, 4e-3);
  EXPECT_DOUBLE_EQ(s.ranks[1].collective_s, 1e-3);
  EXPECT_DOUBLE_EQ(s.load_imbalance, 4e-3 / 3e-3);
  ASSERT_FALSE(s.kernels.empty());
  EXPECT_EQ(s.kernels[0].name, "gemm_kernel(float*)");
  EXPECT_EQ(s.kernels[0].slowest_rank, 1);
  EXPECT_DOUBLE_EQ(s.ranks[0].nvlink.tx_bytes, 70e6);
  EXPECT_DOUBLE_EQ(s.ranks[0].collective_bus_bytes, 67108864);
  EXPECT_TRUE(s.ranks[1].nvlink.counter.empty());
  const auto notes = merge_tables(s)[0].notes;
  const auto has = [&](const std::string& text) {
    return std::any_of(notes.begin(), notes.end(),
                       [&](const std::string& n) { return n.find(text) != std::string::npos; });
  };
  EXPECT_TRUE(has("rank 0: its GPU sent 0.070 GB and received 0.069 GB over NVLink in 2.0 s"));
  EXPECT_TRUE(has("bus bytes 0.067 GB (sent / bus bytes 1.043)"));
  EXPECT_TRUE(has("rank 1: NVLink traffic not read (no NVLink on this GPU)"));
  const run merged = load_run(dir / "run.json");
  EXPECT_EQ(merged.kernels.size(), 2u);
  fs::remove_all(dir);
}

TEST(rank_runs, a_broadcast_is_sent_by_its_root_only) {
  const fs::path dir =
      fs::temp_directory_path() / ("roofkit-rank-rooted-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::int64_t pid = 7;
  std::string t = start_line({{"name", "NVIDIA H200"}, {"ordinal", "0"}}, "roofline", 8, pid);
  t += rank_line({0, 0, 2, "RANK"}, pid, 0, "GPU-root");
  t += "{\"type\":\"nccl\",\"pid\":7,\"stream\":9,\"op\":\"broadcast\",\"bytes\":4194304,"
       "\"nranks\":2,\"t_ns\":10}\n";
  t += collective_line({pid, 0, "ncclDevKernel_Broadcast_RING_LL(x)", 9, 20, 1e-4});
  t += nvlink_line({"fields", "", 4194304, 0, 0.5}, pid);
  t += end_line(1, pid);
  profile_run_inputs in;
  const rank_run r = build_rank_run(0, t, in, {}, profile_log{});
  const json nv = json::parse(r.json).at("multi_gpu").at("nvlink");
  EXPECT_DOUBLE_EQ(nv.at("collective_bus_bytes"), 4194304); // broadcast: factor 1
  EXPECT_DOUBLE_EQ(nv.at("rooted_bus_bytes"), 4194304);
  const fs::path file = rank_run_path(dir / "run.json", 0);
  std::ofstream(file) << r.json;
  const merge_summary s = merge_rank_runs({file}, dir / "run.json");
  ASSERT_EQ(s.ranks.size(), 2u); // rank 1 of 2 has no file
  const auto notes = merge_tables(s)[0].notes;
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
    return n.find("(sent / bus bytes 1.000), of which 0.004 GB broadcast or reduced, sent by "
                  "the root only") != std::string::npos;
  }));
  fs::remove_all(dir);
}

TEST(rank_runs, nvlink_lines_of_a_large_job_are_one_summary) {
  merge_summary s;
  for (int rank = 0; rank < 10; ++rank) {
    merge_summary::rank_row row;
    row.rank = rank;
    if (rank == 9)
      row.nvlink.why = "no NVLink on this GPU";
    else
      row.nvlink = {"fields", "", 1e9 * (rank + 1), 1e9, 2.0};
    row.collective_bus_bytes = 2e9;
    s.ranks.push_back(row);
  }
  const auto notes = merge_tables(s)[0].notes;
  const auto count = [&](const std::string& text) {
    return std::count_if(notes.begin(), notes.end(),
                         [&](const std::string& n) { return n.find(text) != std::string::npos; });
  };
  EXPECT_EQ(count("rank 0: its GPU sent"), 0); // no line per rank beyond 8 ranks
  EXPECT_EQ(count("NVLink (NVML, each rank's whole GPU): 9 ranks read, 1.000 to 9.000 GB sent "
                  "per rank; sent / its collectives' bus bytes 0.500 to 4.500"),
            1);
  EXPECT_EQ(count("NVLink traffic not read on 1 of the ranks (no NVLink on this GPU)"), 1);
}

} // namespace
