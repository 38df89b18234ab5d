#include "roofkit/core.hpp"

#include <cstdio>

#include <fmt/format.h>

namespace roofkit {

void progress_bar::update(std::size_t done, std::size_t total, const std::string& label) {
  if (!enabled_ || total == 0)
    return;
  constexpr std::size_t width = 30;
  const std::size_t filled = done * width / total;
  std::string text = fmt::format("[{}{}] {}/{} {}", std::string(filled, '#'),
                                 std::string(width - filled, '.'), done, total, label);
  if (text.size() > 79)
    text.resize(79);
  std::fprintf(stderr, "\r%-79s", text.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void progress_bar::finish() {
  if (!drawn_)
    return;
  std::fprintf(stderr, "\r%79s\r", "");
  std::fflush(stderr);
  drawn_ = false;
}

} // namespace roofkit
