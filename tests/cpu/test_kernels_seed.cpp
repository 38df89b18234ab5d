// ROOFKIT_SEED: the bundled kernels' random fills repeat from process to process, so that two
// profilers compared launch by launch see the same data (kernels/common/buffers.hpp).
// One test in this file: the variable is read once, at the first seed a process draws that
// does not throw.
#include <cstdlib>

#include <gtest/gtest.h>

#include "common/buffers.hpp"
#include "common/random.hpp"
#include "roofkit/core.hpp"

namespace {

using roofkit::kernels::fresh_seed;
using roofkit::kernels::mix64;

TEST(kernels_seed, a_fixed_seed_gives_the_same_sequence_in_every_process) {
  // A value that is not a whole number in range is refused (and read again at the next seed).
  for (const char* bad : {"-5", " 7", "12x", "0x10", "18446744073709551616"}) {
    ASSERT_EQ(setenv("ROOFKIT_SEED", bad, 1), 0);
    EXPECT_THROW(fresh_seed(), roofkit::error) << bad;
  }
  ASSERT_EQ(setenv("ROOFKIT_SEED", "20261124", 1), 0);
  // The n-th seed of the process is a function of the variable and n alone.
  for (std::uint64_t n = 1; n <= 3; ++n)
    EXPECT_EQ(fresh_seed(), mix64(20261124ull ^ mix64(n))) << n;
  EXPECT_NE(mix64(20261124ull ^ mix64(1)), mix64(20261125ull ^ mix64(1)));
}

} // namespace
