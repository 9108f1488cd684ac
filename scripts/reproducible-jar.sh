#!/usr/bin/env bash
# Two clean builds of the working tree must give the same jar bytes (project.build.outputTimestamp).
# Each build runs in its own copy of the tracked and untracked-but-not-ignored files, so nothing
# compiled earlier (target/) takes part. Prints the sha256 and exits 1 when the jars differ.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in 1 2; do
  mkdir -p "$work/$n"
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [ -e "$f" ] || continue
    mkdir -p "$work/$n/$(dirname "$f")"
    cp -P -p "$f" "$work/$n/$f"   # -P: a tracked link (contrib/ansible/roles/cudnn) stays a link
  done
  # A different clock time for each build: only outputTimestamp may decide the entries' times.
  [ "$n" = 2 ] && sleep 2
  (cd "$work/$n" && ./mvnw -B -q ${MAVEN_OFFLINE:+-o} package -DskipTests -P '!cds' > build.log 2>&1) \
    || { cat "$work/$n/build.log"; exit 2; }
done
a=$(sha256sum "$work/1/target/cudnn-tool.jar" | cut -d' ' -f1)
b=$(sha256sum "$work/2/target/cudnn-tool.jar" | cut -d' ' -f1)
echo "reproducible-jar: build 1 $a"
echo "reproducible-jar: build 2 $b"
if [ "$a" != "$b" ]; then
  echo "reproducible-jar: the two builds differ" >&2
  exit 1
fi
echo "reproducible-jar: identical"
