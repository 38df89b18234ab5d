#pragma once
// A light stand-in for fmt in the registration files (fmt header-only costs seconds per file).
#include <sstream>
#include <string>

namespace roofkit::kernels {

/// Its arguments written one after the other, as `std::ostream <<` writes them.
template <class... Parts> std::string cat(const Parts&... parts) {
  std::ostringstream s;
  (s << ... << parts);
  return s.str();
}

} // namespace roofkit::kernels
