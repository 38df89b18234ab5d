// The library's boundaries (docs/design.md, "Boundaries"): no file under lib/ names a tool, a
// command-line flag (in a string literal) or a bundled kernel, and lib/ embeds no help page.
// The bundled kernel names are derived from the kernel suite's sources: every string literal
// there that starts with "<topic>/" for a topic folder of kernels/ (a full name such as
// "global/coalesced", or the stem of names built from it, such as "smem/bank-conflict-"); where
// the suite is built, the names of its registry too.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"

#ifdef ROOFKIT_TEST_WITH_KERNELS
#include "roofkit/registry.hpp"
#endif

namespace {

namespace fs = std::filesystem;

const fs::path source_dir = ROOFKIT_TEST_SOURCE_DIR;

struct literal {
  std::string text;
  int line = 0;
};

bool is_source(const fs::path& p) {
  static const std::set<std::string> extensions = {".cpp", ".hpp", ".cu", ".cuh", ".h", ".in"};
  return extensions.count(p.extension().string()) > 0;
}

// The string literals of C++/CUDA source text (comments and character literals skipped; raw
// strings read to their delimiter), each with the line it starts on.
std::vector<literal> string_literals(const std::string& s) {
  std::vector<literal> out;
  int line = 1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n')
        ++i;
      --i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const std::size_t end = s.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? s.size() : end + 2;
      line += static_cast<int>(std::count(s.begin() + long(i), s.begin() + long(stop), '\n'));
      i = stop - 1;
    } else if (c == 'R' && i + 1 < s.size() && s[i + 1] == '"' &&
               (i == 0 ||
                !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '_'))) {
      const std::size_t open = s.find('(', i + 2);
      if (open == std::string::npos)
        break;
      std::string close(1, ')'); // built in steps: GCC 12 warns (-Wrestrict) on a + b + c
      close.append(s, i + 2, open - i - 2);
      close.push_back('"');
      const std::size_t end = s.find(close, open + 1);
      const std::size_t stop = end == std::string::npos ? s.size() : end;
      out.push_back({s.substr(open + 1, stop - open - 1), line});
      line += static_cast<int>(std::count(s.begin() + long(i), s.begin() + long(stop), '\n'));
      i = std::min(s.size(), stop + close.size()) - 1;
    } else if (c == '"' || c == '\'') {
      std::string text;
      std::size_t j = i + 1;
      for (; j < s.size() && s[j] != c && s[j] != '\n'; ++j) {
        if (s[j] == '\\' && j + 1 < s.size())
          text += s[j++];
        text += s[j];
      }
      // A digit separator (1'000'000) is not a character literal.
      const bool separator =
          c == '\'' && i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1]));
      if (c == '"')
        out.push_back({text, line});
      if (!separator)
        i = j;
    }
  }
  return out;
}

// Flags of other programs that library messages may name (the library reads their output or
// explains their setup): Nsight Compute's export options and Docker's capability option.
const std::vector<std::string> other_programs_flags = {"ncu --csv --page raw --metrics",
                                                       "ncu --metrics", "--cap-add SYS_ADMIN"};

// A command-line flag in a string literal: "--name" at the start or after a space, quote,
// backquote or bracket.
std::vector<std::string> flags_in(std::string text) {
  for (const auto& allowed : other_programs_flags)
    for (std::size_t p; (p = text.find(allowed)) != std::string::npos;)
      text.erase(p, allowed.size());
  static const std::regex flag(R"((^|[\s"'`(\[,;:=])(--[A-Za-z][A-Za-z0-9-]*))");
  std::vector<std::string> found;
  for (std::sregex_iterator it(text.begin(), text.end(), flag), end; it != end; ++it)
    found.push_back((*it)[2]);
  return found;
}

const std::vector<std::string> tool_names = {"roofline-cuda", "occupancy-calc"};

// Topic folders of kernels/ (not common/ and suite/, which hold shared code and the claims).
std::set<std::string> kernel_topics() {
  std::set<std::string> topics;
  for (const auto& e : fs::directory_iterator(source_dir / "kernels"))
    if (e.is_directory() && e.path().filename() != "common" && e.path().filename() != "suite")
      topics.insert(e.path().filename().string());
  return topics;
}

// Names and name stems of the bundled kernels, from the suite's sources.
std::set<std::string> bundled_kernel_names() {
  const auto topics = kernel_topics();
  static const std::regex name(R"(^([a-z0-9_]+)/[A-Za-z0-9_.-]+)");
  std::set<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(source_dir / "kernels")) {
    if (!e.is_regular_file() || !is_source(e.path()))
      continue;
    for (const auto& l : string_literals(test_support::read_text(e.path()))) {
      std::smatch m;
      if (std::regex_search(l.text, m, name) && topics.count(m[1]) &&
          !fs::path(m[0].str()).has_extension()) // not an #include path
        names.insert(m[0]);
    }
  }
  return names;
}

std::vector<fs::path> lib_files() {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(source_dir / "lib"))
    if (e.is_regular_file())
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string where(const fs::path& p, int line) {
  return fs::relative(p, source_dir).string() + ":" + std::to_string(line);
}

int line_of(const std::string& text, std::size_t pos) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + long(pos), '\n'));
}

} // namespace

TEST(lib_boundaries, the_checks_find_what_they_look_for) {
  const auto lits = string_literals("// \"--not\" in a comment\nauto a = \"use --gpu NAME\";\n"
                                    "auto b = 'x'; auto c = R\"d(raw --raw)d\"; int n = 1'000;\n"
                                    "auto d = \"\\\"q\\\" `--tick`\";");
  ASSERT_EQ(lits.size(), 3u);
  EXPECT_EQ(flags_in(lits[0].text), std::vector<std::string>{"--gpu"});
  EXPECT_EQ(lits[0].line, 2);
  EXPECT_EQ(flags_in(lits[1].text), std::vector<std::string>{"--raw"});
  EXPECT_EQ(flags_in(lits[2].text), std::vector<std::string>{"--tick"});
  EXPECT_TRUE(
      flags_in("a-- b, x--y, --i; (export with: ncu --csv --page raw --metrics ...)").size() ==
      1); // "--i" only: decrements and ncu's options are not our flags
  const auto names = bundled_kernel_names();
  EXPECT_TRUE(names.count("global/coalesced"));
  EXPECT_TRUE(names.count("smem/bank-conflict-"));
  EXPECT_FALSE(names.count("global/global_kernels.hpp"));
  EXPECT_GT(names.size(), 20u);
}

TEST(lib_boundaries, no_tool_name_in_lib) {
  for (const auto& p : lib_files()) {
    const std::string text = test_support::read_text(p);
    for (const auto& tool : tool_names)
      for (std::size_t pos = text.find(tool); pos != std::string::npos;
           pos = text.find(tool, pos + 1))
        ADD_FAILURE() << where(p, line_of(text, pos)) << " names the tool " << tool;
  }
}

TEST(lib_boundaries, no_command_line_flag_in_lib_string_literals) {
  for (const auto& p : lib_files()) {
    if (!is_source(p))
      continue;
    for (const auto& l : string_literals(test_support::read_text(p)))
      for (const auto& f : flags_in(l.text))
        ADD_FAILURE() << where(p, l.line) << " names the flag " << f << " in \"" << l.text << "\"";
  }
}

TEST(lib_boundaries, no_bundled_kernel_name_in_lib) {
  auto names = bundled_kernel_names();
#ifdef ROOFKIT_TEST_WITH_KERNELS
  // Names built at registration (e.g. "layout/" + variant) are in the registry itself.
  ASSERT_FALSE(roofkit::kernel_registry().empty());
  for (const auto& d : roofkit::kernel_registry())
    names.insert(d.name);
#endif
  for (const auto& p : lib_files()) {
    const std::string text = test_support::read_text(p);
    for (const auto& n : names)
      if (auto pos = text.find(n); pos != std::string::npos)
        ADD_FAILURE() << where(p, line_of(text, pos)) << " names the bundled kernel " << n;
  }
}

TEST(lib_boundaries, lib_embeds_no_help_page) {
  for (const auto& p : lib_files()) {
    const std::string text = test_support::read_text(p);
    if (auto pos = text.find("docs/cli/"); pos != std::string::npos)
      ADD_FAILURE() << where(p, line_of(text, pos)) << " names the tools' help pages";
  }
}

// One public header per module: lib/include/roofkit/<m>.hpp for every folder lib/src/<m>/ (but
// lib/src/internal/, the headers modules share), and no header without its folder.
TEST(lib_boundaries, one_public_header_per_module_folder) {
  std::set<std::string> headers, folders;
  for (const auto& e : fs::directory_iterator(source_dir / "lib/include/roofkit"))
    if (e.path().extension() == ".hpp")
      headers.insert(e.path().stem().string());
  for (const auto& e : fs::directory_iterator(source_dir / "lib/src"))
    if (e.is_directory() && !fs::is_empty(e.path()) && // git keeps no empty folder
        e.path().filename() != "internal") // headers shared between modules, not a module
      folders.insert(e.path().filename().string());
  ASSERT_GE(folders.size(), 10u) << "the module folders were not found";
  for (const auto& f : folders)
    EXPECT_TRUE(headers.count(f)) << "lib/src/" << f << "/ has no public header roofkit/" << f
                                  << ".hpp";
  for (const auto& h : headers)
    EXPECT_TRUE(folders.count(h)) << "roofkit/" << h << ".hpp has no module folder lib/src/" << h
                                  << "/";
}

namespace {

// The quoted includes of a file ("roofkit/plot.hpp", "internal/csv.hpp", "../x.hpp").
std::vector<std::string> quoted_includes(const fs::path& p) {
  static const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::vector<std::string> out;
  std::istringstream in(test_support::read_text(p));
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, include))
      out.push_back(m[1]);
  }
  return out;
}

// The public headers that roofkit/<name>.hpp includes, directly or through another.
std::set<std::string> public_closure(const std::string& name) {
  std::set<std::string> seen;
  std::vector<std::string> todo{name};
  while (!todo.empty()) {
    const std::string h = todo.back();
    todo.pop_back();
    for (const auto& inc : quoted_includes(source_dir / "lib/include" / h))
      if (inc.rfind("roofkit/", 0) == 0 && seen.insert(inc).second)
        todo.push_back(inc);
  }
  return seen;
}

std::vector<fs::path> sources_under(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && is_source(e.path()))
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

// Shared internal headers live in lib/src/internal/ and are included as "internal/x.hpp": no
// file of lib/ or tools/ reaches into another folder with "../".
TEST(lib_boundaries, no_relative_include_in_lib_or_tools) {
  std::size_t read_files = 0;
  for (const char* dir : {"lib", "tools"})
    for (const auto& p : sources_under(source_dir / dir)) {
      ++read_files;
      for (const auto& inc : quoted_includes(p))
        EXPECT_EQ(inc.find("../"), std::string::npos)
            << fs::relative(p, source_dir).string() << " includes \"" << inc << "\"";
    }
  EXPECT_GT(read_files, 100u);
  EXPECT_FALSE(quoted_includes(source_dir / "lib/src/core/csv.cpp").empty());
}

// The occupancy API needs no GPU and no chart: its header reaches neither the canvas
// (roofkit/plot.hpp) nor the cliffs (roofkit/cliff.hpp, which build on it); the canvas does not
// reach the cliffs either (the cliff chart is declared in roofkit/cliff.hpp).
TEST(lib_boundaries, public_headers_include_only_what_they_need) {
  const auto occupancy = public_closure("roofkit/occupancy.hpp");
  EXPECT_TRUE(occupancy.count("roofkit/arch.hpp")) << "the closure was not read";
  EXPECT_FALSE(occupancy.count("roofkit/plot.hpp"));
  EXPECT_FALSE(occupancy.count("roofkit/cliff.hpp"));
  EXPECT_FALSE(public_closure("roofkit/plot.hpp").count("roofkit/cliff.hpp"));
  EXPECT_FALSE(public_closure("roofkit/arch.hpp").count("roofkit/occupancy.hpp"));
}

// Cliffs are one module built on the occupancy engine, never the other way round: no file of
// lib/src/occupancy/ includes the cliff or the chart header, and every file that names cliffs in
// its file name is in lib/src/cliff/.
TEST(lib_boundaries, cliffs_are_one_module_above_occupancy) {
  const auto occupancy_files = sources_under(source_dir / "lib/src/occupancy");
  ASSERT_FALSE(occupancy_files.empty());
  for (const auto& p : occupancy_files)
    for (const auto& inc : quoted_includes(p))
      EXPECT_TRUE(inc != "roofkit/cliff.hpp" && inc != "roofkit/plot.hpp")
          << fs::relative(p, source_dir).string() << " includes " << inc;
  for (const auto& p : sources_under(source_dir / "lib/src")) {
    if (p.filename().string().find("cliff") != std::string::npos) {
      EXPECT_EQ(p.parent_path().filename(), "cliff")
          << fs::relative(p, source_dir).string() << " is outside lib/src/cliff/";
    }
  }
}
