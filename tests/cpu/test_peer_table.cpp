// The peer table of a job's ranks (internal/peer_table.hpp): a rank replays only when no peer has
// called a collective it has not, a collective waits while a peer replays, and two processes
// that map the same file see each other's slots.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "internal/peer_table.hpp"

namespace {

using roofkit::detail::peer_slots;
using roofkit::detail::peer_table;
using namespace std::chrono_literals;

TEST(peer_table, a_rank_behind_its_peer_does_not_open_a_span) {
  auto slots = std::make_unique<peer_slots>();
  peer_table r0(*slots, 0), r1(*slots, 1);
  bool gave_up = true;
  EXPECT_LT(r1.enter_collective(1s, gave_up), 1s); // no span open: no wait
  EXPECT_FALSE(gave_up);
  EXPECT_EQ(r1.collectives(), 1u);
  EXPECT_FALSE(r0.open_span()); // rank 1's collective may be writing into rank 0's memory
  EXPECT_FALSE(r0.span_is_open());
  r0.enter_collective(1s, gave_up); // rank 0 reaches the same collective
  EXPECT_TRUE(r0.open_span());
  EXPECT_TRUE(r0.span_is_open());
  EXPECT_TRUE(r1.open_span()); // rank 1 is not behind either: both may replay at once
  r0.close_span();
  EXPECT_FALSE(r0.span_is_open());
  EXPECT_TRUE(r1.span_is_open());
}

TEST(peer_table, a_collective_waits_while_a_peer_replays) {
  auto slots = std::make_unique<peer_slots>();
  peer_table r0(*slots, 0), r5(*slots, 5);
  ASSERT_TRUE(r5.open_span());
  std::thread closer([&] { // 150 ms after rank 0 has counted its call and begun to wait
    while (r0.collectives() == 0)
      std::this_thread::sleep_for(1ms);
    std::this_thread::sleep_for(150ms);
    r5.close_span();
  });
  bool gave_up = true;
  const auto waited = r0.enter_collective(10s, gave_up);
  closer.join();
  EXPECT_FALSE(gave_up);
  EXPECT_GE(waited, 100ms);
  EXPECT_LT(waited, 5s);
  EXPECT_TRUE(r0.open_span()); // its own span never held it
  EXPECT_LT(r0.enter_collective(10s, gave_up), 1s);
}

// A span that began after the peer called collective 1 holds its data (or its first
// synchronisation waits for it): collective 1 goes ahead, collective 2 waits.
TEST(peer_table, a_collective_waits_only_for_spans_that_began_before_it) {
  auto slots = std::make_unique<peer_slots>();
  peer_table r0(*slots, 0), r1(*slots, 1);
  bool gave_up = true;
  r0.enter_collective(1s, gave_up);
  ASSERT_TRUE(r0.open_span());
  EXPECT_LT(r1.enter_collective(1s, gave_up), 100ms);
  EXPECT_FALSE(gave_up);
  r1.enter_collective(50ms, gave_up);
  EXPECT_TRUE(gave_up);
}

// Two processes of one rank (a helper it forked) share its slot: one closing its span leaves
// the other's open.
TEST(peer_table, processes_of_one_rank_keep_their_own_spans) {
  auto slots = std::make_unique<peer_slots>();
  peer_table a(*slots, 2), b(*slots, 2), peer(*slots, 0);
  ASSERT_TRUE(a.open_span());
  ASSERT_TRUE(b.open_span());
  b.close_span();
  b.close_span(); // closing twice closes once
  EXPECT_TRUE(a.span_is_open());
  EXPECT_FALSE(b.span_is_open());
  bool gave_up = false;
  peer.enter_collective(50ms, gave_up);
  EXPECT_TRUE(gave_up); // rank 2 still replays
  a.close_span();
  EXPECT_LT(peer.enter_collective(1s, gave_up), 100ms);
  EXPECT_FALSE(gave_up);
}

TEST(peer_table, a_collective_goes_ahead_after_its_limit) {
  auto slots = std::make_unique<peer_slots>();
  peer_table r0(*slots, 0), r1(*slots, 1);
  ASSERT_TRUE(r1.open_span()); // never closed: its host code waits for rank 0 outside NCCL
  bool gave_up = false;
  const auto waited = r0.enter_collective(50ms, gave_up);
  EXPECT_TRUE(gave_up);
  EXPECT_GE(waited, 50ms);
  EXPECT_EQ(r0.collectives(), 1u); // counted before the wait
}

TEST(peer_table, processes_share_the_file) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("roofkit-peers-test-" + std::to_string(getpid())))
          .string();
  std::filesystem::remove(path);
  std::string why;
  auto r0 = peer_table::open(path, 0, why);
  ASSERT_TRUE(r0) << why;
  EXPECT_TRUE(r0->open_span());
  const pid_t child = fork();
  if (child == 0) { // rank 1: waits for rank 0's span, then has called one collective
    std::string w;
    auto r1 = peer_table::open(path, 1, w);
    bool gave_up = true;
    const bool waited = r1 && r1->enter_collective(10s, gave_up) >= 100ms && !gave_up;
    std::_Exit(waited ? 0 : 1);
  }
  auto r1_view = peer_table::open(path, 1, why); // rank 1's count, as seen from here
  ASSERT_TRUE(r1_view) << why;
  const auto limit = std::chrono::steady_clock::now() + 30s;
  while (r1_view->collectives() == 0 && std::chrono::steady_clock::now() < limit)
    std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(150ms); // rank 1 waits from its count on
  EXPECT_TRUE(r0->span_is_open());
  r0->close_span();
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_FALSE(r0->open_span()); // rank 1 has called a collective rank 0 has not
  std::filesystem::remove(path);
}

TEST(peer_table, ranks_outside_the_table_are_refused) {
  std::string why;
  EXPECT_FALSE(peer_table::open("/tmp/unused-roofkit-peers", peer_slots::max_ranks, why));
  EXPECT_NE(why.find("rank 1024 is outside the table's [0, 1024)"), std::string::npos) << why;
  why.clear();
  EXPECT_FALSE(peer_table::open("/nonexistent-dir/x.peers", 0, why));
  EXPECT_NE(why.find("cannot open '/nonexistent-dir/x.peers'"), std::string::npos) << why;
  EXPECT_EQ(peer_table::path_for("/tmp/roofkit-profile-abc"), "/tmp/roofkit-profile-abc.peers");
}

} // namespace
