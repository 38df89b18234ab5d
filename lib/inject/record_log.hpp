#pragma once
// The record log the injected library appends to (one JSON object per line, flushed as it goes:
// the launcher reads it after the application ends, however it ends).
#include <cstdio>
#include <string>

namespace roofkit::inject {

/// An append-only record file; every write is flushed. Without a path, writes go nowhere.
class record_log {
public:
  /// Opens `path` for appending (several processes of one application share it); "" opens none.
  void open(const std::string& path);
  /// Appends `line` (which ends with its newline) and flushes it.
  void write(const std::string& line);
  /// Closes the file; later writes go nowhere.
  void close();

private:
  FILE* out_ = nullptr;
};

} // namespace roofkit::inject
