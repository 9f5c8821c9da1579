// Text helpers the three outputs share: clipping long messages, quoting for a shell and for CSV,
// fencing a log in Markdown.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kc::grade_report {

// At most `limit` bytes of `text`, cut at a UTF-8 character boundary, with a note saying how much
// was cut. A compiler's first error is what a student needs, so the head is kept.
std::string clip(std::string_view text, std::size_t limit);

// `s` as one POSIX shell word: single-quoted when `always` or when it holds anything but safe
// characters (a quote inside becomes '\'').
std::string shell_word(std::string_view s, bool always = false);

// `s` as one CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote, a
// line break or edge spaces.
std::string csv_field(std::string_view s);

// `text` in a fenced Markdown block whose fence is longer than any backtick run inside it.
std::string fenced(std::string_view text);

// x rounded to 2 decimals (scores).
double round2(double x);

// x as scores are printed: "12.5", "20", "3.33".
std::string score_text(double x);

}  // namespace kc::grade_report
