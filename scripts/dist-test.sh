#!/usr/bin/env bash
# CI (#21 item 5): the self-contained image runs where no Java is installed. Builds it
# (./mvnw -Pdist package), unpacks it into a temp folder whose name holds a space, and runs its
# launchers with an environment holding only PATH, a PATH on which no java can be found: no JAVA,
# no JAVA_HOME. Proves --version, verify --json and an install of a small archive into --prefix;
# prints the image's size and start-up time (informational).
set -euo pipefail
cd "$(dirname "$0")/.."

# DIST_TEST_REUSE=1 tests the image already in target/dist (when only this script changed).
[ "${DIST_TEST_REUSE:-}" = 1 ] || ./mvnw -B -q -Pdist package -DskipTests
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)
tarball="target/dist/cudnn-tool-$version-linux-x86_64.tar.gz"
[ -f "$tarball" ] || { echo "dist-test: $tarball was not built" >&2; exit 1; }
fixture=target/cds-install/cudnn-10.2-windows10-x64-v7.6.5.32.zip
[ -f "$fixture" ] || { echo "dist-test: $fixture (made by the cds profile) is missing" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/un packed" "$tmp/path"
tar -xzf "$tarball" -C "$tmp/un packed"
image="$tmp/un packed/cudnn-tool-$version"
for f in bin/cudnn-install bin/cudnn-verify bin/cudnn-rollback lib/cudnn-tool.jar runtime/bin/java \
         runtime/lib/server/classes.jsa README.md LICENSE share/man/man1/cudnn.1 share/man/man1/cudnn-install.1 \
         share/bash-completion/completions/cudnn share/zsh/site-functions/_cudnn; do
  [ -e "$image/$f" ] || { echo "dist-test: the image lacks $f" >&2; exit 1; }
done

# The launchers' only outside command is dirname (cd and pwd are built into sh, which the #! names
# by its absolute path): a PATH holding just that finds no java, whatever this machine has installed.
ln -s "$(command -v dirname)" "$tmp/path/dirname"
bare() { env -i PATH="$tmp/path" "$@"; }
if bare /bin/sh -c 'command -v java' > /dev/null; then echo "dist-test: java is on the bare PATH" >&2; exit 1; fi

out=$(bare "$image/bin/cudnn-verify" --version)
grep -q "^cudnn-tool $version" <<< "$out" || { echo "dist-test: --version printed: $out" >&2; exit 1; }

# A bare machine (no cuDNN, no GPU) is reported, not a failure: exit 0 or 1, a JSON document either way.
rc=0
bare "$image/bin/cudnn-verify" --json > "$tmp/verify.json" || rc=$?
[ "$rc" -le 1 ] || { echo "dist-test: cudnn-verify --json exited $rc" >&2; cat "$tmp/verify.json" >&2; exit 1; }
grep -q '"command" : "verify"' "$tmp/verify.json" || { echo "dist-test: no verify JSON" >&2; exit 1; }

# An install of the cds profile's tiny cuDNN 7.6.5 archive (NVIDIA's legacy Windows layout; --force
# because this is not Windows) into a fresh prefix, then verify reads it back.
sha=$(sha256sum "$fixture" | cut -d' ' -f1)
bare "$image/bin/cudnn-install" --archive "$PWD/$fixture" --sha256 "$sha" --prefix "$tmp/prefix" \
  --no-probe --force > "$tmp/install.txt"
for f in include/cudnn.h bin/cudnn64_7.dll lib/x64/cudnn.lib; do
  [ -f "$tmp/prefix/$f" ] || { echo "dist-test: the install did not place $f" >&2; cat "$tmp/install.txt" >&2; exit 1; }
done
bare "$image/bin/cudnn-rollback" --prefix "$tmp/prefix" > /dev/null
[ ! -e "$tmp/prefix/include/cudnn.h" ] || { echo "dist-test: rollback left include/cudnn.h" >&2; exit 1; }

# Informational: size and start-up (best of 5 runs of --version) against this machine's JVM running the jar.
best() {
  local b=999999 i t0 t1
  for i in 1 2 3 4 5; do
    t0=$(date +%s%N); "$@" > /dev/null; t1=$(date +%s%N)
    [ $(( (t1 - t0) / 1000000 )) -lt "$b" ] && b=$(( (t1 - t0) / 1000000 ))
  done
  echo "$b"
}
image_ms=$(best bare "$image/bin/cudnn-verify" --version)
jvm_ms=$(best java -jar target/cudnn-tool.jar --version)
checkout_ms=$(best bin/cudnn-verify --version)
echo "dist-test: image $(du -h "$tarball" | cut -f1) packed, $(du -sh "$image" | cut -f1) unpacked (runtime $(du -sh "$image/runtime" | cut -f1))"
echo "dist-test: --version best of 5: image ${image_ms} ms; system java -jar ${jvm_ms} ms; checkout launcher (system java, the tool's own class-data archive) ${checkout_ms} ms"
echo "dist-test: ok (no java on PATH, no JAVA_HOME: --version, verify --json, install, rollback)"
