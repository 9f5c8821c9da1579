// report.html in a real browser: headless Chromium loads the page written from the recorded run and
// dumps the DOM it built. The page must load without the browser failing (exit 0) and show the
// verdict and the failed case. Skipped, saying so, where no Chromium or Chrome is installed (CI
// machines without one); the CPU tests check the page's text either way.
#include "tests/run_report/recorded_run_copy.hpp"
#include "tools/run_report/run_report_cli.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace kc::run_report {
namespace {

using testing::file_text;
using testing::recorded_run_copy;

constexpr const char* browsers[] = {"chromium", "chromium-browser", "google-chrome"};

// The first of `browsers` found as an executable on PATH; "" if none.
std::string browser_on_path() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  for (const char* browser : browsers) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');) {
      const std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / browser;
      if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) return candidate.string();
    }
  }
  return "";
}

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

TEST(RunReportBrowser, ShowsTheVerdictAndTheFailedCase) {
  const std::string browser = browser_on_path();
  if (browser.empty())
    GTEST_SKIP() << "no headless browser (chromium) installed: none of chromium, chromium-browser, google-chrome is on "
                    "PATH (Debian: apt-get install chromium)";
  const recorded_run_copy run;
  std::ostringstream out, err;
  ASSERT_EQ(run_run_report({"--report-dir", run.path().string()}, out, err), exit_written) << err.str();

  // Its own profile folder: a browser run as root or in a fresh container has no usable one.
  const std::filesystem::path dom = run.path() / "dom.html", log = run.path() / "browser.log";
  const std::string command = "timeout 120 " + quoted(browser) +
                              " --headless --disable-gpu --no-sandbox --disable-dev-shm-usage --no-first-run"
                              " --user-data-dir=" + quoted((run.path() / "profile").string()) +
                              " --dump-dom " + quoted("file://" + (run.path() / "report.html").string()) + " >" +
                              quoted(dom.string()) + " 2>" + quoted(log.string());
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
      << browser << " failed (status " << status << "):\n" << file_text(log);

  const std::string shown = file_text(dom);
  EXPECT_NE(shown.find("<div id=\"verdict\" class=\"run-verdict failed\">FAILED</div>"), std::string::npos)
      << "the dumped DOM (" << shown.size() << " bytes) lacks the verdict";
  EXPECT_NE(shown.find("Matmul/Conformance.MatchesReference/SharedTiledM3N5K2B16TW16Integer"), std::string::npos);
  EXPECT_NE(shown.find("<svg class=\"chart\""), std::string::npos) << "the perf charts parsed as SVG";
  EXPECT_NE(shown.find("</html>"), std::string::npos) << "the whole page was parsed";
}

}  // namespace
}  // namespace kc::run_report
