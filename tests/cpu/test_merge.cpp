// roofkit::merge_rank_runs: the ranks' run files as one run, a missing or cut-short rank listed,
// and memory and time that grow linearly with the input.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "roofkit/core.hpp"
#include "roofkit/ranks.hpp"
#include "roofkit/results.hpp"

namespace {

using namespace roofkit;
namespace fs = std::filesystem;
using json = nlohmann::json;

fs::path temp_dir(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("roofkit-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

/// A rank's run file: a GEMM taking `gemm_s` in total over `launches` profiled launches, an
/// all-reduce taking `allreduce_s`.
std::string rank_file(int rank, int world, int launches, double gemm_s, double allreduce_s,
                      bool finished = true) {
  run r;
  r.context.device_name = "NVIDIA H200";
  r.context.cc_major = 9;
  kernel_result k;
  k.name = "gemm_kernel";
  k.time.median_s = gemm_s / launches;
  k.time.repetitions = 1;
  k.flops[precision::fp32] = 1e9;
  k.bytes[memory_level::dram] = 1e8;
  r.kernels.push_back(k);
  json j = json::parse(to_json_text(r));
  const std::string ar = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)";
  json p;
  p["app"] = {{"records_complete", finished}};
  p["kernels"] =
      json::array({{{"name", "gemm_kernel"}, {"launches", launches}, {"total_time_s", gemm_s}},
                   {{"name", ar}, {"launches", 10}, {"total_time_s", allreduce_s}}});
  json list = json::array();
  for (int i = 0; i < launches; ++i)
    list.push_back(
        {{"index", i}, {"name", "gemm_kernel"}, {"time_s", {{"median", gemm_s / launches}}}});
  p["launches"] = list;
  j["profile"] = p;
  j["multi_gpu"] = {{"rank", rank},
                    {"world_size", world},
                    {"device", rank % 8},
                    {"status", finished ? "ok" : "ended early (crashed or killed)"},
                    {"collectives", json::array({{{"name", ar},
                                                  {"time_s", allreduce_s / 10},
                                                  {"op", "all_reduce"},
                                                  {"bytes", 1 << 20},
                                                  {"busbw_bytes_per_s", 2.0e11}}})}};
  return j.dump();
}

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

TEST(merge, ranks_kernels_imbalance_and_how_each_ended) {
  const fs::path dir = temp_dir("merge");
  // World of 5: ranks 0, 1 fine; 2 cut short; 3 has no file; 4 ended early.
  write_file(dir / "run.rank0.json", rank_file(0, 5, 4, 1.0, 0.5));
  write_file(dir / "run.rank1.json", rank_file(1, 5, 4, 3.0, 0.1));
  const std::string cut = rank_file(2, 5, 4, 2.0, 0.2);
  write_file(dir / "run.rank2.json", cut.substr(0, cut.size() / 2));
  write_file(dir / "run.rank4.json", rank_file(4, 5, 2, 2.0, 0.3, false));
  const std::vector<fs::path> in{dir / "run.rank0.json", dir / "run.rank1.json",
                                 dir / "run.rank2.json", dir / "run.rank4.json"};
  const auto s = merge_rank_runs(in, dir / "merged.json");
  ASSERT_EQ(s.ranks.size(), 5u);
  EXPECT_EQ(s.ranks[0].status, rank_status::ok);
  EXPECT_EQ(s.ranks[1].status, rank_status::ok);
  EXPECT_EQ(s.ranks[2].status, rank_status::unreadable);
  EXPECT_EQ(s.ranks[3].status, rank_status::no_file);
  EXPECT_EQ(s.ranks[4].status, rank_status::ended_early);
  EXPECT_DOUBLE_EQ(s.ranks[1].compute_s, 3.0);
  EXPECT_DOUBLE_EQ(s.ranks[1].collective_s, 0.1);
  EXPECT_EQ(s.ranks[4].device, 4);
  EXPECT_EQ(s.ranks[0].collectives, 1);
  EXPECT_DOUBLE_EQ(s.ranks[0].median_busbw, 2.0e11);
  // Compute per rank 1, 3, 2 (ranks with data): max 3 over mean 2.
  EXPECT_DOUBLE_EQ(s.load_imbalance, 1.5);
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].name, "gemm_kernel");
  EXPECT_FALSE(s.kernels[0].collective);
  EXPECT_EQ(s.kernels[0].ranks, 3);
  EXPECT_EQ(s.kernels[0].launches, 10);
  EXPECT_DOUBLE_EQ(s.kernels[0].mean_s, 2.0);
  EXPECT_DOUBLE_EQ(s.kernels[0].min_s, 1.0);
  EXPECT_DOUBLE_EQ(s.kernels[0].max_s, 3.0);
  EXPECT_DOUBLE_EQ(s.kernels[0].spread, 1.0);
  EXPECT_EQ(s.kernels[0].slowest_rank, 1);
  EXPECT_TRUE(s.kernels[1].collective);
  EXPECT_EQ(s.kernels[1].slowest_rank, 0);
  EXPECT_EQ(s.launches, 10);

  // The merged file is a run: every rank's kernels, named for their rank.
  const run merged = load_run(dir / "merged.json");
  ASSERT_EQ(merged.kernels.size(), 3u);
  EXPECT_EQ(merged.kernels[0].name, "gemm_kernel [rank 0]");
  EXPECT_EQ(merged.kernels[2].name, "gemm_kernel [rank 4]");
  std::ifstream f(dir / "merged.json");
  const json j = json::parse(f);
  const json& mg = j.at("multi_gpu");
  EXPECT_EQ(mg.at("ranks").size(), 5u);
  EXPECT_EQ(mg.at("ranks")[3].at("status"), "no file");
  EXPECT_EQ(mg.at("launches").size(), 10u);
  EXPECT_EQ(mg.at("launches")[9].at("rank"), 4);
  EXPECT_EQ(mg.at("collectives").size(), 3u);
  EXPECT_EQ(mg.at("collectives")[1].at("rank"), 1);
  EXPECT_DOUBLE_EQ(mg.at("load_imbalance").get<double>(), 1.5);
  EXPECT_FALSE(fs::exists(dir / "merged.json.launches.tmp"));
  // The collectives chart: one marker per rank and size, the two roofs.
  ASSERT_EQ(s.collective_points.size(), 3u);
  EXPECT_DOUBLE_EQ(s.collective_points[0].bytes, 1 << 20);
  const std::string svg =
      to_svg(draw_collectives_chart(s, interconnect_roof{3.6e11, 4.5e11}, "collectives"));
  std::size_t markers = 0;
  for (std::size_t at = 0; (at = svg.find("class=\"collective\"", at)) != std::string::npos; ++at)
    ++markers;
  EXPECT_EQ(markers, 3u);
  EXPECT_NE(svg.find("measured all-reduce busbw 360 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("NVLink 450 GB/s per direction"), std::string::npos);
  const auto tables = merge_tables(s);
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0].rows.size(), 5u);
  fs::remove_all(dir);
}

// A rank's file whose collectives (all-reduces) took `times`, in order.
std::string rank_with_collectives(int rank, const std::vector<double>& times,
                                  const char* op = "all_reduce") {
  json j = json::parse(rank_file(rank, 3, 2, 1.0, 0.1));
  json list = json::array();
  for (double t : times)
    list.push_back({{"name", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(x)"},
                    {"time_s", t},
                    {"op", op},
                    {"bytes", 1 << 20}});
  j["multi_gpu"]["collectives"] = list;
  return j.dump();
}

// The k-th collective of every rank is one collective: the fastest copy is the transfer, the
// rest of each rank's time is waiting for the last rank to arrive.
TEST(merge, collective_waits_from_the_fastest_copy_of_each_collective) {
  const fs::path dir = temp_dir("merge-waits");
  write_file(dir / "run.rank0.json", rank_with_collectives(0, {0.010, 0.002, 0.005}));
  write_file(dir / "run.rank1.json", rank_with_collectives(1, {0.004, 0.006, 0.005}));
  write_file(dir / "run.rank2.json", rank_with_collectives(2, {0.003, 0.002})); // ended early
  const auto s =
      merge_rank_runs({dir / "run.rank0.json", dir / "run.rank1.json", dir / "run.rank2.json"},
                      dir / "merged.json");
  EXPECT_EQ(s.matched_collectives, 3);
  EXPECT_NEAR(s.collective_fastest_s, 0.003 + 0.002 + 0.005, 1e-12);
  EXPECT_NEAR(s.ranks[0].collective_wait_s, 0.007, 1e-12);         // 0.010 - 0.003
  EXPECT_NEAR(s.ranks[1].collective_wait_s, 0.001 + 0.004, 1e-12); // 0.004 - 0.003, 0.006 - 0.002
  EXPECT_NEAR(s.ranks[2].collective_wait_s, 0.0, 1e-12);
  // Fastest: rank 2 in the first; ranks 0 and 2 tie in the second, and 0 and 1 in the third
  // (the first rank read keeps a tie).
  EXPECT_EQ(s.ranks[0].last_to_arrive, 2);
  EXPECT_EQ(s.ranks[1].last_to_arrive, 0);
  EXPECT_EQ(s.ranks[2].last_to_arrive, 1);
  std::ifstream f(dir / "merged.json");
  const json mg = json::parse(f).at("multi_gpu");
  EXPECT_EQ(mg.at("collectives_matched_across_ranks"), 3);
  EXPECT_NEAR(mg.at("ranks")[1].at("collective_wait_s").get<double>(), 0.005, 1e-12);
  const auto tables = merge_tables(s);
  EXPECT_NE(tables[0].notes[1].find("each of the 3 collectives"), std::string::npos);

  // Ranks whose collectives differ in order: no waits computed, and the table says why.
  write_file(dir / "run.rank1.json", rank_with_collectives(1, {0.004, 0.006}, "all_gather"));
  const auto d =
      merge_rank_runs({dir / "run.rank0.json", dir / "run.rank1.json"}, dir / "merged2.json");
  EXPECT_EQ(d.matched_collectives, 0);
  EXPECT_EQ(d.ranks[0].collective_wait_s, 0.0);
  EXPECT_NE(merge_tables(d)[0].notes[1].find("differ in order"), std::string::npos);
  fs::remove_all(dir);
}

TEST(merge, the_kernels_table_never_repeats_a_label) {
  // Two instantiations of one template and one kernel whose name the short form cuts: each row
  // keeps what tells it apart.
  merge_summary s;
  for (const char* name :
       {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
        "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
        "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, "
        "float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul> >(int, "
        "at::native::AUnaryFunctor<float, float, float, "
        "at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul>)",
        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"})
    s.kernels.push_back({name});
  const auto tables = merge_tables(s);
  ASSERT_EQ(tables.size(), 2u);
  const auto& rows = tables[1].rows;
  ASSERT_EQ(rows.size(), 3u);
  std::set<std::string> labels;
  for (const auto& row : rows)
    labels.insert(std::get<std::string>(row[0]));
  EXPECT_EQ(labels.size(), 3u);
  EXPECT_NE(std::get<std::string>(rows[0][0]).find("Fill"), std::string::npos);
  EXPECT_NE(std::get<std::string>(rows[1][0]).find("AUnaryFunctor"), std::string::npos);
}

TEST(merge, a_job_without_collectives_is_written) {
  // Two ranks that ran no collective: the merged run's collectives list is empty and the file
  // is complete (an empty streamed list must not fail the write).
  const fs::path dir = temp_dir("merge-nocoll");
  for (int rank : {0, 1}) {
    json j = json::parse(rank_file(rank, 2, 3, 1.0, 0.1));
    j["multi_gpu"]["collectives"] = json::array();
    write_file(dir / ("run.rank" + std::to_string(rank) + ".json"), j.dump());
  }
  const auto s =
      merge_rank_runs({dir / "run.rank0.json", dir / "run.rank1.json"}, dir / "merged.json");
  ASSERT_EQ(s.ranks.size(), 2u);
  EXPECT_EQ(s.ranks[0].collectives, 0);
  const json merged = json::parse(std::ifstream(dir / "merged.json"));
  EXPECT_TRUE(merged.at("multi_gpu").at("collectives").empty());
  EXPECT_EQ(merged.at("multi_gpu").at("launches").size(), 6u);
  fs::remove_all(dir);
}

TEST(merge, nothing_readable_is_a_usage_error) {
  const fs::path dir = temp_dir("merge-bad");
  write_file(dir / "a.json", "{\"schema\":");
  auto code_of = [&](const std::vector<fs::path>& in) {
    try {
      merge_rank_runs(in, dir / "m.json");
    } catch (const error& e) {
      return e.code();
    }
    return exit_code::ok;
  };
  EXPECT_EQ(code_of({dir / "a.json", dir / "missing.json"}), exit_code::usage);
  EXPECT_EQ(code_of({}), exit_code::usage);
  fs::remove_all(dir);
}

struct cost {
  double seconds = 0;
  double peak_growth_mib = 0; ///< the merging child's peak RSS over its RSS when it started
};

double rss_mib() {
  long pages = 0;
  long resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (f) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
      resident = 0;
    std::fclose(f);
  }
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1048576.0;
}

/// Merges `ranks` files of `launches` launches each in a child process: its wall time and peak.
cost merge_cost(const fs::path& dir, int ranks, int launches) {
  std::vector<fs::path> in;
  for (int r = 0; r < ranks; ++r) {
    in.push_back(dir / ("run.rank" + std::to_string(r) + ".json"));
    write_file(in.back(), rank_file(r, ranks, launches, 1.0 + r % 3, 0.2));
  }
  int fds[2] = {-1, -1};
  EXPECT_EQ(pipe(fds), 0);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) { // the child's peak over its resident size when it starts merging
    const double base = rss_mib();
    try {
      merge_rank_runs(in, dir / "merged.json");
    } catch (...) {
      _exit(1);
    }
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    const double growth = static_cast<double>(self.ru_maxrss) / 1024.0 - base;
    _exit(::write(fds[1], &growth, sizeof growth) == sizeof growth ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  cost c;
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(::read(fds[0], &c.peak_growth_mib, sizeof c.peak_growth_mib),
            static_cast<ssize_t>(sizeof c.peak_growth_mib));
  close(fds[0]);
  close(fds[1]);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  for (const auto& p : in)
    fs::remove(p);
  return c;
}

TEST(merge, time_and_memory_grow_linearly) {
  const fs::path dir = temp_dir("merge-scale");
  const cost small = merge_cost(dir, 64, 1000);
  const cost large = merge_cost(dir, 256, 1000);
  std::printf("64 ranks: %.2f s, +%.1f MiB; 256 ranks: %.2f s, +%.1f MiB\n", small.seconds,
              small.peak_growth_mib, large.seconds, large.peak_growth_mib);
  // Four times the input: about four times the time (generous: under eight), and a peak that
  // holds one rank's file, not all of them (under twice the small one's, plus allocator slack).
  EXPECT_LT(large.seconds, 8 * small.seconds + 0.5);
  EXPECT_LT(large.peak_growth_mib, 2 * small.peak_growth_mib + 32);
  EXPECT_GT(fs::file_size(dir / "merged.json"), 256u * 1000u * 40u); // every launch is in it
  fs::remove_all(dir);
}

} // namespace
