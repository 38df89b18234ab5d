#include "roofkit/core.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include <fmt/format.h>

namespace roofkit {

namespace fs = std::filesystem;

fs::path data_dir() {
  if (const char* env = std::getenv("ROOFKIT_DATA_DIR"); env && *env)
    return env;
  std::error_code ec;
  if (fs::is_directory(ROOFKIT_SOURCE_DATA_DIR, ec))
    return ROOFKIT_SOURCE_DATA_DIR;
  return ROOFKIT_INSTALL_DATA_DIR;
}

std::string read_text_file(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec))
    throw usage_error(fmt::format("cannot read '{}': is a directory, not a file", path.string()));
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw usage_error(fmt::format("cannot read '{}': file missing or unreadable", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    throw usage_error(fmt::format("cannot read '{}': I/O error", path.string()));
  return text.str();
}

fs::path default_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return fs::path(xdg) / "roofkit";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "roofkit";
  return {};
}

std::string read_data_file(const std::string& relative_path) {
  const std::string prefix = "data/";
  if (relative_path.rfind(prefix, 0) == 0) {
    const fs::path on_disk = data_dir() / relative_path.substr(prefix.size());
    std::error_code ec;
    if (fs::is_regular_file(on_disk, ec))
      return read_text_file(on_disk);
  }
  if (auto text = embedded_file(relative_path))
    return std::string(*text);
  throw runtime_error(fmt::format("data file '{}' not found in {} nor compiled in", relative_path,
                                  data_dir().string()),
                      "set ROOFKIT_DATA_DIR to the roofkit data directory");
}

void write_text_file(const fs::path& path, const std::string& text) {
  fs::path tmp = path; // one per process: processes writing one file never share a temporary
  tmp += fmt::format(".tmp.{}", static_cast<long>(getpid()));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw runtime_error(fmt::format("cannot write '{}'", path.string()));
    out << text;
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      throw runtime_error(fmt::format("cannot write '{}': I/O error", path.string()));
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw runtime_error(fmt::format("cannot write '{}': {}", path.string(), ec.message()));
  }
}

} // namespace roofkit
