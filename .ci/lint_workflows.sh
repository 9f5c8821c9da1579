#!/usr/bin/env bash
# Lints the GitHub Actions workflows (.github/workflows/*.yml) as CI runs it (.ci/run):
#   1. Debian's yamllint, strict, with the repository's .yamllint.yml: syntax, keys, indentation;
#   2. every repository script a workflow runs exists and is executable, so renaming one fails here
#      and not on the first GPU runner that picks the workflow up.
# yamllint is installed from Debian's packages when it is missing and this runs as root (a clean CI
# machine); otherwise its absence is an error, not a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
[ ${#workflows[@]} -gt 0 ] || { echo "lint_workflows: no workflow under .github/workflows"; exit 1; }
if ! command -v yamllint >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "lint_workflows: installing yamllint (Debian)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q yamllint >/dev/null 2>&1 ||
      { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q yamllint >/dev/null; }
  fi
  command -v yamllint >/dev/null || { echo "lint_workflows: yamllint is not installed (apt-get install yamllint)"; exit 1; }
fi
yamllint --strict -c .yamllint.yml "${workflows[@]}"
status=0
for workflow in "${workflows[@]}"; do
  # Paths the run: lines name: scripts/..., .ci/..., tools/..., tests/... (words, not quoted variables).
  while read -r path; do
    if [ ! -f "$path" ]; then
      echo "lint_workflows: $workflow runs $path, which does not exist"
      status=1
    elif [ "${path%.sh}" != "$path" ] && [ ! -x "$path" ] && ! grep -qE "bash +$path" "$workflow"; then
      echo "lint_workflows: $workflow runs $path, which is not executable"
      status=1
    fi
  done < <(grep -oE '(^|[ "(])(scripts|\.ci|tools|tests)/[A-Za-z0-9_./-]+' "$workflow" | sed -E 's/^[ "(]//' | sort -u)
done
[ $status -eq 0 ] && echo "lint_workflows: ${#workflows[@]} workflow(s) clean"
exit $status
