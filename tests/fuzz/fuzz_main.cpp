// A seeded random-mutation driver for the fuzz targets, used where the compiler has no libFuzzer
// (GCC). It accepts libFuzzer's command line as far as CI uses it:
//   fuzz_x [-max_total_time=S] [-runs=N] [-seed=N] [-max_len=N] [other -flags ignored] PATH...
// Every file under each PATH is run as is, then mutated copies (bit flips, byte edits, cut and
// repeated ranges, splices of two inputs, tokens that parsers trip on) until S seconds or N runs
// have passed. A finding aborts (the target's own check, a signal or a sanitizer report) and
// leaves the failing input in <artifact_prefix>input (default ./crash-input).
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using bytes = std::vector<std::uint8_t>;

const char* const tokens[] = {",",
                              "\n",
                              "\r\n",
                              "\"",
                              "'",
                              "0",
                              "-1",
                              "1e308",
                              "nan",
                              "inf",
                              "null",
                              "{",
                              "}",
                              "[",
                              "]",
                              ":",
                              "%",
                              "K",
                              "MiB",
                              ".",
                              "sm_90",
                              "9.0",
                              "\xEF\xBB\xBF",
                              "\xFF",
                              "18446744073709551616",
                              "2147483648",
                              "\"\"",
                              "true",
                              " "};

std::string g_crash_path = "crash-input";
const bytes* g_current = nullptr;

// Writes the input being run to g_crash_path; async-signal-safe calls only.
extern "C" void save_current_input() {
  if (g_current == nullptr)
    return;
  const int fd = open(g_crash_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    [[maybe_unused]] const auto n = write(fd, g_current->data(), g_current->size());
    close(fd);
  }
  const char note[] = "fuzz: the failing input is saved (see -artifact_prefix)\n";
  [[maybe_unused]] const auto m = write(2, note, sizeof note - 1);
  g_current = nullptr;
}

extern "C" void on_fatal_signal(int sig) {
  save_current_input();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void run_one(const bytes& input) {
  g_current = &input;
  LLVMFuzzerTestOneInput(input.data(), input.size());
  g_current = nullptr;
}

bytes mutate(const bytes& base, const std::vector<bytes>& corpus, std::mt19937_64& rng,
             std::size_t max_len) {
  bytes b = base;
  auto pick = [&](std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); };
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 8) {
    case 0: // flip a bit
      if (!b.empty())
        b[pick(b.size())] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      break;
    case 1: // set a byte
      if (!b.empty())
        b[pick(b.size())] = static_cast<std::uint8_t>(rng());
      break;
    case 2: { // insert a byte
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(pick(b.size() + 1)),
               static_cast<std::uint8_t>(rng()));
      break;
    }
    case 3: { // erase a range
      if (b.empty())
        break;
      const std::size_t at = pick(b.size());
      const std::size_t n = 1 + pick(std::min<std::size_t>(b.size() - at, 64));
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
              b.begin() + static_cast<std::ptrdiff_t>(at + n));
      break;
    }
    case 4: { // repeat a range
      if (b.empty())
        break;
      const std::size_t at = pick(b.size());
      const std::size_t n = 1 + pick(std::min<std::size_t>(b.size() - at, 64));
      const bytes piece(b.begin() + static_cast<std::ptrdiff_t>(at),
                        b.begin() + static_cast<std::ptrdiff_t>(at + n));
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(pick(b.size() + 1)), piece.begin(),
               piece.end());
      break;
    }
    case 5: { // splice: this input's head, another's tail
      const bytes& other = corpus[pick(corpus.size())];
      const std::size_t cut = pick(b.size() + 1);
      const std::size_t from = pick(other.size() + 1);
      b.resize(cut);
      b.insert(b.end(), other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
      break;
    }
    case 6: { // insert a token
      const std::string_view t = tokens[pick(std::size(tokens))];
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(pick(b.size() + 1)), t.begin(), t.end());
      break;
    }
    default: { // replace a run of digits or letters with a token
      if (b.empty())
        break;
      std::size_t at = pick(b.size());
      std::size_t end = at;
      while (end < b.size() && std::isalnum(b[end]))
        ++end;
      const std::string_view t = tokens[pick(std::size(tokens))];
      b.erase(b.begin() + static_cast<std::ptrdiff_t>(at),
              b.begin() + static_cast<std::ptrdiff_t>(end));
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), t.begin(), t.end());
      break;
    }
    }
  }
  if (b.size() > max_len)
    b.resize(max_len);
  return b;
}

bool flag(std::string_view arg, std::string_view name, long long& value) {
  if (arg.substr(0, name.size()) != name)
    return false;
  value = std::atoll(std::string(arg.substr(name.size())).c_str());
  return true;
}

} // namespace

// Provided by the sanitizer runtimes: called before a sanitizer ends the process.
extern "C" void __sanitizer_set_death_callback(void (*callback)()) __attribute__((weak));

int main(int argc, char** argv) {
  for (const int sig : {SIGABRT, SIGSEGV, SIGFPE, SIGILL, SIGBUS})
    std::signal(sig, on_fatal_signal);
  if (__sanitizer_set_death_callback != nullptr)
    __sanitizer_set_death_callback(save_current_input);
  long long seconds = 10, runs = -1, seed = 1, max_len = 65536;
  std::vector<std::filesystem::path> paths;
  std::filesystem::path crash_dir = ".";
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (flag(a, "-max_total_time=", seconds) || flag(a, "-runs=", runs) ||
        flag(a, "-seed=", seed) || flag(a, "-max_len=", max_len))
      continue;
    if (a.substr(0, 17) == "-artifact_prefix=") {
      g_crash_path = std::string(a.substr(17)) + "input";
      continue;
    }
    if (!a.empty() && a[0] == '-')
      continue; // other libFuzzer flags have no meaning here
    paths.emplace_back(a);
  }

  std::vector<bytes> corpus;
  for (const auto& p : paths) {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file())
          files.push_back(e.path());
    } else if (std::filesystem::is_regular_file(p)) {
      files.push_back(p);
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  }
  if (corpus.empty())
    corpus.emplace_back();
  for (const auto& input : corpus)
    run_one(input);
  std::fprintf(stderr, "fuzz: %zu corpus inputs ran\n", corpus.size());

  std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  long long done = 0;
  while (runs < 0 ? std::chrono::steady_clock::now() < deadline : done < runs) {
    run_one(mutate(corpus[rng() % corpus.size()], corpus, rng, static_cast<std::size_t>(max_len)));
    ++done;
  }
  std::fprintf(stderr, "fuzz: %lld mutated inputs ran (seed %lld), no finding\n", done, seed);
  return 0;
}
