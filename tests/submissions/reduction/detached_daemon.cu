// Example submission (issue 32, the executor's trust boundary): the correct K3 (correct.cu) that, on
// its first call in a process, leaves a daemon behind to outlive its case and slow its neighbours.
// It double-forks (the first child setsid()s and exits, so the daemon is nobody's child and in no
// process group the runner kills), closes every descriptor it inherited, names itself kc_daemon
// (prctl(PR_SET_NAME)) and ignores SIGTERM, SIGHUP and SIGINT. A forked child cannot use its
// parent's CUDA context, so it then execs a system program (/bin/sleep 120) with its own library
// preloaded (LD_PRELOAD, KC_DAEMON_STAGE=2, the CUDA runtime's folder first in LD_LIBRARY_PATH): the
// library's constructor takes the fresh process over before that program's main, creates a context
// of its own, and for 120 s, every 200 ms, appends a line to /tmp/kc_daemon_alive and launches a
// kernel that spins 150 ms on the GPU's global timer across 1024 blocks. Where the exec is refused,
// the forked child keeps the marker loop alone.
// Before issue 32 the daemon lived on after its case and its unit, spinning beside the students
// graded after it. Now its entry points run in the executor, PID 1 of its own PID namespace: when the
// executor ends, the kernel kills every process in the namespace, the daemon with them; and Landlock
// lets it write only its scratch folder, so /tmp/kc_daemon_alive is never made.
// tests/submissions/check_examples.sh removes /tmp/kc_daemon_alive before grading and, after every
// batch, fails on any live process named kc_daemon and on that file.
// Expected: passed, 100 (the launcher itself is the correct K3; the daemon gains nothing).
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

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

__global__ void spin(unsigned long long nanoseconds) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  while (now - start < nanoseconds);
}

namespace {

constexpr const char* stage_variable = "KC_DAEMON_STAGE";

double monotonic_seconds() {
  timespec t;
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + t.tv_nsec * 1e-9;
}

// The daemon's life: 120 s of markers (and, in a process of its own, spinning kernels).
[[noreturn]] void live(bool with_cuda) {
  ::prctl(PR_SET_NAME, "kc_daemon", 0, 0, 0);
  std::signal(SIGTERM, SIG_IGN);
  std::signal(SIGHUP, SIG_IGN);
  std::signal(SIGINT, SIG_IGN);
  const double end = monotonic_seconds() + 120.0;
  while (monotonic_seconds() < end) {
    const int fd = ::open("/tmp/kc_daemon_alive", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd >= 0) {
      const char line[] = "kc_daemon alive\n";
      (void)!::write(fd, line, sizeof line - 1);
      ::close(fd);
    }
    if (with_cuda) {
      spin<<<1024, 256>>>(150000000ULL);
      (void)cudaDeviceSynchronize();
      (void)cudaGetLastError();
    }
    const timespec pause = {0, 200000000L};
    ::nanosleep(&pause, nullptr);
  }
  ::_exit(0);
}

// Stage 2: this library preloaded into a fresh process (the exec below) takes it over here.
struct at_load {
  at_load() {
    const char* stage = std::getenv(stage_variable);
    if (stage == nullptr || std::strcmp(stage, "2") != 0) return;
    ::unsetenv(stage_variable);
    ::unsetenv("LD_PRELOAD");
    live(true);
  }
} const daemon_stage_two;

// Stage 1: on the first call, the double fork. Everything the children need is made before the
// fork (after it, in a child of a threaded process, only async-signal-safe calls).
void leave_a_daemon() {
  static bool left = false;
  if (left) return;
  left = true;
  Dl_info info;
  if (::dladdr(reinterpret_cast<const void*>(&leave_a_daemon), &info) == 0 || info.dli_fname == nullptr) return;
  // The CUDA runtime's folder, so the preloaded library finds it however this process did.
  std::string library_path;
  Dl_info runtime;
  if (::dladdr(reinterpret_cast<const void*>(&cudaGetLastError), &runtime) != 0 && runtime.dli_fname != nullptr) {
    library_path = runtime.dli_fname;
    library_path = library_path.substr(0, library_path.find_last_of('/'));
  }
  std::vector<std::string> environment;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    if (std::strncmp(*e, "LD_LIBRARY_PATH=", 16) == 0) library_path += std::string(":") + (*e + 16);
    else if (std::strncmp(*e, "LD_PRELOAD=", 11) != 0 && std::strncmp(*e, "KC_DAEMON_STAGE=", 16) != 0)
      environment.emplace_back(*e);
  }
  environment.push_back("LD_LIBRARY_PATH=" + library_path);
  environment.push_back(std::string("LD_PRELOAD=") + info.dli_fname);
  environment.push_back(std::string(stage_variable) + "=2");
  std::vector<char*> envp;
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  char name[] = "kc_daemon", seconds[] = "120";
  char* argv[] = {name, seconds, nullptr};

  const pid_t child = ::fork();
  if (child < 0) return;
  if (child == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);  // the first child ends; the grandchild is nobody's child
    for (int fd = 0; fd < 1024; ++fd) ::close(fd);
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::prctl(PR_SET_NAME, "kc_daemon", 0, 0, 0);
    ::execve("/bin/sleep", argv, envp.data());
    ::execve("/usr/bin/sleep", argv, envp.data());
    live(false);  // no exec: a forked child cannot use CUDA; the markers alone
  }
  int status = 0;
  (void)::waitpid(child, &status, 0);
}

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
  leave_a_daemon();
  sequential_addressing<<<grid, block, block * sizeof(float), stream>>>(in, out, n);
  return nullptr;
}

size_t kc_reduction_scratch_floats(size_t, int) { return 0; }
const char* kc_reduction_full(float*, float*, size_t, int, float*, cudaStream_t) { return "a KC_REDUCE_PASS submission"; }
