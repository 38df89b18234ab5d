#include "replay_output.hpp"

#include <unistd.h>

namespace roofkit::inject {

replay_output::replay_output() {
  std::fflush(stdout);
  sink_ = std::tmpfile();
  saved_fd_ = sink_ ? dup(STDOUT_FILENO) : -1;
  if (saved_fd_ < 0 || dup2(fileno(sink_), STDOUT_FILENO) < 0) {
    // Not redirected: the replay's output, if any, reaches stdout.
    if (saved_fd_ >= 0)
      close(saved_fd_);
    saved_fd_ = -1;
  }
}

replay_output::~replay_output() { finish(); }

long replay_output::finish() {
  long lines = 0;
  if (saved_fd_ >= 0) {
    std::fflush(stdout);
    dup2(saved_fd_, STDOUT_FILENO);
    close(saved_fd_);
    saved_fd_ = -1;
    std::rewind(sink_);
    for (int c = std::fgetc(sink_); c != EOF; c = std::fgetc(sink_))
      lines += c == '\n';
  }
  if (sink_)
    std::fclose(sink_);
  sink_ = nullptr;
  return lines;
}

} // namespace roofkit::inject
