// The injected library's book of launches (lib/inject/launch_book.cpp, compiled in): shapes and
// NVTX ranges numbered as they come, the first N launches of a shape measured and the rest
// inferred and streamed to the record log, and the records it writes at exit read back as the
// launcher reads them; and launch times matched to their kernel activity records
// (lib/inject/launch_spans.cpp).
#include <gtest/gtest.h>

#include <cstring>

#include "counter_sets.hpp"
#include "kernel_table.hpp"
#include "launch_book.hpp"
#include "launch_spans.hpp"
#include "roofkit/app_profile.hpp"

namespace {

using roofkit::inject::launch_book;

std::size_t h(const char* mangled) { return roofkit::inject::symbol_hash(mangled); }

const std::array<std::uint32_t, 3> grid{8, 1, 1};
const std::array<std::uint32_t, 3> block{256, 1, 1};

TEST(launch_book, measures_the_first_launches_of_a_shape_and_records_the_inferred_ones) {
  launch_book book(roofkit::sample_limit{2}, 42);
  std::string text;
  std::vector<bool> measured;
  for (int i = 0; i < 6; ++i) {
    const bool in_step = i >= 3;
    const auto at =
        book.locate(i % 2, i % 2 ? "_Z1bv" : "_Z1av", grid, block, 0,
                    in_step ? std::vector<std::string>{"step"} : std::vector<std::string>{});
    std::string line;
    measured.push_back(book.measure(at, i, line));
    EXPECT_TRUE(line.empty()); // far from a full line of inferred launches
  }
  // Kernel 0 at launches 0, 2, 4 and kernel 1 at 1, 3, 5: the third of each inferred.
  EXPECT_EQ(measured, (std::vector<bool>{true, true, true, true, false, false}));
  EXPECT_EQ(book.measured(), 4);
  EXPECT_EQ(book.inferred(), 2);
  std::map<int, roofkit::launch_time_stats> stats;
  stats[0].add(1e-6);
  stats[0].add(3e-6);
  for (const auto& line : book.finish({"a()", "b()"}, stats))
    text += line;
  const auto log = roofkit::parse_profile_log(text);
  ASSERT_EQ(log.shapes.size(), 2u);
  EXPECT_EQ(log.shapes[0].name, "a()");
  EXPECT_EQ(log.shapes[1].mangled_name, "_Z1bv");
  EXPECT_EQ(log.shapes[0].pid, 42);
  ASSERT_EQ(log.ranges.size(), 1u);
  EXPECT_EQ(log.ranges[0].path, (std::vector<std::string>{"step"}));
  EXPECT_EQ(log.inferred.at({42, 0}), (std::vector<std::int64_t>{4}));
  EXPECT_EQ(log.inferred.at({42, 1}), (std::vector<std::int64_t>{5}));
  // Groups: (a, none) 0 and 2; (b, none) 1; (b, step) 3 and 5; (a, step) 4.
  ASSERT_EQ(log.groups.size(), 4u);
  EXPECT_EQ(log.groups[0].launches, 2);
  EXPECT_EQ(log.groups[0].measured, 2);
  EXPECT_NEAR(log.groups[0].total_s, 4e-6, 1e-15);
  EXPECT_EQ(log.groups[2].range, 0);
  EXPECT_EQ(log.groups[2].launches, 2);
  EXPECT_EQ(log.groups[2].measured, 1);
  EXPECT_EQ(log.groups[2].inferred, 1);
  ASSERT_EQ(log.timings.size(), 1u); // only group 0 was timed
  EXPECT_EQ(log.timings[0].name, "a()");
  EXPECT_EQ(log.timings[0].launches, 2);
}

TEST(launch_book, inferred_launches_go_out_in_lines_and_memory_stays_with_the_shapes) {
  launch_book book(roofkit::sample_limit{1}, 1);
  std::string text;
  int lines = 0;
  const std::int64_t n = 3 * static_cast<std::int64_t>(launch_book::inferred_per_line) + 11;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto at = book.locate(0, "_Z1av", grid, block, 0, {});
    std::string line;
    book.measure(at, i, line);
    if (!line.empty()) {
      ++lines;
      text += line;
    }
  }
  EXPECT_EQ(lines, 3);
  for (const auto& line : book.finish({"a()"}, {}))
    text += line;
  const auto log = roofkit::parse_profile_log(text);
  EXPECT_EQ(log.shapes.size(), 1u);
  ASSERT_EQ(log.groups.size(), 1u);
  EXPECT_EQ(log.groups[0].launches, n);
  EXPECT_EQ(log.inferred.at({1, 0}).size(), static_cast<std::size_t>(n - 1));
  EXPECT_EQ(log.inferred.at({1, 0}).back(), n - 1);
}

TEST(launch_book, distinct_nvtx_paths_are_bounded) {
  launch_book book(roofkit::sample_limit{1}, 1);
  for (std::size_t i = 0; i < launch_book::max_ranges + 50; ++i)
    book.locate(0, "_Z1av", grid, block, 0, {"op " + std::to_string(i)});
  std::string text;
  for (const auto& line : book.finish({"a()"}, {}))
    text += line;
  const auto log = roofkit::parse_profile_log(text);
  EXPECT_EQ(log.ranges.size(), launch_book::max_ranges + 1);
  EXPECT_EQ(log.ranges.back().path,
            (std::vector<std::string>{"(more NVTX ranges than roofkit follows)"}));
  EXPECT_EQ(log.groups.back().launches, 50);
}

// Which launches may carry the per-launch set: a shape after its first two full-set launches,
// unless one of them counted work that set leaves out; a shape never measured, never.
TEST(shape_detail_book, a_shape_earns_the_per_launch_set_after_its_full_launches) {
  roofkit::inject::shape_detail_book book(2);
  EXPECT_FALSE(book.per_launch_enough(0));
  book.note_full(0, false);
  EXPECT_FALSE(book.per_launch_enough(0)) << "one full launch of two";
  book.note_full(0, false);
  EXPECT_TRUE(book.per_launch_enough(0));
  EXPECT_FALSE(book.per_launch_enough(1));
  book.note_full(1, true);
  book.note_full(1, false);
  book.note_full(1, false);
  EXPECT_FALSE(book.per_launch_enough(1)) << "its first launch counted INT8 mma.sync ops";
  EXPECT_FALSE(book.per_launch_enough(-1));
}

// The switch to the per-launch set waits until staying on the full set has cost a round trip of
// switches: with 5.9 ms a launch on 4 passes, the 3-pass estimate saves 1.475 ms a launch, and two
// switches of 0.33 s pay after 448 launches, so the fourth batch of 128 switches, not the third.
TEST(set_switch_planner, switches_once_staying_has_cost_a_round_trip) {
  roofkit::inject::set_switch_planner p(4, 3, 128);
  EXPECT_FALSE(p.switch_for(128)) << "nothing measured on the full set yet";
  p.run_ended();
  p.note_enable(0.33);
  p.note_batch(false, 256, 256 * 5.9e-3);
  EXPECT_NEAR(p.saving_per_launch(), 1.475e-3, 1e-9);
  EXPECT_NEAR(p.switch_cost(), 0.33, 1e-12);
  EXPECT_FALSE(p.switch_for(128));
  EXPECT_FALSE(p.switch_for(128));
  EXPECT_FALSE(p.switch_for(128));
  EXPECT_TRUE(p.switch_for(128)) << "512 launches x 1.475 ms > 0.66 s";
  EXPECT_FALSE(p.switch_for(128)) << "a switch starts a new run";
  EXPECT_FALSE(p.switch_for(128));
  p.run_ended();
  EXPECT_FALSE(p.switch_for(128));
  EXPECT_FALSE(p.switch_for(128));
  EXPECT_FALSE(p.switch_for(128)) << "a batch that needed the full set ended the run";
  EXPECT_TRUE(p.switch_for(128));
}

// Measured costs replace the estimates: switches at their mean (the first enabling left out), and
// a per-launch set measured as costly as the full set leaves only the estimate's weight of one
// batch (128 of 1,408 launches at 1.475 ms less: 0.134 ms), so a round trip of 0.5 s waits for
// 3,729 launches: the 30th batch of 128.
TEST(set_switch_planner, measured_costs_replace_the_estimates) {
  roofkit::inject::set_switch_planner p(4, 3, 128);
  p.note_enable(0.5);
  p.note_enable(0.2);
  p.note_enable(0.3);
  EXPECT_NEAR(p.switch_cost(), 0.25, 1e-12);
  p.note_batch(false, 1280, 1280 * 5.9e-3);
  p.note_batch(true, 1280, 1280 * 5.9e-3);
  EXPECT_NEAR(p.saving_per_launch(), 128 * 1.475e-3 / 1408, 1e-9);
  for (int i = 0; i < 29; ++i)
    EXPECT_FALSE(p.switch_for(128)) << i;
  EXPECT_TRUE(p.switch_for(128)) << "30 x 128 launches x 0.134 ms > 0.5 s";
  p.note_batch(true, 12800, 12800 * 6.5e-3);
  EXPECT_EQ(p.saving_per_launch(), 0) << "a per-launch set that costs more saves nothing";
  for (int i = 0; i < 100; ++i)
    EXPECT_FALSE(p.switch_for(128));
}

} // namespace

// Launch times: a launch waits for the activity record of its own function under its correlation
// id (the profiler's warm-up kernel, started inside the application's first launch call, carries
// the same id and is passed over); a launch without a name is the events'; a group some of whose
// records never came stands for all its launches, its total scaled from the ones recorded, or from
// its event samples where none came (another tool took the activity buffers). A group with
// records ignores its samples, whose first pair held the module's loading.
TEST(launch_book, activity_records_time_their_own_launches_and_short_groups_are_scaled) {
  roofkit::inject::launch_spans spans;
  EXPECT_FALSE(spans.expect(6, 0, h("_Z13pointer_chasePKjjPji"))) << "records are not traced yet";
  spans.start();
  EXPECT_TRUE(spans.expect(7, 0, h("_Z13pointer_chasePKjjPji")));
  EXPECT_FALSE(spans.record(7, h("_Z11clock_probeiPx"), 1000, 2120)); // another function, same id
  EXPECT_TRUE(spans.record(7, h("_Z13pointer_chasePKjjPji"), 5000, 397192));
  EXPECT_FALSE(spans.record(7, h("_Z13pointer_chasePKjjPji"), 5000, 6000)); // counted once
  EXPECT_TRUE(spans.expect(8, 0, h("_Z13pointer_chasePKjjPji")));
  EXPECT_TRUE(spans.record(8, h("_Z13pointer_chasePKjjPji"), 0, 16000));
  EXPECT_TRUE(spans.expect(9, 1, h("_Z4ringPfi")));
  EXPECT_TRUE(spans.record(9, h("_Z4ringPfi"), 0, 2000));
  EXPECT_TRUE(spans.expect(10, 1, h("_Z4ringPfi")));
  spans.cancel(10); // the launch failed: no record will come, and it does not count
  EXPECT_FALSE(spans.record(10, h("_Z4ringPfi"), 0, 1000));
  EXPECT_TRUE(spans.expect(12, 1, h("_Z4ringPfi"))); // its record never comes
  EXPECT_FALSE(spans.expect(11, 2, std::nullopt));   // no name: the events time it
  EXPECT_EQ(spans.expect(13, 3, h("_Z1gv")), 1);
  EXPECT_EQ(spans.expect(14, 3, h("_Z1gv")), 2) << "the group's second launch to wait"; // no record

  std::map<int, roofkit::launch_time_stats> events, samples;
  events[2].add(5e-6);
  samples[0].add(3.2e-3);
  samples[3].add(7e-6);
  const auto times = spans.combine(events, samples);
  ASSERT_EQ(times.size(), 4u);
  EXPECT_EQ(times.at(0).count(), 2);
  EXPECT_NEAR(times.at(0).total_s(), 392192e-9 + 16000e-9, 1e-12);
  EXPECT_EQ(times.at(1).count(), 2) << "the launch whose record never came still counts";
  EXPECT_NEAR(times.at(1).total_s(), 4e-6, 1e-12) << "scaled from the one recorded";
  EXPECT_NEAR(times.at(1).median_s(), 2e-6, 1e-12);
  EXPECT_EQ(times.at(2).count(), 1);
  EXPECT_NEAR(times.at(2).total_s(), 5e-6, 1e-12);
  EXPECT_EQ(times.at(3).count(), 2);
  EXPECT_NEAR(times.at(3).total_s(), 14e-6, 1e-12) << "its one sample stands for both";
  EXPECT_EQ(spans.groups_short_of_records(), 2);
}

// Records that never come do not pile up: past the limit of launches waiting at once, no launch
// waits any more (the events time them), and the launches that waited in vain count, timed by
// their event sample.
TEST(launch_book, launches_stop_waiting_for_records_past_the_limit) {
  roofkit::inject::launch_spans spans(3);
  EXPECT_FALSE(spans.expecting()); // until kernel activity is traced
  spans.start();
  for (std::uint32_t id = 0; id < 3; ++id)
    EXPECT_TRUE(spans.expect(id, 0, h("_Z1fv")));
  EXPECT_TRUE(spans.expecting());
  EXPECT_FALSE(spans.expect(3, 0, h("_Z1fv"))) << "the limit: this launch is the events'";
  EXPECT_FALSE(spans.expecting());
  EXPECT_FALSE(spans.record(0, h("_Z1fv"), 0, 1000));
  std::map<int, roofkit::launch_time_stats> events, samples;
  events[0].add(1e-6);
  samples[0].add(2e-6);
  const auto times = spans.combine(events, samples);
  EXPECT_EQ(times.at(0).count(), 4);
  EXPECT_NEAR(times.at(0).total_s(), 1e-6 + 3 * 2e-6, 1e-12);
  EXPECT_EQ(spans.groups_short_of_records(), 1);
}

TEST(kernel_table, numbers_kernels_by_demangled_name_whatever_pointer_the_symbol_comes_by) {
  roofkit::inject::kernel_table table;
  char first[] = "_Z4ringPfi";
  char copy[] = "_Z4ringPfi";
  const auto ring = table.of(first);
  EXPECT_EQ(ring.id, 0);
  EXPECT_TRUE(ring.named);
  EXPECT_FALSE(ring.collective);
  EXPECT_EQ(ring.hash, h("_Z4ringPfi"));
  EXPECT_EQ(table.name(ring.id), "ring(float*, int)");
  EXPECT_EQ(table.of(first).id, 0) << "the same pointer again";
  EXPECT_EQ(table.of(copy).id, 0) << "the same symbol at another address";
  const auto nccl = table.of("_Z29ncclDevKernel_AllReduce_Sum_fv");
  EXPECT_EQ(nccl.id, 1);
  EXPECT_TRUE(nccl.collective);
  // The driver reuses the address for another function (its module unloaded): not the old kernel.
  std::strcpy(first, "_Z4gridPfi");
  const auto grid_kernel = table.of(first);
  EXPECT_EQ(grid_kernel.id, 2);
  EXPECT_EQ(table.name(2), "grid(float*, int)");
  EXPECT_EQ(grid_kernel.hash, h("_Z4gridPfi"));
  const auto unnamed = table.of(nullptr);
  EXPECT_FALSE(unnamed.named);
  EXPECT_EQ(unnamed.id, 3);
  EXPECT_EQ(table.of(nullptr).id, 3);
  EXPECT_EQ(table.name(3), "(unnamed kernel)");
  EXPECT_EQ(table.names().size(), 4u);
}
