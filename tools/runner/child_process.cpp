#include "tools/runner/child_process.hpp"

#include "tools/runner/device_memory_watch.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string_view>

namespace kc::runner {
namespace {

using clock = std::chrono::steady_clock;

// Size of the progress file: it grows with every record, so a change means a case started or ended.
long long file_size(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? static_cast<long long>(info.st_size) : -1;
}

// What the progress file says about the process's start-up (fixtures/case_progress.hpp): whether a
// case has ended yet, whether the process is opening its GPU now (its last record is O), and whether
// it is waiting for its GPU hold (its last record is W). Reads only what was appended since the last
// look, whole lines only.
class start_up_state {
 public:
  bool case_ended = false;
  bool opening_device = false;
  bool waiting_for_gpu = false;
  bool last_ended_a_case = false;  // its last record is an end record (E)

  void read_new_records(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(read_bytes_));
    std::string text(std::istreambuf_iterator<char>(in), {});
    std::size_t start = 0, newline;
    while ((newline = text.find('\n', start)) != std::string::npos) {
      const std::string_view line(text.data() + start, newline - start);
      if (line.starts_with("E\t")) case_ended = true;
      if (!line.empty()) opening_device = line == "O";
      if (!line.empty()) waiting_for_gpu = line == "W";
      if (!line.empty()) last_ended_a_case = line.starts_with("E\t");
      start = newline + 1;
    }
    read_bytes_ += start;
  }

 private:
  std::size_t read_bytes_ = 0;
};

// When the file was last written, on the steady clock (its modification time, taken back from the
// system clock by their difference now, and never after `now`), or nothing where it is missing or empty.
std::optional<std::chrono::steady_clock::time_point> written_at(const std::string& path,
                                                                std::chrono::steady_clock::time_point now) {
  struct stat info {};
  if (path.empty() || ::stat(path.c_str(), &info) != 0 || info.st_size <= 0) return std::nullopt;
  const auto modified = std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::seconds(info.st_mtim.tv_sec) + std::chrono::nanoseconds(info.st_mtim.tv_nsec)));
  const auto ago = std::chrono::system_clock::now() - modified;
  return ago > std::chrono::system_clock::duration::zero()
             ? now - std::chrono::duration_cast<std::chrono::steady_clock::duration>(ago)
             : now;
}

// Hands out each whole line of `pending` and keeps what follows the last newline. One pass and one
// erase: erasing line by line moves the rest each time, which a read of newlines alone (64 KiB of
// them, 2 GiB moved) turns into seconds.
void hand_out_lines(std::string& pending, const std::function<void(const std::string&)>& on_line) {
  std::size_t from = 0;
  for (std::size_t newline; (newline = pending.find('\n', from)) != std::string::npos; from = newline + 1)
    on_line(pending.substr(from, newline - from));
  pending.erase(0, from);
}

// Follows a file another process appends to (the tool's log), handing out whole lines. The submission
// can write into this channel too (its sandbox must let the tool write there), so nothing it writes may
// grow here or hold the runner: a poll reads at most reads_per_poll chunks before it returns to the
// runner's deadlines (the last poll, after the process ended, at most reads_at_end; each in time linear
// in what it read), and a line longer
// than any the tool writes (its longest are paths and kernel names) is handed out in pieces, each cut
// kept_tail bytes before the end of what has come, so that a report of the tool's own arriving right
// after forged text is never cut in two.
class file_follower {
 public:
  static constexpr std::size_t longest_line = 64 * 1024;
  static constexpr std::size_t kept_tail = 1024;
  static constexpr int reads_per_poll = 64;  // 4 MiB, about every 100 ms while the program is silent
  static constexpr int reads_at_end = 256;  // 16 MiB
  // Opened before the child starts, without blocking: for a FIFO this is the reader that lets the
  // writers' opens (the tool's, the program's) go through.
  explicit file_follower(std::string path) : path_(std::move(path)) {
    if (!path_.empty()) fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  }
  ~file_follower() {
    if (fd_ >= 0) ::close(fd_);
  }
  // The descriptor to wait on for more (a FIFO's; -1 for a plain file, which is always readable), so
  // that a tool reporting a lot wakes the runner rather than waiting out its 100 ms look.
  int wait_fd() const {
    struct stat st {};
    return fd_ >= 0 && ::fstat(fd_, &st) == 0 && S_ISFIFO(st.st_mode) ? fd_ : -1;
  }
  // Reads what was written since the last call (within the limits above); `final` hands out a last
  // line without its newline.
  void poll(const std::function<void(const std::string&)>& on_line, bool final = false) {
    if (path_.empty() || !on_line) return;
    if (fd_ < 0) fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);  // a plain file made later
    char buffer[65536];
    ssize_t got = 0;
    int reads = 0;
    do {
      if (fd_ >= 0 && (got = ::read(fd_, buffer, sizeof buffer)) > 0) pending_.append(buffer, static_cast<std::size_t>(got));
      hand_out_lines(pending_, on_line);
      if (pending_.size() >= longest_line) {
        on_line(pending_.substr(0, pending_.size() - kept_tail));
        pending_.erase(0, pending_.size() - kept_tail);
      }
    } while (fd_ >= 0 && got > 0 && ++reads < (final ? reads_at_end : reads_per_poll));
    if (final && !pending_.empty()) {
      on_line(pending_);
      pending_.clear();
    }
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::string pending_;
};

}  // namespace

process_end run_child(const child_spec& spec, const std::function<void(const std::string&)>& on_line,
                      const std::function<void(const std::string&)>& on_tool_line) {
  file_follower tool_log(spec.tool_log);  // before the fork: see file_follower
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) {
    std::perror("kconform_runner: pipe");
    std::exit(2);
  }
  const clock::time_point forked = clock::now();  // before the fork: the launch's lower bound holds
  const pid_t pid = ::fork();
  if (pid < 0) {
    std::perror("kconform_runner: fork");
    std::exit(2);
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // its own process group: a kill reaches whatever it started (a sanitizer's target)
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    for (const auto& [key, value] : spec.environment) ::setenv(key.c_str(), value.c_str(), 1);
    std::vector<char*> argv;
    for (const std::string& arg : spec.argv) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "kconform_runner: cannot run %s: %s\n", argv[0], std::strerror(errno));
    std::_Exit(127);
  }
  ::setpgid(pid, pid);
  ::close(pipe_fds[1]);
  const int out_fd = pipe_fds[0];

  process_end end;
  std::string pending;
  long long last_size = -2;
  clock::time_point case_started = clock::now(), last_memory_poll = case_started;
  std::optional<clock::time_point> first_record;  // when the progress file was first written
  bool open = true;
  start_up_state start_up;
  int status = 0;
  // The tool's FIFO is waited on with the output, except just after it said "hung up" with nothing to
  // read (its last writer closed it; until a new one opens it, it would say so at once again).
  bool tool_hung_up = false;
  for (;;) {
    tool_log.poll(on_tool_line);
    pollfd fds[2];
    nfds_t watched = 0;
    const int tool_fd = tool_hung_up ? -1 : tool_log.wait_fd();
    if (open) fds[watched++] = {out_fd, POLLIN, 0};
    if (tool_fd >= 0) fds[watched++] = {tool_fd, POLLIN, 0};
    (void)::poll(fds, watched, open ? 100 : 20);  // with nothing watched, a pause
    const pollfd* tool_poll = tool_fd >= 0 ? &fds[watched - 1] : nullptr;
    tool_hung_up = tool_poll != nullptr && (tool_poll->revents & POLLHUP) != 0 && (tool_poll->revents & POLLIN) == 0;
    if (open && fds[0].revents != 0) {
      char buffer[65536];
      const ssize_t got = ::read(out_fd, buffer, sizeof buffer);
      if (got <= 0) {
        open = false;
      } else {
        pending.append(buffer, static_cast<std::size_t>(got));
        tool_log.poll(on_tool_line);  // the tool's reports written before this output come first
        hand_out_lines(pending, on_line);
      }
    }
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      // Exit: from its last record, if that ended a case (a process that died in a case has that
      // case's time there, not an exit's), to now. The last record's time is the progress file's
      // modification time, which the loop would see up to one look late.
      start_up.read_new_records(spec.progress_file);
      const clock::time_point reaped = clock::now();
      const std::optional<clock::time_point> last = written_at(spec.progress_file, reaped);
      if (!first_record) first_record = last;  // written and ended between two looks
      if (last && start_up.last_ended_a_case) end.exit_seconds = std::chrono::duration<double>(reaped - *last).count();
      break;
    }
    if (spec.memory_watch != nullptr && spec.memory_limit_bytes > 0 &&
        std::chrono::duration<double>(clock::now() - last_memory_poll).count() >= 0.25) {
      last_memory_poll = clock::now();
      if (const unsigned long long held = spec.memory_watch->bytes_held_by_group(pid); held > spec.memory_limit_bytes) {
        end.killed_for_memory = true;
        end.memory_bytes = held;
        end.memory_limit_bytes = spec.memory_limit_bytes;
        ::kill(-pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        break;
      }
    }
    // Per-case deadline: the clock restarts whenever the progress file grows (a case started or ended,
    // the GPU's opening began or ended: once per process, so a case that opens it may run up to twice
    // the case timeout besides the opening). Until the first case has ended, and while the process
    // opens its GPU in a later case, the process's start-up allowance is added; while it waits for its
    // GPU hold (W, until G), the hold's wait allowance.
    const long long size = file_size(spec.progress_file);
    if (size != last_size) {
      last_size = size;
      case_started = clock::now();
      // The first record's time is the file's modification time when the loop first sees it (an
      // upper bound: a later record written before this look moves it on), not the look's.
      if (size > 0 && !first_record) first_record = written_at(spec.progress_file, case_started);
      if (size > 0) start_up.read_new_records(spec.progress_file);
    } else if (const double allowance =
                   start_up.waiting_for_gpu                         ? spec.gpu_hold_wait_seconds
                   : start_up.case_ended && !start_up.opening_device ? 0.0
                                                                     : spec.startup_allowance_seconds;
               std::chrono::duration<double>(clock::now() - case_started).count() > spec.case_timeout_seconds + allowance) {
      end.killed_by_watchdog = true;
      end.timeout_seconds = spec.case_timeout_seconds;
      end.startup_allowance_seconds = allowance;
      end.waiting_for_gpu_hold = start_up.waiting_for_gpu;
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
  }
  // Launch: from the fork to its first record (all of its life if it wrote none), on every path.
  end.launch_seconds = std::max(0.0, std::chrono::duration<double>((first_record ? *first_record : clock::now()) - forked).count());
  // Drain what is left (the process is gone; its grandchildren were in its group), up to 64 MiB: one
  // of them still writing must not hold the runner.
  if (open) {
    ::fcntl(out_fd, F_SETFL, O_NONBLOCK);
    char buffer[65536];
    ssize_t got;
    for (int reads = 0; reads < 1024 && (got = ::read(out_fd, buffer, sizeof buffer)) > 0; ++reads)
      pending.append(buffer, static_cast<std::size_t>(got));
  }
  hand_out_lines(pending, on_line);  // line by line, as while it ran
  if (!pending.empty()) on_line(pending);
  ::close(out_fd);
  tool_log.poll(on_tool_line, true);  // what the tool wrote last (exit-time reports: leaks)
  if (!end.killed_by_watchdog && !end.killed_for_memory) {
    if (WIFSIGNALED(status)) {
      end.signalled = true;
      end.signal = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
      end.exit_code = WEXITSTATUS(status);
    }
  }
  return end;
}

}  // namespace kc::runner
