// The rows the perf tests left in <report dir>/perf/*.tsv (fixtures/perf_verdict.hpp writes them,
// one judged point per row). A malformed row — a test killed mid-write, a hand edit — is kept with
// its place so the page can show it; it never stops the report.
#pragma once

#include "fixtures/perf_verdict.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kc::perf_report {

struct malformed_row {
  std::string file;  // file name within perf/
  int line = 0;      // 1-based
  std::string text;  // the row as read (cut to a readable length)
};

struct perf_rows {
  std::vector<perf::judged_point> points;  // in file-name order, then row order
  std::vector<malformed_row> malformed;
  std::vector<std::string> files;          // the .tsv files read, by name
};

// Appends the rows of one file's text to `rows`. Blank lines and the header line ("key\t...") are
// not rows.
void read_perf_text(std::string_view file_name, std::string_view text, perf_rows& rows);

// Every <report_dir>/perf/*.tsv, sorted by file name. A missing perf folder reads as no rows.
perf_rows read_perf_dir(const std::filesystem::path& report_dir);

// The point's label on the page: "variant size config" (the family is the chart it is in).
std::string point_label(const perf::point_key& key);

// The card a point ran on, as the run's summary names GPUs: "GPU 2 (GPU-1a2b3c4d)", index and the
// UUID's first 12 characters; "" where the row does not say (one from before issue 34).
std::string card_label(const perf::judged_point& p);
// Whether the points ran on more than one card (by UUID): then each point says which.
bool several_cards(const std::vector<const perf::judged_point*>& points);
bool several_cards(const perf_rows& rows);

}  // namespace kc::perf_report
