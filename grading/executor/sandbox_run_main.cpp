// kconform_sandbox_run: runs a program in the executor's sandbox (sandbox.hpp) from a script, and
// tells which of the sandbox's layers this machine's CUDA can run under.
//
//   kconform_sandbox_run --scratch DIR [--readable PATH]... [--writable PATH]... [--no-LAYER]... -- PROGRAM [ARGS]
//       scripts/grade.sh runs the submission probe this way: the submission's static constructors run
//       at load, so its first code runs with no more reach than its executor's. The environment is
//       PATH, LANG, HOME = TMPDIR = DIR and CUDA_VISIBLE_DEVICES; fd 3 is /dev/null. Exits with the
//       program's status (128 + signal for a signal); the layers in force go to stderr with --verbose.
//   kconform_sandbox_run --check-cuda EXECUTOR [--no-LAYER]...
//       starts EXECUTOR --echo (kconform_executor) under the whole sandbox, then with each layer off in
//       turn, and prints whether the CUDA device opened in each: what to run on a new grading machine
//       (a Gradescope container, a CI runner) before trusting its layers (docs/grading.md). With
//       switches, that one configuration only.
// LAYER: pid-namespace, network-namespace, uid, landlock, no-new-privs, file-size-limit, isolation (all).
#include "grading/executor/sandbox.hpp"
#include "grading/executor/wire.hpp"

#include <cuda_runtime_api.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

using kc::grading::sandbox::spec;

std::vector<std::string> minimal_environment(const std::string& scratch) {
  std::vector<std::string> env = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=" + scratch, "TMPDIR=" + scratch};
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER"})
    if (const char* value = std::getenv(name); value != nullptr) env.push_back(std::string(name) + "=" + value);
  return env;
}

int wait_status(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

bool layer_switch(const std::string& a, spec& s) {
  if (a == "--no-pid-namespace") s.pid_namespace = false;
  else if (a == "--no-network-namespace") s.network_namespace = false;
  else if (a == "--no-uid") s.change_uid = false;
  else if (a == "--no-landlock") s.landlock = false;
  else if (a == "--no-no-new-privs") s.no_new_privs = false;
  else if (a == "--no-file-size-limit") s.file_size_limit = false;
  else if (a == "--no-isolation") s.isolate = false;
  else return false;
  return true;
}

int run(int argc, char** argv) {
  spec s;
  bool verbose = false;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") break;
    if (a == "--scratch" && i + 1 < argc) s.scratch = argv[++i];
    else if (a == "--readable" && i + 1 < argc) s.readable.push_back(argv[++i]);
    else if (a == "--writable" && i + 1 < argc) s.writable.push_back(argv[++i]);
    else if (a == "--verbose") verbose = true;
    else if (!layer_switch(a, s)) {
      std::fprintf(stderr, "kconform_sandbox_run: unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (i + 1 >= argc || s.scratch.empty()) {
    std::fprintf(stderr, "usage: kconform_sandbox_run --scratch DIR [--readable PATH]... -- PROGRAM [ARGS]\n");
    return 2;
  }
  s.program = argv[i + 1];
  for (int j = i + 2; j < argc; ++j) s.args.push_back(argv[j]);
  s.environment = minimal_environment(s.scratch);
  s.channel_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  const kc::grading::sandbox::child child = kc::grading::sandbox::spawn(s);
  if (verbose) std::fprintf(stderr, "sandbox: %s\n", kc::grading::sandbox::describe(child).c_str());
  return wait_status(child.pid);
}

// One configuration: does kconform_executor --echo open the device under it?
void check_one(const char* label, spec s, const std::string& bus) {
  char scratch[] = "/tmp/kconform-sandbox-check-XXXXXX";
  if (mkdtemp(scratch) == nullptr) return;
  s.scratch = scratch;
  s.args = {"--echo", "--device", bus};
  s.environment = minimal_environment(scratch);
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) return;
  s.channel_fd = pair[1];
  std::string verdict;
  try {
    const kc::grading::sandbox::child child = kc::grading::sandbox::spawn(s);
    close(pair[1]);
    const auto message = kc::grading::wire::receive_message(pair[0]);
    const auto hello = message ? kc::grading::wire::decode_hello(message->data(), message->size()) : std::nullopt;
    if (!hello) verdict = "no greeting (the executor ended)";
    else verdict = hello->device_ok ? "device opened" : "FAILED: " + hello->device_problem;
    kill(child.pid, SIGKILL);
    (void)wait_status(child.pid);
    verdict += "  [" + kc::grading::sandbox::describe(child) + "]";
  } catch (const std::exception& e) {
    close(pair[1]);
    verdict = std::string("could not start: ") + e.what();
  }
  close(pair[0]);
  std::printf("%-28s %s\n", label, verdict.c_str());
  std::string remove = std::string("rm -rf ") + scratch;
  (void)std::system(remove.c_str());
}

int check_cuda(const char* executor, const std::vector<std::string>& switches) {
  char bus[64] = {};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, 0) != cudaSuccess) {
    std::printf("no CUDA device here\n");
    return 1;
  }
  spec all;
  all.program = executor;
  if (!switches.empty()) {  // one configuration only
    std::string label;
    for (const std::string& a : switches) {
      if (!layer_switch(a, all)) return 2;
      label += a + " ";
    }
    check_one(label.c_str(), all, bus);
    return 0;
  }
  check_one("every layer", all, bus);
  // Each layer alone (isolate on, every other switch off): which of them this machine's CUDA refuses.
  spec bare = all;
  bare.pid_namespace = bare.network_namespace = bare.change_uid = bare.landlock = bare.no_new_privs =
      bare.file_size_limit = false;
  check_one("no switchable layer", bare, bus);
  const std::pair<const char*, bool spec::*> layers[] = {
      {"pid namespace alone", &spec::pid_namespace}, {"network namespace alone", &spec::network_namespace},
      {"uid alone", &spec::change_uid},             {"landlock alone", &spec::landlock},
      {"no_new_privs alone", &spec::no_new_privs},  {"file size limit alone", &spec::file_size_limit}};
  for (const auto& [label, member] : layers) {
    spec s = bare;
    s.*member = true;
    check_one(label, s, bus);
  }
  // What Landlock must grant beyond the system folders' reading, when it alone is refused.
  spec landlock_only = bare;
  landlock_only.landlock = true;
  for (const char* path : {"/dev/shm", "/tmp", "/dev", "/proc", "/sys"}) {
    spec s = landlock_only;
    s.writable.push_back(path);
    check_one((std::string("landlock + writable ") + path).c_str(), s, bus);
  }
  spec read_all = landlock_only;
  read_all.readable.push_back("/");
  check_one("landlock + readable /", read_all, bus);
  spec none = all;
  none.isolate = false;
  check_one("no layer", none, bus);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc >= 3 && std::string(argv[1]) == "--check-cuda")
      return check_cuda(argv[2], std::vector<std::string>(argv + 3, argv + argc));
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kconform_sandbox_run: %s\n", e.what());
    return 126;
  }
}
