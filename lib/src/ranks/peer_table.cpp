#include "internal/peer_table.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "roofkit/ranks.hpp"

namespace roofkit::detail {

std::unique_ptr<peer_table> peer_table::open(const std::string& path, int rank,
                                             std::string& why_not) {
  if (rank < 0 || rank >= peer_slots::max_ranks) {
    why_not = "rank " + std::to_string(rank) + " is outside the table's [0, " +
              std::to_string(peer_slots::max_ranks) + ")";
    return nullptr;
  }
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    why_not = "cannot open '" + path + "': " + std::strerror(errno);
    return nullptr;
  }
  // Every rank sizes the file the same; new bytes read as zero, which is every slot's start.
  void* map = MAP_FAILED;
  if (::ftruncate(fd, sizeof(peer_slots)) == 0)
    map = ::mmap(nullptr, sizeof(peer_slots), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int err = errno;
  ::close(fd);
  if (map == MAP_FAILED) {
    why_not = "cannot map '" + path + "': " + std::strerror(err);
    return nullptr;
  }
  auto table = std::make_unique<peer_table>(*static_cast<peer_slots*>(map), rank);
  table->mapped_ = true;
  return table;
}

std::unique_ptr<peer_table> peer_table::for_process(const std::string& record_base,
                                                    std::string& why_not) {
  const auto r = rank_from_environment([](const char* n) -> const char* { return std::getenv(n); });
  if (record_base.empty() || !r)
    return nullptr;
  return open(path_for(record_base), r->rank, why_not);
}

peer_table::~peer_table() {
  if (mapped_)
    ::munmap(slots_, sizeof(peer_slots));
}

bool peer_table::peer_span_before(std::uint64_t collective) const {
  for (int r = 0; r < peer_slots::max_ranks; ++r) {
    const peer_slot& s = slots_->rank[r];
    if (r != rank_ && s.span_open.load() > 0 && s.span_collectives.load() < collective)
      return true;
  }
  return false;
}

bool peer_table::peer_ahead() const {
  const std::uint64_t own = collectives();
  for (int r = 0; r < peer_slots::max_ranks; ++r)
    if (r != rank_ && slots_->rank[r].collectives.load() > own)
      return true;
  return false;
}

std::chrono::nanoseconds peer_table::enter_collective(std::chrono::nanoseconds limit,
                                                      bool& gave_up) {
  const std::uint64_t n = slots_->rank[rank_].collectives.fetch_add(1) + 1;
  const auto t0 = std::chrono::steady_clock::now();
  gave_up = false;
  while (peer_span_before(n)) {
    if (std::chrono::steady_clock::now() - t0 >= limit) {
      gave_up = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return std::chrono::steady_clock::now() - t0;
}

bool peer_table::open_span() {
  if (open_)
    return true;
  peer_slot& own = slots_->rank[rank_];
  own.span_collectives.store(collectives());
  own.span_open.fetch_add(1);
  open_ = true;
  if (!peer_ahead())
    return true;
  close_span();
  return false;
}

void peer_table::close_span() {
  if (!open_)
    return;
  slots_->rank[rank_].span_open.fetch_sub(1);
  open_ = false;
}

std::uint64_t peer_table::collectives() const { return slots_->rank[rank_].collectives.load(); }

} // namespace roofkit::detail
