// libroofkit_nccl.so, preloaded in front of a stand-in libnccl (fake_nccl.cpp): each call reaches
// the real entry point with its result, and one "nccl" record per call lands in the rank's log
// with nccl-tests' bytes and the communicator's size. The test runs itself again as the
// application, with LD_PRELOAD set.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "internal/peer_table.hpp"
#include "roofkit/ranks.hpp"

extern "C" {
int ncclAllReduce(const void*, void*, std::size_t, int, int, void*, void*);
int ncclAllGather(const void*, void*, std::size_t, int, void*, void*);
int ncclReduceScatter(const void*, void*, std::size_t, int, int, void*, void*);
}

namespace {

// As the application: three calls, their results as the exit code (42 + 43 + 44 = 129).
const bool as_application = [] {
  if (!std::getenv("ROOFKIT_TEST_NCCL_APP"))
    return false;
  int sum = ncclAllReduce(nullptr, nullptr, 1000, 7, 0, nullptr, reinterpret_cast<void*>(0x10));
  sum += ncclAllGather(nullptr, nullptr, 256, 9, nullptr, reinterpret_cast<void*>(0x20));
  sum += ncclReduceScatter(nullptr, nullptr, 8, 8, 0, nullptr, reinterpret_cast<void*>(0x10));
  std::_Exit(sum - 129 == 0 ? 0 : 1);
}();

#ifdef ROOFKIT_NCCL_SHIM_PATH
namespace fs = std::filesystem;

// Runs `program args` with the recorder preloaded and the record log at `base`, as rank 3 of an
// Open MPI job; returns its exit code (-1 if it did not exit).
int run_preloaded(const std::string& base, const char* program, const char* arg) {
  const pid_t pid = fork();
  if (pid == 0) {
    setenv("LD_PRELOAD", ROOFKIT_NCCL_SHIM_PATH, 1);
    setenv("ROOFKIT_PROFILE_RECORD", base.c_str(), 1);
    setenv("ROOFKIT_TEST_NCCL_APP", "1", 1);
    setenv("OMPI_COMM_WORLD_RANK", "3", 1);
    execl(program, program, arg, static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

roofkit::rank_log rank3_log(const std::string& base) {
  std::ifstream in(roofkit::rank_record_path(base, 3));
  std::stringstream text;
  text << in.rdbuf();
  return roofkit::parse_rank_log(text.str());
}

fs::path scratch_dir(const char* what) {
  const fs::path dir = fs::temp_directory_path() / (std::string(what) + std::to_string(getpid()));
  fs::create_directories(dir);
  return dir;
}
#endif

TEST(nccl_shim, forwards_each_call_and_records_it) {
#ifndef ROOFKIT_NCCL_SHIM_PATH
  GTEST_SKIP() << "the NCCL call recorder is not built (no GPU build)";
#else
  const fs::path dir = scratch_dir("roofkit-shim-");
  const std::string base = (dir / "records").string();
  // every call returned the stand-in's result
  EXPECT_EQ(run_preloaded(base, "/proc/self/exe", nullptr), 0);
  const roofkit::rank_log log = rank3_log(base);
  ASSERT_EQ(log.calls.size(), 3u);
  EXPECT_EQ(log.calls[0].op, roofkit::collective_op::all_reduce);
  EXPECT_DOUBLE_EQ(log.calls[0].bytes, 4000); // 1000 float32
  EXPECT_EQ(log.calls[0].nranks, 4);
  EXPECT_EQ(log.calls[0].stream, 0x10u);
  EXPECT_EQ(log.calls[1].op, roofkit::collective_op::all_gather);
  EXPECT_DOUBLE_EQ(log.calls[1].bytes, 256 * 2 * 4); // bfloat16, x 4 ranks
  EXPECT_EQ(log.calls[1].stream, 0x20u);
  EXPECT_EQ(log.calls[2].op, roofkit::collective_op::reduce_scatter);
  EXPECT_DOUBLE_EQ(log.calls[2].bytes, 8 * 8 * 4); // float64, x 4 ranks
  EXPECT_LE(log.calls[0].t_ns, log.calls[2].t_ns);
  EXPECT_FALSE(fs::exists(base)); // a rank writes only its own log
  fs::remove_all(dir);
#endif
}

// A collective of rank 3 waits while rank 0 replays (its span open in the job's peer table),
// counts itself there, and records the wait.
TEST(nccl_shim, a_collective_waits_for_a_peers_replay) {
#ifndef ROOFKIT_NCCL_SHIM_PATH
  GTEST_SKIP() << "the NCCL call recorder is not built (no GPU build)";
#else
  const fs::path dir = scratch_dir("roofkit-shim-peers-");
  const std::string base = (dir / "records").string();
  std::string why;
  auto rank0 =
      roofkit::detail::peer_table::open(roofkit::detail::peer_table::path_for(base), 0, why);
  ASSERT_TRUE(rank0) << why;
  ASSERT_TRUE(rank0->open_span());
  // Rank 0's span closes 200 ms after rank 3 has counted its first call: rank 3 waits from its
  // count on, whatever its start-up took (a sanitizer build starts slowly).
  auto rank3 =
      roofkit::detail::peer_table::open(roofkit::detail::peer_table::path_for(base), 3, why);
  ASSERT_TRUE(rank3) << why;
  std::thread closer([&] {
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (rank3->collectives() == 0 && std::chrono::steady_clock::now() < limit)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    rank0->close_span();
  });
  EXPECT_EQ(run_preloaded(base, "/proc/self/exe", nullptr), 0);
  closer.join();
  const roofkit::rank_log log = rank3_log(base);
  ASSERT_EQ(log.calls.size(), 3u);
  EXPECT_GE(log.calls[0].peer_wait_ns, 200'000'000); // the first call waited for the span
  EXPECT_LT(log.calls[1].peer_wait_ns, 100'000'000); // the others did not
  EXPECT_FALSE(rank0->open_span());                  // rank 3 has called 3 collectives, rank 0 none
  fs::remove_all(dir);
#endif
}

// PyTorch's arrangement: NCCL is a dependency of a library loaded with dlopen(RTLD_LOCAL), out of
// RTLD_NEXT's reach, while that library's calls still reach the recorder in the global scope.
TEST(nccl_shim, forwards_to_an_nccl_in_a_local_scope) {
#if !defined(ROOFKIT_NCCL_SHIM_PATH) || !defined(ROOFKIT_NCCL_LOCAL_APP)
  GTEST_SKIP() << "the NCCL call recorder is not built (no GPU build)";
#else
  const fs::path dir = scratch_dir("roofkit-shim-local-");
  const std::string base = (dir / "records").string();
  EXPECT_EQ(run_preloaded(base, ROOFKIT_NCCL_LOCAL_APP, ROOFKIT_NCCL_USER_LIB), 0);
  const roofkit::rank_log log = rank3_log(base);
  ASSERT_EQ(log.calls.size(), 1u);
  EXPECT_EQ(log.calls[0].op, roofkit::collective_op::all_reduce);
  EXPECT_DOUBLE_EQ(log.calls[0].bytes, 256); // 64 float32
  EXPECT_EQ(log.calls[0].nranks, 4);         // ncclCommCount found in the local scope too
  EXPECT_EQ(log.calls[0].stream, 0x30u);
  fs::remove_all(dir);
#endif
}

} // namespace
