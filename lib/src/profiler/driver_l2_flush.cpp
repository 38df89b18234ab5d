#include "driver_l2_flush.hpp"

#include <cerrno>
#include <cstring>

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "roofkit/core.hpp"

#if defined(__linux__)
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#endif

namespace roofkit::detail {

namespace {

// Argument layouts of the RM escapes and controls used here, as the driver's public headers
// (nvos.h, cl0080.h, ctrl2080gpu.h, ctrl2080fb.h of NVIDIA's open kernel modules) define them.
struct rm_alloc_args { // NVOS21_PARAMETERS
  std::uint32_t root, parent, object, klass;
  alignas(8) std::uint64_t params;
  std::uint32_t params_size, status;
};
struct rm_control_args { // NVOS54_PARAMETERS
  std::uint32_t client, object, cmd, flags;
  alignas(8) std::uint64_t params;
  std::uint32_t params_size, status;
};
struct rm_device_args { // NV0080_ALLOC_PARAMETERS
  std::uint32_t device_id, client_share, target_client, target_device, flags;
  alignas(8) std::uint64_t va_space_size, va_start, va_limit;
  std::uint32_t va_mode;
};
struct rm_gid_args { // NV2080_CTRL_GPU_GET_GID_INFO_PARAMS
  std::uint32_t index, flags, length;
  std::uint8_t data[256];
};
struct rm_flush_args { // NV2080_CTRL_FB_FLUSH_GPU_CACHE_PARAMS
  alignas(8) std::uint64_t addresses[500];
  std::uint32_t address_count, address_align;
  alignas(8) std::uint64_t block_bytes;
  std::uint32_t flags;
};
static_assert(sizeof(rm_alloc_args) == 32 && sizeof(rm_control_args) == 32);
static_assert(sizeof(rm_device_args) == 56 && sizeof(rm_gid_args) == 268);
static_assert(sizeof(rm_flush_args) == 4024);

constexpr unsigned esc_control = 0x2A;
constexpr unsigned esc_alloc = 0x2B;
constexpr std::uint32_t root_client_class = 0x41;
constexpr std::uint32_t device_class = 0x80;
constexpr std::uint32_t subdevice_class = 0x2080;
constexpr std::uint32_t ctrl_get_gid = 0x2080014a;
constexpr std::uint32_t gid_binary = 0x2;
constexpr std::uint32_t ctrl_flush_gpu_cache = 0x2080130e;
constexpr std::uint32_t max_devices = 32;

} // namespace

unsigned long rm_ioctl_request(unsigned nr, std::size_t size) {
  return (3ul << 30) | ((static_cast<unsigned long>(size) & 0x3FFFul) << 16) |
         (static_cast<unsigned long>('F') << 8) | (nr & 0xFFu);
}

std::uint32_t rm_flush_all_flags() {
  // Aperture video memory (bits 1:0 = 0), write back (bit 2), invalidate (bit 3), the full cache
  // rather than an address list (bit 4), then an FB flush (bit 5).
  return (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5);
}

std::unique_ptr<driver_l2_flush> driver_l2_flush::open_device(int device, std::string& why_not) {
  cudaDeviceProp prop{};
  ROOFKIT_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  std::array<unsigned char, 16> uuid{};
  std::memcpy(uuid.data(), prop.uuid.bytes, uuid.size());
  return open(uuid, why_not);
}

#if defined(__linux__)

namespace {

// RM status of the call, or ~0 when the ioctl itself failed.
std::uint32_t rm_call(int fd, unsigned nr, void* args, std::size_t size, std::uint32_t& status) {
  if (ioctl(fd, rm_ioctl_request(nr, size), args) != 0)
    return ~0u;
  return status;
}

std::uint32_t rm_alloc(int fd, std::uint32_t root, std::uint32_t parent, std::uint32_t klass,
                       void* params, std::uint32_t size, std::uint32_t& object) {
  rm_alloc_args a{};
  a.root = root;
  a.parent = parent;
  a.klass = klass;
  a.params = reinterpret_cast<std::uint64_t>(params);
  a.params_size = size;
  const std::uint32_t s = rm_call(fd, esc_alloc, &a, sizeof a, a.status);
  object = a.object;
  return s;
}

std::uint32_t rm_control(int fd, std::uint32_t client, std::uint32_t object, std::uint32_t cmd,
                         void* params, std::uint32_t size) {
  rm_control_args c{};
  c.client = client;
  c.object = object;
  c.cmd = cmd;
  c.params = reinterpret_cast<std::uint64_t>(params);
  c.params_size = size;
  return rm_call(fd, esc_control, &c, sizeof c, c.status);
}

std::uint32_t send_flush(int fd, std::uint32_t client, std::uint32_t subdevice) {
  rm_flush_args f{};
  f.flags = rm_flush_all_flags();
  return rm_control(fd, client, subdevice, ctrl_flush_gpu_cache, &f, sizeof f);
}

std::string status_text(std::uint32_t s) {
  return s == ~0u ? std::string(std::strerror(errno)) : fmt::format("RM status 0x{:x}", s);
}

} // namespace

std::unique_ptr<driver_l2_flush> driver_l2_flush::open(const std::array<unsigned char, 16>& uuid,
                                                       std::string& why_not) {
  const int fd = ::open("/dev/nvidiactl", O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    why_not = fmt::format("cannot open /dev/nvidiactl: {}", std::strerror(errno));
    return nullptr;
  }
  auto give_up = [&](std::string reason) {
    ::close(fd); // the driver frees the client and everything under it
    why_not = std::move(reason);
    return std::unique_ptr<driver_l2_flush>();
  };
  std::uint32_t client = 0;
  if (const auto s = rm_alloc(fd, 0, 0, root_client_class, nullptr, 0, client))
    return give_up("the driver refused a client of our own: " + status_text(s));
  for (std::uint32_t id = 0; id < max_devices; ++id) {
    rm_device_args d{};
    d.device_id = id;
    d.client_share = client;
    std::uint32_t device = 0, subdevice = 0;
    if (rm_alloc(fd, client, client, device_class, &d, sizeof d, device) != 0)
      continue; // no such device, or not attached
    if (rm_alloc(fd, client, device, subdevice_class, nullptr, 0, subdevice) != 0)
      continue;
    rm_gid_args g{};
    g.flags = gid_binary;
    if (rm_control(fd, client, subdevice, ctrl_get_gid, &g, sizeof g) != 0 || g.length < 16)
      continue;
    if (std::memcmp(g.data, uuid.data(), uuid.size()) != 0)
      continue;
    // One flush now, so that a driver that refuses it (a virtual GPU, a policy) is known before
    // the first pass, and the sweep is used instead.
    if (const auto s = send_flush(fd, client, subdevice))
      return give_up("the driver refused the L2 flush: " + status_text(s));
    return std::unique_ptr<driver_l2_flush>(new driver_l2_flush(fd, client, subdevice));
  }
  return give_up("no device of the driver has this GPU's UUID");
}

driver_l2_flush::driver_l2_flush(int fd, std::uint32_t client, std::uint32_t subdevice)
    : fd_(fd), client_(client), subdevice_(subdevice) {}

driver_l2_flush::~driver_l2_flush() {
  if (fd_ >= 0)
    ::close(fd_);
}

void driver_l2_flush::flush() const {
  if (const auto s = send_flush(fd_, client_, subdevice_))
    throw runtime_error("the driver's L2 write-back and invalidate (FB_FLUSH_GPU_CACHE) failed: " +
                        status_text(s));
}

#else

std::unique_ptr<driver_l2_flush> driver_l2_flush::open(const std::array<unsigned char, 16>&,
                                                       std::string& why_not) {
  why_not = "the driver's L2 flush is reached through /dev/nvidiactl, on Linux only";
  return nullptr;
}
driver_l2_flush::driver_l2_flush(int fd, std::uint32_t client, std::uint32_t subdevice)
    : fd_(fd), client_(client), subdevice_(subdevice) {}
driver_l2_flush::~driver_l2_flush() = default;
void driver_l2_flush::flush() const {}

#endif

} // namespace roofkit::detail
