#!/usr/bin/env bash
# Builds the self-contained image (#21 item 5): a Java runtime made with jlink holding only the
# modules jdeps finds in the shaded jar, with its default class-data archive, plus the launchers, the
# jar, README and LICENSE, packed as target/dist/cudnn-tool-<version>-linux-<arch>.tar.gz on Linux, or
# as target/dist/cudnn-tool-<version>-windows-x86_64.zip under Git Bash on Windows (the release
# workflow's native Windows runner; a jlink'd runtime is built for the OS it runs on).
# Called by `./mvnw -B -Pdist package` (the pom's dist profile) after the shaded jar is made:
#   scripts/dist.sh <version> <jdk-home> <build-dir> <output-timestamp>
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:?version}
jdk=${2:?jdk home}
build=${3:?build dir}
stamp=${4:-2026-01-01T00:00:00Z}

case $(uname -s) in
  Linux) os=linux exe= ;;
  MINGW*|MSYS*|CYGWIN*) os=windows exe=.exe ;;
  *) echo "dist: error: this script builds Linux and Windows images only (uname -s: $(uname -s)); fix: build on one of those" >&2; exit 2 ;;
esac
case $(uname -m) in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=aarch64 ;;
  *) arch=$(uname -m) ;;
esac

if [ "$os" = windows ] && command -v cygpath > /dev/null; then
  # Maven hands over Windows paths (C:\...); Git Bash's tools want its own.
  jdk=$(cygpath -u "$jdk") build=$(cygpath -u "$build")
fi
jar="$build/cudnn-tool.jar"
[ -f "$jar" ] || { echo "dist: error: $jar is missing; fix: run it through ./mvnw -B -Pdist package" >&2; exit 2; }
for tool in jdeps jlink; do
  [ -x "$jdk/bin/$tool$exe" ] || { echo "dist: error: $jdk/bin/$tool is missing; fix: build with a full JDK 17 (not a JRE)" >&2; exit 2; }
done

name="cudnn-tool-$version"
out="$build/dist"
image="$out/$name"
rm -rf "$image" "$out/$name-$os-$arch.tar.gz" "$out/$name-$os-$arch.zip"
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
[ -f "$image/runtime/lib/server/classes.jsa" ] || [ -f "$image/runtime/bin/server/classes.jsa" ] \
  || "$image/runtime/bin/java$exe" -Xshare:dump -Xlog:cds=off > /dev/null
# The archive for heaps over 32 GB (no compressed oops) is never used: the launchers fix the heap at 160 MB.
rm -f "$image/runtime/lib/server/classes_nocoops.jsa" "$image/runtime/bin/server/classes_nocoops.jsa"

cp "$jar" "$image/lib/cudnn-tool.jar"
# The class list for the first run's class-data archive (#31 item 5; bin/cudnn, ClassDataTraining):
# every class that training runs of the common commands load beyond the runtime's own archive, from
# the jar or the runtime's modules, sorted (one name a line; lambdas and proxies are made at run time
# and left out). The runs use the image's own runtime, a private cache, an empty mirror folder and
# a prefix of their own, so nothing is downloaded and nothing outside $train is written; a run that
# fails (no toolkit here, the release not in the mirror) still loaded what a user's run loads.
train=$(mktemp -d)
mkdir -p "$train/mirror" "$train/prefix" "$train/cache" "$train/log"
n=0
for args in "--version" "verify" "verify --json" "releases" \
    "install --release 9.5.1 --cuda 12 --dry-run --from $train/mirror --prefix $train/prefix"; do
  n=$((n + 1))
  # shellcheck disable=SC2086 # $args is a list of words, split on purpose
  (cd "$train" && CUDNN_TOOL_CACHE="$train/cache" "$image/runtime/bin/java$exe" -XX:+UseSerialGC -Xshare:auto \
      "-Xlog:class+load=info:file=$train/log/$n.log:none" -jar "$image/lib/cudnn-tool.jar" $args > /dev/null 2>&1) || true
done
cat "$train"/log/*.log | sed -n 's/^\([A-Za-z_$][A-Za-z0-9_$.]*\) source: \(jrt:\/.*\|file:.*cudnn-tool\.jar\)$/\1/p' \
  | LC_ALL=C sort -u > "$image/lib/cudnn-tool.classlist"
rm -rf "$train"
echo "dist: class list of $(wc -l < "$image/lib/cudnn-tool.classlist") classes for the first run's class-data archive"
# The launchers of the image's OS only: they take runtime/bin/java next to them before any other java.
for f in bin/*; do
  case $f in *.cmd) for_os=windows ;; *) for_os=linux ;; esac
  [ "$for_os" = "$os" ] || continue
  cp "$f" "$image/bin/"
  chmod 755 "$image/bin/${f#bin/}"
done
cp README.md "$image/"
# Linux: the man pages (troff) and the completion scripts the build generated from the command model.
if [ "$os" = linux ]; then
  [ -f "$build/man/man1/cudnn.1" ] && [ -f "$build/completion/cudnn.bash" ] \
    || { echo "dist: error: $build/man/man1 or $build/completion is missing; fix: build without -Dcudnn.skipDocs" >&2; exit 2; }
  mkdir -p "$image/share/man/man1" "$image/share/bash-completion/completions" "$image/share/zsh/site-functions"
  cp "$build"/man/man1/*.1 "$image/share/man/man1/"
  cp "$build/completion/cudnn.bash" "$image/share/bash-completion/completions/cudnn"
  cp "$build/completion/cudnn.zsh" "$image/share/zsh/site-functions/_cudnn"
fi
if [ -f LICENSE ]; then cp LICENSE "$image/"; fi

if [ "$os" = windows ]; then
  # A zip, made with the JDK's own jar tool (Windows has no zip command; no manifest is added).
  (cd "$out" && "$jdk/bin/jar$exe" --create --no-manifest --file "$name-$os-$arch.zip" "$name")
  echo "dist: $out/$name-$os-$arch.zip ($(du -sh "$image" | cut -f1) unpacked)"
  exit 0
fi
# Sorted entries, one owner and a fixed time: the same inputs give the same archive listing.
epoch=$(date -u -d "$stamp" +%s)
find "$image" -exec touch -h -d "@$epoch" {} +
tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    -C "$out" -cf - "$name" | gzip -n -9 > "$out/$name-$os-$arch.tar.gz"
echo "dist: $out/$name-$os-$arch.tar.gz ($(du -sh "$image" | cut -f1) unpacked, $(du -h "$out/$name-$os-$arch.tar.gz" | cut -f1) packed)"
