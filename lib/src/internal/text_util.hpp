#pragma once
// Small text helpers shared by the parsers inside the library.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace roofkit::detail {

/// `s` without leading and trailing white space (std::isspace).
std::string_view trim(std::string_view s);

/// Whether `a` and `b` are equal ignoring ASCII case.
bool iequals(std::string_view a, std::string_view b);

/// The factor of a binary size suffix, any case: none 1; K, KB, KiB 2^10; M, MB, MiB 2^20;
/// G, GB, GiB 2^30. nullopt for any other suffix. The one table of size suffixes: the parsers
/// of sizes and counts say which factors they accept.
std::optional<std::int64_t> size_suffix_scale(std::string_view suffix);

/// At most `max_chars` characters of `s` (UTF-8 aware: a character is never split), the last one
/// an ellipsis where `s` was cut.
std::string cut_to_chars(const std::string& s, std::size_t max_chars);

/// The number of characters (UTF-8 code points) of `s`.
std::size_t char_count(std::string_view s);

/// An occupancy as a percentage with one decimal: 0.755 -> "75.5%".
std::string percent(double fraction);
/// The same without a decimal where it is whole: 0.75 -> "75%", 0.755 -> "75.5%".
std::string percent_short(double fraction);
/// A percentage rounded to a whole number: 0.755 -> "76%".
std::string percent_rounded(double fraction);

} // namespace roofkit::detail
