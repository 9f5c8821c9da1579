// The judge's side of the trust boundary (issue 32): the submission's entry points, called in the
// executor process (executor_main.cpp), which the judge starts sandboxed on first use.
//
// A grading program (the judge) never loads the submission. find_entry<F>("kc_matmul") gives a
// proxy with F's signature: calling it waits for every device operation of the judge (the inputs it
// staged and poisoned), sends the call with each device buffer as a CUDA IPC handle of the judge's
// allocation, and waits for the reply under the kernel deadline (fixtures/watchdog.hpp). What comes
// back is the submission's process speaking, so only "it returned, with this refusal / launch error"
// is taken from it; outputs are read from the judge's own buffers.
//
// When the executor dies during a call (a crash, exit(), abort()), or its context breaks (a sticky
// error), the running case fails saying so, with the words the runner uses for the same event in its
// own children ("exited with status 0", "killed by signal 11", "sticky CUDA error"), and the executor
// is killed and reaped (under a tool, the tool with it). Outside a tool the call throws executor_lost,
// which ends the case; the grading process goes on, and the next case that calls the submission
// starts a fresh executor: the same verdicts as when the runner resumed the rest in a fresh process,
// at the cost of the executor's start alone (a crashing student's value groups: one grading process,
// not one a crash). Under a tool the grading process ends as before and the runner resumes in a fresh
// pair: there the tool's start is the cost either way (on an H100 a class of 100 ATAX submissions,
// whose out-of-bounds writes fault under memcheck, spent 3,133 sanitizer process-seconds restarting
// both and 3,141 restarting the executor alone), and the process's end lets the runner stop the unit
// at the tool's first finding (KCONFORM_TOOL_UNTIL_FINDING). A hang still ends the grading process
// (fixtures/watchdog.hpp): the runner's hang streak and budget count processes.
#pragma once

#include "grading/executor/entry_points.hpp"
#include "grading/executor/wire.hpp"
#include "kernels/launch.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kc::grading::remote {

// The submission's process was lost during this case (it died, broke its context, or answered
// nonsense); what() says how, in the runner's words. Thrown through the check to end the case: gtest
// fails it with that text, and the next call starts a fresh executor. Code between a call and the
// case's body must let it through (grading/submission_library.hpp's find_entry rethrows it).
class executor_lost : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Ends the submission's executor, if one is running (asked to quit, killed after 10 s, reaped, and
// everything in its sandbox's PID namespace with it); the next call starts a fresh one. A performance
// case under grade.sh --performance-overlap ends it before letting go of its GPU hold
// (grading/performance_hold.hpp), so no student's code is alive beside another's timing.
void end_submission_executor();

// Calls `hook` with the process id of every submission executor started from now on (nullptr: none),
// as soon as it is spawned, before any of its code runs: the GPU hold records them, so that the next
// holder can wait for them to be gone where this process was killed before it could end them.
void on_submission_executor_start(void (*hook)(int pid));

// Whether the submission exports `entry` (its executor is started if it is not running yet).
// Throws std::runtime_error saying why the submission cannot be called at all (no submission, it does
// not load, the executor could not open the device).
bool exports(const std::string& entry);

// Makes the call; every failure of the executor is handled as above (this returns only a reply whose
// call was made, or one that says why the call could not be made).
wire::reply call(const std::string& entry, std::vector<wire::arg> args);

// What the runtime says of a kernel the submission named (a token from a reply's `returned`).
wire::reply kernel_info(std::uint64_t kernel, int block);

// One exchange with a trusted executor that runs no submission code (kconform_executor --echo, started
// on first use): a one-thread kernel, waited for. Its time is what an exchange costs by itself, which
// the performance case subtracts (grading/judged_timing.hpp). Throws std::runtime_error on failure.
void echo_call();

// ---- replays (grading/judged_timing.hpp) ----
// While a recording is on, every call made is also kept by the executor (the first one replacing what
// an earlier recording kept), and every judge allocation handed to it is listed here, once each, in
// the order first handed.
struct allocation {
  void* base = nullptr;
  std::size_t bytes = 0;
};
void start_recording();
std::vector<allocation> stop_recording();
// The recorded calls, made `sets.size() + 1` times in one exchange: first on the recorded buffers,
// then once per row of `sets`, whose b-th pointer (an allocation of the same size) stands in for the
// b-th recorded allocation; the executor waits for its device once, at the end. The request is built
// once (prepare_replay: every buffer's IPC handle looked up), outside the timed regions, and sent by
// replay() for each sample. Failures are handled as call()'s are; a refusal comes back in the reply.
struct prepared_replay {
  wire::request request;
};
prepared_replay prepare_replay(const std::vector<allocation>& recorded, const std::vector<std::vector<void*>>& sets);
wire::reply replay(const prepared_replay& prepared);

// The arguments, built from C values.
wire::arg device_arg(const void* device_pointer);  // throws std::runtime_error for a pointer the judge did not allocate
wire::arg i32_arg(int v);
wire::arg u64_arg(std::uint64_t v);
wire::arg f64_arg(double v);
wire::arg stream_arg();
wire::arg host_out_arg();

// The last reply of this thread's calls (status_after_entry reads the launch error from it).
const std::optional<wire::reply>& last_reply();

// The guard's readouts summed over the calls since the last take (the case's).
struct guard_readout {
  bool guard_found = true;
  std::uint64_t refusals = 0, largest = 0, held = 0, limit = 0;
};
guard_readout take_memory_refusals();
struct launched_readout {
  bool guard_found = true;
  std::vector<std::uint64_t> kernels;
  std::uint64_t launches = 0;
  bool more = false;
};
launched_readout take_launched();
// Where the case's seconds around the submission's process went, summed over its calls and replays
// since the last take (the case's): the wait for all of the grader's own device work queued before
// each exchange, the echo's in a timing sample too (staging: a cudaDeviceSynchronize over the inputs' copies, poison and guards, a check's
// 200 µs input delay, a timing sample's buffer-set copies and L2 flush; with processes sharing the
// GPU, also a wait for time slices), and the exchanges themselves (the request, the submission's run
// and its device wait in the executor, the reply). An executor's start is not in them
// (take_startup_timing). Recorded by expect_within_memory_limit as the case's staging_seconds and
// calls_seconds (a case that ends before it, by an assertion or a lost executor, records none): on an
// H100 most of a class's value-case seconds were none of fixtures/time_spent.hpp's kinds (access: 991
// of 1,187 process-seconds), and these say how much of that rest is the submission's process.
struct exchange_seconds {
  double staging = 0, calls = 0;
};
exchange_seconds take_exchange_seconds();

// The library watch's last word ("" none); nullopt before any call.
std::optional<std::string> runtime_libraries();

// The sandbox layers the executor runs under ("pid_namespace, uid 65534, ... (missing: ...)"); "" when
// none was started.
std::string sandbox_description();

// How long this process's executor took to start, in three parts: the sandbox's spawn, from there to
// the device open (the tool's start and the CUDA context), and the library's loading. Once per
// executor: the case that started it records it (nullopt after, or before any was started).
struct startup_timing {
  double spawn_seconds = 0, device_seconds = 0, load_seconds = 0;
};
std::optional<startup_timing> take_startup_timing();
// Records a start's three parts as the running case's properties (executor_spawn_seconds,
// executor_device_seconds, executor_load_seconds): the case that started the executor, or lost it
// before taking them.
void record_startup(const startup_timing& startup);

// Calls made so far by this process through the proxies (a replay's are not counted: the timing counts a
// recorded run's calls and multiplies).
std::uint64_t calls_made();

// ---- the proxy ----
template <class F>
class remote_entry;

template <class R, class... A>
class remote_entry<R (*)(A...)> {
 public:
  remote_entry() = default;
  explicit remote_entry(std::string name) : name_(std::move(name)) {}
  bool operator==(std::nullptr_t) const { return name_.empty(); }
  bool operator!=(std::nullptr_t) const { return !name_.empty(); }

  R operator()(A... a) const {
    std::vector<wire::arg> args{to_arg(a)...};
    const wire::reply r = call(name_, std::move(args));
    std::size_t out = 0;
    (write_back(a, r, out), ...);
    if constexpr (std::is_same_v<R, const char*>) {
      thread_local std::string refusal;
      if (!r.made) {
        refusal = r.problem;
        return refusal.c_str();
      }
      if (!r.refused) return nullptr;
      refusal = r.refusal;
      return refusal.c_str();
    } else if constexpr (std::is_same_v<R, const void*>) {
      return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(r.returned));
    } else {
      return static_cast<R>(r.returned);
    }
  }

 private:
  template <class T>
  static wire::arg to_arg(T v) {
    constexpr wire::arg_kind kind = wire::kind_of<T>();
    if constexpr (kind == wire::arg_kind::device_pointer) return device_arg(v);
    else if constexpr (kind == wire::arg_kind::host_i32_out) return host_out_arg();
    else if constexpr (kind == wire::arg_kind::stream) return stream_arg();
    else if constexpr (kind == wire::arg_kind::i32) return i32_arg(v);
    else if constexpr (kind == wire::arg_kind::u64) return u64_arg(static_cast<std::uint64_t>(v));
    else return f64_arg(v);
  }
  template <class T>
  static void write_back(T v, const wire::reply& r, std::size_t& out) {
    if constexpr (std::is_same_v<T, int*>) {
      if (v != nullptr && out < r.host_out.size()) *v = r.host_out[out];
      ++out;
    }
  }

  std::string name_;
};

}  // namespace kc::grading::remote
