#pragma once
#include <filesystem>
#include <string>

namespace roofkit {

/// The data directory: $ROOFKIT_DATA_DIR if set, else the installed share/roofkit/data, else the
/// source tree's data/ (for a build tree).
std::filesystem::path data_dir();

/// Reads a data file by its path relative to the source tree ("data/gpus.json"): from the data
/// directory when present there, otherwise from the copy compiled into the library. Throws
/// roofkit::error when neither exists.
std::string read_data_file(const std::string& relative_path);

/// Reads a whole file; throws usage_error naming the path when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

/// Writes a file atomically (temporary file, then rename) so a failure leaves no half-written
/// output; throws runtime_error naming the path on failure.
void write_text_file(const std::filesystem::path& path, const std::string& text);

} // namespace roofkit
