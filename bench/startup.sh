#!/usr/bin/env bash
# Start-up of the self-contained image (issue 21 item 7): `cudnn --version` and `cudnn verify` run from
# the unpacked image against a bare JVM (the image's own runtime) printing hello. Goals: --version within
# 3x the bare JVM, verify within 8x. Median of RUNS runs each, alternating, after one warm-up run.
# Usage: bench/startup.sh [RUNS] (default 15). Builds the image when target/dist has none.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-15}
image=$(ls target/dist/cudnn-tool-*-linux-x86_64.tar.gz 2>/dev/null | head -1 || true)
if [ -z "$image" ]; then
  ./mvnw -B -q -Pdist package -DskipTests
  image=$(ls target/dist/cudnn-tool-*-linux-x86_64.tar.gz | head -1)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$image" -C "$work"
home=$(echo "$work"/cudnn-tool-*)
mkdir -p "$work/hello"
printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' > "$work/hello/Hello.java"
javac -d "$work/hello" "$work/hello/Hello.java"

ms() { # ms CMD...: wall milliseconds of one run, output discarded
  local t0 t1
  t0=$(date +%s%N)
  "$@" > /dev/null 2>&1 || true
  t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000000 ))
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2] + a[NR/2+1]) / 2)}'; }
hello=("$home/runtime/bin/java" -Xshare:auto -cp "$work/hello" Hello)
version=("$home/bin/cudnn" --version)
verify=("$home/bin/cudnn" verify)
for c in hello version verify; do eval "ms \"\${$c[@]}\"" > /dev/null; done   # warm the page cache
: > "$work/hello.t"; : > "$work/version.t"; : > "$work/verify.t"
for _ in $(seq "$RUNS"); do
  ms "${hello[@]}" >> "$work/hello.t"
  ms "${version[@]}" >> "$work/version.t"
  ms "${verify[@]}" >> "$work/verify.t"
done
h=$(median < "$work/hello.t"); v=$(median < "$work/version.t"); f=$(median < "$work/verify.t")
printf '%-28s %8s %8s %6s\n' "case (goal)" "median" "hello" "ratio"
printf '%-28s %6d ms %6d ms %6s\n' "bare JVM hello" "$h" "$h" "1.0"
printf '%-28s %6d ms %6d ms %6s\n' "cudnn --version (<= 3x)" "$v" "$h" "$(awk "BEGIN {printf \"%.1f\", $v / $h}")"
printf '%-28s %6d ms %6d ms %6s\n' "cudnn verify (<= 8x)" "$f" "$h" "$(awk "BEGIN {printf \"%.1f\", $f / $h}")"
awk "BEGIN {exit !($v <= 3 * $h && $f <= 8 * $h)}" && echo "startup: both goals met" || echo "startup: a goal was missed"
