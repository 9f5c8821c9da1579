// The judge/executor channel's messages (grading/executor/wire.hpp): what the judge sends comes back
// as sent, and what the executor (the submission's process) sends is parsed with bounds: a truncated,
// padded, mislabelled or oversized reply is refused, never read past its end.
#include "grading/executor/wire.hpp"

#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <string>

namespace kc::grading::wire {
namespace {

reply sample_reply() {
  reply r;
  r.nonce = 0x1234567890abcdefULL;
  r.made = true;
  r.refused = true;
  r.refusal = "block 96 is not a power of two";
  r.returned = 77;
  r.launch_error = 9;
  r.host_out = {3, 48};
  r.guard_found = true;
  r.memory_refusals = 2;
  r.launched = {0x1000, 0x2000};
  r.launches = 5;
  r.runtime_libraries = "cuBLAS: /usr/lib/libcublas.so.13";
  r.occupancy_blocks = 16;
  return r;
}

TEST(Wire, ARequestComesBackAsSent) {
  request q;
  q.what = op::call;
  q.nonce = 99;
  q.entry = "kc_matmul";
  q.drop_mappings_first = true;
  arg a;
  a.kind = arg_kind::device_pointer;
  a.offset = 4096;
  a.handle[0] = 7;
  a.handle[63] = 9;
  arg n;
  n.kind = arg_kind::u64;
  n.integer = 1 << 20;
  q.args = {a, n};
  const auto bytes = encode(q);
  const auto back = decode_request(bytes.data(), bytes.size());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->nonce, 99u);
  EXPECT_EQ(back->entry, "kc_matmul");
  EXPECT_TRUE(back->drop_mappings_first);
  ASSERT_EQ(back->args.size(), 2u);
  EXPECT_EQ(back->args[0].offset, 4096u);
  EXPECT_EQ(back->args[0].handle[63], 9);
  EXPECT_EQ(back->args[1].integer, 1 << 20);
}

TEST(Wire, AReplayRequestComesBackAsSentAndAnOversizedOneIsRefused) {
  request q;
  q.what = op::replay;
  q.nonce = 5;
  q.repeat = 3;
  ipc_buffer a, b, c;
  a.handle[0] = 1, b.handle[0] = 2, c.handle[63] = 3, c.id = 77;
  q.replay_from = {a};
  q.replay_to = {b, c};
  const auto bytes = encode(q);
  const auto back = decode_request(bytes.data(), bytes.size());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->what, op::replay);
  EXPECT_EQ(back->repeat, 3u);
  EXPECT_EQ(back->replay_from, q.replay_from);
  EXPECT_EQ(back->replay_to, q.replay_to);
  for (std::size_t size = 0; size < bytes.size(); ++size)
    EXPECT_FALSE(decode_request(bytes.data(), size).has_value()) << "truncated to " << size << " bytes";
  request recorded;
  recorded.record = record_mode::first;
  const auto recorded_bytes = encode(recorded);
  ASSERT_TRUE(decode_request(recorded_bytes.data(), recorded_bytes.size()).has_value());
  EXPECT_EQ(decode_request(recorded_bytes.data(), recorded_bytes.size())->record, record_mode::first);
  request too_many = q;
  too_many.repeat = max_repeat + 1;
  const auto too_many_bytes = encode(too_many);
  EXPECT_FALSE(decode_request(too_many_bytes.data(), too_many_bytes.size()).has_value());
  request too_many_handles = q;
  too_many_handles.replay_to.assign(max_handles + 1, b);
  const auto handle_bytes = encode(too_many_handles);
  EXPECT_FALSE(decode_request(handle_bytes.data(), handle_bytes.size()).has_value());
}

TEST(Wire, AReplyComesBackAsSent) {
  const auto bytes = encode(sample_reply());
  const auto back = decode_reply(bytes.data(), bytes.size());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->nonce, sample_reply().nonce);
  EXPECT_EQ(back->refusal, sample_reply().refusal);
  EXPECT_EQ(back->host_out, sample_reply().host_out);
  EXPECT_EQ(back->launched, sample_reply().launched);
  EXPECT_EQ(back->runtime_libraries, sample_reply().runtime_libraries);
  EXPECT_EQ(back->occupancy_blocks, 16);
}

TEST(Wire, EveryTruncationAndAnyPaddingOfAReplyIsRefused) {
  const auto bytes = encode(sample_reply());
  for (std::size_t size = 0; size < bytes.size(); ++size)
    EXPECT_FALSE(decode_reply(bytes.data(), size).has_value()) << "truncated to " << size << " bytes";
  auto padded = bytes;
  padded.push_back(0);
  EXPECT_FALSE(decode_reply(padded.data(), padded.size()).has_value());
}

// The executor greets twice (hello_stage): once the device is open, under the start-up deadline, and
// once the library is loaded, under the kernel deadline. The stage crosses as sent, and a stage the
// protocol does not have is refused (the judge would otherwise take one greeting for the other).
TEST(Wire, AHellosStageComesBackAsSentAndAnUnknownStageIsRefused) {
  hello h;
  h.version = protocol_version;
  h.stage = hello_stage::device_opened;
  h.device_ok = true;
  auto bytes = encode(h);
  std::optional<hello> back = decode_hello(bytes.data(), bytes.size());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->stage, hello_stage::device_opened);
  h.stage = hello_stage::library_loaded;
  h.loaded = true;
  h.entries = {"kc_reduce"};
  bytes = encode(h);
  back = decode_hello(bytes.data(), bytes.size());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->stage, hello_stage::library_loaded);
  EXPECT_EQ(back->entries, h.entries);
  bytes[1 + 4] = 3;  // the stage byte follows the tag and the version
  EXPECT_FALSE(decode_hello(bytes.data(), bytes.size()).has_value());
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    bytes[1 + 4] = 2;
    EXPECT_FALSE(decode_hello(bytes.data(), size).has_value()) << "truncated to " << size << " bytes";
  }
}

TEST(Wire, AHelloOrRequestIsNotAReply) {
  const auto hello_bytes = encode(hello{});
  EXPECT_FALSE(decode_reply(hello_bytes.data(), hello_bytes.size()).has_value());
  const auto request_bytes = encode(request{});
  EXPECT_FALSE(decode_reply(request_bytes.data(), request_bytes.size()).has_value());
}

TEST(Wire, ATextLongerThanTheLimitIsRefusedNotRead) {
  // A reply whose refusal claims 2^31 bytes: the reader stops at the claim, allocates nothing.
  auto bytes = encode(sample_reply());
  const std::size_t refusal_length_at = 1 + 8 + 1 + 4 + sample_reply().problem.size() + 1;  // tag, nonce, made, problem, refused
  const std::uint32_t huge = 1u << 31;
  std::memcpy(bytes.data() + refusal_length_at, &huge, sizeof huge);
  EXPECT_FALSE(decode_reply(bytes.data(), bytes.size()).has_value());
  // And one the writer cuts: a refusal past max_text is sent as its first max_text bytes.
  reply long_refusal = sample_reply();
  long_refusal.refusal.assign(max_text + 100, 'x');
  const auto cut = encode(long_refusal);
  const auto back = decode_reply(cut.data(), cut.size());
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->refusal.size(), max_text);
}

TEST(Wire, MessagesCrossASocketpairWhole) {
  int pair[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, pair), 0);
  const auto bytes = encode(sample_reply());
  ASSERT_TRUE(send_message(pair[0], bytes));
  const auto got = receive_message(pair[1]);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, bytes);
  close(pair[0]);
  EXPECT_FALSE(receive_message(pair[1]).has_value()) << "a closed peer is the end, not an empty message";
  close(pair[1]);
}

}  // namespace
}  // namespace kc::grading::wire
