#include "record_log.hpp"

namespace roofkit::inject {

void record_log::open(const std::string& path) {
  if (!path.empty())
    out_ = std::fopen(path.c_str(), "a");
}

void record_log::write(const std::string& line) {
  if (!out_)
    return;
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fflush(out_);
}

void record_log::close() {
  if (out_)
    std::fclose(out_);
  out_ = nullptr;
}

} // namespace roofkit::inject
