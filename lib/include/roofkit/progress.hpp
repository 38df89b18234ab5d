#pragma once
#include <cstddef>
#include <string>

namespace roofkit {

/// A one-line progress bar on stderr, drawn only when enabled (a terminal, not asked to be quiet).
class progress_bar {
public:
  /// `enabled` false makes every call a no-op.
  explicit progress_bar(bool enabled) : enabled_(enabled) {}
  ~progress_bar() { finish(); }
  progress_bar(const progress_bar&) = delete;
  progress_bar& operator=(const progress_bar&) = delete;
  /// Redraws the bar: `done` of `total`, and what is being worked on.
  void update(std::size_t done, std::size_t total, const std::string& label);
  /// Clears the bar's line.
  void finish();

private:
  bool enabled_;
  bool drawn_ = false;
};

} // namespace roofkit
