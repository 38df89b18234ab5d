// Which kernels of a loaded GPU module call the device heap (malloc, free), read from the cubin:
// its symbol table names the heap functions (undefined, resolved by the driver), and its
// .nv.callgraph section lists caller -> callee pairs of symbol indices.
#include <elf.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "roofkit/app_profile.hpp"

namespace roofkit {

namespace {

// The undefined symbols that device malloc, free and __nv_aligned_device_malloc compile to.
bool is_heap_function(const char* name) {
  for (const char* heap :
       {"malloc", "free", "__cuda_syscall_aligned_malloc", "__nv_aligned_device_malloc"})
    if (std::strcmp(name, heap) == 0)
      return true;
  return false;
}

template <class T>
bool read_at(const unsigned char* base, std::size_t size, std::size_t at, T& out) {
  if (at > size || size - at < sizeof(T))
    return false;
  std::memcpy(&out, base + at, sizeof(T));
  return true;
}

// One ELF64 image starting at `base` (at most `size` bytes); adds its heap-using functions and
// returns the bytes the image spans (0 when it is not a readable ELF64 image).
std::size_t scan_elf(const unsigned char* base, std::size_t size, std::set<std::string>& users) {
  Elf64_Ehdr eh;
  if (!read_at(base, size, 0, eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr))
    return 0;
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  for (std::size_t i = 0; i < sections.size(); ++i)
    if (!read_at(base, size, eh.e_shoff + i * sizeof(Elf64_Shdr), sections[i]))
      return 0;
  std::size_t extent = eh.e_shoff + sections.size() * sizeof(Elf64_Shdr);
  for (const auto& s : sections)
    if (s.sh_type != SHT_NOBITS && s.sh_offset <= size && s.sh_size <= size - s.sh_offset)
      extent = std::max<std::size_t>(extent, s.sh_offset + s.sh_size);
  auto in_image = [&](const Elf64_Shdr& s) {
    return s.sh_offset <= size && s.sh_size <= size - s.sh_offset;
  };
  auto string_at = [&](const Elf64_Shdr& table, std::size_t offset) -> const char* {
    if (!in_image(table) || offset >= table.sh_size)
      return "";
    const char* s = reinterpret_cast<const char*>(base + table.sh_offset + offset);
    return std::memchr(s, '\0', table.sh_size - offset) ? s : "";
  };
  const Elf64_Shdr* symtab = nullptr;
  const Elf64_Shdr* callgraph = nullptr;
  for (const auto& s : sections) {
    if (s.sh_type == SHT_SYMTAB)
      symtab = &s;
    else if (eh.e_shstrndx < sections.size() &&
             std::strcmp(string_at(sections[eh.e_shstrndx], s.sh_name), ".nv.callgraph") == 0)
      callgraph = &s;
  }
  if (!symtab || !in_image(*symtab) || symtab->sh_link >= sections.size())
    return extent;
  const Elf64_Shdr& strtab = sections[symtab->sh_link];
  const std::size_t count = symtab->sh_size / sizeof(Elf64_Sym);
  std::vector<Elf64_Sym> symbols(count);
  std::vector<bool> reaches_heap(count, false);
  bool any_heap = false;
  for (std::size_t i = 0; i < count; ++i) {
    read_at(base, size, symtab->sh_offset + i * sizeof(Elf64_Sym), symbols[i]);
    if (symbols[i].st_shndx == SHN_UNDEF && is_heap_function(string_at(strtab, symbols[i].st_name)))
      reaches_heap[i] = any_heap = true;
  }
  if (!any_heap)
    return extent;
  auto defined_function = [&](std::size_t i) {
    return ELF64_ST_TYPE(symbols[i].st_info) == STT_FUNC && symbols[i].st_shndx != SHN_UNDEF;
  };
  if (!callgraph || !in_image(*callgraph)) {
    // No call graph: every function of the module is taken to use the heap.
    for (std::size_t i = 0; i < count; ++i)
      if (defined_function(i))
        users.insert(string_at(strtab, symbols[i].st_name));
    return extent;
  }
  std::multimap<std::uint32_t, std::uint32_t> calls; // caller -> callee
  for (std::size_t at = 0; at + 8 <= callgraph->sh_size; at += 8) {
    std::uint32_t edge[2];
    read_at(base, size, callgraph->sh_offset + at, edge);
    if (edge[0] < count && edge[1] < count)
      calls.emplace(edge[0], edge[1]);
  }
  // Fixed point over the call graph: a function reaches the heap if any callee does.
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [caller, callee] : calls)
      if (reaches_heap[callee] && !reaches_heap[caller])
        reaches_heap[caller] = changed = true;
  }
  for (std::size_t i = 0; i < count; ++i)
    if (reaches_heap[i] && defined_function(i))
      users.insert(string_at(strtab, symbols[i].st_name));
  return extent;
}

} // namespace

std::set<std::string> kernels_using_device_heap(const void* image, std::size_t size) {
  std::set<std::string> users;
  const auto* base = static_cast<const unsigned char*>(image);
  if (!base)
    return users;
  // A cubin, or a fat binary holding several uncompressed ones: every ELF image in it is read.
  for (std::size_t at = 0; at + SELFMAG <= size;) {
    const void* hit = std::memchr(base + at, ELFMAG0, size - at);
    if (!hit)
      break;
    at = static_cast<std::size_t>(static_cast<const unsigned char*>(hit) - base);
    std::size_t extent = 0;
    if (at + SELFMAG <= size && std::memcmp(base + at, ELFMAG, SELFMAG) == 0)
      extent = scan_elf(base + at, size - at, users);
    at += std::max<std::size_t>(extent, 1);
  }
  return users;
}

} // namespace roofkit
