#!/usr/bin/env bash
# Benchmark: cudnn-install against doing it by hand, in one run, alternating tool and manual runs
# over ROUNDS rounds. Prints medians, ratios against the goals of issue 12, and peak resident memory.
# Usage: bench/run.sh [ROUNDS] (default 5; about 3 minutes a round on 2 cores once the cache exists).
# Archives are generated once into bench/cache/real (git-ignored) from NVIDIA's real cuDNN 8.9.7
# libraries (Bytedeco's redistributable jars, which the real-cudnn Maven profile fetches into ~/.m2):
# a zip of the real Windows DLLs (~720 MB, as large as NVIDIA's 8.9.x Windows zips), one tar of the
# real Linux libraries compressed twice, with `xz -T1` (one block: decoded as a stream) and `xz -T2`
# (many blocks: decoded block-parallel), and a zip of 4.4 GB expanded for peak memory. The first run
# spends about 15 minutes compressing them.
# BENCH_DIVISOR=N (default 1) cuts every file to 1/N of its size, into bench/cache/real/divN, for a
# quick look on a slow machine; the results are then not the issue's.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
DIV=${BENCH_DIVISOR:-1}
CACHE=bench/cache/real; [ "$DIV" = 1 ] || CACHE=bench/cache/real/div$DIV
WORK=${BENCH_WORK:-/tmp/cudnn-bench}
NAME=cudnn-linux-x86_64-8.9.5.30_cuda12-archive
ZIP=$CACHE/cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip
TXZ=$CACHE/$NAME.tar.xz            # xz -T2: many blocks
TXZ1=$CACHE/single/$NAME.tar.xz    # xz -T1: one block, the same tar
HUGE=$CACHE/huge/cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip
for tool in unzip xz tar cp /usr/bin/time java python3; do
  command -v "$tool" >/dev/null || { echo "bench: needs $tool" >&2; exit 2; }
done

./mvnw -q -B -Preal-cudnn -DskipTests package test-compile generate-test-resources
V=$(sed -n 's:.*<bytedeco.cudnn8.version>\(.*\)</bytedeco.cudnn8.version>.*:\1:p' pom.xml)
WINJAR=${MAVEN_REPO:-$HOME/.m2/repository}/org/bytedeco/cuda/$V/cuda-$V-windows-x86_64-redist.jar
[ -f "$WINJAR" ] || ./mvnw -q -B dependency:get -Dartifact="org.bytedeco:cuda:$V:jar:windows-x86_64-redist"
[ -f "$WINJAR" ] || { echo "bench: $WINJAR is missing (NVIDIA's Windows DLLs)" >&2; exit 2; }
GEN="java -cp target/test-classes:target/cudnn-tool.jar dev.cudnntool.bench.BenchArchives $CACHE"
mkdir -p "$CACHE/single"
[ -f "$ZIP" ] || $GEN windows "$DIV" "$WINJAR" target/real-cudnn/linux-8
if [ ! -f "$TXZ" ] || [ ! -f "$TXZ1" ]; then
  echo "bench: making the Linux archives (xz -T1 takes a few minutes)"
  $GEN linux-tar "$DIV" "$WINJAR" target/real-cudnn/linux-8
  (cd "$CACHE/linux-tree" && tar -cf ../linux.tar "$NAME")
  rm -rf "$CACHE/linux-tree"
  xz -T2 -6 -c "$CACHE/linux.tar" > "$TXZ.part" && mv "$TXZ.part" "$TXZ"
  xz -T1 -6 -c "$CACHE/linux.tar" > "$TXZ1.part" && mv "$TXZ1.part" "$TXZ1"
  rm -f "$CACHE/linux.tar"
fi
[ -f "$HUGE" ] || $GEN huge "$DIV" "$WINJAR" target/real-cudnn/linux-8
blocks() { xz --robot -lv "$1" | awk -F'\t' '$1=="totals"{print $3}'; }
# The archives carry NVIDIA's names and libraries but are not NVIDIA's files: give their own sha256 (it wins over the catalogue's).
declare -A SHA
for a in "$ZIP" "$TXZ" "$TXZ1" "$HUGE"; do SHA[$a]=$(sha256sum "$a" | cut -d' ' -f1); done

TIMES=$WORK/times; rm -rf "$WORK"; mkdir -p "$TIMES"
# measure NAME CMD...: wall seconds and peak RSS (KB) appended to $TIMES/NAME
measure() {
  local name=$1; shift
  sync
  /usr/bin/time -f "%e %M" -o "$TIMES/.last" "$@" >/dev/null 2>"$WORK/$name.err" || {
    echo "bench: '$name' failed:" >&2; tail -5 "$WORK/$name.err" >&2; exit 1; }
  cat "$TIMES/.last" >> "$TIMES/$name"
}
tool()   { local name=$1 archive=$2; rm -rf "$WORK/p"
           measure "$name" bin/cudnn-install --archive "$archive" --sha256 "${SHA[$archive]}" --prefix "$WORK/p" --no-probe --force --quiet; }
by_hand_zip() { rm -rf "$WORK/x" "$WORK/y"; mkdir -p "$WORK/y"
           measure manual-zip sh -c "unzip -q '$ZIP' -d '$WORK/x' && cp -r '$WORK/x/.' '$WORK/y/'"; }
by_hand_txz() { local name=$1 archive=$2; rm -rf "$WORK/x" "$WORK/y"; mkdir -p "$WORK/x" "$WORK/y"
           measure "$name" sh -c "tar -xJf '$archive' -C '$WORK/x' && cp -a '$WORK/x/.' '$WORK/y/'"; }

echo "bench: $ROUNDS rounds on $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(free -g | awk '/Mem:/{print $2}') GB;" \
     "$(java -version 2>&1 | head -1); $(xz --version | tail -1)"
echo "bench: $(du -h "$TXZ1" | cut -f1) tar.xz: $(blocks "$TXZ1") block(s) (xz -T1), $(blocks "$TXZ") blocks (xz -T2); zip $(du -h "$ZIP" | cut -f1)"
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) -eq 1 ]; then
    tool tool-zip "$ZIP"; by_hand_zip
    tool tool-txz1 "$TXZ1"; by_hand_txz manual-txz1 "$TXZ1"
    tool tool-txz "$TXZ"; by_hand_txz manual-txz "$TXZ"
  else
    by_hand_zip; tool tool-zip "$ZIP"
    by_hand_txz manual-txz1 "$TXZ1"; tool tool-txz1 "$TXZ1"
    by_hand_txz manual-txz "$TXZ"; tool tool-txz "$TXZ"
  fi
  measure unzip-p sh -c "unzip -p '$ZIP' > /dev/null"
  measure xz-dc sh -c "xz -dc '$TXZ1' > /dev/null"
  echo "bench: round $r of $ROUNDS done"
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
tool tool-huge "$HUGE"
rm -rf "$WORK/p" "$WORK/x" "$WORK/y"
# Inspecting an archive of over 1 GB fits a 64 MB heap (issue 2): nothing is held whole in memory.
measure inspect-64m-txz java -Xmx64m -jar target/cudnn-tool.jar inspect "$TXZ1" --sha256 "${SHA[$TXZ1]}"
measure inspect-64m-zip java -Xmx64m -jar target/cudnn-tool.jar inspect "$ZIP" --sha256 "${SHA[$ZIP]}"

python3 - "$TIMES" "$ROUNDS" "$DIV" "$(du -sh "$HUGE" | cut -f1)" <<'PY'
import sys, statistics, os
d, rounds, div, huge = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
def col(name, i):
    return [float(l.split()[i]) for l in open(os.path.join(d, name)) if l.strip()]
med = lambda n: statistics.median(col(n, 0))
peak = lambda n: max(col(n, 1)) / 1024
ok = True
rows = []
def ratio(case, tool, manual, goal):
    global ok
    r = med(tool) / med(manual)
    met = r <= goal
    ok &= met
    rows.append((case, "%.2f s" % med(tool), "%.2f s" % med(manual), "%.2f" % r, "<= %.1f" % goal, "ok" if met else "MISSED"))
ratio("single-block .tar.xz (xz -T1): install vs tar -xJf + cp -a", "tool-txz1", "manual-txz1", 1.0)
ratio("multi-block .tar.xz (xz -T2): install vs tar -xJf + cp -a", "tool-txz", "manual-txz", 0.7)
ratio(".zip: install vs unzip + cp -r", "tool-zip", "manual-zip", 0.4)
peaks = {n: peak(n) for n in ("tool-txz1", "tool-txz", "tool-zip", "tool-huge")}
worst = max(peaks.values())
ok &= worst <= 256
rows.append(("peak RSS of install: txz1 / txz / zip / the large zip (%s)" % huge,
             " / ".join("%.0f" % v for v in peaks.values()) + " MB", "", "%.0f MB" % worst, "<= 256 MB",
             "ok" if worst <= 256 else "MISSED"))
ratio("cudnn-verify with the probe vs a bare JVM hello", "verify", "hello", 12.0)
print()
print("| case | tool | by hand | ratio | goal | |")
print("|---|---|---|---|---|---|")
for r in rows:
    print("| " + " | ".join(r) + " |")
print()
print("medians of %s rounds%s. lower bounds: install single-block / xz -dc %.2f (xz -dc %.2f s);"
      " install zip / unzip -p %.2f (unzip -p %.2f s)"
      % (rounds, "" if div == "1" else ", files scaled down %sx (BENCH_DIVISOR)" % div,
         med("tool-txz1") / med("xz-dc"), med("xz-dc"), med("tool-zip") / med("unzip-p"), med("unzip-p")))
print("peak RSS, cudnn-verify %.0f MB; unzip + cp %.0f MB; tar + cp %.0f MB; inspect with -Xmx64m: tar.xz %.1f s, zip %.1f s"
      % (peak("verify"), peak("manual-zip"), peak("manual-txz1"), med("inspect-64m-txz"), med("inspect-64m-zip")))
print("bench: all goals met" if ok else "bench: some goals MISSED")
PY
