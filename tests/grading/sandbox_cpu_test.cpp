// The executor's sandbox (grading/executor/sandbox.hpp, issue 32) from both sides: the probe
// (grading/executor/sandbox_probe_main.cpp) runs inside it and says on fd 3 what it is and what it
// could reach; the test checks that from outside too (files that must not exist or change,
// processes that must not outlive it, a victim that must still be alive and untraced).
//
// A layer the machine refuses (no root, no Landlock, a container without CAP_SYS_ADMIN) skips the
// tests that need it, with the reason spawn() gave; CI's VM (root, Landlock) runs them all. Twins
// run the same probe without the sandbox (isolate = false) and must see the escape succeed, so a
// probe that cannot write, daemonise or signal would not pass for a sandbox that stops it.
#include "grading/executor/sandbox.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

namespace sandbox = kc::grading::sandbox;
using namespace std::chrono_literals;

constexpr uid_t nobody = 65534;

// The reason `layer` is not in force ("landlock: Function not implemented"), or nothing when it is.
std::optional<std::string> without(const sandbox::child& c, std::string_view layer) {
  for (const std::string& in_force : c.layers) {
    if (in_force.starts_with(layer)) return std::nullopt;
  }
  for (const std::string& reason : c.missing) {
    if (reason.starts_with(layer)) return reason;
  }
  return std::string(layer) + ": not reported by spawn() (" + sandbox::describe(c) + ")";
}

struct owned_fd {
  int fd = -1;
  explicit owned_fd(int value) : fd(value) {}
  owned_fd(const owned_fd&) = delete;
  owned_fd& operator=(const owned_fd&) = delete;
  ~owned_fd() { reset(); }
  void reset() {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

// Lines from fd until end of file, or until `limit` (then whatever came, and timed_out).
std::vector<std::string> read_lines(int fd, std::chrono::seconds limit, bool& timed_out) {
  std::string text;
  const auto deadline = std::chrono::steady_clock::now() + limit;
  timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd waiting{fd, POLLIN, 0};
    if (left.count() <= 0 || poll(&waiting, 1, static_cast<int>(left.count())) == 0) {
      timed_out = true;
      break;
    }
    char buffer[4096];
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += "  " + line + "\n";
  return text;
}

// The lines that start with `prefix`, without it.
std::vector<std::string> after(const std::vector<std::string>& lines, const std::string& prefix) {
  std::vector<std::string> found;
  for (const std::string& line : lines) {
    if (line.starts_with(prefix)) found.push_back(line.substr(prefix.size()));
  }
  return found;
}

bool said(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// Processes (not zombies: theirs is an empty command line) with an argument that `matches`.
std::vector<pid_t> pids_where(const std::function<bool(const std::string&)>& matches) {
  std::vector<pid_t> pids;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream file(entry.path() / "cmdline", std::ios::binary);
    std::string argument;
    while (std::getline(file, argument, '\0')) {
      if (matches(argument)) {
        pids.push_back(static_cast<pid_t>(std::stol(name)));
        break;
      }
    }
  }
  return pids;
}

int processes_with(const std::string& token) {
  return static_cast<int>(pids_where([&](const std::string& argument) { return argument == token; }).size());
}

// What a test leaves behind when it skips or fails half-way (a probe's child that no namespace
// ended): every process running the fixture's copy of the probe or naming one of its files.
void kill_processes_under(const std::string& folder) {
  const std::string prefix = folder + "/";
  for (const pid_t pid : pids_where([&](const std::string& argument) { return argument.starts_with(prefix); })) {
    kill(pid, SIGKILL);
  }
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(20ms);
  }
  return true;
}

std::string contents(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

void write_text(const std::string& path, const std::string& text, mode_t mode) {
  std::ofstream(path) << text;
  ASSERT_EQ(chmod(path.c_str(), mode), 0) << path;
}

// The TracerPid line of /proc/<pid>/status: 0 when nothing traces it.
int tracer_of(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("TracerPid:")) return std::atoi(line.c_str() + 10);
  }
  return -1;
}

// A process of the test's own (root, outside the sandbox) for the probe to signal and trace.
pid_t start_victim() {
  const pid_t victim = fork();
  if (victim == 0) {
    for (;;) pause();
  }
  return victim;
}

struct probe_run {
  sandbox::child child;
  std::vector<std::string> lines;  // what the probe said on fd 3
  int status = -1;                 // waitpid's
};

std::string exit_text(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("signal ") + strsignal(WTERMSIG(status));
  return "status " + std::to_string(status);
}

class Sandbox : public testing::Test {
 protected:
  // A folder of the test's own under /tmp, searchable by nobody (mkdtemp's is 0700), holding a copy
  // of the probe: the build folder's own path may not be searchable by nobody (a home folder).
  void SetUp() override {
    struct statvfs tmp {};
    ASSERT_EQ(statvfs("/tmp", &tmp), 0);
    ASSERT_EQ(tmp.f_flag & ST_NOEXEC, 0u) << "/tmp is mounted noexec: the probe's copy there could not run";
    char folder[] = "/tmp/kc_sandbox_XXXXXX";
    ASSERT_NE(mkdtemp(folder), nullptr) << std::strerror(errno);
    base_ = folder;
    ASSERT_EQ(chmod(base_.c_str(), 0755), 0);
    scratch_ = path("scratch");
    probe_ = path("probe");
    std::filesystem::copy_file(KC_SANDBOX_PROBE, probe_);
    ASSERT_EQ(chmod(probe_.c_str(), 0755), 0);
    quiet_ = open("/dev/null", O_WRONLY | O_CLOEXEC);
    ASSERT_GE(quiet_, 0);
  }

  void TearDown() override {
    if (quiet_ >= 0) close(quiet_);
    if (!base_.empty()) kill_processes_under(base_);
    std::error_code ignored;
    if (!base_.empty()) std::filesystem::remove_all(base_, ignored);
  }

  std::string path(const std::string& name) const { return base_ + "/" + name; }

  sandbox::spec probe_spec(std::vector<std::string> args) const {
    sandbox::spec s;
    s.program = probe_;
    s.args = std::move(args);
    s.environment = {"PATH=/usr/bin:/bin", "HOME=" + scratch_, "TMPDIR=" + scratch_};
    s.scratch = scratch_;
    s.output_fd = quiet_;  // report's "probe stdout" and "probe stderr" stay out of the test's log
    return s;
  }

  // Spawns the probe and reads its channel to the end (the probe, and everything it started that
  // kept fd 3, closed it); the caller waits for it.
  probe_run start(sandbox::spec s) {
    int channel[2];
    if (pipe2(channel, O_CLOEXEC) != 0) throw std::runtime_error("pipe2");
    owned_fd reading(channel[0]);
    owned_fd writing(channel[1]);
    s.channel_fd = writing.fd;
    probe_run run;
    run.child = sandbox::spawn(s);
    writing.reset();
    bool timed_out = false;
    run.lines = read_lines(reading.fd, 30s, timed_out);
    if (timed_out) {
      ADD_FAILURE() << "the probe kept its channel open for 30 s";
      kill(run.child.pid, SIGKILL);
    }
    return run;
  }

  probe_run run(sandbox::spec s) {
    probe_run run = start(std::move(s));
    waitpid(run.child.pid, &run.status, 0);
    return run;
  }

  std::string base_;
  std::string scratch_;
  std::string probe_;
  int quiet_ = -1;
};

TEST_F(Sandbox, RunsAsNobodyWithNoGroups) {
  const probe_run run = this->run(probe_spec({"report"}));
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  if (const auto why = without(run.child, "uid")) GTEST_SKIP() << *why;
  EXPECT_TRUE(said(run.lines, "uid 65534 65534")) << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "gid 65534")) << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "groups 0")) << joined(run.lines);
}

TEST_F(Sandbox, IsPidOneOfANamespaceOfItsOwn) {
  const probe_run run = this->run(probe_spec({"report"}));
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  if (const auto why = without(run.child, "pid_namespace")) GTEST_SKIP() << *why;
  EXPECT_TRUE(said(run.lines, "pid 1")) << joined(run.lines);
  EXPECT_NE(run.child.pid, 1);  // the caller sees its own number for it
}

TEST_F(Sandbox, HasNoNetworkButADownLoopback) {
  const probe_run run = this->run(probe_spec({"report"}));
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  if (const auto why = without(run.child, "network_namespace")) GTEST_SKIP() << *why;
  EXPECT_EQ(after(run.lines, "net "), std::vector<std::string>{"lo"}) << joined(run.lines);
}

TEST_F(Sandbox, SeesExactlyTheGivenEnvironment) {
  ASSERT_EQ(setenv("KC_SANDBOX_MUST_NOT_LEAK", "1", 1), 0);
  sandbox::spec s = probe_spec({"report"});
  s.environment.push_back("KC_SANDBOX_GIVEN=yes");
  const probe_run run = this->run(s);
  unsetenv("KC_SANDBOX_MUST_NOT_LEAK");
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  EXPECT_EQ(after(run.lines, "env "), s.environment) << joined(run.lines);
}

// The test holds a file and a pipe open without close-on-exec; the probe must see neither.
TEST_F(Sandbox, HasOnlyDescriptorsZeroToThreeAndStdinIsDevNull) {
  owned_fd stray_file(open(KC_SANDBOX_PROBE, O_RDONLY));
  int pipe_ends[2];
  ASSERT_EQ(pipe(pipe_ends), 0);
  owned_fd stray_read(pipe_ends[0]);
  owned_fd stray_write(pipe_ends[1]);
  ASSERT_GE(stray_file.fd, 0);
  const probe_run run = this->run(probe_spec({"report"}));
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  std::vector<std::string> numbers;
  for (const std::string& fd : after(run.lines, "fd ")) numbers.push_back(fd.substr(0, fd.find(' ')));
  std::sort(numbers.begin(), numbers.end());
  EXPECT_EQ(numbers, (std::vector<std::string>{"0", "1", "2", "3"})) << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "fd 0 /dev/null")) << joined(run.lines);
}

TEST_F(Sandbox, OutputFdIsStdoutAndStderr) {
  int output[2];
  ASSERT_EQ(pipe2(output, O_CLOEXEC), 0);
  owned_fd reading(output[0]);
  owned_fd writing(output[1]);
  sandbox::spec s = probe_spec({"report"});
  s.output_fd = writing.fd;
  const probe_run run = this->run(s);
  writing.reset();
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  bool timed_out = false;
  EXPECT_EQ(read_lines(reading.fd, 5s, timed_out), (std::vector<std::string>{"probe stdout", "probe stderr"}));
}

// Without output_fd it writes to the caller's own 1 and 2, even when the caller marked them
// close-on-exec (they are made the test's pipe for the time of the run).
TEST_F(Sandbox, InheritsTheCallersStdoutAndStderrWithoutOutputFd) {
  int output[2];
  ASSERT_EQ(pipe2(output, O_CLOEXEC), 0);
  owned_fd reading(output[0]);
  owned_fd writing(output[1]);
  owned_fd saved_stdout(fcntl(1, F_DUPFD_CLOEXEC, 4));
  owned_fd saved_stderr(fcntl(2, F_DUPFD_CLOEXEC, 4));
  std::fflush(stdout);
  dup2(writing.fd, 1);
  dup2(writing.fd, 2);
  fcntl(1, F_SETFD, FD_CLOEXEC);
  fcntl(2, F_SETFD, FD_CLOEXEC);
  sandbox::spec s = probe_spec({"report"});
  s.output_fd = -1;
  const probe_run run = this->run(s);
  dup2(saved_stdout.fd, 1);
  dup2(saved_stderr.fd, 2);
  writing.reset();
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  bool timed_out = false;
  EXPECT_EQ(read_lines(reading.fd, 5s, timed_out), (std::vector<std::string>{"probe stdout", "probe stderr"}));
}

TEST_F(Sandbox, NoNewPrivilegesNoCoreFilesNoFileOverOneGiB) {
  const probe_run run = this->run(probe_spec({"report"}));
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  if (const auto why = without(run.child, "no_new_privs")) GTEST_SKIP() << *why;
  if (const auto why = without(run.child, "rlimits")) GTEST_SKIP() << *why;
  EXPECT_TRUE(said(run.lines, "no_new_privs 1")) << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "rlimit core 0")) << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "rlimit fsize 1073741824")) << joined(run.lines);
}

TEST_F(Sandbox, ScratchIsItsWorkingFolderOwnedByNobodyMode0700) {
  const probe_run run = this->run(probe_spec({"report"}));
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "cwd " + scratch_)) << joined(run.lines);
  if (const auto why = without(run.child, "uid")) GTEST_SKIP() << *why;
  struct stat status {};
  ASSERT_EQ(lstat(scratch_.c_str(), &status), 0);
  EXPECT_TRUE(S_ISDIR(status.st_mode));
  EXPECT_EQ(status.st_mode & 07777, 0700u);
  EXPECT_EQ(status.st_uid, nobody);
  EXPECT_EQ(status.st_gid, nobody);
}

// A neighbour's folder (mode 0777) and a file in it (mode 0666): nobody may write both as far as the
// file modes go, so a refusal here is Landlock's, not the uid's.
TEST_F(Sandbox, WritesItsScratchAndNothingElse) {
  const std::string neighbour = path("neighbour");
  ASSERT_EQ(mkdir(neighbour.c_str(), 0777), 0);
  ASSERT_EQ(chmod(neighbour.c_str(), 0777), 0);  // past the umask
  const std::string existing = neighbour + "/existing";
  write_text(existing, "original\n", 0666);
  const std::string fresh = neighbour + "/fresh";
  const probe_run run = this->run(probe_spec({"write", scratch_ + "/mine", "write", fresh, "write", existing}));
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "write " + scratch_ + "/mine ok")) << joined(run.lines);
  EXPECT_EQ(contents(scratch_ + "/mine"), "probe\n");
  if (const auto why = without(run.child, "landlock")) GTEST_SKIP() << *why;
  EXPECT_TRUE(said(run.lines, "write " + fresh + " denied EACCES")) << joined(run.lines);
  EXPECT_FALSE(std::filesystem::exists(fresh));
  EXPECT_TRUE(said(run.lines, "write " + existing + " denied EACCES")) << joined(run.lines);
  EXPECT_EQ(contents(existing), "original\n");
}

// Files every user may read (0644), in folders every user may search: a refusal is Landlock's.
TEST_F(Sandbox, ReadsTheSystemAndItsReadableListOnly) {
  const std::string outside = path("outside.txt");
  write_text(outside, "secret\n", 0644);
  ASSERT_EQ(mkdir(path("listed").c_str(), 0755), 0);
  const std::string in_listed_folder = path("listed/inside.txt");
  write_text(in_listed_folder, "input\n", 0644);
  const std::string listed_file = path("listed_file.txt");
  write_text(listed_file, "input\n", 0644);
  std::vector<std::string> args{"read", "/etc/passwd", "read", outside, "read", in_listed_folder, "read", listed_file};
  // /dev is listable, not readable: its device files are granted one by one.
  const std::string shared_memory = "/dev/shm/kc_sandbox_" + std::to_string(getpid());
  const bool has_shm = std::filesystem::is_directory("/dev/shm");
  if (has_shm) {
    write_text(shared_memory, "shared\n", 0644);
    args.insert(args.end(), {"read", shared_memory});
  }
  sandbox::spec s = probe_spec(args);
  s.readable = {path("listed"), listed_file};
  const probe_run run = this->run(s);
  if (has_shm) unlink(shared_memory.c_str());
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "read /etc/passwd ok")) << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "read " + in_listed_folder + " ok")) << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "read " + listed_file + " ok")) << joined(run.lines);
  if (const auto why = without(run.child, "landlock")) GTEST_SKIP() << *why;
  EXPECT_TRUE(said(run.lines, "read " + outside + " denied EACCES")) << joined(run.lines);
  if (has_shm) {
    EXPECT_TRUE(said(run.lines, "read " + shared_memory + " denied EACCES")) << joined(run.lines);
  }
}

// The daemon would write its marker in scratch, which the sandbox may write: only its death stops it.
TEST_F(Sandbox, ADaemonDiesWithTheProbe) {
  const std::string token = path("daemon-token");
  const std::string marker = scratch_ + "/daemon-marker";
  const probe_run run = this->run(probe_spec({"tag", token, "daemon", marker, "1"}));
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  ASSERT_TRUE(said(run.lines, "daemon started")) << joined(run.lines);
  if (const auto why = without(run.child, "pid_namespace")) GTEST_SKIP() << *why;
  EXPECT_EQ(processes_with(token), 0);
  std::this_thread::sleep_for(2s);  // the daemon's 1 s and a margin
  EXPECT_FALSE(std::filesystem::exists(marker));
  EXPECT_EQ(processes_with(token), 0);
}

// The twin: without the sandbox the same daemon outlives the probe and writes its marker.
TEST_F(Sandbox, UnsandboxedDaemonOutlivesTheProbe) {
  const std::string token = path("daemon-token");
  const std::string marker = scratch_ + "/daemon-marker";
  sandbox::spec s = probe_spec({"tag", token, "daemon", marker, "1"});
  s.isolate = false;
  const probe_run run = this->run(s);
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  EXPECT_EQ(processes_with(token), 1);
  EXPECT_TRUE(eventually([&] { return std::filesystem::exists(marker); }, 5s));
  EXPECT_TRUE(eventually([&] { return processes_with(token) == 0; }, 5s));
}

TEST_F(Sandbox, CannotSignalOrTraceTheCaller) {
  const pid_t victim = start_victim();
  ASSERT_GT(victim, 0);
  const std::string victim_pid = std::to_string(victim);
  const std::string own_pid = std::to_string(getpid());
  const probe_run run =
      this->run(probe_spec({"signal", victim_pid, "ptrace", victim_pid, "signal", own_pid, "ptrace", own_pid}));
  EXPECT_EQ(waitpid(victim, nullptr, WNOHANG), 0) << "the victim ended";
  EXPECT_EQ(tracer_of(victim), 0);
  EXPECT_EQ(tracer_of(getpid()), 0);
  kill(victim, SIGKILL);
  waitpid(victim, nullptr, 0);
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  if (without(run.child, "pid_namespace") && without(run.child, "uid") && without(run.child, "landlock")) {
    GTEST_SKIP() << "no layer that keeps it from the caller: " << sandbox::describe(run.child);
  }
  for (const std::string& what : {"signal " + victim_pid, "ptrace " + victim_pid, "signal " + own_pid, "ptrace " + own_pid}) {
    const std::vector<std::string> outcome = after(run.lines, what + " ");
    ASSERT_EQ(outcome.size(), 1u) << what << "\n" << joined(run.lines);
    EXPECT_TRUE(outcome[0].starts_with("denied ")) << what << " " << outcome[0];
  }
}

// The twin: unsandboxed, the probe's signal ends the victim.
TEST_F(Sandbox, UnsandboxedProbeSignalsTheVictim) {
  const pid_t victim = start_victim();
  ASSERT_GT(victim, 0);
  sandbox::spec s = probe_spec({"signal", std::to_string(victim)});
  s.isolate = false;
  const probe_run run = this->run(s);
  int status = 0;
  ASSERT_EQ(waitpid(victim, &status, 0), victim);
  EXPECT_EQ(exit_text(status), std::string("signal ") + strsignal(SIGTERM));
  EXPECT_TRUE(said(run.lines, "signal " + std::to_string(victim) + " ok")) << joined(run.lines);
}

TEST_F(Sandbox, SigkillEndsTheProbeAndItsChild) {
  const std::string token = path("tree-token");
  probe_run run = start(probe_spec({"tag", token, "tree", "30"}));
  ASSERT_TRUE(said(run.lines, "tree ready")) << joined(run.lines);
  EXPECT_EQ(processes_with(token), 2);
  ASSERT_EQ(kill(run.child.pid, SIGKILL), 0);
  ASSERT_EQ(waitpid(run.child.pid, &run.status, 0), run.child.pid);
  EXPECT_EQ(exit_text(run.status), std::string("signal ") + strsignal(SIGKILL));
  if (const auto why = without(run.child, "pid_namespace")) {
    GTEST_SKIP() << *why;  // its child lives on without the namespace: TearDown ends it
  }
  EXPECT_TRUE(eventually([&] { return processes_with(token) == 0; }, 2s)) << processes_with(token) << " left";
}

// PID 1 of a namespace ignores the signals it has no handler for when they come from inside, and
// from outside all but SIGKILL and SIGSTOP: the caller's SIGTERM does not end it. Callers end a
// sandbox with SIGKILL.
TEST_F(Sandbox, OnlySigkillEndsItFromOutside) {
  const std::string token = path("term-token");
  probe_run run = start(probe_spec({"tag", token, "tree", "30"}));
  ASSERT_TRUE(said(run.lines, "tree ready")) << joined(run.lines);
  if (const auto why = without(run.child, "pid_namespace")) {
    kill(run.child.pid, SIGKILL);
    waitpid(run.child.pid, nullptr, 0);
    GTEST_SKIP() << *why;
  }
  ASSERT_EQ(kill(run.child.pid, SIGTERM), 0);
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(waitpid(run.child.pid, &run.status, WNOHANG), 0) << exit_text(run.status);
  ASSERT_EQ(kill(run.child.pid, SIGKILL), 0);
  ASSERT_EQ(waitpid(run.child.pid, &run.status, 0), run.child.pid);
  EXPECT_EQ(exit_text(run.status), std::string("signal ") + strsignal(SIGKILL));
}

// The same rule from inside: abort()'s SIGABRT to itself is dropped, and glibc's last resort (an
// instruction that faults) ends it with SIGSEGV. A judge that names "calls abort()" from the exit
// status sees a segmentation fault from a sandboxed executor (the twin, unsandboxed, sees SIGABRT).
TEST_F(Sandbox, AbortInPidOneEndsWithSigsegv) {
  rlimit cores{};
  ASSERT_EQ(getrlimit(RLIMIT_CORE, &cores), 0);
  const rlimit no_cores{0, cores.rlim_max};
  ASSERT_EQ(setrlimit(RLIMIT_CORE, &no_cores), 0);  // the unsandboxed twin inherits it: no core file
  const probe_run run = this->run(probe_spec({"abort"}));
  sandbox::spec unsandboxed = probe_spec({"abort"});
  unsandboxed.isolate = false;
  const probe_run twin = this->run(unsandboxed);
  setrlimit(RLIMIT_CORE, &cores);
  EXPECT_EQ(exit_text(twin.status), std::string("signal ") + strsignal(SIGABRT));
  if (const auto why = without(run.child, "pid_namespace")) GTEST_SKIP() << *why;
  EXPECT_EQ(exit_text(run.status), std::string("signal ") + strsignal(SIGSEGV));
}

// The caller (a process of the test's, standing in for the judge) ends without killing the sandbox:
// the parent-death signal does.
TEST_F(Sandbox, TheCallersDeathEndsTheSandbox) {
  const std::string token = path("orphan-token");
  int started[2];
  int go[2];
  ASSERT_EQ(pipe(started), 0);
  ASSERT_EQ(pipe(go), 0);
  const pid_t caller = fork();
  ASSERT_GE(caller, 0);
  if (caller == 0) {
    close(started[0]);
    close(go[1]);
    char reply = 'n';
    try {
      sandbox::spec s = probe_spec({"tag", token, "sleep", "30"});
      s.channel_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
      const sandbox::child c = sandbox::spawn(s);
      reply = without(c, "parent_death_signal") ? 's' : 'y';
    } catch (...) {
    }
    char ignored;
    if (write(started[1], &reply, 1) != 1 || read(go[0], &ignored, 1) < 0) _exit(1);
    _exit(0);  // without waiting for or killing the sandbox
  }
  close(started[1]);
  close(go[0]);
  char reply = 0;
  ASSERT_EQ(read(started[0], &reply, 1), 1);
  close(started[0]);
  EXPECT_EQ(processes_with(token), reply == 'n' ? 0 : 1);
  close(go[1]);  // the caller reads end of file and exits
  ASSERT_EQ(waitpid(caller, nullptr, 0), caller);
  ASSERT_NE(reply, 'n') << "spawn() threw in the stand-in caller";
  if (reply == 's') {
    GTEST_SKIP() << "parent_death_signal is missing";
  }
  EXPECT_TRUE(eventually([&] { return processes_with(token) == 0; }, 3s)) << "the sandbox outlived its caller";
}

TEST_F(Sandbox, DescribeNamesEveryLayerInForceOrMissing) {
  const probe_run run = this->run(probe_spec({"report"}));
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  const std::string description = sandbox::describe(run.child);
  RecordProperty("sandbox", description);
  std::cout << "sandbox: " << description << "\n";
  for (const char* layer : {"pid_namespace", "network_namespace", "uid", "no_new_privs", "landlock",
                            "parent_death_signal", "rlimits"}) {
    EXPECT_NE(description.find(layer), std::string::npos) << layer << " in " << description;
  }
  std::string expected;
  for (const std::string& layer : run.child.layers) expected += (expected.empty() ? "" : ", ") + layer;
  EXPECT_TRUE(description.starts_with(expected + " (missing: ")) << description;
  EXPECT_EQ(sandbox::describe({1, {"a", "b"}, {}}), "a, b (missing: none)");
  EXPECT_EQ(sandbox::describe({1, {}, {"x: y", "z: w"}}), "none (missing: x: y; z: w)");
}

TEST_F(Sandbox, WithoutIsolationRunsAsTheCallerWithNoLayers) {
  owned_fd stray_file(open(KC_SANDBOX_PROBE, O_RDONLY));
  sandbox::spec s = probe_spec({"report"});
  s.isolate = false;
  const probe_run run = this->run(s);
  ASSERT_EQ(exit_text(run.status), "exit 0") << joined(run.lines);
  EXPECT_TRUE(run.child.layers.empty());
  EXPECT_TRUE(run.child.missing.empty());
  EXPECT_EQ(sandbox::describe(run.child), "none (missing: none)");
  EXPECT_TRUE(said(run.lines, "uid " + std::to_string(getuid()) + " " + std::to_string(geteuid()))) << joined(run.lines);
  EXPECT_FALSE(said(run.lines, "pid 1")) << joined(run.lines);
  EXPECT_EQ(after(run.lines, "env "), s.environment) << joined(run.lines);
  EXPECT_EQ(after(run.lines, "fd ").size(), 4u) << joined(run.lines);
  EXPECT_TRUE(said(run.lines, "cwd " + scratch_)) << joined(run.lines);
}

TEST_F(Sandbox, AFailedExecveThrowsWithItsErrno) {
  sandbox::spec missing = probe_spec({"report"});
  missing.program = path("no_such_program");
  missing.channel_fd = STDERR_FILENO;
  try {
    sandbox::spawn(missing);
    ADD_FAILURE() << "spawn() of a missing program returned";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("execve: No such file or directory"), std::string::npos) << e.what();
  }
  sandbox::spec not_executable = missing;
  not_executable.program = path("not_executable");
  write_text(not_executable.program, "#!/bin/sh\n", 0644);
  try {
    sandbox::spawn(not_executable);
    ADD_FAILURE() << "spawn() of a file without execute permission returned";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("execve: Permission denied"), std::string::npos) << e.what();
  }
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1) << "a child left unreaped";
}

TEST_F(Sandbox, ABadSpecThrows) {
  sandbox::spec relative = probe_spec({"report"});
  relative.program = "probe";
  relative.channel_fd = STDERR_FILENO;
  EXPECT_THROW(sandbox::spawn(relative), std::runtime_error);
  sandbox::spec no_channel = probe_spec({"report"});
  EXPECT_THROW(sandbox::spawn(no_channel), std::runtime_error);
  sandbox::spec no_parent = probe_spec({"report"});
  no_parent.scratch = path("no/such/parent");
  no_parent.channel_fd = STDERR_FILENO;
  EXPECT_THROW(sandbox::spawn(no_parent), std::runtime_error);
}

}  // namespace
