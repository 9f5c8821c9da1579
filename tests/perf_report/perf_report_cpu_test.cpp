// kconform_perf_report (tools/perf_report): rows of every verdict, as the perf tests write them
// (to_tsv_row), through the reader and the page. Each check has its twin that must fail it: the
// escaped name's raw form is absent, the planted banner is absent without a planted slowdown, the
// no-baseline row draws no band.
#include "fixtures/perf_verdict.hpp"
#include "tools/perf_report/family_chart.hpp"
#include "tools/perf_report/html_text.hpp"
#include "tools/perf_report/log_time_axis.hpp"
#include "tools/perf_report/perf_page.hpp"
#include "tools/perf_report/perf_rows.hpp"
#include "tools/perf_report/report_cli.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace kc::perf_report {
namespace {

using perf::judged_point;
using perf::verdict;

judged_point point_of(const std::string& variant, double median_us, verdict v, double base_median_us = 0.0,
                      double remeasure_us = 0.0, double planted_fraction = 0.0) {
  judged_point p;
  p.key = {"reduction", variant, "n=2^20", "block=256"};
  p.gpu_name = "NVIDIA H200";
  p.first.median_us = median_us;
  p.first.q1_us = median_us * 0.99;
  p.first.q3_us = median_us * 1.01;
  p.first.samples = 50;
  p.first.batch = 4;
  if (base_median_us > 0) {
    perf::baseline_point base;
    base.key = p.key;
    base.median_us = base_median_us;
    base.q1_us = base_median_us * 0.995;
    base.q3_us = base_median_us * 1.005;
    p.base = base;
    p.threshold = 0.03;
  }
  if (remeasure_us > 0) {
    perf::sample_stats again;
    again.median_us = remeasure_us;
    p.remeasure = again;
  }
  p.planted_fraction = planted_fraction;
  p.sm_clock_mhz = 1980;
  p.result = v;
  return p;
}

// One row of each verdict (SLOW with its re-measure), a variant named to need escaping, and one
// malformed row, as a perf test's files would hold them.
std::string every_verdict_text(double planted_fraction = 0.0) {
  const judged_point rows[] = {
      point_of("Steady", 100.0, verdict::ok, 99.0, 0.0, planted_fraction),
      point_of("Regressed", 120.0, verdict::slow, 100.0, 118.0, planted_fraction),
      point_of("Improved", 80.0, verdict::fast, 100.0, 0.0, planted_fraction),
      point_of("Flaky", 110.0, verdict::ambiguous, 100.0, 101.0, planted_fraction),
      point_of("<b>&\"", 5.0, verdict::no_baseline, 0.0, 0.0, planted_fraction),
  };
  std::string text = perf::tsv_header() + "\n";
  for (const judged_point& p : rows) text += perf::to_tsv_row(p) + "\n";
  text += "reduction/Cut/n=7\treduction\tCut\tn=7\n";  // a row cut short mid-write
  return text;
}

perf_rows every_verdict_rows(double planted_fraction = 0.0) {
  perf_rows rows;
  read_perf_text("reduction.tsv", every_verdict_text(planted_fraction), rows);
  rows.files.push_back("reduction.tsv");
  return rows;
}

// The chart group of the point with this key: "<g class=... data-key="key">...</g>".
std::string point_group(const std::string& html, const std::string& key) {
  const std::size_t at = html.find("data-key=\"" + html_escape(key) + "\">");
  if (at == std::string::npos) return "";
  const std::size_t start = html.rfind("<g ", at);
  return html.substr(start, html.find("</g>", at) - start);
}

// A fresh folder per test, removed after it.
class temporary_dir {
 public:
  temporary_dir() {
    path_ = std::filesystem::temp_directory_path() /
            ("kconform_perf_report_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~temporary_dir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(PerfReportRows, ReadsEveryRowAndCountsTheMalformedOne) {
  const perf_rows rows = every_verdict_rows();
  ASSERT_EQ(rows.points.size(), 5u) << "the header line is not a row";
  EXPECT_EQ(rows.points[1].key.variant, "Regressed");
  EXPECT_EQ(rows.points[1].result, verdict::slow);
  ASSERT_TRUE(rows.points[1].remeasure.has_value());
  EXPECT_DOUBLE_EQ(rows.points[1].remeasure->median_us, 118.0);
  EXPECT_FALSE(rows.points[4].base.has_value());
  ASSERT_EQ(rows.malformed.size(), 1u);
  EXPECT_EQ(rows.malformed[0].file, "reduction.tsv");
  EXPECT_EQ(rows.malformed[0].line, 7) << "header, five rows, then the cut row";
}

TEST(PerfReportAxis, XIsMonotoneInTimeAndSpansTheTimes) {
  const log_time_axis axis({3.0, 250.0, 4200.0}, 100.0, 700.0);
  EXPECT_LE(axis.low_us(), 3.0 / 1.15);
  EXPECT_GE(axis.high_us(), 4200.0 * 1.15);
  double previous = axis.x_of(axis.low_us());
  EXPECT_DOUBLE_EQ(previous, 100.0);
  for (double t = axis.low_us() * 1.01; t <= axis.high_us(); t *= 1.07) {
    const double x = axis.x_of(t);
    EXPECT_GT(x, previous) << "at " << t << " us";
    previous = x;
  }
  EXPECT_DOUBLE_EQ(axis.x_of(axis.high_us()), 700.0);
  // Log scale: equal ratios are equal widths.
  EXPECT_NEAR(axis.x_of(20.0) - axis.x_of(10.0), axis.x_of(2000.0) - axis.x_of(1000.0), 1e-9);
  EXPECT_DOUBLE_EQ(axis.x_of(0.0), 100.0) << "a non-positive time sits at the left edge";
}

TEST(PerfReportAxis, LabelsTheDecades) {
  const log_time_axis axis({5.0, 40.0, 3000.0}, 0.0, 600.0);
  std::vector<std::string> labels;
  for (const axis_tick& tick : axis.ticks())
    if (tick.decade) labels.push_back(tick.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"1 \u00b5s", "10 \u00b5s", "100 \u00b5s", "1 ms", "10 ms"}));
  EXPECT_EQ(duration_label(0.5), "500 ns");
  EXPECT_EQ(duration_label(2000.0), "2 ms");
  EXPECT_EQ(duration_label(1e6), "1 s");
}

TEST(PerfReportAxis, NarrowDomainStillHasLabelledEnds) {
  const log_time_axis axis({95.0, 105.0}, 0.0, 600.0);
  const std::vector<axis_tick> ticks = axis.ticks();
  ASSERT_GE(ticks.size(), 2u);
  EXPECT_FALSE(ticks.front().label.empty());
  EXPECT_FALSE(ticks.back().label.empty());
  // Rounded out to decades (10 µs–1 ms) a 10% spread would be 13 px of 600; to 1-2-5 steps (50–200 µs), 43.
  EXPECT_GT(axis.x_of(105.0) - axis.x_of(95.0), 30.0) << "a 10% spread is visible, not squeezed by whole decades";
}

TEST(PerfReportText, FormatsChangesAndBands) {
  EXPECT_EQ(format_change(1.123), "+12.3%");
  EXPECT_EQ(format_change(0.96), "\u22124.0%");
  EXPECT_EQ(format_change(1.0), "+0.0%");
  EXPECT_EQ(format_band(0.03), "\u00b13.0%");
  EXPECT_EQ(html_escape("<b>&\"'"), "&lt;b&gt;&amp;&quot;&#39;");
}

TEST(PerfReportPage, ShowsEveryPointLabel) {
  const std::string html = perf_page_html(every_verdict_rows(), {});
  for (const char* label : {"Steady n=2^20 block=256", "Regressed n=2^20 block=256", "Improved n=2^20 block=256",
                            "Flaky n=2^20 block=256", "&lt;b&gt;&amp;&quot; n=2^20 block=256"})
    EXPECT_NE(html.find(label), std::string::npos) << label;
  EXPECT_NE(html.find("<svg class=\"chart\""), std::string::npos);
  EXPECT_NE(html.find("<table class=\"points\">"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos) << "the page needs no scripts";
}

// On a host of several GPUs each point names the card it ran on (index and the UUID's start), in the
// points to look at and in its family's table; with one card the page stays as it was.
TEST(PerfReportPage, NamesTheCardOfEachPointWhenThereAreSeveral) {
  judged_point slow_card = point_of("Regressed", 120.0, verdict::slow, 100.0, 118.0);
  slow_card.gpu_index = 2;
  slow_card.gpu_uuid = "GPU-1a2b3c4d-0000-1111-2222-333344445555";
  judged_point other = point_of("Steady", 100.0, verdict::ok, 99.0);
  other.gpu_index = 0;
  other.gpu_uuid = "GPU-99999999-0000-1111-2222-333344445555";
  perf_rows rows;
  rows.points = {other, slow_card};
  const std::string html = perf_page_html(rows, {});
  EXPECT_NE(html.find("reduction/Regressed/n=2^20/block=256</a> on GPU 2 (GPU-1a2b3c4d)"), std::string::npos) << html;
  EXPECT_NE(html.find("<th class=\"text\">GPU</th>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"text\">GPU 0 (GPU-99999999)</td>"), std::string::npos);

  rows.points = {slow_card};  // one card: no GPU column, no card named
  const std::string one = perf_page_html(rows, {});
  EXPECT_EQ(one.find("<th class=\"text\">GPU</th>"), std::string::npos);
  EXPECT_EQ(one.find("</a> on GPU 2"), std::string::npos);
  // The chart's tooltip says the card whenever the row does.
  EXPECT_NE(one.find("reduction/Regressed/n=2^20/block=256 on GPU 2 (GPU-1a2b3c4d)\nSLOW"), std::string::npos);
}

TEST(PerfReportPage, MarksEachVerdictWithItsClassAndColour) {
  const std::string html = perf_page_html(every_verdict_rows(), {});
  const struct {
    const char* variant;
    const char* css_class;
    const char* colour;
  } expected[] = {{"Steady", "v-ok", "#2e7d32"},
                  {"Regressed", "v-slow", "#c62828"},
                  {"Improved", "v-fast", "#1565c0"},
                  {"Flaky", "v-ambiguous", "#c27c0e"},
                  {"<b>&\"", "v-no-baseline", "#757575"}};
  for (const auto& e : expected) {
    const std::string group = point_group(html, std::string("reduction/") + e.variant + "/n=2^20/block=256");
    ASSERT_FALSE(group.empty()) << e.variant;
    EXPECT_NE(group.find(std::string("class=\"point ") + e.css_class + "\""), std::string::npos) << group;
    EXPECT_NE(group.find(std::string("<circle class=\"median\"")), std::string::npos) << e.variant;
    EXPECT_NE(group.find(std::string("fill=\"") + e.colour + "\""), std::string::npos) << group;
    EXPECT_NE(group.find("<title>"), std::string::npos) << "hovering shows the numbers";
  }
  // The twin: the OK point carries none of the alarm colours.
  const std::string ok = point_group(html, "reduction/Steady/n=2^20/block=256");
  EXPECT_EQ(ok.find("#c62828"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"v-slow\""), std::string::npos) << "the table row carries the verdict too";
}

TEST(PerfReportPage, DrawsTheReMeasureAndTheBaselineBand) {
  const std::string html = perf_page_html(every_verdict_rows(), {});
  const std::string slow = point_group(html, "reduction/Regressed/n=2^20/block=256");
  EXPECT_NE(slow.find("class=\"remeasure\""), std::string::npos);
  EXPECT_NE(slow.find("class=\"threshold-band\""), std::string::npos);
  EXPECT_NE(slow.find("class=\"base-median\""), std::string::npos);
  EXPECT_NE(slow.find("SLOW +18.0%"), std::string::npos) << "the ratio is the re-measure's (118 against 100)";
  const std::string ok = point_group(html, "reduction/Steady/n=2^20/block=256");
  EXPECT_EQ(ok.find("class=\"remeasure\""), std::string::npos) << "no re-measure, no marker";
  const std::string none = point_group(html, "reduction/<b>&\"/n=2^20/block=256");
  EXPECT_EQ(none.find("threshold-band"), std::string::npos) << "no baseline, no band";
  EXPECT_EQ(none.find("base-median"), std::string::npos);
  EXPECT_NE(none.find("class=\"median\""), std::string::npos) << "the measurement is still drawn";
}

TEST(PerfReportPage, EscapesEveryStringFromTheRows) {
  perf_rows rows = every_verdict_rows();
  rows.points[0].gpu_name = "GPU <i>";
  rows.malformed.push_back({"x<y>.tsv", 3, "<script>alert(1)</script>"});
  const std::string html = perf_page_html(rows, {.title = "Run <1> & \"2\"", .source = "dir/<perf>"});
  EXPECT_EQ(html.find("<b>&\""), std::string::npos) << "the raw variant name must not reach the page";
  EXPECT_NE(html.find("&lt;b&gt;&amp;&quot;"), std::string::npos);
  EXPECT_EQ(html.find("<i>"), std::string::npos);
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(html.find("Run &lt;1&gt; &amp; &quot;2&quot;"), std::string::npos);
  EXPECT_EQ(html.find("<perf>"), std::string::npos);
}

TEST(PerfReportPage, HasLogAxisTickLabels) {
  const std::string html = perf_page_html(every_verdict_rows(), {});
  // The rows span 5 µs to 120 µs: the axis shows the decades between.
  EXPECT_NE(html.find(">10 \u00b5s</text>"), std::string::npos);
  EXPECT_NE(html.find(">100 \u00b5s</text>"), std::string::npos);
}

TEST(PerfReportPage, PlantedBannerOnlyWhenPlanted) {
  const std::string planted = perf_page_html(every_verdict_rows(0.1), {});
  EXPECT_NE(planted.find("planted slowdown of 10.0% \u2014 SLOW verdicts are expected"), std::string::npos);
  const std::string honest = perf_page_html(every_verdict_rows(0.0), {});
  EXPECT_EQ(honest.find("planted slowdown"), std::string::npos);
  EXPECT_EQ(planted_banner_text(every_verdict_rows(0.0)), "");
}

TEST(PerfReportPage, CountsVerdictsAndListsTheMalformedRow) {
  const std::string html = perf_page_html(every_verdict_rows(), {});
  for (const char* count : {"<b>1</b>OK", "<b>1</b>SLOW", "<b>1</b>FAST", "<b>1</b>AMBIGUOUS", "<b>1</b>NO_BASELINE"})
    EXPECT_NE(html.find(count), std::string::npos) << count;
  EXPECT_NE(html.find("id=\"malformed\""), std::string::npos);
  EXPECT_NE(html.find("reduction/Cut/n=7"), std::string::npos);
  EXPECT_NE(html.find("NVIDIA H200"), std::string::npos);
}

TEST(PerfReportPage, ChangeStripWidensForLargeChanges) {
  const judged_point small = point_of("A", 104.0, verdict::slow, 100.0, 104.0);
  const judged_point large = point_of("B", 130.0, verdict::slow, 100.0, 130.0);
  EXPECT_DOUBLE_EQ(change_strip_half_width({&small}), 0.1);
  EXPECT_DOUBLE_EQ(change_strip_half_width({&small, &large}), 0.5);
}

TEST(PerfReportCli, MissingOrEmptyPerfDirIsNoPerfRowsAndWritesNothing) {
  temporary_dir dir;
  std::ostringstream out, err;
  EXPECT_EQ(run_perf_report({"--report-dir", dir.path().string()}, out, err), exit_no_perf_rows);
  EXPECT_NE(err.str().find("no perf rows"), std::string::npos) << err.str();
  std::filesystem::create_directories(dir.path() / "perf");
  std::ofstream(dir.path() / "perf" / "only_header.tsv") << perf::tsv_header() << "\n";
  EXPECT_EQ(run_perf_report({"--report-dir", dir.path().string()}, out, err), exit_no_perf_rows);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "perf.html"));
  EXPECT_EQ(out.str(), "");
}

TEST(PerfReportCli, BadArgumentsExit2) {
  std::ostringstream out, err;
  EXPECT_EQ(run_perf_report({}, out, err), exit_bad_arguments);
  EXPECT_EQ(run_perf_report({"--report-dir"}, out, err), exit_bad_arguments);
  EXPECT_EQ(run_perf_report({"--report-dir", "x", "--colour", "red"}, out, err), exit_bad_arguments);
  EXPECT_NE(err.str().find("usage:"), std::string::npos);
}

TEST(PerfReportCli, WritesThePageAndPrintsItsPath) {
  temporary_dir dir;
  std::filesystem::create_directories(dir.path() / "perf");
  std::ofstream(dir.path() / "perf" / "b.tsv") << every_verdict_text();
  std::ofstream(dir.path() / "perf" / "a.tsv") << perf::to_tsv_row(point_of("First", 50.0, verdict::ok, 50.0)) << "\n";
  std::ofstream(dir.path() / "perf" / "notes.txt") << "not a row file\n";
  std::ostringstream out, err;
  ASSERT_EQ(run_perf_report({"--report-dir", dir.path().string(), "--title", "Nightly"}, out, err), exit_written) << err.str();
  const std::filesystem::path page = dir.path() / "perf.html";
  EXPECT_EQ(out.str(), page.string() + "\n");
  std::ifstream in(page);
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_NE(html.find("<h1>Nightly</h1>"), std::string::npos);
  EXPECT_LT(html.find("First n=2^20"), html.find("Steady n=2^20")) << "files are read in name order";
  EXPECT_NE(html.find("2 files"), std::string::npos) << "notes.txt is not a perf file";
}

}  // namespace
}  // namespace kc::perf_report
