// The kernel driver's L2 flush (lib/src/profiler/driver_l2_flush): the ioctl request numbers and
// flag word it sends, against the system's own _IOWR and the driver's documented bit fields, and
// its refusal where there is no driver to talk to.
#include <array>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#if defined(__linux__)
#include <sys/ioctl.h>
#include <unistd.h>
#endif

#include "profiler/driver_l2_flush.hpp"

namespace {

template <std::size_t n> struct bytes { unsigned char b[n]; };

TEST(driver_l2_flush, ioctl_requests_are_the_systems_iowr_of_type_F) {
  EXPECT_EQ(roofkit::detail::rm_ioctl_request(0x2A, 32), 0xC020462Aul);
  EXPECT_EQ(roofkit::detail::rm_ioctl_request(0x2B, 32), 0xC020462Bul);
#if defined(__linux__)
  EXPECT_EQ(roofkit::detail::rm_ioctl_request(0x2A, 32),
            static_cast<unsigned long>(_IOWR('F', 0x2A, bytes<32>)));
  EXPECT_EQ(roofkit::detail::rm_ioctl_request(0x2B, 56),
            static_cast<unsigned long>(_IOWR('F', 0x2B, bytes<56>)));
#endif
}

TEST(driver_l2_flush, flags_ask_for_write_back_invalidate_of_the_whole_cache_then_fb_flush) {
  const std::uint32_t f = roofkit::detail::rm_flush_all_flags();
  EXPECT_EQ(f & 0x3u, 0u) << "aperture: video memory";
  EXPECT_EQ((f >> 2) & 1u, 1u) << "write back";
  EXPECT_EQ((f >> 3) & 1u, 1u) << "invalidate";
  EXPECT_EQ((f >> 4) & 1u, 1u) << "the full cache, not an address list";
  EXPECT_EQ((f >> 5) & 1u, 1u) << "FB flush after";
  EXPECT_EQ(f >> 6, 0u);
}

TEST(driver_l2_flush, without_the_driver_it_says_why_and_returns_nothing) {
#if defined(__linux__)
  if (access("/dev/nvidiactl", F_OK) == 0)
    GTEST_SKIP() << "this machine has the NVIDIA driver";
#endif
  std::string why;
  const auto f = roofkit::detail::driver_l2_flush::open(std::array<unsigned char, 16>{}, why);
  EXPECT_EQ(f, nullptr);
  EXPECT_NE(why.find("nvidiactl"), std::string::npos) << why;
}

} // namespace
