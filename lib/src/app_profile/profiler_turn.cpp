// The GPU's profiler taken in turns by the processes of one profiled application (flock(2)).
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

namespace roofkit {

namespace {

int open_lock(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    throw runtime_error(
        fmt::format("cannot open the lock file '{}': {}", path, std::strerror(errno)));
  return fd;
}

int lock(int fd, int how) {
  int rc = 0;
  while ((rc = ::flock(fd, how)) != 0 && errno == EINTR) {
  }
  return rc;
}

} // namespace

std::vector<std::filesystem::path> profiler_turn::files(const std::string& base) {
  if (base.empty())
    return {};
  return {base + ".turn", base + ".want"};
}

profiler_turn::profiler_turn(const std::string& base) {
  if (base.empty()) {
    held_ = true;
    return;
  }
  const auto f = files(base);
  turn_fd_ = open_lock(f[0]);
  try {
    want_fd_ = open_lock(f[1]);
  } catch (...) {
    ::close(turn_fd_);
    throw;
  }
}

profiler_turn::~profiler_turn() {
  for (int fd : {turn_fd_, want_fd_})
    if (fd >= 0)
      ::close(fd); // releases its locks
}

bool profiler_turn::take(double limit_s, const std::function<void(double)>& waiting) {
  if (held_)
    return true;
  // A process that has just given the turn up lets a waiting one in first.
  const auto since_given = std::chrono::steady_clock::now() - given_at_;
  if (since_given < std::chrono::milliseconds(100))
    std::this_thread::sleep_for(std::chrono::milliseconds(100) - since_given);
  if (lock(turn_fd_, LOCK_EX | LOCK_NB) == 0)
    return held_ = true;
  // Say that a process waits, then wait: the holder gives the turn up when it sees it.
  lock(want_fd_, LOCK_SH);
  const auto t0 = std::chrono::steady_clock::now();
  double said = 0;
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (lock(turn_fd_, LOCK_EX | LOCK_NB) == 0) {
      held_ = true;
      break;
    }
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (waited >= limit_s)
      break;
    if (waiting && waited >= said + 1.0) {
      said = waited;
      waiting(waited);
    }
  }
  lock(want_fd_, LOCK_UN);
  return held_;
}

bool profiler_turn::wanted() {
  if (!held_ || want_fd_ < 0)
    return false;
  // Nobody waits when the exclusive lock is free to take (and then dropped at once).
  if (lock(want_fd_, LOCK_EX | LOCK_NB) == 0) {
    lock(want_fd_, LOCK_UN);
    return false;
  }
  return true;
}

void profiler_turn::give() {
  if (!held_ || turn_fd_ < 0)
    return;
  lock(turn_fd_, LOCK_UN);
  held_ = false;
  given_at_ = std::chrono::steady_clock::now();
}

} // namespace roofkit
