// Writes back and invalidates the whole L2 of GPU 0 through the kernel driver's resource manager:
// an RM client of our own on /dev/nvidiactl (root client, device 0, subdevice 0), then the
// subdevice control FB_FLUSH_GPU_CACHE with write-back, invalidate, full cache and FB flush. The
// control is marked non-privileged in NVIDIA's open kernel modules. Layouts and numbers from
// those modules' public headers (nvos.h, ctrl2080fb.h, nv_escape.h). A lab experiment only.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace rm_lab {

struct alloc_args { // NVOS21_PARAMETERS
  std::uint32_t root, parent, object, klass;
  alignas(8) std::uint64_t params;
  std::uint32_t params_size, status;
};
struct control_args { // NVOS54_PARAMETERS
  std::uint32_t client, object, cmd, flags;
  alignas(8) std::uint64_t params;
  std::uint32_t params_size, status;
};
struct device_args { // NV0080_ALLOC_PARAMETERS
  std::uint32_t device_id, client_share, target_client, target_device, flags;
  alignas(8) std::uint64_t va_space_size, va_start, va_limit;
  std::uint32_t va_mode;
};
struct flush_args { // NV2080_CTRL_FB_FLUSH_GPU_CACHE_PARAMS
  alignas(8) std::uint64_t addresses[500];
  std::uint32_t address_count, address_align;
  alignas(8) std::uint64_t block_bytes;
  std::uint32_t flags;
};

constexpr unsigned long esc_control = 0x2A, esc_alloc = 0x2B;
constexpr std::uint32_t root_client_class = 0x41, device_class = 0x80, subdevice_class = 0x2080;
constexpr std::uint32_t fb_flush_gpu_cache = 0x2080130e;
// Aperture video memory (0), write back (bit 2), invalidate (bit 3), full cache (bit 4), then
// an FB flush (bit 5).
constexpr std::uint32_t flush_all = (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5);

inline unsigned long iowr(unsigned long nr, unsigned long size) {
  return (3ul << 30) | ((size & 0x3FFF) << 16) | (unsigned long)('F') << 8 | nr;
}

class l2_flush {
public:
  l2_flush() {
    fd_ = open("/dev/nvidiactl", O_RDWR | O_CLOEXEC);
    if (fd_ < 0)
      fail("open /dev/nvidiactl", 0);
    client_ = alloc(0, 0, root_client_class, nullptr, 0);
    device_args d{};
    d.client_share = client_;
    device_ = alloc(client_, client_, device_class, &d, sizeof d);
    subdevice_ = alloc(client_, device_, subdevice_class, nullptr, 0);
  }
  ~l2_flush() {
    if (fd_ >= 0)
      close(fd_); // the driver frees the client and its objects with the file
  }
  void flush() const {
    static flush_args f{};
    f.flags = flush_all;
    control_args c{};
    c.client = client_;
    c.object = subdevice_;
    c.cmd = fb_flush_gpu_cache;
    c.params = reinterpret_cast<std::uint64_t>(&f);
    c.params_size = sizeof f;
    if (ioctl(fd_, iowr(esc_control, sizeof c), &c) != 0 || c.status != 0)
      fail("FB_FLUSH_GPU_CACHE", c.status);
  }

private:
  std::uint32_t alloc(std::uint32_t root, std::uint32_t parent, std::uint32_t klass, void* p,
                      std::uint32_t size) {
    alloc_args a{};
    a.root = root;
    a.parent = parent;
    a.klass = klass;
    a.params = reinterpret_cast<std::uint64_t>(p);
    a.params_size = size;
    if (ioctl(fd_, iowr(esc_alloc, sizeof a), &a) != 0 || a.status != 0)
      fail("RM alloc", a.status);
    return a.object;
  }
  [[noreturn]] static void fail(const char* what, std::uint32_t status) {
    std::fprintf(stderr, "rm_l2_flush: %s failed (RM status 0x%x)\n", what, status);
    std::exit(2);
  }
  int fd_ = -1;
  std::uint32_t client_ = 0, device_ = 0, subdevice_ = 0;
};

} // namespace rm_lab
