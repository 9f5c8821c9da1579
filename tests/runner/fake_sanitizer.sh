#!/usr/bin/env bash
# fake_sanitizer.sh <prints|reports> --log-file <path> <program...>
#
# A stand-in for compute-sanitizer in runner_isolation_test.sh (CPU-runnable): the runner passes a
# wrapping tool `--log-file <channel>` and counts hazards from that channel alone.
#   prints   prints a hazard line on the program's output (what a submission can do): must not count
#   reports  writes a hazard line into the tool's channel before the program starts: must count
#            (outside any case, which a `clean` run fails)
#   reports-once  as reports, in the first process only (it creates the file FAKE_SANITIZER_ONCE
#            names): a finding of a process that is then set aside for a retry
#   floods   writes 10 distinct hazard lines of 1,000 characters each into the tool's channel before
#            the program starts (what a submission that forges the tool's lines could write): the
#            record keeps 3 of them, clipped
#   glued    writes text without a newline, then a hazard line: the runner must still count it; then a
#            hazard line with an escape and a carriage return, which the record shows as ?
#   streams  writes one hazard line of 16 MiB with no newline: the runner hands it out in pieces, its
#            log shows at most 8 MiB of it, and it counts once
#   newlines writes 16 MiB of empty lines: read in time linear in it
#   none     reports nothing itself (the program under it may write into the channel)
mode=$1
shift
[ "${1:-}" = --log-file ] || { echo "fake_sanitizer.sh: expected --log-file, got ${1:-nothing}" >&2; exit 2; }
log=$2
shift 2
case $mode in
  prints) echo "========= Error: Race reported between Write access and Read access (printed, not the tool's)" ;;
  reports) echo "========= Error: Race reported between Write access and Read access (the tool's channel)" >"$log" ;;
  reports-once)
    if [ ! -e "$FAKE_SANITIZER_ONCE" ]; then
      : >"$FAKE_SANITIZER_ONCE"
      echo "========= Error: Race reported between Write access and Read access (the first process only)" >"$log"
    fi ;;
  floods)
    filler=$(printf 'x%.0s' $(seq 1 1000))
    for k in 0 1 2 3 4 5 6 7 8 9; do echo "========= Error: forged $k $filler"; done >"$log" ;;
  glued)  # text with no newline, then a report of the tool's own: glued into one line, still a report
    # and a report carrying a terminal's escape and a carriage return, which the record must not keep
    { printf 'junk written by the program'; echo "========= Error: Race reported between Write access and Read access (glued)"
      printf '========= Error: \033[2Jcleared\rscreen\n'; } >"$log" ;;
  streams)  # a hazard line of 16 MiB with no newline before the program starts (a forged endless line)
    { printf '========= Error: endless '; head -c 16777216 /dev/zero | tr '\0' x; } >"$log" ;;
  newlines)  # 16 MiB of empty lines
    head -c 16777216 /dev/zero | tr '\0' '\n' >"$log" ;;
  none) ;;
  *) echo "fake_sanitizer.sh: unknown mode $mode" >&2; exit 2 ;;
esac
exec "$@"
