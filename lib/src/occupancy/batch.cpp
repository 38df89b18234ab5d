// Batch mode: CSV rows in, JSON Lines out, fast enough for 100,000 rows well under a second.
#include <charconv>
#include <vector>

#include <fmt/format.h>

#include "internal/csv.hpp"
#include "roofkit/core.hpp"
#include "roofkit/occupancy.hpp"

namespace roofkit {

namespace {

std::string_view trim_field(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"')
    s = s.substr(1, s.size() - 2);
  return s;
}

/// The length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  std::size_t n = c < 0x80           ? 1
                  : (c >> 5) == 0x6  ? 2
                  : (c >> 4) == 0xE  ? 3
                  : (c >> 3) == 0x1E ? 4
                                     : 0;
  if (n == 0 || i + n > s.size() || (n == 2 && c < 0xC2) || (n == 4 && c > 0xF4))
    return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((byte(i + k) >> 6) != 0x2)
      return 0;
  // No overlong 3/4-byte forms, no surrogates, nothing above U+10FFFF.
  if ((n == 3 && c == 0xE0 && byte(i + 1) < 0xA0) || (n == 3 && c == 0xED && byte(i + 1) > 0x9F) ||
      (n == 4 && c == 0xF0 && byte(i + 1) < 0x90) || (n == 4 && c == 0xF4 && byte(i + 1) > 0x8F))
    return 0;
  return n;
}

/// A JSON string; bytes that are not valid UTF-8 (an echoed bad field) become U+FFFD.
void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned>(c));
      } else if (const std::size_t n = utf8_length(s, i); n == 0) {
        out += "\\ufffd";
      } else {
        out.append(s.substr(i, n));
        i += n - 1;
      }
    }
  }
  out += '"';
}

int parse_int_field(std::string_view text, const char* what) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw usage_error(fmt::format("{} '{}' is not an integer", what, text));
  return value;
}

std::int64_t parse_size_field(std::string_view text, const char* what) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (!text.empty() && ec == std::errc() && end == text.data() + text.size()) {
    if (value < 0)
      throw usage_error(fmt::format("{} '{}' is negative (valid: 0 or more bytes)", what, text));
    return value;
  }
  return parse_size(text, what);
}

class arch_cache {
public:
  const arch_spec& get(std::string_view name) {
    for (const auto& [key, arch] : entries_)
      if (key == name)
        return *arch;
    const arch_spec& arch = find_arch(name);
    entries_.emplace_back(std::string(name), &arch);
    return arch;
  }

private:
  std::vector<std::pair<std::string, const arch_spec*>> entries_;
};

} // namespace

batch_summary run_occupancy_batch(std::string_view csv, std::string& out) {
  batch_summary summary;
  if (csv.substr(0, 3) == "\xEF\xBB\xBF")
    csv.remove_prefix(3);
  detail::csv_reader reader(csv);
  std::vector<std::string_view> fields;
  int line_no = 0;
  // A line of spaces is a blank line too.
  auto next_record = [&] {
    while (reader.next(fields, line_no))
      if (!(fields.size() == 1 && trim_field(fields[0]).empty()))
        return true;
    return false;
  };

  std::string header, normalized;
  if (next_record())
    for (std::size_t i = 0; i < fields.size(); ++i) {
      header += i ? "," : "";
      header += fields[i];
      for (char c : fields[i])
        if (c != ' ' && c != '\t')
          normalized += c;
      normalized += i + 1 < fields.size() ? "," : "";
    }
  if (normalized != occupancy_batch_header)
    throw usage_error(fmt::format("batch header '{}' is not valid (valid: {})", trim_field(header),
                                  occupancy_batch_header));

  out.reserve(out.size() + csv.size() * 3);
  arch_cache archs;
  while (next_record()) {
    ++summary.rows;
    const std::size_t start = out.size();
    try {
      if (fields.size() != 6)
        throw usage_error(
            fmt::format("{} fields (valid: 6: {})", fields.size(), occupancy_batch_header));
      for (auto& f : fields)
        f = trim_field(f);
      const arch_spec& arch = archs.get(fields[0]);
      launch_params l;
      l.threads_per_block = parse_int_field(fields[1], "threads");
      l.registers_per_thread = parse_int_field(fields[2], "regs");
      l.static_smem = parse_size_field(fields[3], "smem_static");
      l.dynamic_smem = parse_size_field(fields[4], "smem_dynamic");
      l.carveout = parse_int_field(fields[5], "carveout");
      validate_launch(arch, l);
      const auto r = compute_occupancy(arch, l);
      fmt::format_to(std::back_inserter(out),
                     "{{\"line\":{},\"arch\":\"{}\",\"threads\":{},\"regs\":{},\"smem_static\":{},"
                     "\"smem_dynamic\":{},\"carveout\":{},\"active_blocks_per_sm\":{},"
                     "\"active_warps_per_sm\":{},\"occupancy\":{},\"limiters\":[",
                     line_no, arch.id(), l.threads_per_block, l.registers_per_thread, l.static_smem,
                     l.dynamic_smem, l.carveout, r.active_blocks, r.active_warps, r.occupancy);
      bool first = true;
      for (limiter lim : all_limiters)
        if (r.limited_by(lim)) {
          out += first ? "\"" : ",\"";
          out += to_string(lim);
          out += '"';
          first = false;
        }
      out += ']';
      if (!r.reason.empty()) {
        out += ",\"reason\":";
        append_json_string(out, r.reason);
      }
      out += "}\n";
    } catch (const error& e) {
      out.resize(start);
      ++summary.invalid;
      if (summary.first_error.empty())
        summary.first_error = fmt::format("line {}: {}", line_no, e.what());
      fmt::format_to(std::back_inserter(out), "{{\"line\":{},\"error\":", line_no);
      append_json_string(out, e.what());
      out += "}\n";
    }
  }
  return summary;
}

} // namespace roofkit
