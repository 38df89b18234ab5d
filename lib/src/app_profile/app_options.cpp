// Options of an application profile: validation, and the environment that carries them to the
// injected library.
#include <cerrno>
#include <cstdlib>

#include <fmt/format.h>

#include "internal/user_regex.hpp"
#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

namespace {

const char* env_kernel = "ROOFKIT_PROFILE_KERNEL";
const char* env_nvtx = "ROOFKIT_PROFILE_NVTX";
const char* env_skip = "ROOFKIT_PROFILE_LAUNCH_SKIP";
const char* env_count = "ROOFKIT_PROFILE_LAUNCH_COUNT";
const char* env_cache = "ROOFKIT_PROFILE_CACHE_CONTROL";
const char* env_clock = "ROOFKIT_PROFILE_CLOCK_CONTROL";
const char* env_from_start = "ROOFKIT_PROFILE_FROM_START";
const char* env_record = "ROOFKIT_PROFILE_RECORD";
const char* env_batch = "ROOFKIT_PROFILE_REPLAY_BATCH";
const char* env_sample = "ROOFKIT_PROFILE_SAMPLE";
const char* env_nvtx_scope = "ROOFKIT_PROFILE_NVTX_SCOPE";
const char* env_progress = "ROOFKIT_PROFILE_PROGRESS";
const char* env_nvtx_groups = "ROOFKIT_PROFILE_NVTX_GROUPS";

std::int64_t parse_int(const char* name, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0)
    throw usage_error(fmt::format("{}='{}' is not an integer", name, text));
  return v;
}

} // namespace

void validate(const app_profile_options& o) {
  if (o.launch_skip < 0)
    throw usage_error(
        fmt::format("launch skip {} is out of range (valid: 0 or more)", o.launch_skip));
  if (o.launch_count < -1 || o.launch_count == 0)
    throw usage_error(fmt::format(
        "launch count {} is out of range (valid: 1 or more; -1 for no limit)", o.launch_count));
  parse_replay_batch(o.replay_batch);
  if (!o.sample.all())
    parse_sample_limit(std::to_string(o.sample.per_shape));
  if (!o.kernel_regex.empty())
    detail::compile_user_regex(o.kernel_regex, "kernel regex");
}

std::map<std::string, std::string> to_environment(const app_profile_options& o) {
  std::map<std::string, std::string> env;
  env[env_kernel] = o.kernel_regex;
  env[env_nvtx] = o.nvtx_range;
  env[env_skip] = std::to_string(o.launch_skip);
  env[env_count] = std::to_string(o.launch_count);
  env[env_cache] = to_string(o.cache);
  env[env_clock] = to_string(o.clock);
  env[env_from_start] = to_string(o.from_start);
  env[env_record] = o.record_path;
  env[env_batch] = std::to_string(o.replay_batch);
  env[env_sample] = to_string(o.sample);
  env[env_nvtx_scope] = to_string(o.nvtx_rule);
  env[env_progress] = o.progress ? "on" : "off";
  env[env_nvtx_groups] = o.nvtx_groups ? "on" : "off";
  return env;
}

app_profile_options options_from_environment(const char* (*lookup)(const char*)) {
  app_profile_options o;
  auto get = [lookup](const char* name) -> std::optional<std::string> {
    const char* v = lookup(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  if (auto v = get(env_kernel))
    o.kernel_regex = *v;
  if (auto v = get(env_nvtx))
    o.nvtx_range = *v;
  if (auto v = get(env_skip))
    o.launch_skip = parse_int(env_skip, *v);
  if (auto v = get(env_count))
    o.launch_count = parse_int(env_count, *v);
  if (auto v = get(env_cache))
    o.cache = parse_cache_control(*v);
  if (auto v = get(env_clock))
    o.clock = parse_clock_control(*v);
  if (auto v = get(env_from_start))
    o.from_start = parse_profile_start(*v);
  if (auto v = get(env_batch))
    o.replay_batch = parse_int(env_batch, *v);
  if (auto v = get(env_sample))
    o.sample = parse_sample_limit(*v);
  if (auto v = get(env_nvtx_scope))
    o.nvtx_rule = parse_nvtx_scope(*v);
  if (auto v = get(env_progress))
    o.progress = *v == "on";
  if (auto v = get(env_nvtx_groups))
    o.nvtx_groups = *v == "on";
  if (auto v = get(env_record))
    o.record_path = *v;
  validate(o);
  return o;
}

launch_selector::launch_selector(const app_profile_options& options) : options_(options) {
  if (!options_.kernel_regex.empty())
    regex_.emplace(detail::compile_user_regex(options_.kernel_regex, "kernel regex"));
}

bool launch_selector::exhausted() const {
  return options_.launch_count >= 0 && selected_ >= options_.launch_count;
}

bool launch_selector::name_matches(const std::string& kernel_name) {
  if (!regex_)
    return true;
  auto it = regex_matches_.find(kernel_name);
  if (it == regex_matches_.end())
    it = regex_matches_.emplace(kernel_name, std::regex_search(kernel_name, *regex_)).first;
  return it->second;
}

bool launch_selector::select(const std::string& kernel_name,
                             const std::vector<std::string>& nvtx_stack) {
  bool inside = false;
  for (const auto& r : nvtx_stack)
    inside = inside || r == options_.nvtx_range;
  return select_inside(kernel_name, inside);
}

bool launch_selector::select_inside(const std::string& kernel_name, bool inside_nvtx_range) {
  if ((options_.from_start == profile_start::off && !started_) || !name_matches(kernel_name))
    return false;
  if (!options_.nvtx_range.empty() && !inside_nvtx_range)
    return false;
  ++matched_;
  if (matched_ <= options_.launch_skip || exhausted())
    return false;
  ++selected_;
  return true;
}

} // namespace roofkit
