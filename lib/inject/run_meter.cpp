#include "run_meter.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace roofkit::inject {

void progress_meter::tick(std::int64_t seen, std::int64_t profiled, std::int64_t inferred) {
  if (!on_ || (++ticks_ & 63) != 1) // the clock is read every 64 launches only
    return;
  const auto now = std::chrono::steady_clock::now();
  if (printed_ && now - last_ < std::chrono::milliseconds(500))
    return;
  last_ = now;
  printed_ = true;
  std::fprintf(stderr, "\rroofkit: %lld launches seen, %lld profiled, %lld inferred ",
               static_cast<long long>(seen), static_cast<long long>(profiled),
               static_cast<long long>(inferred));
  std::fflush(stderr);
}

void progress_meter::finish() {
  if (printed_)
    std::fputc('\n', stderr);
  printed_ = false;
}

bool replay_phases::enabled() {
  const char* v = std::getenv("ROOFKIT_REPLAY_PHASES");
  return v && *v && std::strcmp(v, "0") != 0;
}

void replay_phases::add_module(double seconds) {
  ++modules_;
  module_ns_ += static_cast<std::int64_t>(seconds * 1e9);
}

void replay_phases::add_callback(double seconds) {
  ++callbacks_;
  callback_ns_ += static_cast<std::int64_t>(seconds * 1e9);
}

void replay_phases::add(std::string_view what, double seconds) {
  std::lock_guard lock(parts_mutex_);
  for (auto& [name, part] : parts_)
    if (name == what) {
      part.first += 1;
      part.second += seconds;
      return;
    }
  parts_.push_back({std::string(what), {1, seconds}});
}

std::string replay_phases::report(const profiler_stats& t, std::int64_t profiled,
                                  std::int64_t batches) const {
  const double n = profiled > 0 ? static_cast<double>(profiled) : 1.0;
  std::string out = fmt::format("roofkit-inject: replay phases over {} profiled launches in {} "
                                "sets of passes ({} passes):\n",
                                profiled, batches, t.passes);
  const std::pair<const char*, double> phases[] = {
      {"metric set and configuration (once a device)", t.session_s},
      {"sync before checkpoint", sync_s_},
      {"checkpoint save", save_s_},
      {"counter configuration (set-up)", t.setup_s},
      {"  of which counter images", t.image_s},
      {"  of which set-config", t.config_s},
      {"memory restore (before each pass)", t.before_s},
      {"pass start", t.start_s},
      {"  of which first passes", t.first_start_s},
      {"cache flush + work (body)", t.body_s},
      {"  of which cache flush", t.flush_s},
      {"  of which launch calls", t.issue_s},
      {"    of which steps not measured", t.ride_issue_s},
      {"  of which waits for the launches", t.wait_s},
      {"pass stop", t.stop_s},
      {"decode counters", t.decode_s}};
  for (const auto& [name, s] : phases)
    out += fmt::format("roofkit-inject:   {:<36} {:10.3f} s {:9.3f} ms/launch\n", name, s,
                       1e3 * s / n);
  const auto now = std::chrono::system_clock::now();
  const auto epoch_ns = [](std::chrono::system_clock::time_point when) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(when.time_since_epoch()).count();
  };
  {
    std::lock_guard lock(parts_mutex_);
    for (const auto& [name, part] : parts_)
      out += fmt::format("roofkit-inject: {:<44} {:10.3f} s in {} calls\n", name, part.second,
                         part.first);
  }
  out += fmt::format("roofkit-inject: {} launch steps issued, {} of them not measured; launch "
                     "calls by pass (s): {:.3f}\n",
                     t.steps_issued, t.ride_steps_issued, fmt::join(t.issue_by_pass, " "));
  out += fmt::format("roofkit-inject: largest counter image {:.1f} MiB\n",
                     static_cast<double>(t.image_bytes) / (1 << 20));
  out += fmt::format("roofkit-inject: {} module loads read in {:.3f} s; {} callbacks took {:.3f} s "
                     "(replays included)\n",
                     modules_.load(), 1e-9 * module_ns_.load(), callbacks_.load(),
                     1e-9 * callback_ns_.load());
  out += fmt::format(
      "roofkit-inject: injection started at {} ns, exit at {} ns (epoch): {:.3f} s\n",
      epoch_ns(started_), epoch_ns(now), std::chrono::duration<double>(now - started_).count());
  return out;
}

} // namespace roofkit::inject
