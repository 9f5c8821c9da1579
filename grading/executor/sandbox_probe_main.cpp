// kconform_sandbox_probe: runs inside grading/executor/sandbox.hpp's spawn() and reports what it can
// reach, one finding a line on fd 3 (the sandbox's channel), for tests/grading/sandbox_cpu_test.cpp.
//
//   kconform_sandbox_probe <command> [<command> ...]
//
// Commands run left to right, each with a fixed number of arguments:
//   report                 "uid <real> <effective>", "gid <g>", "groups <n>", "pid <n>", "no_new_privs <0|1>",
//                          "rlimit core <n>", "rlimit fsize <n>", "cwd <path>", "env <NAME=value>" per
//                          entry, "fd <n> <target>" per open descriptor, "net <interface>" per interface;
//                          and "probe stdout" / "probe stderr" on fds 1 and 2
//   write <path>           creates or truncates it and writes: "write <path> ok" or "... denied <ERRNO>"
//   read <path>            opens and reads it: "read <path> ok" or "... denied <ERRNO>"
//   daemon <marker> <s>    double fork and setsid(); the daemon writes <marker> after <s> seconds (it
//                          must never get to: it dies with the sandbox); "daemon started"
//   signal <pid>           kill(pid, SIGTERM): "signal <pid> ok" or "... denied <ERRNO>"
//   ptrace <pid>           PTRACE_ATTACH (and detach): "ptrace <pid> ok" or "... denied <ERRNO>"
//   sleep <s>              "sleep <s> done" after <s> seconds
//   tree <s>               forks a child; both close fd 3 ("tree ready" first) and sleep <s> seconds
//   tag <token>            nothing: puts <token> in the command line, for finding the process in /proc
//   abort                  abort()
// Exit status 0, or 2 for a command line it does not understand.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

extern char** environ;

namespace {

constexpr int channel = 3;

// The errno names the tests compare against; a number for any other.
std::string errno_name(int error) {
  switch (error) {
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case ESRCH: return "ESRCH";
    case ENOENT: return "ENOENT";
    case EROFS: return "EROFS";
    case EXDEV: return "EXDEV";
    case EFBIG: return "EFBIG";
    default: return std::to_string(error);
  }
}

void say(const std::string& line) { dprintf(channel, "%s\n", line.c_str()); }

void say_outcome(const std::string& what, bool ok, int error) {
  say(what + (ok ? " ok" : " denied " + errno_name(error)));
}

void report_descriptors() {
  DIR* fds = opendir("/proc/self/fd");
  if (fds == nullptr) {
    say("fd listing denied " + errno_name(errno));
    return;
  }
  while (const dirent* entry = readdir(fds)) {
    if (entry->d_name[0] == '.' || std::atoi(entry->d_name) == dirfd(fds)) continue;
    char target[4096] = {};
    const std::string link = std::string("/proc/self/fd/") + entry->d_name;
    if (readlink(link.c_str(), target, sizeof target - 1) < 0) std::strcpy(target, "?");
    say(std::string("fd ") + entry->d_name + " " + target);
  }
  closedir(fds);
}

// /proc/net/dev lists the interfaces of the reader's network namespace, after two header lines.
void report_interfaces() {
  FILE* dev = std::fopen("/proc/net/dev", "r");
  if (dev == nullptr) {
    say("net listing denied " + errno_name(errno));
    return;
  }
  char line[512];
  for (int row = 0; std::fgets(line, sizeof line, dev) != nullptr; ++row) {
    if (row < 2) continue;
    std::string name(line, std::strcspn(line, ":"));
    name.erase(0, name.find_first_not_of(' '));
    say("net " + name);
  }
  std::fclose(dev);
}

void report() {
  say("uid " + std::to_string(getuid()) + " " + std::to_string(geteuid()));
  say("gid " + std::to_string(getgid()));
  say("groups " + std::to_string(getgroups(0, nullptr)));
  say("pid " + std::to_string(getpid()));
  say("no_new_privs " + std::to_string(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)));
  rlimit limit{};
  getrlimit(RLIMIT_CORE, &limit);
  say("rlimit core " + std::to_string(limit.rlim_cur));
  getrlimit(RLIMIT_FSIZE, &limit);
  say("rlimit fsize " + std::to_string(limit.rlim_cur));
  char cwd[4096] = {};
  say(std::string("cwd ") + (getcwd(cwd, sizeof cwd) != nullptr ? cwd : "?"));
  for (char** entry = environ; *entry != nullptr; ++entry) say(std::string("env ") + *entry);
  report_descriptors();
  report_interfaces();
  dprintf(1, "probe stdout\n");
  dprintf(2, "probe stderr\n");
}

void write_file(const std::string& path) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int error = errno;
  if (fd >= 0) {
    const bool written = write(fd, "probe\n", 6) == 6;
    close(fd);
    say_outcome("write " + path, written, errno);
    return;
  }
  say_outcome("write " + path, false, error);
}

void read_file(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  const int error = errno;
  if (fd >= 0) {
    char buffer[64];
    const bool read_it = read(fd, buffer, sizeof buffer) >= 0;
    close(fd);
    say_outcome("read " + path, read_it, errno);
    return;
  }
  say_outcome("read " + path, false, error);
}

// The classic escape: a grandchild in a session of its own, reparented away from the probe, holding
// none of its descriptors. Without a PID namespace it outlives the probe and writes the marker.
void start_daemon(const std::string& marker, int seconds) {
  const pid_t first = fork();
  if (first == 0) {
    setsid();
    if (fork() == 0) {
      for (int fd = 0; fd <= channel; ++fd) close(fd);
      sleep(static_cast<unsigned>(seconds));
      const int fd = open(marker.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0 && write(fd, "daemon\n", 7) == 7) close(fd);
      _exit(0);
    }
    _exit(0);
  }
  if (first > 0) waitpid(first, nullptr, 0);
  say(first > 0 ? "daemon started" : "daemon fork denied " + errno_name(errno));
}

void send_signal(const std::string& pid) {
  const bool sent = kill(static_cast<pid_t>(std::atol(pid.c_str())), SIGTERM) == 0;
  say_outcome("signal " + pid, sent, errno);
}

void attach(const std::string& pid) {
  const pid_t target = static_cast<pid_t>(std::atol(pid.c_str()));
  const bool attached = ptrace(PTRACE_ATTACH, target, nullptr, nullptr) == 0;
  const int error = errno;
  if (attached) {
    waitpid(target, nullptr, __WALL);
    ptrace(PTRACE_DETACH, target, nullptr, nullptr);
  }
  say_outcome("ptrace " + pid, attached, error);
}

void tree(int seconds) {
  const pid_t child = fork();
  if (child == 0) {
    close(channel);
    sleep(static_cast<unsigned>(seconds));
    _exit(0);
  }
  say("tree ready");
  close(channel);
  sleep(static_cast<unsigned>(seconds));
  if (child > 0) waitpid(child, nullptr, 0);
}

// How many arguments each command takes; -1 for an unknown command.
int arity(const std::string& command) {
  if (command == "report" || command == "abort") return 0;
  if (command == "daemon") return 2;
  if (command == "write" || command == "read" || command == "signal" || command == "ptrace" ||
      command == "sleep" || command == "tree" || command == "tag") {
    return 1;
  }
  return -1;
}

void run(const std::string& command, char** args) {
  if (command == "report") report();
  else if (command == "write") write_file(args[0]);
  else if (command == "read") read_file(args[0]);
  else if (command == "daemon") start_daemon(args[0], std::atoi(args[1]));
  else if (command == "signal") send_signal(args[0]);
  else if (command == "ptrace") attach(args[0]);
  else if (command == "tree") tree(std::atoi(args[0]));
  else if (command == "abort") std::abort();
  else if (command == "sleep") {
    sleep(static_cast<unsigned>(std::atoi(args[0])));
    say(std::string("sleep ") + args[0] + " done");
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc;) {
    const std::string command = argv[i];
    const int n = arity(command);
    if (n < 0 || i + n >= argc) {  // a command's arguments are argv[i + 1 .. i + n]
      std::fprintf(stderr, "kconform_sandbox_probe: bad command line at '%s'\n", argv[i]);
      return 2;
    }
    run(command, argv + i + 1);
    i += 1 + n;
  }
  return 0;
}
