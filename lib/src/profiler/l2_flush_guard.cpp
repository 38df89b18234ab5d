#include "l2_flush_guard.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <exception>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace roofkit::detail {

namespace {

// Evidence for each: validation/data/driver-flush-h100.json and ncu-driver-flush-suite-h100.json
// (the flush against ncu's cache control on the H100, driver 580.159.04). A version goes here only
// after its layouts were checked against its driver's headers and the flush on a GPU.
constexpr std::array<std::string_view, 1> verified{"580.159.04"};

bool version_char(char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }

} // namespace

std::span<const std::string_view> verified_driver_versions() { return verified; }

std::string driver_version_from_text(const std::string& text) {
  // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..." (the open modules say
  // "NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...").
  const std::string marker = "Module";
  const std::size_t line_end = text.find('\n');
  const std::string first = text.substr(0, line_end);
  std::size_t at = first.find(marker);
  if (at == std::string::npos)
    return "";
  std::istringstream words(first.substr(at + marker.size()));
  std::string word;
  while (words >> word)
    if (std::isdigit(static_cast<unsigned char>(word.front())) &&
        std::all_of(word.begin(), word.end(), version_char) && word.find('.') != std::string::npos)
      return word;
  return "";
}

std::string kernel_driver_version(std::string& why_not) {
  const char* path = "/proc/driver/nvidia/version";
  std::ifstream in(path);
  if (!in) {
    why_not = fmt::format("cannot read {}", path);
    return "";
  }
  std::stringstream text;
  text << in.rdbuf();
  std::string v = driver_version_from_text(text.str());
  if (v.empty())
    why_not = fmt::format("{} names no kernel module version", path);
  return v;
}

std::string driver_flush_refusal(const char* override_value, const std::string& version,
                                 const std::string& version_error) {
  if (override_value && *override_value) {
    const std::string v = override_value;
    if (v == "off")
      return fmt::format("{}=off", driver_flush_env);
    if (v != "on")
      return fmt::format("{}='{}' is not valid (valid: on, off)", driver_flush_env, v);
  }
  if (version.empty())
    return fmt::format("the kernel driver's version is unknown ({})", version_error);
  const auto list = verified_driver_versions();
  if (std::find(list.begin(), list.end(), version) != list.end())
    return "";
  std::string known;
  for (const auto& k : list)
    known += (known.empty() ? "" : ", ") + std::string(k);
  return fmt::format("driver {} is not among the versions whose flush interface was verified "
                     "({})",
                     version, known);
}

l2_flush_guard::l2_flush_guard(std::function<void()> driver, std::string why_not,
                               std::function<std::function<void()>()> make_sweep,
                               std::function<void(const std::string&)> warn)
    : driver_(std::move(driver)), make_sweep_(std::move(make_sweep)), warn_(std::move(warn)) {
  if (!driver_) {
    reason_ = std::move(why_not);
    if (warn_ && !reason_.empty())
      warn_(fmt::format("the L2 is flushed with a sweep, not the driver's flush: {}", reason_));
  }
}

void l2_flush_guard::prepare() {
  if (!driver_ && !sweep_)
    sweep_ = make_sweep_();
}

void l2_flush_guard::fall_back(const std::string& why) {
  driver_ = nullptr;
  reason_ = "the driver's flush failed mid-run: " + why;
  if (warn_)
    warn_(fmt::format("the L2 is flushed with a sweep from now on: {}", reason_));
}

flushed_by l2_flush_guard::flush() {
  flushed_by used = flushed_by::sweep;
  if (driver_) {
    try {
      driver_();
      return flushed_by::driver;
    } catch (const std::exception& e) {
      fall_back(e.what());
    }
    used = flushed_by::fell_back;
  }
  prepare();
  sweep_();
  return used;
}

} // namespace roofkit::detail
