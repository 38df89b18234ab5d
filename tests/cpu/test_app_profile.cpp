// `profile` without a GPU: options and their environment, launch selection, the record log (of
// one process or several), the profiler's turn-taking between processes, the per-kernel summary
// and the run built from a recorded log.
#include <cxxabi.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"
#include "roofkit/results.hpp"
#include "roofkit/run.hpp"
#include "test_support.hpp"

namespace {

using roofkit::app_profile_options;
using roofkit::launch_selector;

const char* log_path = ROOFKIT_TEST_SOURCE_DIR "/tests/data/profile/features.jsonl";

TEST(app_profile_options, rejects_bad_values_naming_them) {
  app_profile_options o;
  EXPECT_NO_THROW(roofkit::validate(o));
  auto message = [](const app_profile_options& bad) {
    try {
      roofkit::validate(bad);
    } catch (const roofkit::error& e) {
      EXPECT_EQ(e.code(), roofkit::exit_code::usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  app_profile_options o3;
  o3.launch_count = 0;
  EXPECT_NE(message(o3).find("launch count 0 is out of range"), std::string::npos);
  app_profile_options o4;
  o4.launch_skip = -2;
  EXPECT_NE(message(o4).find("launch skip -2 is out of range"), std::string::npos);
  app_profile_options o7;
  o7.replay_batch = 0;
  EXPECT_NE(message(o7).find("replay batch 0 is out of range (valid: 1 to 1024)"),
            std::string::npos);
  o7.replay_batch = 1025;
  EXPECT_NE(message(o7).find("replay batch 1025 is out of range"), std::string::npos);
  o7.replay_batch = 1024;
  EXPECT_NO_THROW(roofkit::validate(o7));
  app_profile_options o5;
  o5.kernel_regex = "gemm(";
  EXPECT_NE(message(o5).find("kernel regex 'gemm(' is not a valid regular expression"),
            std::string::npos);
}

using test_support::fake_env;
using test_support::fake_lookup;

TEST(app_profile_options, survive_the_environment_round_trip) {
  app_profile_options o;
  o.kernel_regex = "sgemm|softmax";
  o.nvtx_range = "ops";
  o.launch_skip = 3;
  o.launch_count = 7;
  o.cache = roofkit::cache_control::none;
  o.clock = roofkit::clock_control::base;
  o.from_start = roofkit::profile_start::off;
  o.record_path = "/tmp/x.jsonl";
  o.replay_batch = 1;
  fake_env = roofkit::to_environment(o);
  const auto back = roofkit::options_from_environment(fake_lookup);
  EXPECT_EQ(back.kernel_regex, "sgemm|softmax");
  EXPECT_EQ(back.nvtx_range, "ops");
  EXPECT_EQ(back.launch_skip, 3);
  EXPECT_EQ(back.launch_count, 7);
  EXPECT_EQ(fake_env["ROOFKIT_PROFILE_CACHE_CONTROL"], "none");
  EXPECT_EQ(fake_env["ROOFKIT_PROFILE_CLOCK_CONTROL"], "base");
  EXPECT_EQ(fake_env["ROOFKIT_PROFILE_FROM_START"], "off");
  EXPECT_EQ(back.cache, roofkit::cache_control::none);
  EXPECT_EQ(back.clock, roofkit::clock_control::base);
  EXPECT_EQ(back.from_start, roofkit::profile_start::off);
  EXPECT_EQ(back.record_path, "/tmp/x.jsonl");
  EXPECT_EQ(back.replay_batch, 1);
  fake_env["ROOFKIT_PROFILE_LAUNCH_COUNT"] = "7x";
  EXPECT_THROW(roofkit::options_from_environment(fake_lookup), roofkit::error);
  fake_env.clear();
  const auto defaults = roofkit::options_from_environment(fake_lookup);
  EXPECT_EQ(defaults.launch_count, -1);
  EXPECT_EQ(defaults.cache, roofkit::cache_control::all);
  EXPECT_EQ(defaults.clock, roofkit::clock_control::none);
  EXPECT_EQ(defaults.from_start, roofkit::profile_start::on);
  EXPECT_EQ(defaults.replay_batch, 128);
  fake_env["ROOFKIT_PROFILE_REPLAY_BATCH"] = "1100";
  EXPECT_THROW(roofkit::options_from_environment(fake_lookup), roofkit::error);
  fake_env.clear();
  // A bad mode in the environment gets the same message as on the command line.
  fake_env["ROOFKIT_PROFILE_CACHE_CONTROL"] = "some";
  try {
    roofkit::options_from_environment(fake_lookup);
    ADD_FAILURE() << "no error for cache control 'some'";
  } catch (const roofkit::error& e) {
    EXPECT_STREQ(e.what(), "cache control 'some' is not valid (valid: all, none)");
  }
  fake_env.clear();
}

// Each mode is parsed and printed from one table: every name parses back to its value, and a bad
// name gets one message naming it and the valid names.
TEST(profiling_modes, parse_and_print_round_trip_from_one_table) {
  for (auto c : {roofkit::cache_control::all, roofkit::cache_control::none})
    EXPECT_EQ(roofkit::parse_cache_control(roofkit::to_string(c)), c);
  for (auto c : {roofkit::clock_control::base, roofkit::clock_control::none})
    EXPECT_EQ(roofkit::parse_clock_control(roofkit::to_string(c)), c);
  for (auto p : {roofkit::profile_start::on, roofkit::profile_start::off})
    EXPECT_EQ(roofkit::parse_profile_start(roofkit::to_string(p)), p);
  EXPECT_EQ(roofkit::to_string(roofkit::cache_control::all), "all");
  EXPECT_EQ(roofkit::to_string(roofkit::cache_control::none), "none");
  EXPECT_EQ(roofkit::to_string(roofkit::clock_control::base), "base");
  EXPECT_EQ(roofkit::to_string(roofkit::profile_start::off), "off");
  auto message = [](auto parse) {
    try {
      parse();
    } catch (const roofkit::error& e) {
      EXPECT_EQ(e.code(), roofkit::exit_code::usage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([] { roofkit::parse_cache_control("x"); }),
            "cache control 'x' is not valid (valid: all, none)");
  EXPECT_EQ(message([] { roofkit::parse_cache_control("ALL"); }),
            "cache control 'ALL' is not valid (valid: all, none)");
  EXPECT_EQ(message([] { roofkit::parse_clock_control("boost"); }),
            "clock control 'boost' is not valid (valid: base, none)");
  EXPECT_EQ(message([] { roofkit::parse_profile_start("no"); }),
            "profile from start 'no' is not valid (valid: on, off)");
  EXPECT_EQ(message([] { roofkit::parse_replay_batch(0); }),
            "replay batch 0 is out of range (valid: 1 to 1024)");
  EXPECT_EQ(message([] { roofkit::parse_replay_batch(1025); }),
            "replay batch 1025 is out of range (valid: 1 to 1024)");
  EXPECT_EQ(roofkit::parse_replay_batch(1), 1);
  EXPECT_EQ(roofkit::parse_replay_batch(1024), 1024);
}

TEST(app_profile_environment, sets_the_injection_and_nvtx_only_when_asked) {
  app_profile_options o;
  auto env = roofkit::profile_environment(o, "/opt/lib/libroofkit_inject.so", "/cuda/libcupti.so");
  EXPECT_EQ(env.at("CUDA_INJECTION64_PATH"), "/opt/lib/libroofkit_inject.so");
  EXPECT_EQ(env.count("NVTX_INJECTION64_PATH"), 0u);
  o.nvtx_range = "ops";
  env = roofkit::profile_environment(o, "/opt/lib/libroofkit_inject.so", "/cuda/libcupti.so");
  EXPECT_EQ(env.at("NVTX_INJECTION64_PATH"), "/cuda/libcupti.so");
}

TEST(launch_selector, applies_regex_then_skip_then_count) {
  app_profile_options o;
  o.kernel_regex = "gemm";
  o.launch_skip = 2;
  o.launch_count = 3;
  launch_selector s(o);
  std::vector<bool> got;
  for (int i = 0; i < 8; ++i) {
    got.push_back(s.select(i % 2 ? "softmax_kernel" : "sgemm_128x64", {}));
  }
  // gemm launches are 0, 2, 4, 6: skip two (0, 2), profile 4 and 6 (count not reached).
  EXPECT_EQ(got, (std::vector<bool>{false, false, false, false, true, false, true, false}));
  EXPECT_EQ(s.matched(), 4);
  EXPECT_EQ(s.selected(), 2);
  EXPECT_FALSE(s.exhausted());
  EXPECT_TRUE(s.select("sgemm_128x64", {}));
  EXPECT_TRUE(s.exhausted());
  EXPECT_FALSE(s.select("sgemm_128x64", {}));
}

TEST(launch_selector, nvtx_range_matches_any_enclosing_range) {
  app_profile_options o;
  o.nvtx_range = "ops";
  launch_selector s(o);
  EXPECT_FALSE(s.select("k", {}));
  EXPECT_FALSE(s.select("k", {"warmup"}));
  EXPECT_TRUE(s.select("k", {"ops", "inner"}));
  EXPECT_TRUE(s.select("k", {"outer", "ops"}));
  EXPECT_FALSE(s.select("k", {"ops2"}));
}

TEST(launch_selector, profile_from_start_off_selects_only_between_start_and_stop) {
  app_profile_options o;
  o.from_start = roofkit::profile_start::off;
  o.launch_skip = 1;
  launch_selector s(o);
  EXPECT_FALSE(s.select("k", {})); // before cudaProfilerStart: not even counted for the skip
  s.set_started(true);
  EXPECT_FALSE(s.select("k", {})); // the first launch inside is skipped
  EXPECT_TRUE(s.select("k", {}));
  s.set_started(false);
  EXPECT_FALSE(s.select("k", {}));
  s.set_started(true);
  EXPECT_TRUE(s.select("k", {}));
  EXPECT_EQ(s.matched(), 3);
  // With "on" (the default) start and stop change nothing.
  launch_selector always(app_profile_options{});
  always.set_started(false);
  EXPECT_TRUE(always.select("k", {}));
}

TEST(demangle, gives_readable_names_and_leaves_c_names_alone) {
  EXPECT_EQ(roofkit::demangle("_Z7add_onePfi"), "add_one(float*, int)");
  EXPECT_EQ(roofkit::demangle("plain_c_kernel"), "plain_c_kernel");
}

TEST(demangle, outlines_a_name_the_runtime_refuses) {
  std::ifstream in(ROOFKIT_TEST_SOURCE_DIR "/tests/data/profile/cutlass-wgrad-mangled.txt");
  const std::string mangled((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(mangled.size(), 1675u);
  int status = 0;
  std::free(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status));
  EXPECT_NE(status, 0) << "the runtime reads it now: the outline is no longer needed for it";
  const std::string outline = "cutlass__5x_cudnn::Kernel<cutlass__5x_cudnn::conv::kernel::"
                              "ImplicitGemmConvolution<…>, …>";
  EXPECT_EQ(roofkit::demangle(mangled), outline);
  // Labelled by its first argument, as the kernels the runtime demangles.
  EXPECT_EQ(roofkit::display_kernel_name(outline), "CUTLASS ImplicitGemmConvolution");
}

TEST(demangle, outline_resolves_substitutions_and_anonymous_namespaces) {
  using roofkit::mangled_outline;
  EXPECT_EQ(mangled_outline("_ZN2at6native12_GLOBAL__N_16kernelEv"),
            "at::native::(anonymous namespace)::kernel");
  // S_ is the first prefix (ns), S0_ the second (ns::K).
  EXPECT_EQ(mangled_outline("_ZN2ns1KINS_5inner4ImplIiEEEEvT_"), "ns::K<ns::inner::Impl<…>, …>");
  EXPECT_EQ(mangled_outline("_ZN2ns1KINS0_4StepEEEvv"), "ns::K<ns::K::Step, …>");
  EXPECT_EQ(mangled_outline("_ZN2ns1KIiEEvv"), "ns::K<…, …>");
  EXPECT_EQ(mangled_outline("_ZN2ns1KINS1_4StepEEEvv"), "ns::K<…, …>") << "S1_ is not yet known";
  EXPECT_EQ(mangled_outline("_Z7add_onePfi"), "") << "not a nested name";
  EXPECT_EQ(mangled_outline("_ZN9truncated"), "");
  EXPECT_EQ(mangled_outline("_ZN99tooshortE"), "");
  EXPECT_EQ(mangled_outline("_ZN18446744073709551615xE"), "") << "a length that wraps around";
  EXPECT_EQ(mangled_outline("_ZN18446744073709551617xE"), "") << "a length that wraps to 1";
  // Found by fuzz.ptxas_log: lengths that wrapped around sent the parser back and it never ended.
  EXPECT_EQ(mangled_outline("_ZN17cmbinatpi" + std::string(110, '9') + "17cmbinatpi" +
                            std::string(113, '9') + "_E"),
            "");
  EXPECT_EQ(mangled_outline("_ZN2ns1KINSZZZZZZZZZZZZZZZZZZZ_4StepEEEvv"), "ns::K<…, …>");
  std::string deep = "_ZN";
  for (int i = 0; i < 400; ++i)
    deep += "4step";
  EXPECT_EQ(mangled_outline(deep + "Ev"), "") << "a scope of 400 parts is not a real name";
  EXPECT_EQ(mangled_outline("kernel"), "");
}

TEST(profile_log, round_trips_a_launch_record) {
  roofkit::launch_record r;
  r.index = 41;
  r.mangled_name = "_Z7add_onePfi";
  r.kernel.name = "add_one(float*, int)";
  r.kernel.launch.grid = {4096, 1, 1};
  r.kernel.launch.block = {256, 1, 1};
  r.kernel.launch.registers_per_thread = 16;
  r.kernel.launch.static_smem_bytes = 1024;
  r.kernel.launch.dynamic_smem_bytes = 512;
  r.kernel.flops[roofkit::precision::fp32] = 1048576;
  r.kernel.bytes[roofkit::memory_level::dram] = 8388608;
  r.kernel.gpu_time_s = 5.5e-6;
  r.kernel.sm_clock_mhz = 1755;
  r.kernel.counters["dram__bytes_read.sum"] = 4194304;
  r.stream = 7;
  r.thread = 99;
  r.profile_overhead_s = 0.002;
  const std::string text = roofkit::launch_line(r) + roofkit::end_line(100);
  const auto log = roofkit::parse_profile_log(text);
  ASSERT_EQ(log.launches.size(), 1u);
  const auto& k = log.launches[0].kernel;
  EXPECT_EQ(log.launches[0].index, 41);
  EXPECT_EQ(k.name, "add_one(float*, int)");
  EXPECT_EQ(k.launch.grid[0], 4096u);
  EXPECT_EQ(k.launch.registers_per_thread, 16u);
  EXPECT_EQ(k.launch.static_smem_bytes, 1024u);
  EXPECT_EQ(k.launch.dynamic_smem_bytes, 512u);
  EXPECT_DOUBLE_EQ(k.flops.at(roofkit::precision::fp32), 1048576);
  EXPECT_DOUBLE_EQ(k.bytes.at(roofkit::memory_level::dram), 8388608);
  EXPECT_DOUBLE_EQ(*k.gpu_time_s, 5.5e-6);
  EXPECT_DOUBLE_EQ(k.counters.at("dram__bytes_read.sum"), 4194304);
  EXPECT_EQ(log.launches[0].stream, 7u);
  EXPECT_TRUE(log.finished);
  EXPECT_EQ(log.total_launches, 100);
}

TEST(profile_log, the_set_up_is_counted_once_apart_from_the_launches) {
  roofkit::launch_record a;
  a.kernel.name = "a";
  a.profile_overhead_s = 0.002;
  roofkit::launch_record b = a;
  b.index = 1;
  b.profile_overhead_s = 0.006;
  const std::string launches = roofkit::launch_line(a) + roofkit::launch_line(b);
  // Two processes (or devices) each wrote their set-up.
  const auto log = roofkit::parse_profile_log(
      launches + roofkit::profiler_time_line({{"session_setup_s", 0.25}, {"passes", 8}}) +
      roofkit::profiler_time_line({{"session_setup_s", 0.5}}) + roofkit::end_line(2));
  const auto cost = roofkit::profile_cost_of(log);
  EXPECT_DOUBLE_EQ(cost.setup_s, 0.75);
  EXPECT_DOUBLE_EQ(cost.launches_s, 0.008);
  EXPECT_EQ(cost.launches, 2u);
  EXPECT_DOUBLE_EQ(cost.total_s(), 0.758);
  EXPECT_DOUBLE_EQ(cost.per_launch_s(), 0.379);
  EXPECT_DOUBLE_EQ(cost.per_launch_after_setup_s(), 0.004);
  // A log written before the set-up had a record of its own: all of it in the launches.
  const auto old = roofkit::profile_cost_of(roofkit::parse_profile_log(launches));
  EXPECT_DOUBLE_EQ(old.setup_s, 0.0);
  EXPECT_DOUBLE_EQ(old.per_launch_s(), old.per_launch_after_setup_s());
  EXPECT_DOUBLE_EQ(roofkit::profile_cost_of(roofkit::profile_log{}).per_launch_s(), 0.0);
}

// Module unloads that ended most sets of passes (cuDNN trying its engines) get a note in the run
// with the way to leave them out; a few of them, or a minority of the sets, do not.
TEST(profile_log, sets_ended_by_module_unloads_get_a_note_when_they_are_most_of_them) {
  roofkit::launch_record a;
  a.kernel.name = "a";
  const std::string launch = roofkit::launch_line(a);
  auto log_with = [&](double sets, double library, double module) {
    return roofkit::parse_profile_log(
        launch +
        roofkit::profiler_time_line({{"batches", sets},
                                     {"batch_ended_by:cuLibraryUnload", library},
                                     {"batch_ended_by:cuModuleUnload_v2", module},
                                     {"batch_ended_by:cuMemFree_v2", sets - library - module}}) +
        roofkit::end_line(1));
  };
  const auto note = roofkit::unload_sets_note(log_with(77, 50, 9));
  EXPECT_NE(note.find("59 of the 77 sets of replay passes were ended by module unloads"),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("from its cudaProfilerStart, or inside an NVTX range"), std::string::npos)
      << note;
  const auto r = roofkit::build_profile_run(log_with(77, 50, 9), {});
  EXPECT_NE(std::find(r.context.notes.begin(), r.context.notes.end(), note), r.context.notes.end());
  EXPECT_EQ(roofkit::unload_sets_note(log_with(13, 5, 4)), "");  // under 10 unloads
  EXPECT_EQ(roofkit::unload_sets_note(log_with(30, 10, 4)), ""); // under half of the sets
  EXPECT_NE(roofkit::unload_sets_note(log_with(20, 10, 0)), ""); // exactly half
  EXPECT_EQ(roofkit::unload_sets_note(roofkit::profile_log{}), "");
}

TEST(profile_log, activity_registers_replace_the_compiled_count_of_that_process_only) {
  roofkit::launch_record fill;
  fill.pid = 10;
  fill.mangled_name = "_Z4fillPfi";
  fill.kernel.name = "fill(float*, int)";
  fill.kernel.launch.registers_per_thread = 14; // CU_FUNC_ATTRIBUTE_NUM_REGS
  roofkit::launch_record other_process = fill;
  other_process.pid = 11;
  roofkit::launch_record c_kernel = fill; // extern "C": no mangled name recorded
  c_kernel.index = 1;
  c_kernel.mangled_name.clear();
  c_kernel.kernel.name = "scale";
  c_kernel.kernel.launch.registers_per_thread = 30;
  const auto log = roofkit::parse_profile_log(
      roofkit::launch_line(fill) + roofkit::launch_line(other_process) +
      roofkit::launch_line(c_kernel) + roofkit::registers_line("_Z4fillPfi", 16, 10) +
      roofkit::registers_line("scale", 32, 10) + roofkit::end_line(2, 10));
  ASSERT_EQ(log.launches.size(), 3u);
  EXPECT_EQ(log.launches[0].kernel.launch.registers_per_thread, 16u);
  EXPECT_EQ(log.launches[1].kernel.launch.registers_per_thread, 14u); // pid 11 wrote none
  EXPECT_EQ(log.launches[2].kernel.launch.registers_per_thread, 32u);
}

TEST(profile_log, a_truncated_last_line_is_what_a_crash_leaves) {
  roofkit::kernel_timing t{"k", 3, 3e-6, 1e-6, 1e-6, 1e-6};
  const std::string full = roofkit::timing_line(t);
  const auto log = roofkit::parse_profile_log(full + full.substr(0, 20));
  EXPECT_EQ(log.timings.size(), 1u);
  EXPECT_FALSE(log.finished);
  EXPECT_THROW(roofkit::parse_profile_log(full.substr(0, 20) + "\n" + full), roofkit::error);
}

TEST(profile_log, counts_every_process_of_the_application) {
  std::map<std::string, std::string> dev{{"name", "GPU"}, {"ordinal", "0"}};
  roofkit::launch_record parent;
  parent.pid = 10;
  parent.index = 0;
  parent.kernel.name = "parent_kernel";
  roofkit::launch_record child = parent;
  child.pid = 11;
  child.index = 1;
  child.kernel.name = "child_kernel";
  const std::string both = roofkit::start_line(dev, "roofline", 4, 10) +
                           roofkit::launch_line(parent) +
                           roofkit::start_line(dev, "roofline", 4, 11) +
                           roofkit::launch_line(child) + roofkit::end_line(3, 11);
  // The parent has not ended: its profiled launch counts, and the records are incomplete.
  auto log = roofkit::parse_profile_log(both);
  EXPECT_EQ(log.processes, 2);
  EXPECT_FALSE(log.finished);
  EXPECT_EQ(log.total_launches, 3 + 1);
  ASSERT_EQ(log.launches.size(), 2u);
  EXPECT_EQ(log.launches[0].pid, 10);
  EXPECT_EQ(log.launches[1].pid, 11);
  // A worker that started CUDA but launched nothing ends without a start record.
  log = roofkit::parse_profile_log(both + roofkit::end_line(0, 12) + roofkit::end_line(5, 10));
  EXPECT_EQ(log.processes, 2);
  EXPECT_TRUE(log.finished);
  EXPECT_EQ(log.total_launches, 3 + 5);
  // An end record alone (no process launched anything) is complete.
  log = roofkit::parse_profile_log(roofkit::end_line(0, 12));
  EXPECT_TRUE(log.finished);
  EXPECT_EQ(log.processes, 0);
}

TEST(profiler_turn, one_process_at_a_time_and_a_waiting_one_is_seen) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("roofkit-turn-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string base = (dir / "records").string();
  {
    // Each object opens the files itself, as two processes would: flock(2) locks of separate
    // opens exclude each other within one process too.
    roofkit::profiler_turn a(base);
    roofkit::profiler_turn b(base);
    EXPECT_FALSE(a.held());
    EXPECT_FALSE(a.wanted());
    ASSERT_TRUE(a.take(1.0));
    EXPECT_TRUE(a.held());
    EXPECT_FALSE(a.wanted());
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_FALSE(b.take(0.1)); // held elsewhere: gives up after its limit
    EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(100));
    EXPECT_FALSE(a.wanted()); // the waiter that gave up no longer waits
    bool got = false;
    std::thread waiter([&] { got = b.take(10.0); });
    bool seen = false;
    for (int i = 0; i < 500 && !seen; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      seen = a.wanted();
    }
    EXPECT_TRUE(seen);
    a.give();
    waiter.join();
    EXPECT_TRUE(got);
    EXPECT_TRUE(b.held());
    EXPECT_FALSE(a.held());
    EXPECT_FALSE(a.take(0.05));
    b.give();
    EXPECT_TRUE(a.take(1.0));
  }
  for (const auto& f : roofkit::profiler_turn::files(base))
    EXPECT_TRUE(std::filesystem::exists(f)) << f;
  std::filesystem::remove_all(dir);
  roofkit::profiler_turn lone("");
  EXPECT_TRUE(lone.held());
  EXPECT_FALSE(lone.wanted());
  EXPECT_TRUE(roofkit::profiler_turn::files("").empty());
}

TEST(kernel_summary, sums_launches_and_shares_from_timings) {
  roofkit::profile_log log;
  log.timings = {{"a", 4, 40e-6, 10e-6, 9e-6, 11e-6}, {"b", 1, 60e-6, 60e-6, 60e-6, 60e-6}};
  roofkit::launch_record r;
  r.kernel.name = "a";
  r.kernel.gpu_time_s = 12e-6;
  log.launches = {r, r};
  const auto s = roofkit::summarize_kernels(log);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "b"); // largest total first
  EXPECT_DOUBLE_EQ(s[0].share, 0.6);
  EXPECT_EQ(s[1].name, "a");
  EXPECT_EQ(s[1].launches, 4);
  EXPECT_EQ(s[1].profiled, 2);
  EXPECT_DOUBLE_EQ(s[1].total_s, 40e-6);
  EXPECT_DOUBLE_EQ(s[1].median_s, 10e-6);
  EXPECT_DOUBLE_EQ(s[1].share, 0.4);
}

TEST(kernel_summary, falls_back_to_profiled_launches_after_a_crash) {
  roofkit::profile_log log; // no timing lines: the process died before exit
  roofkit::launch_record r;
  r.kernel.name = "a";
  r.kernel.gpu_time_s = 2e-6;
  log.launches = {r};
  r.kernel.gpu_time_s = 4e-6;
  log.launches.push_back(r);
  r.kernel.gpu_time_s = 9e-6;
  log.launches.push_back(r);
  const auto s = roofkit::summarize_kernels(log);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].launches, 3);
  EXPECT_DOUBLE_EQ(s[0].total_s, 15e-6);
  EXPECT_DOUBLE_EQ(s[0].median_s, 4e-6);
  EXPECT_DOUBLE_EQ(s[0].share, 1.0);
}

roofkit::profile_log fixture_log() {
  return roofkit::parse_profile_log(roofkit::read_text_file(log_path));
}

TEST(profile_run, one_kernel_per_name_and_configuration_with_mean_work) {
  const auto log = fixture_log();
  roofkit::profile_run_inputs in;
  in.command = "roofline-cuda profile -- app";
  in.options.cache = roofkit::cache_control::all;
  const auto r = roofkit::build_profile_run(log, in);
  ASSERT_EQ(r.kernels.size(), 2u);
  // scale_in_place holds more GPU time than add_one in the fixture.
  const auto& scale = r.kernels[0];
  EXPECT_EQ(scale.name, "scale_in_place(double*, double, int)");
  EXPECT_EQ(scale.time.repetitions, 2);
  EXPECT_DOUBLE_EQ(scale.time.median_s, (20e-6 + 22e-6) / 2);
  EXPECT_DOUBLE_EQ(scale.flops.at(roofkit::precision::fp64), 2097152);
  EXPECT_DOUBLE_EQ(scale.bytes.at(roofkit::memory_level::dram), (16777216.0 + 16777220.0) / 2);
  // 256 threads, 16 registers, no shared memory: 8 blocks of 8 warps fill the 64 warp slots.
  ASSERT_TRUE(scale.occupancy_theoretical.has_value());
  EXPECT_DOUBLE_EQ(*scale.occupancy_theoretical, 1.0);
  EXPECT_DOUBLE_EQ(scale.counters.at("roofkit__app_launches"), 2);
  EXPECT_EQ(r.context.device_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(r.context.cc_major, 9);
  EXPECT_EQ(r.context.cache_control, "all");
  EXPECT_EQ(r.context.extra.at("app_status"), "exited with 0");
}

// A launch measured with the per-launch set lacks its shape's detail counters: the kernel's raw
// counter is the mean over the launches that carry it, not diluted by those that do not, and the
// run says how many launches carried that set. The flag survives the record log.
TEST(profile_run, detail_counters_average_over_the_launches_that_carry_them) {
  roofkit::launch_record full;
  full.kernel.name = "k";
  full.kernel.gpu_time_s = 1e-5;
  full.kernel.counters["l1tex__t_bytes.sum"] = 4096;
  full.kernel.counters["dram__bytes_read.sum"] = 1000;
  full.kernel.occupancy_achieved = 0.5;
  roofkit::launch_record lean = full;
  lean.index = 1;
  lean.per_launch_set = true;
  lean.kernel.counters.erase("l1tex__t_bytes.sum");
  lean.kernel.counters["dram__bytes_read.sum"] = 3000;
  lean.kernel.occupancy_achieved.reset();
  roofkit::launch_record lean2 = lean;
  lean2.index = 2;
  const auto log = roofkit::parse_profile_log(
      roofkit::start_line({{"per_launch_set_passes", "3"}}, "bench", 4, 0) +
      roofkit::launch_line(full) + roofkit::launch_line(lean) + roofkit::launch_line(lean2) +
      roofkit::end_line(3));
  ASSERT_EQ(log.launches.size(), 3u);
  EXPECT_FALSE(log.launches[0].per_launch_set);
  EXPECT_TRUE(log.launches[1].per_launch_set);
  roofkit::profile_run_inputs in;
  const auto r = roofkit::build_profile_run(log, in);
  ASSERT_EQ(r.kernels.size(), 1u);
  const auto& k = r.kernels[0];
  EXPECT_DOUBLE_EQ(k.counters.at("l1tex__t_bytes.sum"), 4096) << "not 4096 / 3";
  EXPECT_DOUBLE_EQ(k.counters.at("dram__bytes_read.sum"), (1000.0 + 3000 + 3000) / 3);
  ASSERT_TRUE(k.occupancy_achieved.has_value());
  EXPECT_DOUBLE_EQ(*k.occupancy_achieved, 0.5);
  EXPECT_EQ(r.context.extra.at("per_launch_set")
                .rfind("2 of 3 profiled launches measured with the per-launch set, in 3 passes", 0),
            0u)
      << r.context.extra.at("per_launch_set");
  EXPECT_EQ(roofkit::build_profile_run(roofkit::parse_profile_log(roofkit::launch_line(full)), in)
                .context.extra.count("per_launch_set"),
            0u);
}

// The launcher's clock record comes first in the log and sets the run's clock control; a log
// without it (written before it existed, like the fixture) had clocks not locked.
TEST(profile_run, clock_control_comes_from_the_launchers_clock_record) {
  roofkit::profile_run_inputs in;
  const auto unlocked = roofkit::build_profile_run(fixture_log(), in);
  EXPECT_EQ(unlocked.context.clock_control, "none");
  EXPECT_NE(unlocked.context.extra.at("clock_control").find("not locked"), std::string::npos);

  const std::string note = "SM clock locked at the base clock, 1755 MHz";
  const auto log = roofkit::parse_profile_log(
      roofkit::clock_line(roofkit::clock_control::base, note) + roofkit::read_text_file(log_path));
  EXPECT_EQ(log.clock_control, "base");
  EXPECT_EQ(log.clock_note, note);
  EXPECT_EQ(log.launches.size(), fixture_log().launches.size());
  in.options.clock =
      roofkit::clock_control::none; // a rebuild from records takes the log's, not the option's
  const auto locked = roofkit::build_profile_run(log, in);
  EXPECT_EQ(locked.context.clock_control, "base");
  EXPECT_EQ(locked.context.extra.at("clock_control"), note);
  const auto j = nlohmann::json::parse(roofkit::profile_run_json(locked, log, in));
  EXPECT_EQ(j["profile"]["options"]["clock_control"], "base");
  EXPECT_EQ(j["context"]["clock_control"], "base");
}

TEST(profile_run, json_carries_app_summary_launches_and_what_was_not_profiled) {
  const auto log = fixture_log();
  roofkit::profile_run_inputs in;
  in.app.exit_code = 134;
  in.app.signal = 6;
  const auto r = roofkit::build_profile_run(log, in);
  EXPECT_EQ(r.context.extra.at("app_status"), "killed by signal 6");
  const auto text = roofkit::profile_run_json(r, log, in);
  const auto j = nlohmann::json::parse(text);
  EXPECT_EQ(j["schema"], "roofkit.run/1");
  const auto& p = j["profile"];
  EXPECT_EQ(p["app"]["exit_code"], 134);
  EXPECT_EQ(p["app"]["signal"], 6);
  EXPECT_EQ(p["launches"].size(), 5u);
  EXPECT_EQ(p["launches"][0]["name"], "add_one(float*, int)");
  EXPECT_TRUE(p["launches"][0].contains("bound"));
  EXPECT_EQ(p["kernels"].size(), 3u);
  bool graph = false;
  bool capture = false;
  for (const auto& n : p["not_profiled"]) {
    graph = graph || (n["reason"] == "CUDA graph" && n["name"] == "graph_only_kernel(float*, int)");
    capture = capture || n["reason"] == "stream capture";
  }
  EXPECT_TRUE(graph);
  EXPECT_TRUE(capture);
  // The file is still a run: it loads, with the kernels of the run.
  const auto back = roofkit::parse_run(text, "profile.json");
  EXPECT_EQ(back.kernels.size(), r.kernels.size());
}

TEST(profile_run, top_kernels_keep_most_gpu_time) {
  const auto log = fixture_log();
  const auto r = roofkit::build_profile_run(log, {});
  const auto top = roofkit::top_kernels_run(r, log, 1);
  ASSERT_EQ(top.kernels.size(), 1u);
  EXPECT_EQ(top.kernels[0].name, "scale_in_place(double*, double, int)");
}

TEST(profile_run, summary_table_lists_every_kernel_and_the_skipped_ones) {
  const auto log = fixture_log();
  const auto r = roofkit::build_profile_run(log, {});
  const auto t = roofkit::profile_summary_table(r, log);
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(std::get<std::string>(t.rows[0][0]), "scale_in_place"); // short_kernel_name
  ASSERT_FALSE(t.notes.empty());
}

TEST(profile_run, summary_table_gives_two_kernels_of_one_template_two_labels) {
  // Two instances of one PyTorch template, whose names cut at 96 characters read alike.
  const std::string a =
      "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor"
      "<float, float, float, at::native::binary_internal::MulFunctor<float> >, "
      "std::array<char*, 3ul> >(int, std::array<char*, 3ul>)";
  const std::string b =
      "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor"
      "<float, float, float, at::native::binary_internal::DivFunctor<float> >, "
      "std::array<char*, 3ul> >(int, std::array<char*, 3ul>)";
  std::string text = R"({"type": "start", "device": {"name": "H100", "cc": "9.0", "sms": "132"}})"
                     "\n";
  for (const auto& name : {a, b})
    text += fmt::format(R"({{"type": "timing", "name": "{}", "launches": 2, "total_s": 2e-05, )"
                        R"("median_s": 1e-05, "min_s": 1e-05, "max_s": 1e-05}})"
                        "\n",
                        name);
  const auto log = roofkit::parse_profile_log(text);
  const auto t = roofkit::profile_summary_table(roofkit::build_profile_run(log, {}), log);
  ASSERT_EQ(t.rows.size(), 2u);
  const auto first = std::get<std::string>(t.rows[0][0]);
  const auto second = std::get<std::string>(t.rows[1][0]);
  EXPECT_NE(first, second);
  EXPECT_NE((first + second).find("MulFunctor"), std::string::npos) << first << " / " << second;
}

TEST(inject_library, is_found_in_the_first_place_that_has_it_or_named_in_the_error) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "roofkit_inject_find";
  fs::create_directories(dir);
  const fs::path lib = dir / "libroofkit_inject.so";
  roofkit::write_text_file(lib, "x");
  EXPECT_EQ(roofkit::find_inject_library("", {dir / "none.so", lib}), fs::absolute(lib));
  try {
    roofkit::find_inject_library("", {dir / "none.so"});
    FAIL() << "no error";
  } catch (const roofkit::error& e) {
    EXPECT_NE(std::string(e.what()).find("none.so"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("ROOFKIT_INJECT_LIBRARY"), std::string::npos);
  }
  EXPECT_THROW(roofkit::find_inject_library((dir / "missing.so").string(), {}), roofkit::error);
  fs::remove_all(dir);
}

TEST(run_app, passes_the_exit_code_and_the_signal_through) {
  auto out = roofkit::run_app({"sh", "-c", "exit 7"}, {});
  EXPECT_EQ(out.exit_code, 7);
  EXPECT_EQ(out.signal, 0);
  out = roofkit::run_app({"sh", "-c", "kill -SEGV $$"}, {});
  EXPECT_EQ(out.signal, 11);
  EXPECT_EQ(out.exit_code, 139);
  out = roofkit::run_app({"sh", "-c", "test \"$ROOFKIT_X\" = yes"}, {{"ROOFKIT_X", "yes"}});
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_THROW(roofkit::run_app({}, {}), roofkit::error);
}

} // namespace
