#!/usr/bin/env bash
# Real code regressions against the perf verdict (docs/performance.md §4): does a source change that
# makes one kernel slower get flagged SLOW at that kernel's points, and at no other point?
#
#   scripts/perf_regression_experiment.sh <out-dir> [runs] [patch...]   (default: 2 runs, every patch)
#   scripts/perf_regression_experiment.sh --check                        (no GPU: every patch still applies)
#
# Each regression is a patch in ctest_config/perf_regressions/: a real change to one kernel's source
# (not a planted delay), headed by what it does and a "# Points: <regex>" line naming the point keys
# (family/variant/size/config) it should slow down. The experiment copies the source tree to
# <out-dir>/tree (a throwaway copy: this checkout is never touched), builds it once with the gpu
# preset, then for each patch: applies it, rebuilds the perf programs, runs `runs` passes of the perf
# label (the seed conclusions left out: they have no baseline) judged against THIS checkout's committed
# baseline (KCONFORM_BASELINE_DIR), and reverts it. Rows land in <out-dir>/<patch>/run-<i>/perf/*.tsv;
# <out-dir>/regressions.md tabulates, per patch, its points flagged SLOW in every run and any other
# point flagged SLOW in any run, with the measured ratios. Exit 0 when every patch was flagged at all
# of its points in every run and nowhere else; 1 otherwise (the table says where); 2 when it could
# not run (a patch that no longer applies, a build that fails, no judged row).
# Run it alone on the GPU, on a GPU that has a committed baseline.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
patch_dir=ctest_config/perf_regressions

apply_patch() {  # <tree> <patch> [--reverse] [--check]: git apply where git is, else patch(1)
  local tree=$1 patch=$2; shift 2
  if command -v git >/dev/null 2>&1; then
    (cd "$tree" && git apply "$@" "$patch")
  else
    local args=(-p1 --forward --silent)
    for a in "$@"; do
      case $a in --reverse) args+=(--reverse) ;; --check) args+=(--dry-run) ;; esac
    done
    (cd "$tree" && patch "${args[@]}" <"$patch")
  fi
}
points_of() { sed -n 's/^# Points: //p' "$1" | head -n 1; }

if [ "${1:-}" = "--check" ]; then
  status=0
  for p in "$patch_dir"/*.patch; do
    if [ -z "$(points_of "$p")" ]; then echo "FAIL $p: no '# Points: <regex>' line"; status=1; continue; fi
    if apply_patch "$root" "$root/$p" --check; then echo "ok   $p applies (points: $(points_of "$p"))"
    else echo "FAIL $p no longer applies to the source: refresh it (it must change the kernel it names)"; status=1; fi
  done
  exit $status
fi

out=${1:?usage: perf_regression_experiment.sh <out-dir> [runs] [patch...]}
runs=${2:-2}
shift $(( $# >= 2 ? 2 : 1 ))
patches=("$@")
[ ${#patches[@]} -eq 0 ] && patches=("$patch_dir"/*.patch)
mkdir -p "$out"; out=$(cd "$out" && pwd)
tree="$out/tree"

echo "== copying the source to $tree"
rm -rf "$tree" && mkdir -p "$tree"
excludes=(--exclude=./build --exclude=./reports --exclude=./.git)
case $out in "$root"/*) excludes+=("--exclude=./${out#"$root"/}") ;; esac  # never copy the copy into itself
tar -C "$root" "${excludes[@]}" -cf - . | tar -C "$tree" -xf - || exit 2
(cd "$tree" && cmake --preset gpu >"$out/configure.log" 2>&1) || { tail -n 20 "$out/configure.log"; exit 2; }
echo "== building the copy (gpu preset)"
(cd "$tree" && cmake --build --preset gpu >"$out/build.log" 2>&1) || { tail -n 30 "$out/build.log"; exit 2; }
# The programs behind the perf label: rebuilt after each patch, nothing else.
targets=$(cd "$tree" && ctest --preset perf -N -V 2>/dev/null | grep -o '"--exe" "[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/' |
          xargs -r -n 1 basename | sort -u)
[ -n "$targets" ] || { echo "no perf programs found in the copy's ctest listing" >&2; exit 2; }

export KCONFORM_REQUIRE_GPU=1
export KCONFORM_BASELINE_DIR="$root/ctest_config/baselines"
for p in "${patches[@]}"; do
  name=$(basename "$p" .patch)
  regex=$(points_of "$p")
  [ -n "$regex" ] || { echo "$p has no '# Points:' line" >&2; exit 2; }
  echo "== $name (points: $regex)"
  apply_patch "$tree" "$root/$p" || { echo "$p does not apply" >&2; exit 2; }
  # shellcheck disable=SC2086
  if ! (cd "$tree" && cmake --build --preset gpu --target $targets >"$out/build-$name.log" 2>&1); then
    tail -n 30 "$out/build-$name.log"; apply_patch "$tree" "$root/$p" --reverse; exit 2
  fi
  for i in $(seq 1 "$runs"); do
    dir="$out/$name/run-$i"
    rm -rf "$dir" && mkdir -p "$dir"
    t0=$(date +%s.%N)
    (cd "$tree" && KCONFORM_REPORT_DIR="$dir" ctest --preset perf -E 'SeedConclusions' >"$dir/ctest.log" 2>&1)
    echo "$?" >"$dir/status"
    echo "$t0 $(date +%s.%N)" | awk '{printf "%.1f\n", $2 - $1}' >"$dir/wall_s"
    echo "   run $i: $(cat "$dir/wall_s") s, SLOW: $(cat "$dir"/perf/*.tsv 2>/dev/null | awk -F'\t' '$7 == "SLOW" {printf "%s ", $1}')"
  done
  apply_patch "$tree" "$root/$p" --reverse || { echo "$p did not revert" >&2; exit 2; }
done
# Leave the copy's programs built from the unpatched source.
(cd "$tree" && cmake --build --preset gpu --target $targets >"$out/build-unpatched.log" 2>&1)

# ---- the table ----
{
  echo "# Real code regressions against the perf verdict"
  echo
  echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1); $runs run(s) of the perf label per regression, judged against ctest_config/baselines at ${KCONFORM_COMMIT:-$("$root/scripts/tree_commit.sh" "$root")}."
  echo
  echo "| regression | its points | flagged SLOW in every run | its ratios (min–max) | other points SLOW in any run | pass wall s |"
  echo "|---|---|---|---|---|---|"
} >"$out/regressions.md"
verdict=0
for p in "${patches[@]}"; do
  name=$(basename "$p" .patch)
  regex=$(points_of "$p")
  rows=$(cat "$out/$name"/run-*/perf/*.tsv 2>/dev/null | awk -F'\t' '$1 != "key" && NF >= 17')
  [ -n "$rows" ] || { echo "| $name | no judged rows: see $out/$name/run-*/ctest.log | | | | |" >>"$out/regressions.md"; verdict=2; continue; }
  summary=$(echo "$rows" | awk -F'\t' -v re="$regex" -v runs="$runs" '
    $1 ~ re { own[$1] = 1; if ($7 == "SLOW") slow[$1]++; r = $16 + 0; if (!($1 in lo) || r < lo[$1]) lo[$1] = r; if (r > hi[$1]) hi[$1] = r; next }
    $7 == "SLOW" { other[$1]++ }
    END {
      n = 0; flagged = 0; ratios = ""
      for (k in own) { n++; if (slow[k] == runs) flagged++; ratios = ratios sprintf("%.2f–%.2f ", lo[k], hi[k]) }
      o = ""; no = 0; for (k in other) { no++; o = o k " (" other[k] ") " }
      printf "%d\t%d\t%s\t%d\t%s\n", n, flagged, ratios, no, (no ? o : "none")
    }')
  IFS=$'\t' read -r own flagged ratios others other_list <<<"$summary"
  walls=$(cat "$out/$name"/run-*/wall_s | paste -sd ' ')
  echo "| $name | $own (\`$regex\`) | $flagged of $own | $ratios | $other_list | $walls |" >>"$out/regressions.md"
  if [ "$own" -eq 0 ] || [ "$flagged" -ne "$own" ] || [ "$others" -ne 0 ]; then [ $verdict -eq 0 ] && verdict=1; fi
done
cat "$out/regressions.md"
exit $verdict
