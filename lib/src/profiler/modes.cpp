// Every profiling mode's names, in one table each (as CUTLASS's profiler keeps its enumerated
// types): parsed once at the edge (command line, environment), carried as the enum, and printed
// from the same table (environment, record log, run file).
#include <array>
#include <string_view>

#include <fmt/format.h>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"
#include "roofkit/profiler.hpp"
#include "roofkit/timing.hpp"

namespace roofkit {

namespace {

template <class E> struct mode_name {
  E value;
  std::string_view name;
};

template <class E, std::size_t n>
std::string name_of(const std::array<mode_name<E>, n>& table, E value) {
  for (const auto& m : table)
    if (m.value == value)
      return std::string(m.name);
  return "?";
}

// The one message for a bad mode: "cache control 'x' is not valid (valid: all, none)".
template <class E, std::size_t n>
E parse_mode(const std::array<mode_name<E>, n>& table, std::string_view what,
             std::string_view text) {
  std::string valid;
  for (const auto& m : table) {
    if (m.name == text)
      return m.value;
    valid += (valid.empty() ? "" : ", ") + std::string(m.name);
  }
  throw usage_error(fmt::format("{} '{}' is not valid (valid: {})", what, text, valid));
}

constexpr std::array<mode_name<cache_control>, 2> cache_control_names{
    {{cache_control::all, "all"}, {cache_control::none, "none"}}};
constexpr std::array<mode_name<clock_control>, 2> clock_control_names{
    {{clock_control::base, "base"}, {clock_control::none, "none"}}};
constexpr std::array<mode_name<profile_start>, 2> profile_start_names{
    {{profile_start::on, "on"}, {profile_start::off, "off"}}};
constexpr std::array<mode_name<nvtx_scope>, 2> nvtx_scope_names{
    {{nvtx_scope::process, "process"}, {nvtx_scope::thread, "thread"}}};

} // namespace

std::string to_string(cache_control c) { return name_of(cache_control_names, c); }
cache_control parse_cache_control(std::string_view text) {
  return parse_mode(cache_control_names, "cache control", text);
}

std::string to_string(clock_control c) { return name_of(clock_control_names, c); }
clock_control parse_clock_control(std::string_view text) {
  return parse_mode(clock_control_names, "clock control", text);
}

std::string to_string(profile_start p) { return name_of(profile_start_names, p); }
profile_start parse_profile_start(std::string_view text) {
  return parse_mode(profile_start_names, "profile from start", text);
}

std::string to_string(nvtx_scope s) { return name_of(nvtx_scope_names, s); }
nvtx_scope parse_nvtx_scope(std::string_view text) {
  return parse_mode(nvtx_scope_names, "NVTX scope", text);
}

std::int64_t parse_replay_batch(std::int64_t n) {
  if (n < 1 || n > max_replay_batch)
    throw usage_error(
        fmt::format("replay batch {} is out of range (valid: 1 to {})", n, max_replay_batch));
  return n;
}

} // namespace roofkit
