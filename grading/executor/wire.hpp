// The judge/executor channel (issue 32): what the judge (a grading program) asks the executor (the
// process that runs the submission's code, grading/executor/executor_main.cpp) and what it answers,
// one message per SOCK_SEQPACKET record over a socketpair.
//
// The judge never believes the executor: every reply is parsed with bounds (a string is at most
// max_text bytes, a list at most max_items), and a malformed reply ends the case as if the executor
// had died. Device buffers cross as CUDA IPC handles of the judge's allocations plus an offset; the
// executor maps them (cudaIpcOpenMemHandle) and keeps the mappings until the judge says to drop them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kc::grading::wire {

inline constexpr std::uint32_t protocol_version = 3;  // 3: the executor greets twice (hello_stage)
inline constexpr std::size_t max_message = 256 * 1024;
inline constexpr std::size_t max_text = 16 * 1024;
inline constexpr std::size_t max_items = 256;
inline constexpr std::size_t max_handles = 4096;  // a replay's buffer sets: sets x buffers
inline constexpr std::uint32_t max_repeat = 1024;

// A judge allocation's cudaIpcMemHandle_t, as bytes.
using ipc_handle = std::array<unsigned char, 64>;

// One argument of an entry point, in the order of its C signature.
enum class arg_kind : std::uint8_t {
  device_pointer = 1,  // a judge buffer: IPC handle + offset
  null_pointer = 2,
  i32 = 3,
  u64 = 4,
  f64 = 5,
  stream = 6,          // the executor's own stream
  host_i32_out = 7,    // an int the entry writes (the occupancy answer's outputs); returned in the reply
};

struct arg {
  arg_kind kind = arg_kind::null_pointer;
  std::int64_t integer = 0;  // i32, u64 (as bits)
  double real = 0.0;         // f64
  ipc_handle handle{};                     // device_pointer: cudaIpcMemHandle_t's bytes
  std::uint64_t offset = 0;                // device_pointer: bytes past the allocation's start
  // device_pointer: the judge's driver's buffer id of the allocation (0: unknown), carried in
  // `integer`. A buffer freed and another allocated at the same address may get the same handle
  // bytes; the executor reopens a mapping whose id changed rather than reuse a stale one.
};

enum class op : std::uint8_t {
  call = 1,         // run an entry point
  kernel_info = 2,  // what the runtime says of a kernel the submission named (occupancy family)
  quit = 3,
  echo = 4,  // a trusted executor with no submission: one one-thread kernel, waited for (the timing's
             // measure of what an exchange costs by itself: grading/judged_timing.hpp)
  replay = 5,  // the calls recorded since the last record_first, made `repeat` times: the k-th time
               // on the k-th buffer set (replay_from's buffers swapped for row k-1 of replay_to),
               // then the device waited for once
};

// Whether a call is kept for a later replay.
enum class record_mode : std::uint8_t { none = 0, first = 1 /* forget earlier calls, keep this */, next = 2 };


// A judge allocation as a replay names it: its IPC handle and the driver's buffer id (see arg).
struct ipc_buffer {
  ipc_handle handle{};
  std::uint64_t id = 0;
  bool operator==(const ipc_buffer&) const = default;
};

struct request {
  op what = op::call;
  std::uint64_t nonce = 0;          // drawn afresh per request; the reply must carry it back
  std::string entry;                // call: the entry point's name
  bool drop_mappings_first = false; // a new case: close every IPC mapping of earlier cases first
  std::vector<arg> args;
  std::uint64_t kernel = 0;         // kernel_info: the token a call returned
  std::int32_t block = 0;           // kernel_info: the block to ask the occupancy of
  record_mode record = record_mode::none;  // call
  std::uint32_t repeat = 0;                // replay: how many times
  std::vector<ipc_buffer> replay_from;     // replay: the recorded calls' buffers (set 0)
  std::vector<ipc_buffer> replay_to;       // replay: (repeat - 1) rows of replay_from.size() buffers
};

// The executor's answer to a call. Everything in it is the submission's process speaking.
struct reply {
  std::uint64_t nonce = 0;     // the request's: a reply queued before the request was made cannot carry it
  bool made = false;           // the call was made (entry found, arguments decoded, buffers mapped)
  std::string problem;         // !made: why not
  bool refused = false;        // the entry returned a message
  std::string refusal;
  std::uint64_t returned = 0;  // a size_t or pointer-valued entry's result (a kernel as a token)
  std::int32_t launch_error = 0;  // cudaGetLastError() right after the entry returned
  std::int32_t sync_error = 0;    // cudaDeviceSynchronize() after it
  bool sticky = false;            // the context is broken (every later call would fail)
  std::vector<std::int32_t> host_out;
  // The guard's readouts (grading/submission_guard.cpp, inside the submission's library).
  bool guard_found = false;
  std::uint64_t memory_refusals = 0, largest_refused = 0, memory_held = 0, memory_limit = 0;
  std::vector<std::uint64_t> launched;    // distinct kernels launched (tokens), first first
  std::uint64_t launches = 0;
  bool more_launched = false;
  std::string runtime_libraries;          // the library watch's finding, "" when none
  // kernel_info
  std::string kernel_name;
  std::int32_t kernel_query_error = 0;
  std::int32_t num_regs = 0, shared_size_bytes = 0, max_dynamic_shared_bytes = 0;
  std::int32_t occupancy_blocks = -1;
};

// The executor greets twice. First once it has opened the device (its CUDA context, under a
// sanitizer the tool's start too): the grader's own start-up, which the judge waits for under the
// start-up deadline (fixtures/watchdog.hpp), since on a loaded machine it takes seconds. Then once it
// has loaded (or failed to load) the library: the submission's code (its constructors) has run, which
// the judge waits for under the kernel deadline like any other call of the submission's.
enum class hello_stage : std::uint8_t { device_opened = 1, library_loaded = 2 };

struct hello {
  std::uint32_t version = 0;
  hello_stage stage = hello_stage::library_loaded;
  bool device_ok = false;
  std::string device_problem;
  bool loaded = false;
  std::string load_problem;
  std::vector<std::string> entries;  // the contract's entry points the library exports
};

std::vector<unsigned char> encode(const request& r);
std::vector<unsigned char> encode(const reply& r);
std::vector<unsigned char> encode(const hello& h);
std::optional<request> decode_request(const unsigned char* data, std::size_t size);
std::optional<reply> decode_reply(const unsigned char* data, std::size_t size);
std::optional<hello> decode_hello(const unsigned char* data, std::size_t size);

// One record over the socket: false when the peer is gone (or the send failed).
bool send_message(int fd, const std::vector<unsigned char>& bytes);
// The next record; nullopt when the peer closed the channel or the record is too large.
std::optional<std::vector<unsigned char>> receive_message(int fd);

}  // namespace kc::grading::wire
