#!/usr/bin/env bash
# Benchmark: cudnn-install against doing it by hand, in one run, alternating A/B over ROUNDS rounds.
# Prints medians and ratios, and peak resident memory. Usage: bench/run.sh [ROUNDS] (default 5).
# Archives are generated once into bench/cache (git-ignored); real cuDNN libraries for the verify
# timing come from the real-cudnn Maven profile (cached in ~/.m2).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
CACHE=bench/cache
WORK=${BENCH_WORK:-/tmp/cudnn-bench}
ZIP=$CACHE/cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip
TXZ=$CACHE/cudnn-linux-x86_64-8.9.5.30_cuda12-archive.tar.xz
HUGE=$CACHE/huge/cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip
for tool in unzip xz tar cp /usr/bin/time java mvn; do
  command -v "$tool" >/dev/null || { echo "bench: needs $tool" >&2; exit 2; }
done

mvn -q -B -Preal-cudnn -DskipTests package test-compile generate-test-resources
GEN="java -cp target/test-classes:target/cudnn-tool.jar dev.cudnntool.bench.BenchArchives $CACHE"
mkdir -p "$CACHE"
[ -f "$ZIP" ] || $GEN windows
if [ ! -f "$TXZ" ]; then
  $GEN linux-tar
  (cd "$CACHE/linux-tree" && tar -cf - cudnn-linux-x86_64-8.9.5.30_cuda12-archive | xz -T2 -6 > "../$(basename "$TXZ").part")
  mv "$TXZ.part" "$TXZ"
  rm -rf "$CACHE/linux-tree"
fi
[ -f "$HUGE" ] || $GEN huge
# The archives carry NVIDIA's names but not NVIDIA's bytes: give their own sha256 (it wins over the catalogue's).
sha() { sha256sum "$1" | cut -d' ' -f1; }
ZIP_SHA=$(sha "$ZIP"); TXZ_SHA=$(sha "$TXZ"); HUGE_SHA=$(sha "$HUGE")

TIMES=$WORK/times; rm -rf "$WORK"; mkdir -p "$TIMES"
# measure NAME CMD...: wall seconds and peak RSS (KB) appended to $TIMES/NAME
measure() {
  local name=$1; shift
  sync
  /usr/bin/time -f "%e %M" -o "$TIMES/.last" "$@" >/dev/null 2>"$WORK/$name.err" || {
    echo "bench: '$name' failed:" >&2; tail -5 "$WORK/$name.err" >&2; exit 1; }
  cat "$TIMES/.last" >> "$TIMES/$name"
}
tool_zip()    { rm -rf "$WORK/p"; measure tool-zip bin/cudnn-install --archive "$ZIP" --sha256 "$ZIP_SHA" --prefix "$WORK/p" --no-probe --force --quiet; }
manual_zip()  { rm -rf "$WORK/x" "$WORK/y"; mkdir -p "$WORK/y"
                measure manual-zip sh -c "unzip -q '$ZIP' -d '$WORK/x' && cp -r '$WORK/x/.' '$WORK/y/'"; }
tool_txz()    { rm -rf "$WORK/p"; measure tool-txz bin/cudnn-install --archive "$TXZ" --sha256 "$TXZ_SHA" --prefix "$WORK/p" --no-probe --quiet; }
manual_txz()  { rm -rf "$WORK/x" "$WORK/y"; mkdir -p "$WORK/x" "$WORK/y"
                measure manual-txz sh -c "tar -xJf '$TXZ' -C '$WORK/x' && cp -a '$WORK/x/.' '$WORK/y/'"; }

echo "bench: $ROUNDS rounds on $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GB; $(java -version 2>&1 | head -1)"
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then tool_zip; manual_zip; tool_txz; manual_txz
  else manual_zip; tool_zip; manual_txz; tool_txz; fi
  measure unzip-p sh -c "unzip -p '$ZIP' > /dev/null"
  measure xz-dc sh -c "xz -dc '$TXZ' > /dev/null"
  echo "bench: round $r done"
done

# cudnn-verify (with the probe) on a finished install of real cuDNN 9.5.1, against a bare JVM.
PFX=$WORK/real-prefix
scripts/real-cudnn-prefix.sh "$PFX"
mkdir -p "$WORK/hello"; printf 'public class Hello { public static void main(String[] a) { System.out.println("hello"); } }\n' > "$WORK/hello/Hello.java"
javac -d "$WORK/hello" "$WORK/hello/Hello.java"
export LD_LIBRARY_PATH="$PFX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" # a program must find it by name (issue 11)
bin/cudnn-verify --prefix "$PFX" --expect 9.5.1 >/dev/null || { echo "bench: verify of the real install failed" >&2; bin/cudnn-verify --prefix "$PFX"; exit 1; }
for r in $(seq 1 "$ROUNDS"); do
  measure verify bin/cudnn-verify --prefix "$PFX" --expect 9.5.1
  measure hello java -cp "$WORK/hello" Hello
done

# Peak memory on an archive of about 4 GB expanded.
rm -rf "$WORK/p"; measure tool-huge bin/cudnn-install --archive "$HUGE" --sha256 "$HUGE_SHA" --prefix "$WORK/p" --no-probe --force --quiet
rm -rf "$WORK/p" "$WORK/x" "$WORK/y"
# Inspecting an archive of over 1 GB fits a 64 MB heap (issue 2): nothing is held whole in memory.
measure inspect-64m-txz java -Xmx64m -jar target/cudnn-tool.jar inspect "$TXZ" --sha256 "$TXZ_SHA"
measure inspect-64m-zip java -Xmx64m -jar target/cudnn-tool.jar inspect "$ZIP" --sha256 "$ZIP_SHA"

python3 - "$TIMES" "$(du -b "$HUGE" | cut -f1)" "$(du -sb "$CACHE" >/dev/null; echo)" <<'PY'
import sys, statistics, os
d = sys.argv[1]
def col(name, i):
    return [float(l.split()[i]) for l in open(os.path.join(d, name)) if l.strip()]
med = lambda n: statistics.median(col(n, 0))
peak = lambda n: max(col(n, 1)) / 1024
rows = [("zip: cudnn-install / (unzip + cp -r)", med("tool-zip"), med("manual-zip"), 0.6),
        ("tar.xz: cudnn-install / (tar -xJf + cp -a)", med("tool-txz"), med("manual-txz"), 1.2),
        ("verify with probe / bare JVM hello", med("verify"), med("hello"), 12.0)]
print("\nmedians (s): tool-zip %.2f  manual-zip %.2f  unzip -p %.2f  |  tool-txz %.2f  manual-txz %.2f  xz -dc %.2f  |  verify %.2f  hello %.3f"
      % (med("tool-zip"), med("manual-zip"), med("unzip-p"), med("tool-txz"), med("manual-txz"), med("xz-dc"), med("verify"), med("hello")))
ok = True
for name, a, b, target in rows:
    r = a / b
    ok &= r <= target
    print("%-48s %6.2f  (target <= %.1f)  %s" % (name, r, target, "ok" if r <= target else "MISSED"))
print("%-48s %6.2f  %6.2f" % ("lower bounds: tool-zip / unzip -p, tool-txz / xz -dc", med("tool-zip") / med("unzip-p"), med("tool-txz") / med("xz-dc")))
for n, label in (("tool-zip", "zip (398 MB)"), ("tool-txz", "tar.xz"), ("tool-huge", "zip, 4.4 GB expanded")):
    m = peak(n)
    ok &= m <= 256
    print("%-48s %6.0f MB (target <= 256)  %s" % ("peak RSS, cudnn-install, " + label, m, "ok" if m <= 256 else "MISSED"))
print("peak RSS, cudnn-verify %.0f MB; unzip + cp %.0f MB; tar + cp %.0f MB" % (peak("verify"), peak("manual-zip"), peak("manual-txz")))
print("inspect with -Xmx64m: tar.xz %.1f s, zip %.1f s: ok" % (med("inspect-64m-txz"), med("inspect-64m-zip")))
print("bench: all targets met" if ok else "bench: some targets MISSED")
PY
