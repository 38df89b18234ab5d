#pragma once
// Keeps the output of replayed launches out of the application's stdout. A kernel that calls
// printf prints once per launch; the driver writes that output to the process's stdout when the
// context synchronises, so every replay pass would print it again. While a launch is replayed,
// stdout (file descriptor 1) goes to a temporary file that is then dropped; the application's own
// launch, after the replay, prints as it always does.
#include <cstdio>

namespace roofkit::inject {

class replay_output {
public:
  /// Sends stdout to a temporary file (after flushing what the application had buffered).
  replay_output();
  /// Puts stdout back if finish() was not called.
  ~replay_output();
  replay_output(const replay_output&) = delete;
  replay_output& operator=(const replay_output&) = delete;

  /// Puts stdout back; returns the lines the replay printed (and dropped).
  long finish();

private:
  std::FILE* sink_ = nullptr;
  int saved_fd_ = -1;
};

} // namespace roofkit::inject
