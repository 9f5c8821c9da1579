// Example submission (issue 32, the executor's trust boundary): a correct but slow pass -- the
// launcher runs the correct K3 (correct.cu) 5 times in a row on the same buffers (each run writes the
// same partial sums), so its honest time is about 5x the reference's -- that rewrites the process's
// clocks when its library loads. Every definition it can find of
//   cudaEventElapsedTime (and _v2), cuEventElapsedTime (and _v2)   -> "0.001 ms, success"
//   clock_gettime, __clock_gettime, __vdso_clock_gettime           -> time runs 16x slower
//   gettimeofday, __gettimeofday, __vdso_gettimeofday              -> the same
// gets its first 12 bytes overwritten with an x86-64 absolute jump to its own detour (movabs rax,
// imm64; jmp rax) after an mprotect(PROT_READ | PROT_WRITE | PROT_EXEC) of the pages. It finds them
// with dlsym (RTLD_DEFAULT, RTLD_NEXT, and dlopen(RTLD_NOLOAD) handles of libcudart, libcuda and
// libc), and by reading the symbol tables (.symtab and .dynsym) of every object dl_iterate_phdr lists:
// the files, the program itself (/proc/self/exe: a grading program that links the CUDA runtime
// statically has its own cudaEventElapsedTime there) and the vDSO in memory. A definition shorter than
// the jump is left alone (the bytes past it are another function's). Then every object's GOT slots
// for those names (PLT calls; the vDSO's gettimeofday, which some kernels refuse to make writable, is
// reached only through them) are pointed at the detours. The detours ask the kernel (syscall) for
// the real time, and no launch of its own goes through them, so its answers stay right.
// Before issue 32 the timing ran in the process it patched: both medians read 0.001 ms, ratio 1,
// full performance points (100). Now the judge times the call in its own process, with its own
// events around it: what the executor patches is the executor's; a refused mprotect is passed by.
// Expected: slow, 88-91. Every value group full (small 20, odd 25, large 15, configs 15, edge 5) and
// the sanitizer group (10): 90. Performance: ratio ~5, past 3: 0 of 10.
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>

#include "kconform_reduction_submission.h"

__global__ void sequential_addressing(const float* in, float* out, size_t n) {
  extern __shared__ float partial[];
  const unsigned tid = threadIdx.x;
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

namespace {

// ---- the detours ----
int elapsed_detour(float* ms, void*, void*) {  // cudaEventElapsedTime's and cuEventElapsedTime's shape
  if (ms != nullptr) *ms = 0.001f;
  return 0;  // cudaSuccess, CUDA_SUCCESS
}

constexpr long long slow_down = 16;
constexpr int tracked_clocks = 16;  // CLOCK_REALTIME ... CLOCK_TAI
long long clock_base_ns[tracked_clocks];
bool clock_based[tracked_clocks];

long long ns_of(const timespec& t) { return static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec; }

int clock_gettime_detour(clockid_t id, timespec* ts) {
  timespec real;
  if (::syscall(SYS_clock_gettime, id, &real) != 0) return -1;
  long long ns = ns_of(real);
  if (id >= 0 && id < tracked_clocks && clock_based[id]) ns = clock_base_ns[id] + (ns - clock_base_ns[id]) / slow_down;
  if (ts != nullptr) {
    ts->tv_sec = static_cast<time_t>(ns / 1000000000LL);
    ts->tv_nsec = static_cast<long>(ns % 1000000000LL);
  }
  return 0;
}

int gettimeofday_detour(timeval* tv, void*) {
  timespec t;
  if (clock_gettime_detour(CLOCK_REALTIME, &t) != 0) return -1;
  if (tv != nullptr) {
    tv->tv_sec = t.tv_sec;
    tv->tv_usec = t.tv_nsec / 1000;
  }
  return 0;
}

struct target {
  const char* name;
  void* detour;
};
const target targets[] = {
    {"cudaEventElapsedTime", reinterpret_cast<void*>(&elapsed_detour)},
    {"cudaEventElapsedTime_v2", reinterpret_cast<void*>(&elapsed_detour)},
    {"cuEventElapsedTime", reinterpret_cast<void*>(&elapsed_detour)},
    {"cuEventElapsedTime_v2", reinterpret_cast<void*>(&elapsed_detour)},
    {"clock_gettime", reinterpret_cast<void*>(&clock_gettime_detour)},
    {"__clock_gettime", reinterpret_cast<void*>(&clock_gettime_detour)},
    {"__vdso_clock_gettime", reinterpret_cast<void*>(&clock_gettime_detour)},
    {"gettimeofday", reinterpret_cast<void*>(&gettimeofday_detour)},
    {"__gettimeofday", reinterpret_cast<void*>(&gettimeofday_detour)},
    {"__vdso_gettimeofday", reinterpret_cast<void*>(&gettimeofday_detour)},
};
constexpr std::size_t jump_bytes = 12;

std::set<std::uintptr_t>& patched() {
  static std::set<std::uintptr_t>* p = new std::set<std::uintptr_t>;
  return *p;
}

// movabs rax, detour; jmp rax -- over the first 12 bytes of the function at `address`.
void patch(std::uintptr_t address, std::size_t size, void* detour) {
  if (address == 0 || size < jump_bytes || address == reinterpret_cast<std::uintptr_t>(detour)) return;
  if (!patched().insert(address).second) return;
  unsigned char jump[jump_bytes] = {0x48, 0xB8, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xE0};
  const std::uint64_t to = reinterpret_cast<std::uint64_t>(detour);
  std::memcpy(jump + 2, &to, sizeof to);
  const std::uintptr_t page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t first = address & ~(page - 1), end = (address + jump_bytes + page - 1) & ~(page - 1);
  if (::mprotect(reinterpret_cast<void*>(first), end - first, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
  std::memcpy(reinterpret_cast<void*>(address), jump, jump_bytes);
  ::mprotect(reinterpret_cast<void*>(first), end - first, PROT_READ | PROT_EXEC);
  __builtin___clear_cache(reinterpret_cast<char*>(address), reinterpret_cast<char*>(address + jump_bytes));
}

// A dlsym answer: its size from the symbol table entry behind it (dladdr1).
void patch_found(void* address, void* detour) {
  if (address == nullptr) return;
  Dl_info info;
  void* entry = nullptr;
  if (::dladdr1(address, &info, &entry, RTLD_DL_SYMENT) == 0 || entry == nullptr) return;
  const auto* symbol = static_cast<const ElfW(Sym)*>(entry);
  if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC) return;
  patch(reinterpret_cast<std::uintptr_t>(address), symbol->st_size, detour);
}

// The symbol tables of one ELF image (a mapped file, or the vDSO in memory), loaded at `bias`.
void patch_in_image(const unsigned char* image, std::size_t size, std::uintptr_t bias) {
  if (size < sizeof(ElfW(Ehdr)) || std::memcmp(image, ELFMAG, SELFMAG) != 0) return;
  const auto* header = reinterpret_cast<const ElfW(Ehdr)*>(image);
  if (header->e_shoff == 0 || header->e_shentsize != sizeof(ElfW(Shdr)) ||
      header->e_shoff + static_cast<std::size_t>(header->e_shnum) * sizeof(ElfW(Shdr)) > size)
    return;
  const auto* sections = reinterpret_cast<const ElfW(Shdr)*>(image + header->e_shoff);
  for (unsigned s = 0; s < header->e_shnum; ++s) {
    const ElfW(Shdr)& table = sections[s];
    if ((table.sh_type != SHT_SYMTAB && table.sh_type != SHT_DYNSYM) || table.sh_link >= header->e_shnum ||
        table.sh_entsize != sizeof(ElfW(Sym)) || table.sh_offset + table.sh_size > size)
      continue;
    const ElfW(Shdr)& strings = sections[table.sh_link];
    if (strings.sh_offset + strings.sh_size > size) continue;
    const auto* symbols = reinterpret_cast<const ElfW(Sym)*>(image + table.sh_offset);
    const char* names = reinterpret_cast<const char*>(image + strings.sh_offset);
    for (std::size_t i = 0; i < table.sh_size / sizeof(ElfW(Sym)); ++i) {
      const ElfW(Sym)& symbol = symbols[i];
      if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_shndx == SHN_UNDEF || symbol.st_name >= strings.sh_size)
        continue;
      for (const target& t : targets)
        if (std::strcmp(names + symbol.st_name, t.name) == 0) patch(bias + symbol.st_value, symbol.st_size, t.detour);
    }
  }
}

// The vDSO's mapping, whole (its section headers lie past its loaded segment): from /proc/self/maps.
std::size_t vdso_bytes(unsigned long start) {
  std::size_t bytes = 0;
  if (FILE* maps = std::fopen("/proc/self/maps", "re")) {
    char line[512];
    unsigned long from = 0, to = 0;
    while (std::fgets(line, sizeof line, maps) != nullptr)
      if (std::sscanf(line, "%lx-%lx", &from, &to) == 2 && from == start) bytes = to - from;
    std::fclose(maps);
  }
  return bytes;
}

int patch_in_object(dl_phdr_info* object, size_t, void*) {
  const unsigned long vdso = ::getauxval(AT_SYSINFO_EHDR);
  for (int p = 0; vdso != 0 && p < object->dlpi_phnum; ++p)
    if (object->dlpi_phdr[p].p_type == PT_LOAD && object->dlpi_addr + object->dlpi_phdr[p].p_vaddr == vdso) {
      patch_in_image(reinterpret_cast<const unsigned char*>(vdso), vdso_bytes(vdso), object->dlpi_addr);
      return 0;
    }
  const char* file = object->dlpi_name != nullptr && object->dlpi_name[0] != '\0' ? object->dlpi_name : "/proc/self/exe";
  const int fd = ::open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  struct stat st;
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    void* image = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (image != MAP_FAILED) {
      patch_in_image(static_cast<const unsigned char*>(image), static_cast<std::size_t>(st.st_size), object->dlpi_addr);
      ::munmap(image, static_cast<std::size_t>(st.st_size));
    }
  }
  ::close(fd);
  return 0;
}

// Every object's GOT slots for the same names (PLT calls, and addresses taken): pointed at the
// detours too, for a definition the jump cannot reach (a vDSO the kernel will not let be written).
// The slots stay writable afterwards: a lazily bound GOT is written again by the loader.
int patch_got_of(dl_phdr_info* object, size_t, void*) {
  const ElfW(Dyn)* dynamic = nullptr;
  for (int p = 0; p < object->dlpi_phnum; ++p)
    if (object->dlpi_phdr[p].p_type == PT_DYNAMIC)
      dynamic = reinterpret_cast<const ElfW(Dyn)*>(object->dlpi_addr + object->dlpi_phdr[p].p_vaddr);
  if (dynamic == nullptr) return 0;
  // The loader rewrites these entries to addresses in most objects; where it did not, they are offsets.
  const auto at = [object](ElfW(Addr) value) { return value < object->dlpi_addr ? object->dlpi_addr + value : value; };
  const ElfW(Sym)* symbols = nullptr;
  const char* names = nullptr;
  const ElfW(Rela)* relocations[2] = {nullptr, nullptr};
  std::size_t bytes[2] = {0, 0};
  for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_SYMTAB) symbols = reinterpret_cast<const ElfW(Sym)*>(at(d->d_un.d_ptr));
    if (d->d_tag == DT_STRTAB) names = reinterpret_cast<const char*>(at(d->d_un.d_ptr));
    if (d->d_tag == DT_JMPREL) relocations[0] = reinterpret_cast<const ElfW(Rela)*>(at(d->d_un.d_ptr));
    if (d->d_tag == DT_PLTRELSZ) bytes[0] = d->d_un.d_val;
    if (d->d_tag == DT_RELA) relocations[1] = reinterpret_cast<const ElfW(Rela)*>(at(d->d_un.d_ptr));
    if (d->d_tag == DT_RELASZ) bytes[1] = d->d_un.d_val;
  }
  if (symbols == nullptr || names == nullptr) return 0;
  const std::uintptr_t page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  for (int r = 0; r < 2; ++r)
    for (std::size_t i = 0; relocations[r] != nullptr && i < bytes[r] / sizeof(ElfW(Rela)); ++i) {
      const ElfW(Rela)& relocation = relocations[r][i];
      const auto type = ELF64_R_TYPE(relocation.r_info);
      if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) continue;
      const char* name = names + symbols[ELF64_R_SYM(relocation.r_info)].st_name;
      for (const target& t : targets) {
        if (std::strcmp(name, t.name) != 0) continue;
        const std::uintptr_t slot = object->dlpi_addr + relocation.r_offset;
        if (::mprotect(reinterpret_cast<void*>(slot & ~(page - 1)), page, PROT_READ | PROT_WRITE) == 0)
          *reinterpret_cast<void**>(slot) = t.detour;
      }
    }
  return 0;
}

void patch_the_clocks() {
  for (int id = 0; id < tracked_clocks; ++id) {
    timespec now;
    clock_based[id] = ::syscall(SYS_clock_gettime, id, &now) == 0;
    if (clock_based[id]) clock_base_ns[id] = ns_of(now);
  }
  for (const target& t : targets) {
    patch_found(::dlsym(RTLD_DEFAULT, t.name), t.detour);
    patch_found(::dlsym(RTLD_NEXT, t.name), t.detour);
  }
  for (const char* library : {"libcudart.so", "libcudart.so.13", "libcudart.so.12", "libcuda.so.1", "libc.so.6"})
    if (void* handle = ::dlopen(library, RTLD_LAZY | RTLD_NOLOAD)) {
      for (const target& t : targets) patch_found(::dlsym(handle, t.name), t.detour);
      ::dlclose(handle);
    }
  ::dl_iterate_phdr(patch_in_object, nullptr);
  ::dl_iterate_phdr(patch_got_of, nullptr);
}

struct at_load {
  at_load() { patch_the_clocks(); }
} const patched_at_load;

}  // namespace

kc_reduction_traits kc_reduction_submission_traits(void) {
  kc_reduction_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.kind = KC_REDUCE_PASS;
  t.min_block = 32;
  t.max_block = 1024;
  t.power_of_two_blocks = 1;
  t.block_multiple = 1;
  t.elements_per_thread = 1;
  return t;
}

const char* kc_reduction_pass(float* in, float* out, size_t n, int block, int grid, cudaStream_t stream) {
  for (int again = 0; again < 5; ++again)  // the slowness: the same pass, 5 times
    sequential_addressing<<<grid, block, block * sizeof(float), stream>>>(in, out, n);
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
