#!/usr/bin/env bash
# Builds the self-contained Linux image (#21 item 5): a Java runtime made with jlink holding only the
# modules jdeps finds in the shaded jar, with its default class-data archive, plus the launchers, the
# jar, README and LICENSE, packed as target/dist/cudnn-tool-<version>-linux-<arch>.tar.gz.
# Called by `mvn -B -Pdist package` (the pom's dist profile) after the shaded jar is made:
#   scripts/dist.sh <version> <jdk-home> <build-dir> <output-timestamp>
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:?version}
jdk=${2:?jdk home}
build=${3:?build dir}
stamp=${4:-2026-01-01T00:00:00Z}

case $(uname -s) in
  Linux) os=linux ;;
  *) echo "dist: error: this script builds the Linux image only (uname -s: $(uname -s)); fix: build the Windows image with the release workflow" >&2; exit 2 ;;
esac
case $(uname -m) in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=aarch64 ;;
  *) arch=$(uname -m) ;;
esac

jar="$build/cudnn-tool.jar"
[ -f "$jar" ] || { echo "dist: error: $jar is missing; fix: run it through mvn -B -Pdist package" >&2; exit 2; }
for tool in jdeps jlink; do
  [ -x "$jdk/bin/$tool" ] || { echo "dist: error: $jdk/bin/$tool is missing; fix: build with a full JDK 17 (not a JRE)" >&2; exit 2; }
done

name="cudnn-tool-$version"
out="$build/dist"
image="$out/$name"
rm -rf "$image" "$out/$name-$os-$arch.tar.gz"
mkdir -p "$image/bin" "$image/lib"

# The modules the tool needs, as jdeps reads them from the shaded jar (today java.base, java.desktop
# and java.sql: jackson and JNA refer to the latter two). Nothing is loaded through a service that
# jdeps cannot see (no zip file system, no TLS), so no module is added by hand.
modules=$("$jdk/bin/jdeps" --print-module-deps --ignore-missing-deps --multi-release 17 "$jar")
echo "dist: modules $modules"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress=2 \
  --generate-cds-archive --output "$image/runtime"
# The runtime's own class-data archive (lib/server/classes.jsa, from --generate-cds-archive) maps the
# JDK's classes at start wherever the image is unpacked. An archive of the tool's own classes is not
# shipped: Java 17 refuses one whose jar has moved from where it was made ("shared class paths mismatch").
[ -f "$image/runtime/lib/server/classes.jsa" ] || "$image/runtime/bin/java" -Xshare:dump -Xlog:cds=off > /dev/null
# The archive for heaps over 32 GB (no compressed oops) is never used: the launchers fix the heap at 160 MB.
rm -f "$image/runtime/lib/server/classes_nocoops.jsa"

cp "$jar" "$image/lib/cudnn-tool.jar"
# The Unix launchers only: they take runtime/bin/java next to them before any other java.
for f in bin/*; do
  case $f in *.cmd) continue ;; esac
  cp "$f" "$image/bin/"
  chmod 755 "$image/bin/${f#bin/}"
done
cp README.md "$image/"
if [ -f LICENSE ]; then cp LICENSE "$image/"; fi

# Sorted entries, one owner and a fixed time: the same inputs give the same archive listing.
epoch=$(date -u -d "$stamp" +%s)
find "$image" -exec touch -h -d "@$epoch" {} +
tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    -C "$out" -cf - "$name" | gzip -n -9 > "$out/$name-$os-$arch.tar.gz"
echo "dist: $out/$name-$os-$arch.tar.gz ($(du -sh "$image" | cut -f1) unpacked, $(du -h "$out/$name-$os-$arch.tar.gz" | cut -f1) packed)"
