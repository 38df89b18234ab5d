// kernels_using_device_heap() on a cubin and a fat binary that nvcc built from
// tests/data/cubin/heap_kernels.cu, whose kernels use the device heap or not by construction.
#include <elf.h>

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "roofkit/app_profile.hpp"
#include "roofkit/core.hpp"

namespace {

const std::set<std::string> heap_users = {"takes_memory", "frees_through_two_calls", "aligned"};

std::set<std::string> kernels_of(const std::set<std::string>& functions) {
  std::set<std::string> kernels;
  for (const auto& f : functions)
    if (f.find('$') == std::string::npos) // device functions are "$kernel$function"
      kernels.insert(f);
  return kernels;
}

TEST(device_heap_users, cubin_lists_direct_and_indirect_callers_only) {
  const std::string image = roofkit::read_text_file(ROOFKIT_TEST_HEAP_CUBIN);
  const auto users = roofkit::kernels_using_device_heap(image.data(), image.size());
  EXPECT_EQ(kernels_of(users), heap_users);
  EXPECT_EQ(users.count("plain"), 0u);
  EXPECT_EQ(users.count("prints_only"), 0u); // printf is not the heap
}

TEST(device_heap_users, fat_binary_is_read_cubin_by_cubin) {
  const std::string image = roofkit::read_text_file(ROOFKIT_TEST_HEAP_FATBIN);
  EXPECT_EQ(kernels_of(roofkit::kernels_using_device_heap(image.data(), image.size())), heap_users);
}

TEST(device_heap_users, anything_else_gives_nothing) {
  EXPECT_TRUE(roofkit::kernels_using_device_heap(nullptr, 0).empty());
  const std::string text = "\x7f"
                           "ELF but not an image: malloc free";
  EXPECT_TRUE(roofkit::kernels_using_device_heap(text.data(), text.size()).empty());
  // A cubin cut short anywhere is read without reading past its end (ASan checks).
  const std::string image = roofkit::read_text_file(ROOFKIT_TEST_HEAP_CUBIN);
  for (std::size_t size = 0; size < image.size(); size += 97)
    roofkit::kernels_using_device_heap(image.data(), size);
}

TEST(device_heap_users, writable_variables_are_the_global_ones_with_their_sizes) {
  const std::map<std::string, std::size_t> expected = {
      {"launches_seen", 4},
      {"weights", 400},
      {"_ZN8counters16shared_with_hostE", 4},
      {"answer", 4}}; // const, but in writable memory; printf's "$str" and __constant__ are not
  for (const char* path : {ROOFKIT_TEST_HEAP_CUBIN, ROOFKIT_TEST_HEAP_FATBIN}) {
    const std::string image = roofkit::read_text_file(path);
    EXPECT_EQ(roofkit::writable_device_variables(image.data(), image.size()), expected) << path;
  }
  const std::string image = roofkit::read_text_file(ROOFKIT_TEST_HEAP_CUBIN);
  for (std::size_t size = 0; size < image.size(); size += 97)
    roofkit::writable_device_variables(image.data(), size);
  EXPECT_TRUE(roofkit::writable_device_variables(nullptr, 0).empty());
}

// heap_kernels.cu defines one __managed__ variable; a cubin without one (the managed flag of its
// symbol cleared) and anything that is not an image have none.
TEST(device_heap_users, managed_variables_are_found_by_their_symbol_flag) {
  for (const char* path : {ROOFKIT_TEST_HEAP_CUBIN, ROOFKIT_TEST_HEAP_FATBIN}) {
    const std::string image = roofkit::read_text_file(path);
    EXPECT_TRUE(roofkit::has_managed_variables(image.data(), image.size())) << path;
  }
  std::string image = roofkit::read_text_file(ROOFKIT_TEST_HEAP_CUBIN);
  const std::string name = "_ZN8counters16shared_with_hostE";
  // Clear st_other (byte 5 of an Elf64_Sym) of the symbol whose name is at that string offset.
  const auto* header = reinterpret_cast<const Elf64_Ehdr*>(image.data());
  const auto* sections = reinterpret_cast<const Elf64_Shdr*>(image.data() + header->e_shoff);
  int cleared = 0;
  for (int i = 0; i < header->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_SYMTAB)
      continue;
    const char* strings = image.data() + sections[sections[i].sh_link].sh_offset;
    auto* symbols = reinterpret_cast<Elf64_Sym*>(image.data() + sections[i].sh_offset);
    for (std::size_t k = 0; k < sections[i].sh_size / sizeof(Elf64_Sym); ++k)
      if (name == strings + symbols[k].st_name) {
        symbols[k].st_other = 0;
        ++cleared;
      }
  }
  EXPECT_EQ(cleared, 1);
  EXPECT_FALSE(roofkit::has_managed_variables(image.data(), image.size()));
  EXPECT_FALSE(roofkit::has_managed_variables(name.data(), name.size()));
  EXPECT_FALSE(roofkit::has_managed_variables(nullptr, 0));
}

} // namespace
