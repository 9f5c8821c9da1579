// kconform_executor: the process that runs a submission's code (issue 32). The judge (a grading
// program) starts it sandboxed (sandbox.hpp) with the channel on fd 3, and it does nothing but what
// the judge asks: load the submission, map the judge's device buffers (CUDA IPC), call an entry point
// on its own stream, wait for the device, and say what happened. It holds no input generator,
// reference, comparison, timing or record file: whatever the submission does to this process, its
// grade is decided in the judge, which believes nothing this process says beyond "the call returned"
// and reads the outputs itself.
//
//   kconform_executor --submission <libsubmission.so> --device <PCI bus id> [--blocking]
//   kconform_executor --echo --device <PCI bus id>     no submission: answers echo requests only
#include "grading/executor/echo_kernel.hpp"
#include "grading/executor/entry_points.hpp"
#include "grading/executor/wire.hpp"
#include "grading/library_watch.hpp"

#include <cuda_runtime.h>
#include <cxxabi.h>
#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using namespace kc::grading;
constexpr int channel = 3;

// ---- the judge's buffers, mapped into this process ----
class mappings {
 public:
  // The device address of `a` (a device_pointer or null argument); nullptr with *problem set on failure.
  void* resolve(const wire::arg& a, std::string* problem) {
    if (a.kind == wire::arg_kind::null_pointer) return nullptr;
    auto found = open_.find(a.handle);
    const auto id = static_cast<std::uint64_t>(a.integer);
    if (found != open_.end() && found->second.id != id) {  // another allocation with the same handle bytes
      (void)cudaIpcCloseMemHandle(found->second.base);
      (void)cudaGetLastError();
      open_.erase(found);
      found = open_.end();
    }
    if (found == open_.end()) {
      cudaIpcMemHandle_t handle;
      std::memcpy(&handle, a.handle.data(), sizeof handle);
      void* base = nullptr;
      if (const cudaError_t e = cudaIpcOpenMemHandle(&base, handle, cudaIpcMemLazyEnablePeerAccess); e != cudaSuccess) {
        (void)cudaGetLastError();
        stale_ = stale_ || e == cudaErrorAlreadyMapped;
        *problem = std::string("could not map a buffer of the grader's (cudaIpcOpenMemHandle: ") + cudaGetErrorName(e) + ")";
        return nullptr;
      }
      found = open_.emplace(a.handle, mapped{base, id}).first;
    }
    return static_cast<char*>(found->second.base) + a.offset;
  }
  void close_all() {
    for (const auto& [handle, m] : open_) (void)cudaIpcCloseMemHandle(m.base);
    (void)cudaGetLastError();
    open_.clear();
  }
  // Whether a map failed because the address is taken (cudaErrorAlreadyMapped), since the last take.
  // Legacy IPC maps a buffer at the judge's own address, so a mapping kept from a buffer the judge has
  // freed since holds the address of one it allocated there afterwards (measured on the H100 box: a
  // case's performance buffers, allocated where its conformance buffers had been, could not be mapped).
  bool take_stale() { return std::exchange(stale_, false); }

 private:
  bool stale_ = false;
  struct mapped {
    void* base = nullptr;
    std::uint64_t id = 0;  // the judge's buffer id it was opened for
  };
  std::map<wire::ipc_handle, mapped> open_;
};

// ---- one call's arguments, decoded to the entry's C types ----
struct call_state {
  mappings* maps = nullptr;
  cudaStream_t stream = nullptr;
  std::vector<int> host_out;  // the int* outputs, in order
  std::string problem;
};

template <class T>
T decode_arg(const wire::arg& a, call_state& s) {
  constexpr wire::arg_kind want = wire::kind_of<T>();
  const bool pointer_ok = want == wire::arg_kind::device_pointer && a.kind == wire::arg_kind::null_pointer;
  if (a.kind != want && !pointer_ok) {
    s.problem = "an argument of the wrong kind";
    return T{};
  }
  if constexpr (want == wire::arg_kind::stream) return s.stream;
  else if constexpr (want == wire::arg_kind::host_i32_out) {
    s.host_out.push_back(0);
    return nullptr;  // pointed at host_out once every argument is decoded (the vector may still grow)
  } else if constexpr (want == wire::arg_kind::device_pointer) return static_cast<T>(s.maps->resolve(a, &s.problem));
  else if constexpr (want == wire::arg_kind::f64) return a.real;
  else return static_cast<T>(a.integer);
}

// What an entry returned, as the reply carries it.
void record_result(const char* refusal, wire::reply& r) {
  r.refused = refusal != nullptr;
  if (refusal != nullptr) r.refusal.assign(refusal, strnlen(refusal, wire::max_text));
}
void record_result(std::size_t value, wire::reply& r) { r.returned = value; }
void record_result(const void* value, wire::reply& r) { r.returned = reinterpret_cast<std::uintptr_t>(value); }

template <class R, class... A, std::size_t... I>
void invoke(void* symbol, const std::vector<wire::arg>& args, call_state& s, wire::reply& r, std::index_sequence<I...>) {
  std::tuple<A...> values{decode_arg<A>(args[I], s)...};
  if (!s.problem.empty()) return;
  // Each int* argument points at its own slot of host_out, in order.
  std::size_t out_index = 0;
  const auto point = [&](auto& value) {
    if constexpr (std::is_same_v<std::remove_reference_t<decltype(value)>, int*>) value = &s.host_out[out_index++];
  };
  std::apply([&](auto&... value) { (point(value), ...); }, values);
  auto* fn = reinterpret_cast<R (*)(A...)>(symbol);
  if constexpr (std::is_void_v<R>) std::apply(fn, values);
  else record_result(std::apply(fn, values), r);
  r.made = true;
}

template <class R, class... A>
void invoke_entry(void* symbol, const std::vector<wire::arg>& args, call_state& s, wire::reply& r) {
  if (args.size() != sizeof...(A)) {
    s.problem = "the wrong number of arguments";
    return;
  }
  invoke<R, A...>(symbol, args, s, r, std::index_sequence_for<A...>{});
}

using invoker = void (*)(void*, const std::vector<wire::arg>&, call_state&, wire::reply&);
const std::map<std::string, invoker>& invokers() {
  static const std::map<std::string, invoker> table = {
#define KC_INVOKER(name, R, ...) {#name, &invoke_entry<R, ##__VA_ARGS__>},
      KC_SUBMISSION_ENTRY_POINTS(KC_INVOKER)
#undef KC_INVOKER
  };
  return table;
}

std::string demangled(const char* name) {
  int status = 0;
  char* readable = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string out = status == 0 && readable != nullptr ? readable : name;
  std::free(readable);
  return out;
}

// ---- the executor ----
class executor {
 public:
  executor(const char* submission, const char* bus, bool blocking)
      : submission_(submission), bus_(bus), blocking_(blocking) {
    hello_.version = wire::protocol_version;
  }

  // Greets the judge once the device is open (wire::hello_stage: the grader's start-up ends there)
  // and again once the library is loaded, then answers requests until the judge is done.
  void serve() {
    open_device(bus_, blocking_);
    hello_.stage = wire::hello_stage::device_opened;
    if (!wire::send_message(channel, wire::encode(hello_))) return;
    if (hello_.device_ok && submission_ != nullptr) load(submission_);
    hello_.stage = wire::hello_stage::library_loaded;
    if (!wire::send_message(channel, wire::encode(hello_))) return;
    for (;;) {
      const auto message = wire::receive_message(channel);
      if (!message) return;  // the judge is done (or gone)
      const auto request = wire::decode_request(message->data(), message->size());
      if (!request || request->what == wire::op::quit) {
        release();
        return;
      }
      wire::reply r = request->what == wire::op::kernel_info ? kernel_info(*request)
                      : request->what == wire::op::echo      ? echo()
                      : request->what == wire::op::replay    ? replay(*request)
                                                             : call(*request);
      r.nonce = request->nonce;
      if (!wire::send_message(channel, wire::encode(r))) return;
    }
  }

 private:
  void open_device(const char* bus, bool blocking) {
    int device = -1;
    cudaError_t e = cudaDeviceGetByPCIBusId(&device, bus);
    if (e == cudaSuccess) e = cudaSetDevice(device);
    if (e == cudaSuccess && blocking) e = cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync);
    if (e == cudaSuccess) e = cudaFree(nullptr);  // the context, now
    if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    hello_.device_ok = e == cudaSuccess;
    if (!hello_.device_ok)
      hello_.device_problem = std::string("could not open device ") + bus + ": " + cudaGetErrorName(e) + ": " +
                              cudaGetErrorString(e);
  }

  void load(const char* submission) {
    // What is loaded from here on, the submission's doing or not, is checked for library code.
    watch_libraries_from_here(submission);
    library_ = dlopen(submission, RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) {
      const char* why = dlerror();
      hello_.load_problem = std::string("could not load the submission: ") + (why != nullptr ? why : "?");
      return;
    }
    hello_.loaded = true;
    // The guard's readouts, found once: every call reads them, inside the judge's timed region.
    refusals_ = reinterpret_cast<refusals_fn>(dlsym(library_, "kc_grader_memory_refusals"));
    launched_ = reinterpret_cast<launched_fn>(dlsym(library_, "kc_grader_launched_kernels"));
    for (const auto& [name, unused] : invokers())
      if (void* symbol = dlsym(library_, name.c_str()); symbol != nullptr) {
        symbols_[name] = symbol;
        hello_.entries.push_back(name);
      }
  }

  wire::reply call(const wire::request& request) {
    wire::reply r;
    if (request.drop_mappings_first) maps_.close_all();
    if (request.record == wire::record_mode::first) recorded_.clear();
    call_state s{&maps_, stream_, {}, {}};
    if (!make(request.entry, request.args, s, r)) return r;
    if (request.record != wire::record_mode::none) recorded_.push_back({request.entry, request.args});
    r.host_out = s.host_out;
    finish(r);
    return r;
  }

  // One call of an entry; false with r.problem set when it could not be made.
  bool make(const std::string& entry, const std::vector<wire::arg>& args, call_state& s, wire::reply& r) {
    const auto symbol = symbols_.find(entry);
    const auto run = invokers().find(entry);
    if (symbol == symbols_.end() || run == invokers().end()) {
      r.problem = "the submission does not export " + entry;
      return false;
    }
    run->second(symbol->second, args, s, r);
    if (!r.made && maps_.take_stale()) {
      // Every mapping dropped (after the device is done with them: a replay's earlier calls may still
      // be running) and the call's buffers mapped afresh, once.
      (void)cudaDeviceSynchronize();
      maps_.close_all();
      s.host_out.clear();
      s.problem.clear();
      r = wire::reply{};
      run->second(symbol->second, args, s, r);
    }
    if (!r.made) r.problem = s.problem.empty() ? "the call could not be made" : s.problem;
    return r.made;
  }

  // The recorded calls, `repeat` times back to back on the executor's stream, the k-th time with
  // every buffer of replay_from swapped for its counterpart in row k-1 of replay_to (the judge's
  // copies of the same contents at other addresses), then the device waited for once: the judge
  // times the whole exchange, so what crossing the boundary costs is paid once for `repeat` calls.
  // The first refusal ends the replay (a refused call times as nothing; the judge fails the case).
  wire::reply replay(const wire::request& request) {
    wire::reply r;
    const std::size_t buffers = request.replay_from.size();
    if (request.repeat == 0 || recorded_.empty() ||
        request.replay_to.size() != buffers * (request.repeat - 1)) {
      r.problem = "a replay without recorded calls or with buffer sets of the wrong size";
      return r;
    }
    for (std::uint32_t k = 0; k < request.repeat; ++k) {
      for (const auto& [entry, recorded_args] : recorded_) {
        std::vector<wire::arg> args = recorded_args;
        if (k > 0)
          for (wire::arg& a : args)
            for (std::size_t b = 0; b < buffers && a.kind == wire::arg_kind::device_pointer; ++b)
              if (a.handle == request.replay_from[b].handle &&
                  static_cast<std::uint64_t>(a.integer) == request.replay_from[b].id) {
                a.handle = request.replay_to[(k - 1) * buffers + b].handle;
                a.integer = static_cast<std::int64_t>(request.replay_to[(k - 1) * buffers + b].id);
                break;
              }
        wire::reply one;
        call_state s{&maps_, stream_, {}, {}};
        if (!make(entry, args, s, one)) {
          r.problem = one.problem;
          return r;
        }
        if (one.refused) {
          r.made = true;
          r.refused = true;
          r.refusal = one.refusal;
          finish(r);
          return r;
        }
      }
    }
    r.made = true;
    finish(r);
    return r;
  }

  // The device's verdict on what the call left, and the guard's readouts.
  void finish(wire::reply& r) {
    r.launch_error = static_cast<std::int32_t>(r.refused ? cudaSuccess : cudaGetLastError());
    if (r.refused) (void)cudaGetLastError();
    const cudaError_t synced = cudaDeviceSynchronize();
    r.sync_error = static_cast<std::int32_t>(synced);
    if (synced != cudaSuccess) {
      (void)cudaGetLastError();
      r.sticky = cudaDeviceSynchronize() != cudaSuccess;  // a sticky error does not clear
    }
    read_guard(r);
    if (const auto found = library_code_found()) r.runtime_libraries = *found;
  }

  // At the judge's quit: its buffers unmapped and the stream gone, so a wrapping memcheck's leak
  // check at exit reports the submission's own allocations only.
  void release() {
    maps_.close_all();
    if (stream_ != nullptr) (void)cudaStreamDestroy(stream_);
    stream_ = nullptr;
  }

  // The kernels are sent as tokens (their addresses here); the judge names one through kernel_info
  // when it needs to.
  void read_guard(wire::reply& r) {
    if (library_ == nullptr) return;  // the echo executor: no submission, no guard
    r.guard_found = refusals_ != nullptr && launched_ != nullptr;
    if (!r.guard_found) return;
    size_t largest = 0, held = 0, limit = 0;
    r.memory_refusals = refusals_(&largest, &held, &limit);
    r.largest_refused = largest;
    r.memory_held = held;
    r.memory_limit = limit;
    std::array<const void*, 64> kernels{};
    unsigned long long launches = 0;
    int more = 0;
    const std::size_t distinct = launched_(kernels.data(), kernels.size(), &launches, &more);
    for (std::size_t i = 0; i < distinct && i < kernels.size(); ++i)
      r.launched.push_back(reinterpret_cast<std::uintptr_t>(kernels[i]));
    r.launches = launches;
    r.more_launched = more != 0 || distinct > kernels.size();
  }

  // The cost of a call with next to no work in it: one one-thread kernel on the stream, then what
  // every call does after its entry returns (finish: the device's verdict, the readouts), so the
  // judge's timing subtracts what a submission's call costs besides its own work.
  wire::reply echo() {
    wire::reply r;
    r.made = true;
    launch_echo_kernel(stream_);
    finish(r);
    return r;
  }

  // What the runtime says of a kernel the submission returned (kc_vector_add_kernel).
  wire::reply kernel_info(const wire::request& request) {
    wire::reply r;
    r.made = true;
    const void* kernel = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(request.kernel));
    const char* name = nullptr;
    if (cudaFuncGetName(&name, kernel) == cudaSuccess && name != nullptr) r.kernel_name = demangled(name);
    (void)cudaGetLastError();
    cudaFuncAttributes attributes{};
    cudaError_t e = cudaFuncGetAttributes(&attributes, kernel);
    int blocks = -1;
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, request.block, 0);
    (void)cudaGetLastError();
    r.kernel_query_error = static_cast<std::int32_t>(e);
    r.num_regs = attributes.numRegs;
    r.shared_size_bytes = static_cast<std::int32_t>(attributes.sharedSizeBytes);
    r.max_dynamic_shared_bytes = attributes.maxDynamicSharedSizeBytes;
    r.occupancy_blocks = blocks;
    return r;
  }

  using refusals_fn = unsigned long (*)(size_t*, size_t*, size_t*);
  using launched_fn = std::size_t (*)(const void**, std::size_t, unsigned long long*, int*);

  const char* submission_;
  const char* bus_;
  bool blocking_;
  wire::hello hello_;
  void* library_ = nullptr;
  refusals_fn refusals_ = nullptr;
  launched_fn launched_ = nullptr;
  std::map<std::string, void*> symbols_;
  cudaStream_t stream_ = nullptr;
  mappings maps_;
  std::vector<std::pair<std::string, std::vector<wire::arg>>> recorded_;  // the calls a replay makes
};

}  // namespace

int main(int argc, char** argv) {
  const char* submission = nullptr;
  const char* bus = nullptr;
  bool blocking = false, echo = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--submission" && i + 1 < argc) submission = argv[++i];
    else if (a == "--echo") echo = true;
    else if (a == "--device" && i + 1 < argc) bus = argv[++i];
    else if (a == "--blocking") blocking = true;
  }
  if ((submission == nullptr) == !echo || bus == nullptr) return 2;
  executor(submission, bus, blocking).serve();
  // The judge closed the channel: end without running the submission's destructors' work on the
  // device any further than exit() does.
  return 0;
}
