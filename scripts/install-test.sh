#!/usr/bin/env bash
# CI (#31 item 2): install.sh against a local HTTP server (python3's http.server on 127.0.0.1) serving
# the release assets scripts/release-assets.sh built, on a PATH with no java, into a fake HOME (a fake
# `id` answers 1000, so the user layout is taken; nothing outside the temp folder is touched):
# a good install, a re-run that upgrades (current switched, the old version kept), --version pinning,
# --uninstall (only what it made), a wrong checksum (nothing unpacked), and shellcheck.
# INSTALL_TEST_REUSE=1 takes the assets already in target/release (or INSTALL_TEST_ASSETS).
set -euo pipefail
cd "$(dirname "$0")/.."

assets=${INSTALL_TEST_ASSETS:-target/release}
[ "${INSTALL_TEST_REUSE:-}" = 1 ] && [ -f "$assets/SHA256SUMS" ] || scripts/release-assets.sh "$assets"
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)
case $(uname -m) in aarch64|arm64) arch=aarch64 ;; *) arch=x86_64 ;; esac
image=cudnn-tool-$version-linux-$arch.tar.gz
[ -f "$assets/$image" ] || { echo "install-test: $assets/$image is missing" >&2; exit 1; }

fail() { echo "install-test: FAIL: $*" >&2; exit 1; }
if command -v shellcheck > /dev/null; then
  shellcheck -s sh scripts/install.sh "$assets/install.sh" || fail "shellcheck"
  echo "install-test: shellcheck clean"
elif [ "${CI_STRICT:-}" = 1 ]; then fail "shellcheck is missing (CI_STRICT=1); apt-get install shellcheck"
else echo "install-test: shellcheck skipped: not installed (apt-get install shellcheck)"; fi

tmp=$(mktemp -d)
server=
trap '[ -n "$server" ] && kill "$server" 2> /dev/null; rm -rf "$tmp"' EXIT

# A PATH with only what install.sh needs, and an `id` that answers 1000: no java on it.
mkdir -p "$tmp/path"
# (dirname: today's launchers use it; #32's launchers need none.)
for t in sh curl sha256sum tar gzip mktemp mkdir mv ln rm rmdir sed sort tail cut grep uname readlink cat dirname; do
  ln -s "$(command -v "$t")" "$tmp/path/$t"
done
printf '#!/bin/sh\necho 1000\n' > "$tmp/path/id"; chmod 755 "$tmp/path/id"
run() { env -i PATH="$tmp/path" HOME="$tmp/home" "$@"; }
run /bin/sh -c 'command -v java' > /dev/null && fail "java is on the test PATH"

# The mirrors: good (this release), two (this release and a repacked $version+1 "upgrade"), badsum.
www=$tmp/www
mkdir -p "$www/good" "$www/two" "$www/badsum"
cp "$assets/$image" "$assets/SHA256SUMS" "$www/good/"
next=${version%.*}.$(( ${version##*.} + 1 ))
mkdir "$tmp/repack"
tar -xzf "$assets/$image" -C "$tmp/repack"
mv "$tmp/repack/cudnn-tool-$version" "$tmp/repack/cudnn-tool-$next"
echo "$next" > "$tmp/repack/cudnn-tool-$next/UPGRADE-MARK"
tar -C "$tmp/repack" -cf - "cudnn-tool-$next" | gzip -1 > "$www/two/cudnn-tool-$next-linux-$arch.tar.gz"
cp "$assets/$image" "$www/two/"
(cd "$www/two" && sha256sum -- *.tar.gz > SHA256SUMS)
cp "$assets/$image" "$www/badsum/"
printf '%064d  %s\n' 0 "$image" > "$www/badsum/SHA256SUMS"

python3 - "$www" "$tmp/port" <<'EOF' &
import functools, http.server, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
handler = functools.partial(Quiet, directory=sys.argv[1])
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
open(sys.argv[2] + ".part", "w").write(str(srv.server_address[1]))
import os; os.rename(sys.argv[2] + ".part", sys.argv[2])
srv.serve_forever()
EOF
server=$!
for _ in $(seq 50); do [ -f "$tmp/port" ] && break; sleep 0.1; done
url=http://127.0.0.1:$(cat "$tmp/port")
share=$tmp/home/.local/share/cudnn-tool
bin=$tmp/home/.local/bin

# 1. A good install: the versioned folder, `current`, the link in ~/.local/bin, the next command.
out=$(run CUDNN_TOOL_DIST_URL="$url/good/" sh scripts/install.sh) || fail "install exited $?: $out"
[ -x "$share/$version/bin/cudnn" ] || fail "no $share/$version/bin/cudnn"
[ "$(readlink "$share/current")" = "$version" ] || fail "current is $(readlink "$share/current")"
[ "$(readlink "$bin/cudnn")" = "$share/current/bin/cudnn" ] || fail "$bin/cudnn is $(readlink "$bin/cudnn")"
grep -q "next: export PATH=\"$bin:\$PATH\"; cudnn verify" <<< "$out" || fail "no next command in: $out"
# The class-data archive is made at the final path (so a root install under /opt serves ordinary users): the
# image's JVM maps it with -Xshare:on, which refuses to start on one made for another path.
[ -f "$share/$version/lib/cudnn-tool.jsa" ] || fail "install.sh made no class-data archive at the final path"
run "$share/$version/runtime/bin/java" -Xshare:on "-XX:SharedArchiveFile=$share/$version/lib/cudnn-tool.jsa" \
  -jar "$share/$version/lib/cudnn-tool.jar" --version > /dev/null 2>&1 || fail "the class-data archive does not map at the final path"
v=$(run "$share/current/bin/cudnn" --version) || fail "the installed image does not start without java"
grep -q "^cudnn-tool $version" <<< "$v" || fail "--version printed $v"
ls -d "$share"/.download-* > /dev/null 2>&1 && fail "a download folder was left"
echo "install-test: good install ok ($version, run with no java: $v)"

# 2. A re-run upgrades: the newest in SHA256SUMS becomes current; the old version stays.
run CUDNN_TOOL_DIST_URL="$url/two" sh scripts/install.sh > /dev/null || fail "upgrade exited $?"
[ "$(readlink "$share/current")" = "$next" ] || fail "after the upgrade current is $(readlink "$share/current")"
[ -f "$share/current/UPGRADE-MARK" ] && [ -d "$share/$version" ] || fail "the upgrade's folders"
[ "$(readlink "$bin/cudnn")" = "$share/current/bin/cudnn" ] || fail "the link after the upgrade"
echo "install-test: re-run upgrade ok ($version -> $next)"

# 3. --version pins (and switches back).
run CUDNN_TOOL_DIST_URL="$url/two" sh scripts/install.sh --version "$version" > /dev/null || fail "--version exited $?"
[ "$(readlink "$share/current")" = "$version" ] || fail "--version $version: current is $(readlink "$share/current")"
rc=0; err=$(run CUDNN_TOOL_DIST_URL="$url/two" sh scripts/install.sh --version 9.9.9 2>&1) || rc=$?
[ "$rc" = 1 ] && grep -q "lists no cudnn-tool-9.9.9-linux-$arch.tar.gz" <<< "$err" || fail "--version 9.9.9: $rc $err"
echo "install-test: --version ok"

# 4. A wrong checksum: exit 1, nothing unpacked, nothing switched (into a second, fresh home).
rc=0; err=$(run CUDNN_TOOL_HOME="$tmp/other" CUDNN_TOOL_BIN_DIR="$tmp/otherbin" CUDNN_TOOL_DIST_URL="$url/badsum" \
  sh scripts/install.sh 2>&1) || rc=$?
[ "$rc" = 1 ] && grep -q "SHA256SUMS says 0000.*nothing was unpacked" <<< "$err" || fail "bad checksum: $rc $err"
[ -z "$(ls -A "$tmp/other")" ] || fail "a bad checksum left: $(ls -A "$tmp/other")"
[ ! -e "$tmp/otherbin" ] || fail "a bad checksum made the bin folder"
echo "install-test: wrong checksum refused, nothing unpacked"

# 5. --uninstall removes only what it made.
mkdir "$share/0.9.0"; echo mine > "$share/mine.txt"; echo other > "$bin/other-tool"
run sh scripts/install.sh --uninstall > /dev/null || fail "--uninstall exited $?"
for gone in "$share/$version" "$share/$next" "$share/current" "$share/.install-sh" "$bin/cudnn"; do
  [ ! -e "$gone" ] && [ ! -L "$gone" ] || fail "--uninstall left $gone"
done
[ -d "$share/0.9.0" ] && [ -f "$share/mine.txt" ] && [ -f "$bin/other-tool" ] || fail "--uninstall removed what it did not make"
rm -r "$share/0.9.0" "$share/mine.txt"
run CUDNN_TOOL_DIST_URL="$url/good" sh scripts/install.sh > /dev/null && run sh scripts/install.sh --uninstall > /dev/null \
  || fail "install then --uninstall"
[ ! -e "$share" ] || fail "--uninstall of everything left $share"
echo "install-test: --uninstall ok (kept what it had not made)"

# 6. The release's own install.sh (the pom's repository written in) installs from the mirror too.
run CUDNN_TOOL_DIST_URL="$url/good" sh "$assets/install.sh" > /dev/null || fail "the release's install.sh"
[ "$(readlink "$share/current")" = "$version" ] || fail "the release's install.sh: current"
echo "install-test: ok"
