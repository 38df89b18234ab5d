// Demangling kernel names: the C++ runtime's demangler, and an outline where it gives up.
#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "roofkit/occupancy.hpp"

namespace roofkit {

namespace {

constexpr std::size_t max_outline_name = 1024;

// A <source-name> (length, identifier) at `pos`, moved past; false if there is none.
bool source_name(std::string_view m, std::size_t& pos, std::string& out) {
  std::size_t n = 0;
  std::size_t p = pos;
  while (p < m.size() && std::isdigit(static_cast<unsigned char>(m[p])) != 0) {
    n = n * 10 + static_cast<std::size_t>(m[p++] - '0');
    if (n > m.size())
      return false; // also keeps n from wrapping around
  }
  if (p == pos || n == 0 || n > m.size() - p)
    return false;
  out = std::string(m.substr(p, n));
  if (out.rfind("_GLOBAL__N", 0) == 0)
    out = "(anonymous namespace)";
  pos = p + n;
  return true;
}

// A <substitution> at `pos` ("St", "S_", "S<base-36 number>_"), resolved from the prefixes
// `subs` seen so far, and moved past; false if there is none or it refers further on.
bool substitution(std::string_view m, std::size_t& pos, const std::vector<std::string>& subs,
                  std::string& out) {
  if (pos + 1 >= m.size() || m[pos] != 'S')
    return false;
  std::size_t p = pos + 1;
  if (m[p] == 't') {
    out = "std";
    pos = p + 1;
    return true;
  }
  std::size_t index = 0;
  if (m[p] != '_') {
    std::size_t seq = 0;
    for (; p < m.size() && m[p] != '_'; ++p) {
      const char c = m[p];
      const bool digit = c >= '0' && c <= '9';
      if (!digit && !(c >= 'A' && c <= 'Z'))
        return false;
      seq = seq * 36 + static_cast<std::size_t>(digit ? c - '0' : c - 'A' + 10);
      if (seq >= subs.size())
        return false;
    }
    index = seq + 1;
  }
  if (p >= m.size() || index >= subs.size())
    return false;
  out = subs[index];
  pos = p + 1;
  return true;
}

// The components of a nested name from `pos` up to its template arguments ('I') or its end
// ('E'), which is not consumed, joined by "::"; with `record`, each prefix is a substitution.
bool nested_components(std::string_view m, std::size_t& pos, std::vector<std::string>& subs,
                       bool record, std::string& out) {
  std::string name;
  while (pos < m.size() && m[pos] != 'I' && m[pos] != 'E') {
    std::string part;
    const bool sub = m[pos] == 'S';
    if (sub ? !substitution(m, pos, subs, part) : !source_name(m, pos, part))
      return false;
    name = name.empty() ? part : name + "::" + part;
    if (name.size() > max_outline_name)
      return false; // no real scope is this long; bounds the work on crafted names
    if (record && !sub)
      subs.push_back(name);
  }
  out = name;
  return !name.empty() && pos < m.size();
}

// The name of the first template argument at `pos` where it is a class named by source names
// (and substitutions of the enclosing name), with "<…>" for its own arguments; else "…".
std::string first_argument(std::string_view m, std::size_t pos, std::vector<std::string>& subs) {
  std::string name;
  if (pos < m.size() && m[pos] == 'N') {
    ++pos;
    if (!nested_components(m, pos, subs, false, name))
      return "…";
  } else if (!source_name(m, pos, name)) {
    return "…";
  }
  return pos < m.size() && m[pos] == 'I' ? name + "<…>" : name;
}

} // namespace

std::string mangled_outline(std::string_view m) {
  if (m.rfind("_ZN", 0) != 0)
    return "";
  std::size_t pos = 3;
  while (pos < m.size() && (m[pos] == 'r' || m[pos] == 'V' || m[pos] == 'K'))
    ++pos;
  std::vector<std::string> subs;
  std::string outer;
  if (!nested_components(m, pos, subs, true, outer))
    return "";
  if (m[pos] == 'E')
    return outer;
  return outer + "<" + first_argument(m, pos + 1, subs) + ", …>";
}

std::string demangle(const std::string& mangled) {
  if (mangled.rfind("_Z", 0) != 0)
    return mangled;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  if (status == 0 && out)
    return std::string(out.get());
  const std::string outline = mangled_outline(mangled);
  return outline.empty() ? mangled : outline;
}

} // namespace roofkit
