#include "grading/executor/wire.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <cstring>

namespace kc::grading::wire {
namespace {

// Little-endian fields appended to a byte vector; the reader refuses anything that runs past the end
// or past the limits, so a hostile executor's reply cannot make the judge read or allocate wildly.
class writer {
 public:
  void u8(std::uint8_t v) { bytes_.push_back(v); }
  void u32(std::uint32_t v) { raw(&v, sizeof v); }
  void u64(std::uint64_t v) { raw(&v, sizeof v); }
  void i32(std::int32_t v) { raw(&v, sizeof v); }
  void i64(std::int64_t v) { raw(&v, sizeof v); }
  void f64(double v) { raw(&v, sizeof v); }
  void flag(bool v) { u8(v ? 1 : 0); }
  void text(const std::string& s) {
    const std::size_t n = s.size() < max_text ? s.size() : max_text;
    u32(static_cast<std::uint32_t>(n));
    raw(s.data(), n);
  }
  void raw(const void* p, std::size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    bytes_.insert(bytes_.end(), c, c + n);
  }
  std::vector<unsigned char> take() { return std::move(bytes_); }

 private:
  std::vector<unsigned char> bytes_;
};

class reader {
 public:
  reader(const unsigned char* data, std::size_t size) : data_(data), size_(size) {}
  bool ok() const { return ok_; }
  bool at_end() const { return ok_ && at_ == size_; }
  std::uint8_t u8() { std::uint8_t v = 0; raw(&v, 1); return v; }
  std::uint32_t u32() { std::uint32_t v = 0; raw(&v, sizeof v); return v; }
  std::uint64_t u64() { std::uint64_t v = 0; raw(&v, sizeof v); return v; }
  std::int32_t i32() { std::int32_t v = 0; raw(&v, sizeof v); return v; }
  std::int64_t i64() { std::int64_t v = 0; raw(&v, sizeof v); return v; }
  double f64() { double v = 0; raw(&v, sizeof v); return v; }
  bool flag() { return u8() != 0; }
  std::string text() {
    const std::uint32_t n = u32();
    if (n > max_text || n > size_ - at_) ok_ = false;
    if (!ok_) return {};
    std::string s(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
    return s;
  }
  std::size_t count(std::size_t most = max_items) {
    const std::uint32_t n = u32();
    if (n > most) ok_ = false;
    return ok_ ? n : 0;
  }
  void raw(void* p, std::size_t n) {
    if (!ok_ || n > size_ - at_) {
      ok_ = false;
      std::memset(p, 0, n);
      return;
    }
    std::memcpy(p, data_ + at_, n);
    at_ += n;
  }

 private:
  const unsigned char* data_;
  std::size_t size_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

constexpr std::uint8_t request_tag = 0x51, reply_tag = 0x52, hello_tag = 0x53;

}  // namespace

std::vector<unsigned char> encode(const request& r) {
  writer w;
  w.u8(request_tag);
  w.u8(static_cast<std::uint8_t>(r.what));
  w.u64(r.nonce);
  w.text(r.entry);
  w.flag(r.drop_mappings_first);
  w.u32(static_cast<std::uint32_t>(r.args.size()));
  for (const arg& a : r.args) {
    w.u8(static_cast<std::uint8_t>(a.kind));
    w.i64(a.integer);
    w.f64(a.real);
    w.raw(a.handle.data(), a.handle.size());
    w.u64(a.offset);
  }
  w.u64(r.kernel);
  w.i32(r.block);
  w.u8(static_cast<std::uint8_t>(r.record));
  w.u32(r.repeat);
  for (const std::vector<ipc_buffer>* list : {&r.replay_from, &r.replay_to}) {
    w.u32(static_cast<std::uint32_t>(list->size()));
    for (const ipc_buffer& b : *list) {
      w.raw(b.handle.data(), b.handle.size());
      w.u64(b.id);
    }
  }
  return w.take();
}

std::optional<request> decode_request(const unsigned char* data, std::size_t size) {
  reader in(data, size);
  if (in.u8() != request_tag) return std::nullopt;
  request r;
  r.what = static_cast<op>(in.u8());
  r.nonce = in.u64();
  r.entry = in.text();
  r.drop_mappings_first = in.flag();
  const std::size_t n = in.count();
  for (std::size_t i = 0; i < n && in.ok(); ++i) {
    arg a;
    a.kind = static_cast<arg_kind>(in.u8());
    a.integer = in.i64();
    a.real = in.f64();
    in.raw(a.handle.data(), a.handle.size());
    a.offset = in.u64();
    r.args.push_back(a);
  }
  r.kernel = in.u64();
  r.block = in.i32();
  const std::uint8_t record = in.u8();
  if (record > static_cast<std::uint8_t>(record_mode::next)) return std::nullopt;
  r.record = static_cast<record_mode>(record);
  r.repeat = in.u32();
  if (r.repeat > max_repeat) return std::nullopt;
  for (std::vector<ipc_buffer>* list : {&r.replay_from, &r.replay_to}) {
    const std::size_t buffers = in.count(max_handles);
    for (std::size_t i = 0; i < buffers && in.ok(); ++i) {
      ipc_buffer b;
      in.raw(b.handle.data(), b.handle.size());
      b.id = in.u64();
      list->push_back(b);
    }
  }
  if (!in.at_end()) return std::nullopt;
  return r;
}

std::vector<unsigned char> encode(const reply& r) {
  writer w;
  w.u8(reply_tag);
  w.u64(r.nonce);
  w.flag(r.made);
  w.text(r.problem);
  w.flag(r.refused);
  w.text(r.refusal);
  w.u64(r.returned);
  w.i32(r.launch_error);
  w.i32(r.sync_error);
  w.flag(r.sticky);
  w.u32(static_cast<std::uint32_t>(r.host_out.size()));
  for (const std::int32_t v : r.host_out) w.i32(v);
  w.flag(r.guard_found);
  w.u64(r.memory_refusals);
  w.u64(r.largest_refused);
  w.u64(r.memory_held);
  w.u64(r.memory_limit);
  const std::size_t kernels = r.launched.size() < max_items ? r.launched.size() : max_items;
  w.u32(static_cast<std::uint32_t>(kernels));
  for (std::size_t i = 0; i < kernels; ++i) w.u64(r.launched[i]);
  w.u64(r.launches);
  w.flag(r.more_launched);
  w.text(r.runtime_libraries);
  w.text(r.kernel_name);
  w.i32(r.kernel_query_error);
  w.i32(r.num_regs);
  w.i32(r.shared_size_bytes);
  w.i32(r.max_dynamic_shared_bytes);
  w.i32(r.occupancy_blocks);
  return w.take();
}

std::optional<reply> decode_reply(const unsigned char* data, std::size_t size) {
  reader in(data, size);
  if (in.u8() != reply_tag) return std::nullopt;
  reply r;
  r.nonce = in.u64();
  r.made = in.flag();
  r.problem = in.text();
  r.refused = in.flag();
  r.refusal = in.text();
  r.returned = in.u64();
  r.launch_error = in.i32();
  r.sync_error = in.i32();
  r.sticky = in.flag();
  const std::size_t outs = in.count();
  for (std::size_t i = 0; i < outs && in.ok(); ++i) r.host_out.push_back(in.i32());
  r.guard_found = in.flag();
  r.memory_refusals = in.u64();
  r.largest_refused = in.u64();
  r.memory_held = in.u64();
  r.memory_limit = in.u64();
  const std::size_t kernels = in.count();
  for (std::size_t i = 0; i < kernels && in.ok(); ++i) r.launched.push_back(in.u64());
  r.launches = in.u64();
  r.more_launched = in.flag();
  r.runtime_libraries = in.text();
  r.kernel_name = in.text();
  r.kernel_query_error = in.i32();
  r.num_regs = in.i32();
  r.shared_size_bytes = in.i32();
  r.max_dynamic_shared_bytes = in.i32();
  r.occupancy_blocks = in.i32();
  if (!in.at_end()) return std::nullopt;
  return r;
}

std::vector<unsigned char> encode(const hello& h) {
  writer w;
  w.u8(hello_tag);
  w.u32(h.version);
  w.u8(static_cast<std::uint8_t>(h.stage));
  w.flag(h.device_ok);
  w.text(h.device_problem);
  w.flag(h.loaded);
  w.text(h.load_problem);
  w.u32(static_cast<std::uint32_t>(h.entries.size()));
  for (const std::string& e : h.entries) w.text(e);
  return w.take();
}

std::optional<hello> decode_hello(const unsigned char* data, std::size_t size) {
  reader in(data, size);
  if (in.u8() != hello_tag) return std::nullopt;
  hello h;
  h.version = in.u32();
  const std::uint8_t stage = in.u8();
  if (stage != static_cast<std::uint8_t>(hello_stage::device_opened) &&
      stage != static_cast<std::uint8_t>(hello_stage::library_loaded))
    return std::nullopt;
  h.stage = static_cast<hello_stage>(stage);
  h.device_ok = in.flag();
  h.device_problem = in.text();
  h.loaded = in.flag();
  h.load_problem = in.text();
  const std::size_t entries = in.count();
  for (std::size_t i = 0; i < entries && in.ok(); ++i) h.entries.push_back(in.text());
  if (!in.at_end()) return std::nullopt;
  return h;
}

bool send_message(int fd, const std::vector<unsigned char>& bytes) {
  for (;;) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent == static_cast<ssize_t>(bytes.size())) return true;
    if (sent < 0 && errno == EINTR) continue;
    return false;
  }
}

std::optional<std::vector<unsigned char>> receive_message(int fd) {
  // One buffer per thread, not a fresh 256 KiB one per message: the judge receives inside its timed
  // regions.
  thread_local std::vector<unsigned char> buffer(max_message);
  for (;;) {
    const ssize_t got = ::recv(fd, buffer.data(), buffer.size(), MSG_TRUNC);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0 || static_cast<std::size_t>(got) > buffer.size()) return std::nullopt;
    return std::vector<unsigned char>(buffer.begin(), buffer.begin() + got);
  }
}

}  // namespace kc::grading::wire
