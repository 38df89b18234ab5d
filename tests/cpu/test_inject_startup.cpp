// The injection library's start-up without a GPU: loaded as the driver would load it, it reports
// bad options and a refused CUPTI subscription as error records (with the exit code `profile`
// uses) instead of failing the application. Each test runs in its own process (ctest), since
// InitializeInjection acts once per process.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

namespace {

namespace fs = std::filesystem;

/// Loads the library (with the driver, or the toolkit's stub when there is none) and calls its
/// entry point with `env` set; returns the record log.
roofkit::profile_log start_injection(const std::string& name,
                                     const std::map<std::string, std::string>& env) {
  if (!dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL)) {
    EXPECT_NE(dlopen(ROOFKIT_CUDA_STUB, RTLD_NOW | RTLD_GLOBAL), nullptr) << dlerror();
  }
  const fs::path record = fs::temp_directory_path() / ("roofkit_inject_" + name + ".jsonl");
  fs::remove(record);
  setenv("ROOFKIT_PROFILE_RECORD", record.c_str(), 1);
  for (const auto& [k, v] : env)
    setenv(k.c_str(), v.c_str(), 1);
  void* lib = dlopen(ROOFKIT_INJECT_LIBRARY, RTLD_NOW);
  EXPECT_NE(lib, nullptr) << dlerror();
  if (!lib)
    return {};
  auto entry = reinterpret_cast<int (*)()>(dlsym(lib, "InitializeInjection"));
  EXPECT_NE(entry, nullptr);
  EXPECT_EQ(entry ? entry() : 0, 1);
  return roofkit::parse_profile_log(roofkit::read_text_file(record));
}

TEST(inject_startup, bad_options_are_an_error_record_with_exit_2) {
  const auto log = start_injection("bad_options", {{"ROOFKIT_PROFILE_CACHE_CONTROL", "most"}});
  ASSERT_EQ(log.errors.size(), 1u);
  EXPECT_NE(log.errors[0].find("cache control 'most' is not valid"), std::string::npos);
  EXPECT_EQ(log.error_exit, 2);
}

TEST(inject_startup, without_a_gpu_the_subscription_is_refused_with_exit_3) {
  if (roofkit::visible_device_count() > 0)
    GTEST_SKIP() << "a GPU is visible: the subscription succeeds";
  const auto log = start_injection("no_gpu", {});
  ASSERT_EQ(log.errors.size(), 1u);
  EXPECT_NE(log.errors[0].find("cannot subscribe to CUDA callbacks"), std::string::npos);
  EXPECT_EQ(log.error_exit, 3);
  EXPECT_TRUE(log.launches.empty());
}

} // namespace
