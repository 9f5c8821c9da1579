#include "grading/executor/remote_submission.hpp"

#include "fixtures/case_progress.hpp"
#include "fixtures/gpu_environment.hpp"
#include "fixtures/run_cache.hpp"
#include "fixtures/watchdog.hpp"
#include "grading/executor/sandbox.hpp"

#include <cuda.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>

#ifndef KC_EXECUTOR_PATH
#error "KC_EXECUTOR_PATH names kconform_executor (grading/CMakeLists.txt)"
#endif

namespace kc::grading::remote {
namespace {

void (*submission_executor_started)(int pid) = nullptr;  // on_submission_executor_start

// The environment the executor gets: nothing of the judge's (no path of its run), but the devices this
// process may see and the guard's memory limit (grading/submission_guard.cpp reads it there).
std::vector<std::string> executor_environment(const std::string& scratch) {
  std::vector<std::string> env = {"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "HOME=" + scratch, "TMPDIR=" + scratch};
  for (const char* name : {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "KCONFORM_SUBMISSION_MEMORY_LIMIT_MIB"})
    if (const char* value = std::getenv(name); value != nullptr) env.push_back(std::string(name) + "=" + value);
  return env;
}

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  return "ended";
}

// Whether a tool wraps the executor (a sanitizer unit: the runner's KCONFORM_EXECUTOR_WRAPPER).
bool tool_wraps_executor() {
  const char* wrapper = std::getenv("KCONFORM_EXECUTOR_WRAPPER");
  return wrapper != nullptr && *wrapper != '\0';
}

// What a lost executor costs the grading process. Without a tool it goes on, and the next call starts
// a fresh executor. Under a tool it ends as before (the case recorded as failed with the same words):
// there the tool's start is the cost, whichever process pays it (a class of 100 ATAX submissions on an
// H100 spent the same sanitizer process-seconds, 3,133 and 3,141, restarting the grading process or
// only the executor), and the process's end lets the runner end the unit at the tool's first finding
// (KCONFORM_TOOL_UNTIL_FINDING, tools/runner), which a tool's verdict cannot change after.
[[noreturn]] void lose_executor(const std::string& reason) {
  if (tool_wraps_executor()) progress::fail_current_case_and_exit(reason, progress::fresh_process_exit_code);
  throw executor_lost(reason);
}

class executor_process {
 public:
  // echo: the trusted executor with no submission (kconform_executor --echo), for the timing.
  explicit executor_process(bool echo = false) : echo_(echo) { start(); }

  const wire::hello& hello() const { return hello_; }
  // Its start's timing, once: the first caller gets it (the case that started it), later ones nullopt.
  std::optional<startup_timing> take_startup() { return std::exchange(startup_, std::nullopt); }
  const std::string& layers() const { return layers_; }

  // One exchange, under the kernel deadline from the send on (an executor that stops reading would
  // otherwise block the send). The reply must carry the request's fresh nonce: a reply the executor
  // queued before the request was made is not an answer to it.
  wire::reply call(wire::request request, const std::string& what) {
    request.nonce = nonce_();
    std::optional<std::vector<unsigned char>> message;
    {
      const watchdog_scope armed(what);
      if (!wire::send_message(fd_, wire::encode(request))) message.reset();
      else message = wire::receive_message(fd_);
    }
    if (!message) died(what);
    std::optional<wire::reply> r = wire::decode_reply(message->data(), message->size());
    if (!r || r->nonce != request.nonce) {
      end();
      throw executor_lost("the submission's process sent the grader a malformed reply during " + what);
    }
    return *r;
  }

 private:
  void start() {
    const char* submission = std::getenv("KCONFORM_SUBMISSION");
    if (!echo_ && (submission == nullptr || *submission == '\0'))
      throw std::runtime_error("KCONFORM_SUBMISSION is not set: no submission to grade");
    const gpu::environment& gpu = gpu::current();
    if (!gpu.available) throw std::runtime_error("no GPU to run the submission on: " + gpu.reason);
    char bus[64] = {};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, gpu.device) != cudaSuccess)
      throw std::runtime_error("could not read the device's PCI bus id");
    char scratch_template[] = "/tmp/kconform-executor-XXXXXX";
    if (mkdtemp(scratch_template) == nullptr) throw std::runtime_error("could not make the executor's scratch folder");
    scratch_ = scratch_template;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
      throw std::runtime_error("could not make the executor's channel");
    sandbox::spec s;
    s.program = KC_EXECUTOR_PATH;
    // Absolute: the executor's working folder is its scratch, and its library's folder is granted.
    const std::string library = echo_ ? std::string() : std::filesystem::absolute(submission).string();
    if (echo_) s.args = {"--echo", "--device", bus};
    else s.args = {"--submission", library, "--device", bus};
    const char* sync = std::getenv("KCONFORM_CUDA_SYNC");
    if (sync != nullptr && std::string(sync) == "blocking") s.args.push_back("--blocking");
    s.environment = executor_environment(scratch_);
    s.scratch = scratch_;
    if (!echo_) s.readable.push_back(std::filesystem::path(library).parent_path().string());
    if (!echo_) wrap_in_tool(s);
    s.channel_fd = pair[1];
    // Developers only (grade.sh clears every KCONFORM_ variable it inherits): no layer at all.
    const char* sandbox_setting = std::getenv("KCONFORM_EXECUTOR_SANDBOX");
    s.isolate = sandbox_setting == nullptr || std::string(sandbox_setting) != "off";
    // The runner grants this start its start-up allowance in whichever case it happens (the first
    // case's, or a later one's after a lost executor): up to the device's greeting, below.
    progress::note_executor_starting();
    const auto spawning = std::chrono::steady_clock::now();
    const sandbox::child child = sandbox::spawn(s);
    const auto spawned = std::chrono::steady_clock::now();
    close(pair[1]);
    fd_ = pair[0];
    pid_ = child.pid;
    if (!echo_ && submission_executor_started != nullptr) submission_executor_started(pid_);
    layers_ = sandbox::describe(child);
    // The batch's reference cache is safe from the submission only while it cannot write the
    // grader's files (grading/submission_library.cpp): without the uid drop, this process stops
    // using it.
    if (!echo_ && std::none_of(child.layers.begin(), child.layers.end(),
                               [](const std::string& layer) { return layer.starts_with("uid "); }))
      run_cache::disable_in_this_process();
    // Two greetings (wire::hello_stage). Up to the first, the work is the grader's own (the sandbox,
    // the tool, the CUDA context): it gets the start-up deadline, which a loaded machine needs. From
    // there on the submission's code runs (its library's constructors): the kernel deadline.
    // An executor lost before it greeted (it died starting, or in its library's constructors) leaves
    // nothing behind: its socket and scratch go with it, and the next case starts another.
    std::chrono::steady_clock::time_point opened;
    try {
      const wire::hello opened_device =
          greeting(wire::hello_stage::device_opened, "the submission's process to start (its sandbox, tool and CUDA context)",
                   "the submission's process's start", startup_deadline_seconds(), "KCONFORM_STARTUP_DEADLINE_S");
      opened = std::chrono::steady_clock::now();
      progress::note_executor_started();
      hello_ = greeting(wire::hello_stage::library_loaded, "the submission's library to load",
                        "the submission's library's loading", kernel_deadline_seconds(), "KCONFORM_KERNEL_DEADLINE_S");
      // The word on the device is the first greeting's, sent before any of the submission's code ran;
      // the second comes after its constructors, which could have written one of their own.
      hello_.device_ok = opened_device.device_ok;
      hello_.device_problem = opened_device.device_problem;
    } catch (const executor_lost&) {
      end();
      throw;
    }
    const auto seconds = [](auto from, auto to) { return std::chrono::duration<double>(to - from).count(); };
    startup_ = startup_timing{seconds(spawning, spawned), seconds(spawned, opened),
                              seconds(opened, std::chrono::steady_clock::now())};
    if (!echo_) {  // once: it ends whichever executor is running then
      static const bool cleanup_registered = std::atexit([] { cleanup(); }) == 0;
      (void)cleanup_registered;
    }
  }

  // Waits, under a deadline of `seconds` (the watchdog's reason says what it was `waiting_for`), for
  // the executor's greeting of `stage`; an executor that dies first died `during` that.
  wire::hello greeting(wire::hello_stage stage, const std::string& waiting_for, const std::string& during,
                       double seconds, const std::string& setting) {
    std::optional<std::vector<unsigned char>> message;
    {
      const watchdog_scope armed(waiting_for, seconds, setting);
      message = wire::receive_message(fd_);
    }
    if (!message) died(during);
    const std::optional<wire::hello> h = wire::decode_hello(message->data(), message->size());
    if (!h || h->version != wire::protocol_version || h->stage != stage) {
      end();  // killed and reaped (nothing of it left running), its channel and scratch gone
      throw std::runtime_error("the submission's process did not greet the grader as it should");
    }
    return *h;
  }

  // Under a sanitizer run (the runner's KCONFORM_EXECUTOR_WRAPPER: the tool's command, its parts
  // separated by 0x1F, ending in --log-file <FIFO>) the tool wraps the executor inside the sandbox, so
  // it watches the submission's process (its injection cannot follow a child into a sandbox from
  // outside). The tool reads files beyond the system folders (on the H100 box it stopped its target
  // before its first CUDA call until "/" was readable), so a sanitizer run's executor may read every
  // file (not write: its scratch and the tool's log only; docs/grading.md, "Trust boundary").
  static void wrap_in_tool(sandbox::spec& s) {
    const char* text = std::getenv("KCONFORM_EXECUTOR_WRAPPER");
    if (text == nullptr || *text == '\0') return;
    std::vector<std::string> wrapper;
    std::string part;
    for (const char* c = text; *c != '\0'; ++c) {
      if (*c == '\x1f') {
        wrapper.push_back(part);
        part.clear();
      } else {
        part += *c;
      }
    }
    wrapper.push_back(part);
    if (wrapper.size() < 3 || wrapper.front().empty() || wrapper.front().front() != '/') return;
    std::vector<std::string> args(wrapper.begin() + 1, wrapper.end());
    args.push_back(s.program);
    args.insert(args.end(), s.args.begin(), s.args.end());
    s.program = wrapper.front();
    s.args = std::move(args);
    s.readable.push_back("/");
    s.writable.push_back(wrapper.back());  // the tool's log
  }

  // Reaps the executor and says how it ended (executor_lost: the running case fails with it). It
  // closed the channel: its end is moments away.
  [[noreturn]] void died(const std::string& what) {
    const int status = reap_within(2.0);
    throw executor_lost("the submission's process " + describe_exit(status) + " while running this case (during " +
                        what + "); the rest of the cases run in a fresh process");
  }

 public:
  // Asks it to end, kills it if it has not in 10 s, reaps it, and ends as end() does.
  void quit();

  // Kills and reaps the executor, if that is not done yet. It is PID 1 of its PID namespace, so its
  // tree ends with it (a wrapping tool and its target): whatever the tool wrote into its channel is
  // there before this returns, and so before the next case's marker. Where the sandbox could not make
  // that namespace (its layers say so), what the submission started may outlive it, as it outlived a
  // grading process that ended before (no worse: the runner's deadlines and memory watch still hold).
  void end() {
    (void)reap_within(0.0);
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    std::error_code ignored;
    if (!scratch_.empty()) std::filesystem::remove_all(scratch_, ignored);
  }

 private:
  // Waits up to `seconds` for the executor to end by itself, then kills it; reaps it once (later
  // calls return the status it ended with).
  int reap_within(double seconds) {
    if (!reaped_) {
      pid_t reaped = 0;
      for (int looks = 0; reaped == 0 && looks < seconds * 20; ++looks) {
        reaped = waitpid(pid_, &status_, WNOHANG);
        if (reaped == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      if (reaped == 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status_, 0);
      }
      reaped_ = true;
    }
    return status_;
  }

  static void cleanup();

  bool echo_ = false;
  bool reaped_ = false;
  int status_ = 0;  // how it ended, once reaped
  std::mt19937_64 nonce_{std::random_device{}()};
  int fd_ = -1;
  pid_t pid_ = -1;
  std::string scratch_;
  std::string layers_;
  wire::hello hello_;
  std::optional<startup_timing> startup_;
};

std::mutex process_mutex;
executor_process* running = nullptr;

executor_process& executor() {
  const std::lock_guard<std::mutex> lock(process_mutex);
  static std::string start_failure;
  if (running == nullptr) {
    if (!start_failure.empty()) throw std::runtime_error(start_failure);
    try {
      running = new executor_process;
    } catch (const executor_lost& e) {
      lose_executor(e.what());  // it died starting (it may be the submission's constructor): the next case tries again
    } catch (const std::exception& e) {
      start_failure = e.what();
      throw;
    }
  }
  return *running;
}

void executor_process::quit() {
  // Asked to end first, so a wrapping tool reports what it saw at exit (memcheck's leaks); killed
  // if it has not ended in 10 s.
  wire::request request;
  request.what = wire::op::quit;
  (void)wire::send_message(fd_, wire::encode(request));
  (void)reap_within(10.0);
  end();
}

void executor_process::cleanup() {
  if (running != nullptr) running->quit();
}

// Per thread: the last reply; per process: the readouts since the last take.
thread_local std::optional<wire::reply> last;
std::mutex readout_mutex;
guard_readout memory;
launched_readout launched_since;
std::optional<std::string> libraries;
std::uint64_t calls = 0;
const ::testing::TestInfo* last_case = nullptr;
exchange_seconds spent;  // this case's, like the readouts

// Adds the seconds from its making to its end to `into` (under readout_mutex).
class seconds_into {
 public:
  explicit seconds_into(double& into) : into_(into) {}
  ~seconds_into() {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    const std::lock_guard<std::mutex> lock(readout_mutex);
    into_ += seconds;
  }
  seconds_into(const seconds_into&) = delete;
  seconds_into& operator=(const seconds_into&) = delete;

 private:
  double& into_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};
// The recording (start_recording): whether on, whether a call was kept yet, the allocations handed.
bool recording = false;
bool recorded_a_call = false;
std::vector<allocation> recorded_allocations;

void add_readouts(const wire::reply& r) {
  const std::lock_guard<std::mutex> lock(readout_mutex);
  memory.guard_found = memory.guard_found && r.guard_found;
  memory.refusals += r.memory_refusals;
  memory.largest = std::max(memory.largest, r.largest_refused);
  memory.held = r.memory_held;
  memory.limit = r.memory_limit;
  launched_since.guard_found = launched_since.guard_found && r.guard_found;
  for (const std::uint64_t kernel : r.launched)
    if (std::find(launched_since.kernels.begin(), launched_since.kernels.end(), kernel) == launched_since.kernels.end())
      launched_since.kernels.push_back(kernel);
  launched_since.launches += r.launches;
  launched_since.more = launched_since.more || r.more_launched;
  libraries = r.runtime_libraries;
}

// Ends and forgets the running executor, which was lost during this case: the next call starts a
// fresh one. Its start's seconds, if no case has taken them yet, are this case's (it started it), and
// a recording of its calls is dropped (a replay needs the executor that kept them). Its readouts go
// with this case: the next case takes only its own (readouts_are_this_cases, and call()'s reset).
void discard_running() {
  std::optional<startup_timing> untaken;
  {
    const std::lock_guard<std::mutex> lock(process_mutex);
    if (running == nullptr) return;
    running->end();
    untaken = running->take_startup();
    delete running;
    running = nullptr;
  }
  if (untaken) record_startup(*untaken);
  recording = false;
  recorded_a_call = false;
  recorded_allocations.clear();
}

// An exchange with the running executor; one that loses it discards it and ends the case.
template <class Exchange>
wire::reply through_running(Exchange&& exchange) {
  try {
    return exchange();
  } catch (const executor_lost& e) {
    discard_running();
    lose_executor(e.what());
  }
}

// A driver function, found through the runtime (the grading programs do not link libcuda).
template <class F>
F driver_function(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess)
    throw std::runtime_error(std::string("the CUDA driver has no ") + name);
  return reinterpret_cast<F>(fn);
}

// The IPC handle of the allocation that holds `p`, and p's offset in it. cudaIpcGetMemHandle costs
// tens of microseconds, once per pointer per call, and the timing pays it inside its regions: handles
// are kept per allocation, keyed by the driver's buffer id, which no later allocation at the same
// address shares (so a freed and reallocated buffer never gets a stale handle).
void note_if_recording(CUdeviceptr base, std::size_t size);

wire::arg export_pointer(const void* p) {
  using range_fn = CUresult (*)(CUdeviceptr*, size_t*, CUdeviceptr);
  using attribute_fn = CUresult (*)(void*, CUpointer_attribute, CUdeviceptr);
  static const range_fn range = driver_function<range_fn>("cuMemGetAddressRange");
  static const attribute_fn attribute = driver_function<attribute_fn>("cuPointerGetAttribute");
  static std::map<unsigned long long, cudaIpcMemHandle_t> handles;
  CUdeviceptr base = 0;
  size_t size = 0;
  // A pointer one past an allocation's end is a valid empty buffer (a reduction's own scratch when it
  // asks for none): it is found through the byte before it.
  const auto at = reinterpret_cast<CUdeviceptr>(p);
  if (range(&base, &size, at) != CUDA_SUCCESS &&
      (at == 0 || range(&base, &size, at - 1) != CUDA_SUCCESS || base + size != at))
    throw std::runtime_error("a buffer handed to the submission is not device memory the grader allocated");
  note_if_recording(base, size);
  unsigned long long buffer_id = 0;
  const bool has_id = attribute(&buffer_id, CU_POINTER_ATTRIBUTE_BUFFER_ID, base) == CUDA_SUCCESS;
  auto kept = has_id ? handles.find(buffer_id) : handles.end();
  if (kept == handles.end()) {
    cudaIpcMemHandle_t fresh;
    if (const cudaError_t e = cudaIpcGetMemHandle(&fresh, reinterpret_cast<void*>(base)); e != cudaSuccess)
      throw std::runtime_error(std::string("cudaIpcGetMemHandle: ") + cudaGetErrorName(e));
    if (!has_id) {
      wire::arg a;
      a.kind = wire::arg_kind::device_pointer;
      std::memcpy(a.handle.data(), &fresh, sizeof fresh);
      a.offset = at - base;
      return a;  // id 0: the executor maps it as whatever allocation last had these handle bytes
    }
    kept = handles.emplace(buffer_id, fresh).first;
  }
  const cudaIpcMemHandle_t& handle = kept->second;
  wire::arg a;
  a.kind = wire::arg_kind::device_pointer;
  std::memcpy(a.handle.data(), &handle, sizeof handle);
  a.offset = at - base;
  a.integer = static_cast<std::int64_t>(buffer_id);
  return a;
}

void note_if_recording(CUdeviceptr base, std::size_t size) {
  if (!recording) return;
  void* at = reinterpret_cast<void*>(base);
  for (const allocation& a : recorded_allocations)
    if (a.base == at) return;
  recorded_allocations.push_back({at, size});
}

// A reply's readouts taken, and a broken context handled, as every call's are.
void after_reply(const wire::reply& r, const std::string& what) {
  if (r.made) add_readouts(r);
  if (r.made && r.sticky)
    throw executor_lost(
        std::string("the kernel faulted: ") + what + ": " + cudaGetErrorName(static_cast<cudaError_t>(r.sync_error)) +
        ": " + cudaGetErrorString(static_cast<cudaError_t>(r.sync_error)) +
        " (a sticky CUDA error: the submission's context is unusable; the rest of the cases run in a fresh process)");
}

// What the judge staged (inputs, poison, guard canaries) is on the device before a call is made: the
// executor's stream is in another process and cannot wait for this one's. The wait is the case's
// staging seconds (take_exchange_seconds).
void wait_for_staging(const char* before) {
  const seconds_into timed(spent.staging);
  if (const cudaError_t s = cudaDeviceSynchronize(); s != cudaSuccess)
    throw std::runtime_error(std::string("the grader's device work failed before ") + before + ": " + cudaGetErrorName(s));
}

}  // namespace

bool exports(const std::string& entry) {
  const wire::hello& h = executor().hello();
  if (!h.device_ok || !h.loaded) {
    // The grader's failure, not the student's: the executor opens its device before any of the
    // submission's code runs (the first greeting's word, above), and scripts/grade.sh's probe loaded a
    // copy of this library, staged in /tmp, in the same sandbox at build time (a library that cannot
    // load is graded load_error there and never gets here). What is left is the grader's environment:
    // a library or device the sandbox's uid cannot reach (found on an H100: an --out folder under
    // /root, mode 0700, failed every case and scored a correct submission 10; grade.sh now refuses
    // such a folder). The case still fails, the property makes its report say grader_error
    // (tools/grade_report/run_inputs.cpp) and grade.sh exit 2, and a sanitizer unit earns nothing for
    // it (run_grade.cpp). A forged "not loaded" (a constructor writing its own greeting) gains nothing.
    const std::string& problem = h.device_ok ? h.load_problem : h.device_problem;
    ::testing::Test::RecordProperty("grader_problem", problem);
    throw std::runtime_error(problem);
  }
  return std::find(h.entries.begin(), h.entries.end(), entry) != h.entries.end();
}

wire::reply call(const std::string& entry, std::vector<wire::arg> args) {
  executor_process& e = executor();
  wire::request request;
  request.what = wire::op::call;
  request.entry = entry;
  request.args = std::move(args);
  if (recording) request.record = recorded_a_call ? wire::record_mode::next : wire::record_mode::first;
  const ::testing::TestInfo* now = ::testing::UnitTest::GetInstance()->current_test_info();
  if (now != last_case) {
    // The readouts are the case's: what an earlier case left untaken (a case that ended by an
    // exception before expect_within_memory_limit, a lost executor's above all) is not this one's.
    const std::lock_guard<std::mutex> lock(readout_mutex);
    memory = guard_readout{};
    launched_since = launched_readout{};
    spent = exchange_seconds{};
  }
  wait_for_staging("the call");
  // A new case: the executor drops the mappings of the last one's buffers (freed since, or soon).
  // Marked only once the call goes ahead, so a staging failure leaves the next call to drop them.
  request.drop_mappings_first = now != last_case;
  last_case = now;
  const seconds_into timed(spent.calls);
  wire::reply r = through_running([&] {
    wire::reply reply = e.call(request, "the submission's " + entry);
    ++calls;
    if (recording && reply.made) recorded_a_call = true;
    after_reply(reply, entry);
    return reply;
  });
  last = r;
  return r;
}

void start_recording() {
  recording = true;
  recorded_a_call = false;
  recorded_allocations.clear();
}

std::vector<allocation> stop_recording() {
  recording = false;
  return std::move(recorded_allocations);
}

prepared_replay prepare_replay(const std::vector<allocation>& recorded, const std::vector<std::vector<void*>>& sets) {
  prepared_replay prepared;
  wire::request& request = prepared.request;
  request.what = wire::op::replay;
  request.repeat = static_cast<std::uint32_t>(sets.size() + 1);
  const auto buffer = [](const void* p) {
    const wire::arg a = export_pointer(p);
    return wire::ipc_buffer{a.handle, static_cast<std::uint64_t>(a.integer)};
  };
  for (const allocation& a : recorded) request.replay_from.push_back(buffer(a.base));
  for (const std::vector<void*>& set : sets) {
    if (set.size() != recorded.size()) throw std::runtime_error("a replay's buffer set of the wrong size");
    for (void* p : set) request.replay_to.push_back(buffer(p));
  }
  return prepared;
}

wire::reply replay(const prepared_replay& prepared) {
  executor_process& e = executor();
  wait_for_staging("the replay");
  const seconds_into timed(spent.calls);
  return through_running([&] {
    wire::reply r = e.call(prepared.request, "the submission's calls, replayed");
    after_reply(r, "a replay of the timed calls");
    return r;
  });
}

wire::reply kernel_info(std::uint64_t kernel, int block) {
  wire::request request;
  request.what = wire::op::kernel_info;
  request.kernel = kernel;
  request.block = block;
  executor_process& e = executor();
  return through_running([&] { return e.call(request, "a query of the submission's kernel"); });
}

void on_submission_executor_start(void (*hook)(int pid)) { submission_executor_started = hook; }

void end_submission_executor() {
  {
    const std::lock_guard<std::mutex> lock(process_mutex);
    if (running == nullptr) return;
    running->quit();  // asked to end, killed after 10 s, reaped
  }
  discard_running();  // and forgotten, as a lost one is: the next call starts a fresh executor
}

void echo_call() {
  // Never killed or reaped by hand: it ends with this process (its parent-death signal), and its
  // scratch folder is empty.
  static executor_process* echo = [] {
    const std::lock_guard<std::mutex> lock(process_mutex);
    return new executor_process(true);
  }();
  if (!echo->hello().device_ok) throw std::runtime_error("the echo executor: " + echo->hello().device_problem);
  wait_for_staging("the echo call");  // as call() does before its exchange
  wire::request request;
  request.what = wire::op::echo;
  const wire::reply r = echo->call(request, "the grader's echo call");
  if (!r.made || r.launch_error != 0 || r.sync_error != 0) throw std::runtime_error("the grader's echo call failed");
}

wire::arg device_arg(const void* p) {
  if (p == nullptr) return wire::arg{};
  return export_pointer(p);
}
wire::arg i32_arg(int v) {
  wire::arg a;
  a.kind = wire::arg_kind::i32;
  a.integer = v;
  return a;
}
wire::arg u64_arg(std::uint64_t v) {
  wire::arg a;
  a.kind = wire::arg_kind::u64;
  a.integer = static_cast<std::int64_t>(v);
  return a;
}
wire::arg f64_arg(double v) {
  wire::arg a;
  a.kind = wire::arg_kind::f64;
  a.real = v;
  return a;
}
wire::arg stream_arg() {
  wire::arg a;
  a.kind = wire::arg_kind::stream;
  return a;
}
wire::arg host_out_arg() {
  wire::arg a;
  a.kind = wire::arg_kind::host_i32_out;
  return a;
}

const std::optional<wire::reply>& last_reply() { return last; }

// The readouts are the calls' of the case that made the last call: a case that made none (it failed
// before its first) takes nothing an earlier case left.
bool readouts_are_this_cases() { return last_case == ::testing::UnitTest::GetInstance()->current_test_info(); }

guard_readout take_memory_refusals() {
  const std::lock_guard<std::mutex> lock(readout_mutex);
  guard_readout out = readouts_are_this_cases() ? memory : guard_readout{};
  memory = guard_readout{};
  return out;
}

exchange_seconds take_exchange_seconds() {
  const std::lock_guard<std::mutex> lock(readout_mutex);
  const exchange_seconds out = readouts_are_this_cases() ? spent : exchange_seconds{};
  spent = exchange_seconds{};
  return out;
}

launched_readout take_launched() {
  const std::lock_guard<std::mutex> lock(readout_mutex);
  launched_readout out = readouts_are_this_cases() ? launched_since : launched_readout{};
  launched_since = launched_readout{};
  return out;
}

std::optional<std::string> runtime_libraries() {
  const std::lock_guard<std::mutex> lock(readout_mutex);
  return libraries;
}

std::string sandbox_description() {
  const std::lock_guard<std::mutex> lock(process_mutex);
  return running != nullptr ? running->layers() : std::string();
}

void record_startup(const startup_timing& startup) {
  ::testing::Test::RecordProperty("executor_spawn_seconds", std::to_string(startup.spawn_seconds));
  ::testing::Test::RecordProperty("executor_device_seconds", std::to_string(startup.device_seconds));
  ::testing::Test::RecordProperty("executor_load_seconds", std::to_string(startup.load_seconds));
}

std::optional<startup_timing> take_startup_timing() {
  const std::lock_guard<std::mutex> lock(process_mutex);
  return running != nullptr ? running->take_startup() : std::nullopt;
}

std::uint64_t calls_made() { return calls; }

}  // namespace kc::grading::remote
