#pragma once
// Helpers more than one CPU test file needs. The CPU tests compile a few files at a time (a unity
// build), so a helper defined in two files' anonymous namespaces would collide: it lives here.
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "roofkit/core.hpp"
#include "roofkit/device.hpp"
#include "roofkit/results.hpp"

namespace test_support {

/// The whole file at `path` ("" when it cannot be read).
inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A file of the source tree, by its path from the repository root.
inline std::string read_source(const std::string& relative) {
  return read_text(std::string(ROOFKIT_TEST_SOURCE_DIR) + "/" + relative);
}

/// The run recorded on the H100 (data/runs/h100-sxm.json), read once.
inline const roofkit::run& recorded_h100_run() {
  static const roofkit::run r =
      roofkit::load_run(std::string(ROOFKIT_TEST_SOURCE_DIR) + "/data/runs/h100-sxm.json");
  return r;
}

/// Runs f and returns the message of the usage error it must throw, checking that the message
/// is one line; records a failure when f throws nothing.
inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const roofkit::error& e) {
    EXPECT_EQ(e.code(), roofkit::exit_code::usage) << e.what();
    const std::string m = e.what();
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
    return m;
  }
  ADD_FAILURE() << "expected a usage_error";
  return {};
}

/// A stand-in environment for the options' environment round trip.
inline std::map<std::string, std::string> fake_env;
inline const char* fake_lookup(const char* name) {
  auto it = fake_env.find(name);
  return it == fake_env.end() ? nullptr : it->second.c_str();
}

/// The bundled GPU specification table, loaded once.
inline const std::vector<roofkit::gpu_spec>& gpu_specs() {
  static const auto s = roofkit::load_gpu_specs();
  return s;
}

} // namespace test_support
