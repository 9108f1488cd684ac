#!/usr/bin/env bash
# The Action's install step (action.yml, #31 item 3): one command,
#   cudnn install --release VERSION [--cuda C] [--from MIRROR] --prefix PATH --env-file "$GITHUB_ENV" --json
# with the archive cache in CACHE_DIR (kept by actions/cache). Any non-zero exit fails the step, its
# one-line reason as an ::error:: annotation. On success: the step outputs cudnn-path and
# cudnn-version, and on Windows the runtime folder on GITHUB_PATH (Linux: LD_LIBRARY_PATH, from the env file).
# Inputs (environment): CUDNN (the launcher), CUDNN_VERSION, CUDA, MIRROR, PREFIX, CACHE_DIR,
# RUNNER_OS, RUNNER_TEMP, GITHUB_ENV, GITHUB_PATH, GITHUB_OUTPUT.
set -euo pipefail
: "${CUDNN:?}" "${CUDNN_VERSION:?the input cudnn-version is required}" "${RUNNER_TEMP:?}" "${GITHUB_ENV:?}" "${GITHUB_PATH:?}" "${GITHUB_OUTPUT:?}"
[[ $CUDNN_VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "::error::cudnn-version '$CUDNN_VERSION' is not M.m.p (for example 9.5.1)"; exit 2; }
prefix=${PREFIX:-$RUNNER_TEMP/cudnn-$CUDNN_VERSION}
args=(install --release "$CUDNN_VERSION" --prefix "$prefix" --env-file "$GITHUB_ENV" --json)
[ -z "${CUDA:-}" ] || args+=(--cuda "$CUDA")
[ -z "${MIRROR:-}" ] || args+=(--from "$MIRROR")
if [ -n "${CACHE_DIR:-}" ]; then mkdir -p "$CACHE_DIR"; export CUDNN_TOOL_CACHE=$CACHE_DIR; fi
out=$RUNNER_TEMP/cudnn-install.json
rc=0
if [ "${RUNNER_OS:-}" = Windows ]; then
  cmd //c "$CUDNN" "${args[@]}" > "$out" || rc=$?
else
  "$CUDNN" "${args[@]}" > "$out" || rc=$?
fi
cat "$out"
if [ "$rc" != 0 ]; then
  reason=$(sed -n 's/^  "summary" : "\(.*\)",\{0,1\}$/\1/p; s/^    "message" : "\(.*\)",\{0,1\}$/\1/p' "$out" | head -n 1)
  echo "::error::cudnn install exited $rc: ${reason:-see the log above}"
  exit "$rc"
fi
runtime=$(sed -n 's/^CUDNN_RUNTIME_DIR=//p' "$GITHUB_ENV" | tail -n 1)
if [ "${RUNNER_OS:-}" = Windows ] && [ -n "$runtime" ]; then echo "$runtime" >> "$GITHUB_PATH"; fi
{
  echo "cudnn-path=$prefix"
  echo "cudnn-version=$CUDNN_VERSION"
} >> "$GITHUB_OUTPUT"
