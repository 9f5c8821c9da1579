#include "grading/loaded_libraries.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace kc::grading {

namespace {

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "libcublasLt.so.13" -> {"cublaslt", "so", "13"}: the name without "lib", split at anything that is
// not a letter or digit, so that "cub" is matched as a word and not inside "cublas".
std::vector<std::string> name_words(std::string_view path) {
  std::string name = lowercase(path.substr(path.rfind('/') + 1));
  if (name.starts_with("lib")) name.erase(0, 3);
  std::vector<std::string> words(1);
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      words.back() += c;
    } else if (!words.back().empty()) {
      words.emplace_back();
    }
  }
  if (words.back().empty()) words.pop_back();
  return words;
}

std::vector<std::string> components(std::string_view path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = std::min(path.find('/', start), path.size());
    if (slash > start) out.emplace_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

bool is_lib_dir(const std::string& c) { return c == "lib" || c == "lib32" || c == "lib64" || c == "libx32"; }

// cuda, or cuda-<version> as the toolkit installers name it (cuda-13.0).
bool is_cuda_dir(const std::string& c) {
  if (c == "cuda") return true;
  return c.size() > 5 && c.starts_with("cuda-") &&
         std::all_of(c.begin() + 5, c.end(), [](char x) { return std::isdigit(static_cast<unsigned char>(x)) || x == '.'; });
}

bool under_system_dir(const std::vector<std::string>& p) {
  if (p.size() >= 2 && is_lib_dir(p[0])) return true;
  if (p.size() >= 3 && p[0] == "usr" && is_lib_dir(p[1])) return true;
  if (p.size() >= 4 && p[0] == "usr" && p[1] == "local" && (is_cuda_dir(p[2]) || p[2] == "nvidia")) return true;
  return false;
}

bool under_dir(const std::vector<std::string>& p, const std::string& dir) {
  if (dir.empty() || dir.front() != '/') return false;
  const std::vector<std::string> d = components(dir);
  return !d.empty() && p.size() > d.size() && std::equal(d.begin(), d.end(), p.begin());
}

}  // namespace

std::string library_code_named(std::string_view path) {
  const std::vector<std::string> words = name_words(path);
  if (words.empty()) return "";
  // The CUDA libraries, by the first word of the name (libcublasLt, libcudnn_ops, libnvrtc-builtins).
  static const std::pair<const char*, const char*> cuda_families[] = {
      {"cublas", "cuBLAS"},        {"cudnn", "cuDNN"},
      {"nvrtc", "NVRTC (run-time compilation)"}, {"nvjitlink", "nvJitLink (run-time linking)"},
      {"cusparse", "cuSPARSE"},    {"cusolver", "cuSOLVER"},
      {"cufft", "cuFFT"},          {"curand", "cuRAND"},
      {"cutensor", "cuTENSOR"},
  };
  for (const auto& [prefix, family] : cuda_families)
    if (words.front().starts_with(prefix)) return family;
  // Header libraries, when someone has compiled them into a shared library of their own.
  const std::string name = lowercase(path.substr(path.rfind('/') + 1));
  if (name.find("cutlass") != std::string::npos) return "CUTLASS";
  if (name.find("thrust") != std::string::npos) return "Thrust";
  if (std::find(words.begin(), words.end(), "cub") != words.end()) return "CUB";
  // A host BLAS computes a product as well as cuBLAS does, only slower.
  static const char* host_blas[] = {"blas", "cblas", "openblas", "flexiblas", "blis", "lapack", "lapacke", "mkl"};
  for (const std::string& w : words)
    if (std::find(std::begin(host_blas), std::end(host_blas), w) != std::end(host_blas) || w.starts_with("openblas"))
      return "a host BLAS or LAPACK library";
  return "";
}

bool under_trusted_dirs(std::string_view path, const std::vector<std::string>& extra_dirs) {
  if (path.empty() || path.front() != '/') return false;
  const std::vector<std::string> p = components(path);
  // ".." could climb out of a trusted directory.
  if (std::any_of(p.begin(), p.end(), [](const std::string& c) { return c == "." || c == ".."; })) return false;
  if (under_system_dir(p)) return true;
  return std::any_of(extra_dirs.begin(), extra_dirs.end(), [&](const std::string& d) { return under_dir(p, d); });
}

std::vector<library_finding> new_library_code(const std::vector<std::string>& before,
                                              const std::vector<std::string>& now, const std::string& submission,
                                              const std::vector<std::string>& extra_dirs) {
  const std::set<std::string> old(before.begin(), before.end());
  std::set<std::string> seen;
  std::vector<library_finding> found;
  for (const std::string& path : now) {
    if (old.count(path) != 0 || path == submission || !seen.insert(path).second) continue;
    std::string what = library_code_named(path);
    if (what.empty() && !under_trusted_dirs(path, extra_dirs))
      what = "a library from outside the system and CUDA directories";
    if (!what.empty()) found.push_back({what, path, "loaded at run time"});
  }
  return found;
}

std::string describe(const library_finding& finding) {
  std::string text = finding.what + ": " + finding.path + " (" + finding.how + ")";
  for (char& c : text)
    if (c == ';' || static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  return text;
}

std::string property_text(const std::vector<library_finding>& findings) {
  std::string out;
  for (const library_finding& f : findings) out += (out.empty() ? "" : "; ") + describe(f);
  return out;
}

}  // namespace kc::grading
