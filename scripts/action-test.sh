#!/usr/bin/env bash
# CI (#31 item 3): the Action's steps (scripts/action-tool.sh, scripts/action-install.sh), run here as
# action.yml runs them, with fake GITHUB_ENV/GITHUB_PATH/GITHUB_OUTPUT files and RUNNER_TEMP:
#  1. the tool step installs the real image from a local mirror of the release (release-assets.sh's
#     output, served on 127.0.0.1), puts its bin on GITHUB_PATH and writes the outputs;
#  2. the install step with a stand-in `cudnn` (it answers as install --env-file does) passes the
#     inputs as one command and writes the outputs (cudnn-path, cudnn-version);
#  3. the install step with the real image against a local cuDNN mirror that cannot satisfy it fails
#     the step (any non-zero exit) with a one-line ::error:: and writes nothing.
# Hosted runs (ubuntu-latest, windows-latest: .github/workflows/action.yml) are not proven here.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "action-test: FAIL: $*" >&2; exit 1; }

python3 - <<'PY' || fail "a YAML file does not parse"
import glob, yaml
for f in ["action.yml"] + glob.glob(".github/workflows/*.yml"):
    doc = yaml.safe_load(open(f))
    assert isinstance(doc, dict), f
a = yaml.safe_load(open("action.yml"))
assert a["runs"]["using"] == "composite"
assert set(a["inputs"]) >= {"cudnn-version", "cuda", "mirror", "path", "cache"}
assert set(a["outputs"]) == {"cudnn-path", "cudnn-version"}
PY

assets=target/release
[ -f "$assets/SHA256SUMS" ] || scripts/release-assets.sh "$assets"
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)

tmp=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2> /dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/www/cudnn" "$tmp/runner"
cp "$assets"/* "$tmp/www/"
python3 - "$tmp/www" "$tmp/port" <<'PY' &
import functools, http.server, os, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=sys.argv[1]))
open(sys.argv[2] + ".part", "w").write(str(srv.server_address[1])); os.rename(sys.argv[2] + ".part", sys.argv[2])
srv.serve_forever()
PY
server=$!
for _ in $(seq 50); do [ -f "$tmp/port" ] && break; sleep 0.1; done
url=http://127.0.0.1:$(cat "$tmp/port")

gh() { # fresh GITHUB_* files (RUNNER_TEMP, with the tool the first step put there, stays)
  mkdir -p "$tmp/runner/temp"
  : > "$tmp/runner/env"; : > "$tmp/runner/path"; : > "$tmp/runner/output"
}
runner() { env RUNNER_OS=Linux RUNNER_TEMP="$tmp/runner/temp" GITHUB_ENV="$tmp/runner/env" GITHUB_PATH="$tmp/runner/path" \
  GITHUB_OUTPUT="$tmp/runner/output" GITHUB_ACTION_PATH="$PWD" HOME="$tmp/home" "$@"; }

# 1. The tool step.
gh
runner TOOL_VERSION="$version" TOOL_DIST_URL="$url" bash scripts/action-tool.sh > "$tmp/tool.log" 2>&1 || { cat "$tmp/tool.log"; fail "the tool step"; }
cudnn=$tmp/runner/temp/cudnn-tool/current/bin/cudnn
grep -qx "cudnn=$cudnn" "$tmp/runner/output" || fail "tool step outputs: $(cat "$tmp/runner/output")"
grep -qx "cache-dir=$tmp/runner/temp/cudnn-tool-cache" "$tmp/runner/output" || fail "no cache-dir output"
grep -qx "$tmp/runner/temp/cudnn-tool/current/bin" "$tmp/runner/path" || fail "GITHUB_PATH: $(cat "$tmp/runner/path")"
"$cudnn" --version | grep -q "^cudnn-tool $version" || fail "the image the tool step installed does not run"
echo "action-test: tool step ok (cudnn-tool $version from $url)"

# 2. The install step, its plumbing, with a stand-in cudnn that appends what install --env-file appends.
mkdir -p "$tmp/stub"
cat > "$tmp/stub/cudnn" <<'SH'
#!/bin/sh
printf '%s\n' "$@" > "$STUB_ARGS"
prefix=; env=
while [ $# -gt 0 ]; do case $1 in --prefix) prefix=$2; shift ;; --env-file) env=$2; shift ;; esac; shift; done
printf 'CUDNN_PATH=%s\nCUDNN_RUNTIME_DIR=%s/lib\nLD_LIBRARY_PATH=%s/lib\n' "$prefix" "$prefix" "$prefix" >> "$env"
printf '{\n  "command" : "install",\n  "exitCode" : 0\n}\n'
SH
chmod 755 "$tmp/stub/cudnn"
gh
runner STUB_ARGS="$tmp/args" CUDNN="$tmp/stub/cudnn" CUDNN_VERSION=9.5.1 CUDA=12 MIRROR="$url/cudnn/" PREFIX="$tmp/cudnn" \
  CACHE_DIR="$tmp/runner/temp/cache" bash scripts/action-install.sh > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "install step"; }
printf '%s\n' install --release 9.5.1 --prefix "$tmp/cudnn" --env-file "$tmp/runner/env" --json --cuda 12 --from "$url/cudnn/" \
  | diff - "$tmp/args" || fail "the install step's command line"
grep -qx "CUDNN_PATH=$tmp/cudnn" "$tmp/runner/env" || fail "GITHUB_ENV: $(cat "$tmp/runner/env")"
grep -qx "cudnn-path=$tmp/cudnn" "$tmp/runner/output" && grep -qx "cudnn-version=9.5.1" "$tmp/runner/output" \
  || fail "install step outputs: $(cat "$tmp/runner/output")"
[ ! -s "$tmp/runner/path" ] || fail "Linux: GITHUB_PATH gets nothing from the install step (LD_LIBRARY_PATH is in GITHUB_ENV)"
[ -d "$tmp/runner/temp/cache" ] || fail "the cache folder"
gh
rc=0; runner CUDNN="$tmp/stub/cudnn" CUDNN_VERSION=nine bash scripts/action-install.sh > "$tmp/bad.log" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q "::error::cudnn-version 'nine' is not M.m.p" "$tmp/bad.log" || fail "a bad cudnn-version: $rc $(cat "$tmp/bad.log")"
echo "action-test: install step ok (its command line, GITHUB_ENV, outputs; a bad version refused)"

# 3. The install step with the real image against a local mirror that has no such archive: the step fails, nothing written.
gh
rc=0; runner CUDNN="$cudnn" CUDNN_VERSION=9.5.1 CUDA=12 MIRROR="$url/cudnn/" CACHE_DIR="$tmp/runner/temp/cache" \
  bash scripts/action-install.sh > "$tmp/real.log" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "the real install step passed with no archive to be had"
[ "$rc" != 2 ] || fail "the real image refused the command line (exit 2): $(cat "$tmp/real.log")"
grep -q "^::error::cudnn install exited $rc: ." "$tmp/real.log" || fail "no ::error:: line: $(cat "$tmp/real.log")"
[ ! -s "$tmp/runner/env" ] && [ ! -s "$tmp/runner/output" ] || fail "a failed step wrote GITHUB_ENV or outputs"
echo "action-test: a failing install fails the step: $(grep '^::error::' "$tmp/real.log")"
echo "action-test: ok (hosted runs unproven here)"
