#!/usr/bin/env bash
# The Action's first step (action.yml, #31 item 3): gets cudnn-tool's image with install.sh (Linux) or
# install.ps1 (Windows) from the action's own checkout, into RUNNER_TEMP (no Java needed on the runner),
# puts its bin on GITHUB_PATH, and writes the step outputs `cudnn` (the launcher) and `cache-dir`
# (the archive cache that actions/cache keeps between runs).
# Inputs (environment): TOOL_VERSION (empty: the newest release), TOOL_DIST_URL (a mirror of the
# release's download folder; empty: GitHub's), RUNNER_OS, RUNNER_TEMP, GITHUB_PATH, GITHUB_OUTPUT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${RUNNER_TEMP:?}" "${GITHUB_PATH:?}" "${GITHUB_OUTPUT:?}"
home=$RUNNER_TEMP/cudnn-tool
args=()
[ -z "${TOOL_VERSION:-}" ] || args+=(--version "$TOOL_VERSION")
if [ -n "${TOOL_DIST_URL:-}" ]; then export CUDNN_TOOL_DIST_URL=$TOOL_DIST_URL; fi
export CUDNN_TOOL_HOME=$home
if [ "${RUNNER_OS:-}" = Windows ]; then
  ps_args=()
  [ -z "${TOOL_VERSION:-}" ] || ps_args+=(-Version "$TOOL_VERSION")
  pwsh -NoProfile -NonInteractive -File "$here/install.ps1" "${ps_args[@]}"
  launcher=$home/current/bin/cudnn.cmd
else
  CUDNN_TOOL_BIN_DIR=$home/bin sh "$here/install.sh" "${args[@]}"
  launcher=$home/current/bin/cudnn
fi
[ -f "$launcher" ] || { echo "::error::cudnn-tool's image has no $launcher"; exit 1; }
echo "$home/current/bin" >> "$GITHUB_PATH"
{
  echo "cudnn=$launcher"
  echo "cache-dir=$RUNNER_TEMP/cudnn-tool-cache"
} >> "$GITHUB_OUTPUT"
