// What the injected library reads from a loaded GPU module's cubin: which kernels call the device
// heap (malloc, free; its symbol table names the heap functions, undefined, resolved by the
// driver, and its .nv.callgraph section lists caller -> callee pairs of symbol indices), and
// which variables kernels can write (.nv.global, .nv.global.init).
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

// The sections and symbols of one ELF64 image starting at `base` (at most `size` bytes).
struct elf_image {
  const unsigned char* base = nullptr;
  std::size_t size = 0;
  std::size_t extent = 0; ///< the bytes the image spans; 0 when it is not a readable ELF64 image
  std::vector<Elf64_Shdr> sections;
  std::vector<Elf64_Sym> symbols;
  const Elf64_Shdr* strtab = nullptr;
  const Elf64_Shdr* shstrtab = nullptr;

  bool in_image(const Elf64_Shdr& s) const {
    return s.sh_offset <= size && s.sh_size <= size - s.sh_offset;
  }
  const char* string_at(const Elf64_Shdr* table, std::size_t offset) const {
    if (!table || !in_image(*table) || offset >= table->sh_size)
      return "";
    const char* s = reinterpret_cast<const char*>(base + table->sh_offset + offset);
    return std::memchr(s, '\0', table->sh_size - offset) ? s : "";
  }
  const char* section_name(const Elf64_Shdr& s) const { return string_at(shstrtab, s.sh_name); }
  const char* symbol_name(std::size_t i) const { return string_at(strtab, symbols[i].st_name); }
};

elf_image read_elf(const unsigned char* base, std::size_t size) {
  elf_image e;
  e.base = base;
  e.size = size;
  Elf64_Ehdr eh;
  if (!read_at(base, size, 0, eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_shentsize != sizeof(Elf64_Shdr))
    return e;
  e.sections.resize(eh.e_shnum);
  for (std::size_t i = 0; i < e.sections.size(); ++i)
    if (!read_at(base, size, eh.e_shoff + i * sizeof(Elf64_Shdr), e.sections[i]))
      return {};
  e.extent = eh.e_shoff + e.sections.size() * sizeof(Elf64_Shdr);
  for (const auto& s : e.sections)
    if (s.sh_type != SHT_NOBITS && e.in_image(s))
      e.extent = std::max<std::size_t>(e.extent, s.sh_offset + s.sh_size);
  if (eh.e_shstrndx < e.sections.size())
    e.shstrtab = &e.sections[eh.e_shstrndx];
  const Elf64_Shdr* symtab = nullptr;
  for (const auto& s : e.sections)
    if (s.sh_type == SHT_SYMTAB)
      symtab = &s;
  if (!symtab || !e.in_image(*symtab) || symtab->sh_link >= e.sections.size())
    return e;
  e.strtab = &e.sections[symtab->sh_link];
  e.symbols.resize(symtab->sh_size / sizeof(Elf64_Sym));
  for (std::size_t i = 0; i < e.symbols.size(); ++i)
    read_at(base, size, symtab->sh_offset + i * sizeof(Elf64_Sym), e.symbols[i]);
  return e;
}

// Calls `scan` on every ELF image of a cubin, or of a fat binary holding several uncompressed
// ones.
template <class F> void for_each_elf(const void* image, std::size_t size, F&& scan) {
  const auto* base = static_cast<const unsigned char*>(image);
  if (!base)
    return;
  for (std::size_t at = 0; at + SELFMAG <= size;) {
    const void* hit = std::memchr(base + at, ELFMAG0, size - at);
    if (!hit)
      break;
    at = static_cast<std::size_t>(static_cast<const unsigned char*>(hit) - base);
    std::size_t extent = 0;
    if (at + SELFMAG <= size && std::memcmp(base + at, ELFMAG, SELFMAG) == 0) {
      const elf_image e = read_elf(base + at, size - at);
      scan(e);
      extent = e.extent;
    }
    at += std::max<std::size_t>(extent, 1);
  }
}

// Adds the heap-using functions of one image.
void scan_heap_users(const elf_image& e, std::set<std::string>& users) {
  const std::size_t count = e.symbols.size();
  std::vector<bool> reaches_heap(count, false);
  bool any_heap = false;
  for (std::size_t i = 0; i < count; ++i)
    if (e.symbols[i].st_shndx == SHN_UNDEF && is_heap_function(e.symbol_name(i)))
      reaches_heap[i] = any_heap = true;
  if (!any_heap)
    return;
  auto defined_function = [&](std::size_t i) {
    return ELF64_ST_TYPE(e.symbols[i].st_info) == STT_FUNC && e.symbols[i].st_shndx != SHN_UNDEF;
  };
  const Elf64_Shdr* callgraph = nullptr;
  for (const auto& s : e.sections)
    if (std::strcmp(e.section_name(s), ".nv.callgraph") == 0 && e.in_image(s))
      callgraph = &s;
  if (!callgraph) {
    // No call graph: every function of the module is taken to use the heap.
    for (std::size_t i = 0; i < count; ++i)
      if (defined_function(i))
        users.insert(e.symbol_name(i));
    return;
  }
  std::multimap<std::uint32_t, std::uint32_t> calls; // caller -> callee
  for (std::size_t at = 0; at + 8 <= callgraph->sh_size; at += 8) {
    std::uint32_t edge[2];
    read_at(e.base, e.size, callgraph->sh_offset + at, edge);
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
      users.insert(e.symbol_name(i));
}

// Adds the variables of one image that kernels can write: the data objects of its .nv.global
// (zero-initialised, managed) and .nv.global.init (initialised, `const` included: it lies in
// writable memory) sections, by name.
void scan_device_variables(const elf_image& e, std::map<std::string, std::size_t>& out) {
  for (std::size_t i = 0; i < e.symbols.size(); ++i) {
    const Elf64_Sym& sym = e.symbols[i];
    if (ELF64_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_size == 0 || sym.st_shndx == SHN_UNDEF ||
        sym.st_shndx >= e.sections.size())
      continue;
    const char* name = e.symbol_name(i);
    const char* section = e.section_name(e.sections[sym.st_shndx]);
    if (name[0] == '$' || name[0] == '\0') // the compiler's own data, such as printf formats
      continue;
    if (std::strcmp(section, ".nv.global") == 0 || std::strcmp(section, ".nv.global.init") == 0)
      out[name] = sym.st_size;
  }
}

// st_other flag of a __managed__ variable in a CUDA ELF (cuda-gdb's STO_CUDA_MANAGED).
constexpr unsigned char managed_symbol = 0x4;

bool scan_managed_variables(const elf_image& e) {
  for (const Elf64_Sym& sym : e.symbols)
    if (ELF64_ST_TYPE(sym.st_info) == STT_OBJECT && (sym.st_other & managed_symbol) != 0)
      return true;
  return false;
}

} // namespace

std::set<std::string> kernels_using_device_heap(const void* image, std::size_t size) {
  std::set<std::string> users;
  for_each_elf(image, size, [&](const elf_image& e) { scan_heap_users(e, users); });
  return users;
}

std::map<std::string, std::size_t> writable_device_variables(const void* image, std::size_t size) {
  std::map<std::string, std::size_t> variables;
  for_each_elf(image, size, [&](const elf_image& e) { scan_device_variables(e, variables); });
  return variables;
}

bool has_managed_variables(const void* image, std::size_t size) {
  bool managed = false;
  for_each_elf(image, size,
               [&](const elf_image& e) { managed = managed || scan_managed_variables(e); });
  return managed;
}

} // namespace roofkit
