#!/usr/bin/env bash
# Sourced by scripts/grade.sh and its test (tests/submissions/check_unreachable_out.sh): whether the
# sandbox's uid can reach a path. Run as root, a grading judge starts each executor as uid 65534 with
# no groups (grading/executor/sandbox.hpp); it must search every folder above the executor program,
# the submission's library and the tool's report channel.
#
#   sandbox_uid_blocked_at <path>   prints the first folder from / down to <path>'s parent that others
#                                   cannot search (the path itself if it cannot be resolved or read);
#                                   prints nothing when every one can be searched
#   sandbox_uid_can <flag> <path>   whether uid 65534 passes `test <flag> <path>`: asked of the kernel
#                                   through setpriv(1) where it exists (ACLs and owners included), else
#                                   read from the others' permission bits (the folders above, and the
#                                   path's own bit for -x or -r)
sandbox_uid=65534

sandbox_uid_blocked_at() {
  local p mode
  p=$(readlink -f -- "$1" 2>/dev/null) && [ -n "$p" ] || { echo "$1"; return 0; }
  while [ "$p" != / ]; do
    p=$(dirname -- "$p")
    mode=$(stat -L -c %a -- "$p" 2>/dev/null) || { echo "$p"; return 0; }
    [ $((8#$mode & 1)) = 1 ] || { echo "$p"; return 0; }
  done
}

sandbox_uid_can() {
  local flag=$1 path=$2 mode bit
  if command -v setpriv >/dev/null 2>&1; then
    setpriv --reuid="$sandbox_uid" --regid="$sandbox_uid" --clear-groups -- test "$flag" "$path" 2>/dev/null
    return
  fi
  [ -z "$(sandbox_uid_blocked_at "$path")" ] || return 1
  mode=$(stat -L -c %a -- "$path" 2>/dev/null) || return 1
  case $flag in -x) bit=1 ;; -r) bit=4 ;; *) return 1 ;; esac
  [ $((8#$mode & bit)) != 0 ]
}
