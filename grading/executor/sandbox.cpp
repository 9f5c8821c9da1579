// The executor's sandbox (sandbox.hpp). The parent prepares everything (strings, the argv and envp
// arrays, /dev/null, the Landlock ruleset with its rules, the scratch folder) because the caller is
// multithreaded: the child of a fork has one thread and a copy of every lock as the other threads
// held it, so between clone and execve it makes only raw system calls and async-signal-safe ones
// (write, dup2, fcntl, sigaction, execve), never malloc or a glibc function that takes a lock; it is
// started by a raw clone, so no atfork handler runs either. Credentials change through syscall(),
// not setresuid(): glibc's wrapper in a process it believes multithreaded signals every other
// thread to change theirs, and those threads do not exist in the child.
//
// The Landlock ruleset is built in the parent too (rules are added from paths opened there); the
// child only restricts itself with it, so no path is opened between clone and execve.
//
// The child tells the parent what took effect through a close-on-exec pipe: one record of bit flags
// and errnos just before execve (so the parent knows the layers), then, only if execve or a step
// before it failed, a record of the failure. End of file after the first record means execve worked.
#include "grading/executor/sandbox.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

// Debian 12's <linux/landlock.h> stops at ABI 2; the rights and scopes of later ABIs by value.
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#endif
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

namespace kc::grading::sandbox {
namespace {

constexpr uid_t nobody = 65534;
constexpr rlim_t largest_file = rlim_t{1} << 30;

// ---- Landlock (built in the parent; the child only calls landlock_restrict_self) ----

// struct landlock_ruleset_attr as of ABI 6; older kernels are given the prefix they know.
struct ruleset_attr {
  std::uint64_t handled_access_fs = 0;
  std::uint64_t handled_access_net = 0;
  std::uint64_t scoped = 0;
};

constexpr std::uint64_t read_rights =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr std::uint64_t device_rights =
    LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE;
// /proc is written as well as read: the CUDA driver writes there while it opens the device (without
// the write right cudaErrorOperatingSystem; kconform_sandbox_run --check-cuda on the H100 box: only
// "writable /proc" of /dev/shm, /tmp, /dev, /proc, /sys let it open). What a process can write under
// /proc is its own files, the uid drop keeps it from the root-owned rest, and the PID namespace's
// own /proc holds no other process.
constexpr std::uint64_t proc_rights = read_rights | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE;
// The only rights a rule on a file (not a folder) may carry; any other gives EINVAL.
constexpr std::uint64_t file_rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
                                      LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |
                                      LANDLOCK_ACCESS_FS_IOCTL_DEV;

// Every filesystem right the ABI knows, less IOCTL_DEV (ABI 5): the GPU driver's work is ioctls on
// /dev/nvidia*, and a handled right would have to be granted per device file anyway.
std::uint64_t handled_rights(int abi) {
  std::uint64_t rights = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;  // ABI 1: EXECUTE .. MAKE_SYM
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
  return rights;
}

// The system folders a dynamically linked program (and the CUDA driver) reads from. /dev itself is
// only listable: its device files are granted one by one, so /dev/shm and the disks are not readable.
const char* const system_folders[] = {"/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin",
                                      "/etc", "/opt", "/proc", "/sys",  "/run"};
// Not /dev/tty: with the grader's terminal open a submission could type into its shell (TIOCSTI,
// where the kernel still allows it); the child also gives up its controlling terminal (run_child).
const char* const standard_devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};

struct ruleset {
  int abi = 0;
  int fd = -1;
  bool scoped = false;
  std::string error;  // why there is none: "landlock: Operation not supported"
};

std::string errno_text(int error) { return std::strerror(error); }

// Adds `rights` beneath `path` (masked to what a file may carry when it is not a folder). A path that
// does not exist or cannot be opened is skipped: the system folders differ between distributions.
// Returns the errno of a refused rule, 0 otherwise.
int allow(const ruleset& rules, const std::string& path, std::uint64_t rights) {
  const int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return 0;
  struct stat status {};
  if (fstat(fd, &status) == 0 && !S_ISDIR(status.st_mode)) rights &= file_rights;
  rights &= handled_rights(rules.abi);
  int error = 0;
  if (rights != 0) {
    landlock_path_beneath_attr beneath{};
    beneath.allowed_access = rights;
    beneath.parent_fd = fd;
    if (syscall(SYS_landlock_add_rule, rules.fd, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0) != 0) error = errno;
  }
  close(fd);
  return error;
}

// /dev/nvidiactl, /dev/nvidia0.., /dev/nvidia-uvm(-tools), /dev/nvidia-modeset, /dev/nvidia-caps/.
std::vector<std::string> nvidia_devices() {
  std::vector<std::string> paths;
  DIR* dev = opendir("/dev");
  if (dev == nullptr) return paths;
  while (const dirent* entry = readdir(dev)) {
    if (std::strncmp(entry->d_name, "nvidia", 6) == 0) paths.push_back(std::string("/dev/") + entry->d_name);
  }
  closedir(dev);
  return paths;
}

// The rule list of sandbox.hpp. Fails (the layer goes missing) only when the kernel refuses a rule,
// not when a path is absent.
ruleset build_ruleset(const spec& s) {
  ruleset rules;
  rules.abi = static_cast<int>(syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION));
  if (rules.abi < 1) {
    rules.error = "landlock: " + errno_text(errno);
    return rules;
  }
  ruleset_attr attr;
  attr.handled_access_fs = handled_rights(rules.abi);
  std::size_t attr_size = sizeof attr.handled_access_fs;
  if (rules.abi >= 4) attr_size += sizeof attr.handled_access_net;
  if (rules.abi >= 6) {
    attr.scoped = LANDLOCK_SCOPE_SIGNAL | LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
    attr_size += sizeof attr.scoped;
    rules.scoped = true;
  }
  rules.fd = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0));
  if (rules.fd < 0) {
    rules.error = "landlock: create_ruleset: " + errno_text(errno);
    return rules;
  }
  struct grant {
    std::string path;
    std::uint64_t rights;
  };
  std::vector<grant> grants;
  for (const char* folder : system_folders) grants.push_back({folder, read_rights});
  grants.push_back({"/proc", proc_rights});
  grants.push_back({"/dev", LANDLOCK_ACCESS_FS_READ_DIR});
  for (const char* device : standard_devices) grants.push_back({device, device_rights});
  for (const std::string& device : nvidia_devices()) grants.push_back({device, device_rights | LANDLOCK_ACCESS_FS_READ_DIR});
  for (const std::string& path : s.readable) grants.push_back({path, read_rights});
  for (const std::string& path : s.writable) grants.push_back({path, handled_rights(rules.abi)});
  grants.push_back({s.program, read_rights});
  grants.push_back({s.scratch, handled_rights(rules.abi)});
  for (const grant& g : grants) {
    if (const int error = allow(rules, g.path, g.rights); error != 0) {
      rules.error = "landlock: add_rule " + g.path + ": " + errno_text(error);
      close(rules.fd);
      rules.fd = -1;
      return rules;
    }
  }
  return rules;
}

// ---- What the child reports ----

// The layers the child applies itself (the namespaces are the parent's clone flags).
enum child_layer {
  layer_rlimits, layer_uid, layer_no_new_privs, layer_landlock, layer_parent_death, layer_own_proc, child_layer_count
};

// Where a child that could not reach its program stopped.
enum failed_step : std::int32_t { step_none, step_descriptors, step_chdir, step_execve };

enum record_kind : std::uint32_t { record_layers = 0x4b434c31, record_failure = 0x4b434631 };

struct record {
  std::uint32_t kind = record_layers;
  std::uint32_t applied = 0;                      // 1 << child_layer for each layer in force
  std::int32_t errors[child_layer_count] = {};    // the errno of each layer that failed
  std::int32_t step = step_none;                  // record_failure: the step that failed
  std::int32_t step_errno = 0;
};
static_assert(sizeof(record) <= PIPE_BUF, "one atomic pipe write");

// Everything the child reads: prepared by the parent, so the child allocates nothing.
struct child_plan {
  const char* program = nullptr;
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  const char* scratch = nullptr;
  int report_fd = -1;
  int channel_fd = -1;
  int output_fd = -1;
  int null_fd = -1;
  int ruleset_fd = -1;
  int fd_limit = 1024;  // where the close loop stops when close_range() is missing
  bool isolate = true;
  bool drop_uid = false;
  bool want_pid_namespace = true;
  bool want_network_namespace = true;
  bool no_new_privs = true;
  bool file_size_limit = true;
  bool in_pid_namespace = false;
  pid_t parent_pid = -1;
};

// ---- The child: raw system calls and async-signal-safe ones only ----

void write_record(int fd, const record& r) {
  ssize_t written;
  do {
    written = write(fd, &r, sizeof r);
  } while (written < 0 && errno == EINTR);
}

[[noreturn]] void fail(int report_fd, failed_step step, int error) {
  record r;
  r.kind = record_failure;
  r.step = step;
  r.step_errno = error;
  write_record(report_fd, r);
  _exit(127);
}

int set_limit(int resource, rlim_t value) {
  const rlimit limit{value, value};
  return syscall(SYS_prlimit64, 0, resource, &limit, nullptr) == 0 ? 0 : errno;
}

int drop_to_nobody() {
  if (syscall(SYS_setgroups, 0, nullptr) != 0) return errno;
  if (syscall(SYS_setresgid, nobody, nobody, nobody) != 0) return errno;
  if (syscall(SYS_setresuid, nobody, nobody, nobody) != 0) return errno;
  return 0;
}

void note(record& r, child_layer layer, int error) {
  if (error == 0) r.applied |= 1U << layer;
  else r.errors[layer] = error;
}

// The layers in sandbox.hpp's order of effect: limits and credentials first (a credential change
// clears the parent-death signal, and Landlock needs no_new_privs once the uid is not root's).
// In a PID namespace of its own the child sees its own /proc: a private mount namespace and a fresh
// proc mount over /proc. Without it getpid() is 1 and /proc/1 the host's init, and the CUDA driver
// refuses to open the device (cudaErrorOperatingSystem, seen on the H100 box: kconform_sandbox_run
// --check-cuda). It also hides the judge's and other students' processes. The new /proc is granted to
// the Landlock ruleset here: the parent's rule names the host's proc mount, not this one.
int mount_own_proc(const child_plan& p) {
  if (syscall(SYS_mount, "none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return errno;
  if (syscall(SYS_mount, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) return errno;
  if (p.ruleset_fd < 0) return 0;
  const int proc = static_cast<int>(syscall(SYS_openat, AT_FDCWD, "/proc", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (proc < 0) return errno;
  landlock_path_beneath_attr beneath{};
  beneath.allowed_access = proc_rights;
  beneath.parent_fd = proc;
  const long added = syscall(SYS_landlock_add_rule, p.ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
  const int error = added == 0 ? 0 : errno;
  close(proc);
  return error;
}

void apply_layers(const child_plan& p, record& r) {
  if (p.in_pid_namespace) note(r, layer_own_proc, mount_own_proc(p));
  int limits = set_limit(RLIMIT_CORE, 0);
  if (limits == 0 && p.file_size_limit) limits = set_limit(RLIMIT_FSIZE, largest_file);
  note(r, layer_rlimits, limits);
  if (p.drop_uid) note(r, layer_uid, drop_to_nobody());
  if (p.no_new_privs) note(r, layer_no_new_privs, syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : errno);
  if (p.ruleset_fd >= 0) {
    note(r, layer_landlock, syscall(SYS_landlock_restrict_self, p.ruleset_fd, 0) == 0 ? 0 : errno);
  }
  note(r, layer_parent_death, syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == 0 ? 0 : errno);
  // The parent may have gone before the signal was armed. In a PID namespace getppid() is 0 (the
  // parent is outside it): there the report write below fails with EPIPE instead.
  if (!p.in_pid_namespace && getppid() != p.parent_pid) _exit(127);
}

// Handlers the caller installed are reset by execve, but ignored signals stay ignored and the mask
// is inherited: a judge that ignores SIGPIPE or blocks SIGTERM would pass that on.
void reset_signals() {
  struct sigaction fresh {};
  fresh.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &fresh, nullptr);  // glibc's own two refuse: fine
  }
}

// Moves a descriptor above 3 so that placing 0..3 cannot overwrite it first.
int lift(int fd, int report_fd) {
  const int lifted = fcntl(fd, F_DUPFD_CLOEXEC, 4);
  if (lifted < 0) fail(report_fd, step_descriptors, errno);
  return lifted;
}

void close_from(unsigned first, unsigned last, int fd_limit) {
  if (first > last) return;
  if (syscall(SYS_close_range, first, last, 0) == 0) return;
  for (unsigned fd = first; fd <= last && fd < static_cast<unsigned>(fd_limit); ++fd) close(static_cast<int>(fd));
}

// 0 = /dev/null, 1 and 2 = output_fd (or the caller's), 3 = channel, nothing else but the report pipe
// (close-on-exec). Returns the report pipe's new number.
int place_descriptors(const child_plan& p) {
  int report = fcntl(p.report_fd, F_DUPFD_CLOEXEC, 4);
  if (report < 0) fail(p.report_fd, step_descriptors, errno);
  const int channel = lift(p.channel_fd, report);
  const int null = lift(p.null_fd, report);
  const int output = p.output_fd >= 0 ? lift(p.output_fd, report) : -1;
  if (dup2(null, 0) < 0 || dup2(channel, 3) < 0) fail(report, step_descriptors, errno);
  if (output >= 0) {
    if (dup2(output, 1) < 0 || dup2(output, 2) < 0) fail(report, step_descriptors, errno);
  } else {
    fcntl(1, F_SETFD, 0);  // the caller's own: make sure they survive execve (EBADF if closed: fine)
    fcntl(2, F_SETFD, 0);
  }
  close_from(4, static_cast<unsigned>(report) - 1, p.fd_limit);
  close_from(static_cast<unsigned>(report) + 1, ~0U, p.fd_limit);
  return report;
}

// Gives up the controlling terminal (the grader's shell, when grade.sh runs in one), so nothing in the
// sandbox can reach it: TIOCNOTTY on /dev/tty, before Landlock closes /dev/tty. A process that is not
// a session leader just loses its terminal; no terminal, nothing to do.
void leave_the_terminal() {
  const int tty = static_cast<int>(syscall(SYS_openat, AT_FDCWD, "/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (tty < 0) return;
  (void)syscall(SYS_ioctl, tty, TIOCNOTTY, 0);
  close(tty);
}

[[noreturn]] void run_child(const child_plan& p) {
  reset_signals();
  if (p.isolate) leave_the_terminal();
  record r;
  if (p.isolate) apply_layers(p, r);
  const int report = place_descriptors(p);
  if (chdir(p.scratch) != 0) fail(report, step_chdir, errno);
  // EPIPE: the parent is gone (SIGPIPE is blocked until the mask is cleared below).
  if (write(report, &r, sizeof r) != static_cast<ssize_t>(sizeof r)) _exit(127);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  execve(p.program, p.argv, p.envp);
  fail(report, step_execve, errno);
}

// ---- The parent ----

// A fork-like clone (no new stack: the child runs on a copy of this one), with namespace flags.
pid_t clone_child(unsigned long flags) {
  return static_cast<pid_t>(syscall(SYS_clone, flags | SIGCHLD, 0L, 0L, 0L, 0L));
}

std::vector<char*> c_array(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (const std::string& s : strings) pointers.push_back(const_cast<char*>(s.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

[[noreturn]] void refuse(const spec& s, const std::string& why) {
  throw std::runtime_error("kc::grading::sandbox: cannot start " + s.program + ": " + why);
}

// Created if missing (mode 0700; its parent must exist). Sandboxed as root, it is given to nobody,
// the only uid that will write in it. A symbolic link is refused: the folder is what the rule grants.
void prepare_scratch(const spec& s, bool give_to_nobody) {
  if (s.scratch.empty()) refuse(s, "spec::scratch is empty");
  if (mkdir(s.scratch.c_str(), 0700) != 0 && errno != EEXIST) refuse(s, "mkdir " + s.scratch + ": " + errno_text(errno));
  const int fd = open(s.scratch.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) refuse(s, "scratch " + s.scratch + ": " + errno_text(errno));
  if (give_to_nobody) {
    if (fchown(fd, nobody, nobody) != 0 || fchmod(fd, 0700) != 0) {
      const int error = errno;
      close(fd);
      refuse(s, "chown/chmod " + s.scratch + ": " + errno_text(error));
    }
  }
  close(fd);
}

int descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > 65536) return 65536;
  return static_cast<int>(limit.rlim_cur);
}

struct clone_result {
  pid_t pid = -1;
  int error = 0;  // the last clone's errno when pid < 0
  bool pid_namespace = false;
  bool network_namespace = false;
  std::vector<std::string> missing;
};

// CLONE_NEWPID | CLONE_NEWNET, else CLONE_NEWPID, else a plain fork: containers without
// CAP_SYS_ADMIN refuse the namespaces. No CLONE_NEWIPC (CUDA may need the host's IPC namespace), no
// mount namespace, no setsid (the runner kills process groups). The child never returns from here.
clone_result start_child(child_plan plan) {
  clone_result result;
  if (!plan.isolate) {
    result.pid = clone_child(0);
    if (result.pid == 0) run_child(plan);
    result.error = errno;
    return result;
  }
  plan.in_pid_namespace = true;
  if (plan.want_pid_namespace && plan.want_network_namespace) {
    result.pid = clone_child(CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET);
    if (result.pid == 0) run_child(plan);
    if (result.pid > 0) {
      result.pid_namespace = result.network_namespace = true;
      return result;
    }
    result.missing.push_back("network_namespace: clone: " + errno_text(errno));
  } else if (!plan.want_network_namespace) {
    result.missing.push_back("network_namespace: not asked for");
  } else {  // a network namespace alone
    plan.in_pid_namespace = false;
    result.pid = clone_child(CLONE_NEWNET);
    if (result.pid == 0) run_child(plan);
    if (result.pid > 0) {
      result.network_namespace = true;
      result.missing.push_back("pid_namespace: not asked for");
      return result;
    }
    result.missing.push_back("network_namespace: clone: " + errno_text(errno));
    plan.in_pid_namespace = true;
  }
  if (plan.want_pid_namespace) {
    result.pid = clone_child(CLONE_NEWPID | CLONE_NEWNS);
    if (result.pid == 0) run_child(plan);
    if (result.pid > 0) {
      result.pid_namespace = true;
      return result;
    }
    result.missing.insert(result.missing.begin(), "pid_namespace: clone: " + errno_text(errno));
  } else {
    result.missing.insert(result.missing.begin(), "pid_namespace: not asked for");
  }
  result.missing.push_back("process_group_kill: no PID namespace: the caller must kill the process group to end "
                           "what the program started (a setsid() daemon escapes it)");
  plan.in_pid_namespace = false;
  result.pid = clone_child(0);
  if (result.pid == 0) run_child(plan);
  result.error = errno;
  return result;
}

enum class read_outcome { end_of_file, whole, torn };

read_outcome read_record(int fd, record& r) {
  auto* bytes = reinterpret_cast<char*>(&r);
  std::size_t got = 0;
  while (got < sizeof r) {
    const ssize_t n = read(fd, bytes + got, sizeof r - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got == 0) return read_outcome::end_of_file;
  return got == sizeof r ? read_outcome::whole : read_outcome::torn;
}

void reap(pid_t pid) {
  while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
}

std::string step_text(const spec& s, const record& failure) {
  const std::string error = errno_text(failure.step_errno);
  switch (failure.step) {
    case step_descriptors: return "placing descriptors 0-3: " + error;
    case step_chdir:
      return "chdir " + s.scratch + ": " + error + " (every folder above it must be searchable by the sandbox's uid)";
    case step_execve: return "execve: " + error;
    default: return "unknown step: " + error;
  }
}

// The layers the child reported, in sandbox.hpp's order, into c.
void name_layers(const record& r, const ruleset& rules, bool drop_uid, bool started_in_pid_namespace, child& c) {
  const auto applied = [&](child_layer layer) { return (r.applied & (1U << layer)) != 0; };
  const auto failed = [&](child_layer layer, const std::string& name) {
    c.missing.push_back(name + ": " + errno_text(r.errors[layer]));
  };
  if (!drop_uid) c.missing.push_back("uid: not root, runs as the caller's uid");
  else if (applied(layer_uid)) c.layers.push_back("uid " + std::to_string(nobody));
  else failed(layer_uid, "uid");
  if (applied(layer_no_new_privs)) c.layers.push_back("no_new_privs");
  else failed(layer_no_new_privs, "no_new_privs");
  if (rules.fd < 0) c.missing.push_back(rules.error.empty() ? "landlock: no ruleset descriptor" : rules.error);
  else if (applied(layer_landlock)) c.layers.push_back("landlock abi " + std::to_string(rules.abi) + (rules.scoped ? " scoped" : ""));
  else failed(layer_landlock, "landlock: restrict_self");
  if (applied(layer_parent_death)) c.layers.push_back("parent_death_signal");
  else failed(layer_parent_death, "parent_death_signal");
  if (started_in_pid_namespace) {
    if (applied(layer_own_proc)) c.layers.push_back("own_proc");
    else failed(layer_own_proc, "own_proc");
  }
  if (applied(layer_rlimits)) c.layers.push_back("rlimits");
  else failed(layer_rlimits, "rlimits");
}

// A descriptor of the parent's that the child uses or closes, held at 4 or above: a caller whose 0, 1
// or 2 is closed would otherwise see pipe2() hand out that number, and the child would pass the pipe
// on as its stdout.
int above_standard(int fd) {
  if (fd < 0 || fd > 3) return fd;
  const int lifted = fcntl(fd, F_DUPFD_CLOEXEC, 4);
  close(fd);
  return lifted;
}

struct descriptor {
  int fd = -1;
  descriptor() = default;
  explicit descriptor(int value) : fd(above_standard(value)) {}
  descriptor(const descriptor&) = delete;
  descriptor& operator=(const descriptor&) = delete;
  ~descriptor() { reset(); }
  void reset() {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

// Blocks every signal for the duration of the clone, so that none of the caller's handlers runs in
// the child before it resets them; the caller's mask comes back when this ends.
class signals_blocked {
 public:
  signals_blocked() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved_);
  }
  ~signals_blocked() { pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }
  signals_blocked(const signals_blocked&) = delete;
  signals_blocked& operator=(const signals_blocked&) = delete;

 private:
  sigset_t saved_{};
};

}  // namespace

child spawn(const spec& s) {
  if (s.program.empty() || s.program.front() != '/') refuse(s, "spec::program must be an absolute path");
  if (s.channel_fd < 0) refuse(s, "spec::channel_fd must be a descriptor (>= 0)");
  const bool drop_uid = s.isolate && s.change_uid && geteuid() == 0;
  prepare_scratch(s, drop_uid);

  std::vector<std::string> argv_strings{s.program};
  argv_strings.insert(argv_strings.end(), s.args.begin(), s.args.end());
  const std::vector<char*> argv = c_array(argv_strings);
  const std::vector<char*> envp = c_array(s.environment);

  descriptor null(open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (null.fd < 0) refuse(s, "open /dev/null: " + errno_text(errno));
  int report_pipe[2];
  if (pipe2(report_pipe, O_CLOEXEC) != 0) refuse(s, "pipe2: " + errno_text(errno));
  descriptor report_read(report_pipe[0]);
  descriptor report_write(report_pipe[1]);
  if (report_read.fd < 0 || report_write.fd < 0) refuse(s, "the report pipe: " + errno_text(errno));
  ruleset rules;
  if (s.isolate && s.landlock) rules = build_ruleset(s);
  descriptor ruleset_fd(rules.fd);
  rules.fd = ruleset_fd.fd;

  child_plan plan;
  plan.program = s.program.c_str();
  plan.argv = argv.data();
  plan.envp = envp.data();
  plan.scratch = s.scratch.c_str();
  plan.report_fd = report_write.fd;
  plan.channel_fd = s.channel_fd;
  plan.output_fd = s.output_fd;
  plan.null_fd = null.fd;
  plan.ruleset_fd = rules.fd;
  plan.fd_limit = descriptor_limit();
  plan.isolate = s.isolate;
  plan.drop_uid = drop_uid;
  plan.want_pid_namespace = s.pid_namespace;
  plan.want_network_namespace = s.network_namespace;
  plan.no_new_privs = s.no_new_privs;
  plan.file_size_limit = s.file_size_limit;
  plan.parent_pid = getpid();

  clone_result started;
  {
    const signals_blocked blocked;
    started = start_child(plan);
  }
  if (started.pid < 0) refuse(s, "clone: " + errno_text(started.error));
  report_write.reset();  // the child's copy is the only writer left: end of file at its execve
  null.reset();
  ruleset_fd.reset();

  record layers;
  const read_outcome first = read_record(report_read.fd, layers);
  if (first != read_outcome::whole) {
    reap(started.pid);
    refuse(s, "the child ended before it reported");
  }
  if (layers.kind == record_failure) {
    reap(started.pid);
    refuse(s, step_text(s, layers));
  }
  record failure;
  if (read_record(report_read.fd, failure) != read_outcome::end_of_file) {
    reap(started.pid);
    refuse(s, failure.kind == record_failure ? step_text(s, failure) : "a torn report from the child");
  }

  child c;
  c.pid = started.pid;
  if (!s.isolate) return c;
  if (started.pid_namespace) c.layers.push_back("pid_namespace");
  if (started.network_namespace) c.layers.push_back("network_namespace");
  c.missing = started.missing;
  name_layers(layers, rules, drop_uid, started.pid_namespace, c);
  return c;
}

std::string describe(const child& c) {
  const auto join = [](const std::vector<std::string>& items, const char* separator) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : separator) + item;
    return text.empty() ? std::string("none") : text;
  };
  return join(c.layers, ", ") + " (missing: " + join(c.missing, "; ") + ")";
}

}  // namespace kc::grading::sandbox
