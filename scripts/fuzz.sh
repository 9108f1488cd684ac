#!/usr/bin/env bash
# Long fuzzing runs on demand (docs/fuzzing.md): every @FuzzTest in dev.cudnntool.fuzz in turn, each for
# a set time, through Jazzer's own driver (so the duration is the script's, not the annotation's).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [Class#method ...]
#
#   SECONDS_PER_TARGET  default 240 (or $FUZZ_SECONDS)
#   Class#method        only these targets (e.g. LoaderFuzzTest#elf); default: all of them
#   FUZZ_OUT            where inputs are kept (default fuzz-out/, ignored by git):
#                         corpus/<Class>/<method>/   what the fuzzer found interesting (kept between runs)
#                         crashes/<Class>/<method>/  inputs that broke a reader's contract
#                         logs/<Class>.<method>.log  Jazzer's output (its last line gives cov: and ft:)
#                         classes/                   the compiled classes the run uses (a copy)
#   FUZZ_MAX_LEN        the largest input tried (default 16384 bytes)
#
# Time is judged by the tests' Contract (which does not count class loading), not by libFuzzer's slow-unit
# report: -report_slow_units=60 keeps libFuzzer from writing slow-unit-* files for the first inputs that
# load and instrument a reader's classes (15-25 s on a loaded machine); -timeout=60 still catches a hang.
#
# Exit 0 when no target found anything, 1 when one did (its input is under crashes/, see docs/fuzzing.md).
set -uo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${1:-${FUZZ_SECONDS:-240}}
shift || true
OUT=${FUZZ_OUT:-fuzz-out}
MAX_LEN=${FUZZ_MAX_LEN:-16384}
export JAZZER_FUZZ=1   # what a @FuzzTest run under JUnit needs to fuzz rather than replay; harmless for the driver

ALL=(
    HeaderFuzzTest#cudnnVersionHeader
    ArchiveFuzzTest#archiveName ArchiveFuzzTest#zip ArchiveFuzzTest#tarFamily ArchiveFuzzTest#wheel
    ArchiveFuzzTest#wheelMetadataAndRecord
    LoaderFuzzTest#elf LoaderFuzzTest#pe LoaderFuzzTest#ldSoCache LoaderFuzzTest#ldSoConf
    StateFuzzTest#installRecord StateFuzzTest#journal
    CatalogueFuzzTest#manifest CatalogueFuzzTest#catalogue
    PackageRecordsFuzzTest#pip PackageRecordsFuzzTest#conda PackageRecordsFuzzTest#dpkg PackageRecordsFuzzTest#rpm
)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL[@]}")

./mvnw -B -q test-compile || exit 2
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/fuzz-classpath.txt > /dev/null || exit 2
# A copy of the compiled classes: a build during a long run must not change them under the fuzzer.
rm -rf "$OUT/classes" && mkdir -p "$OUT/classes" && cp -r target/classes "$OUT/classes/main" && cp -r target/test-classes "$OUT/classes/test"
CP="$OUT/classes/test:$OUT/classes/main:$(cat target/fuzz-classpath.txt)"
INCLUDES='dev.cudnntool.**:org.apache.commons.compress.**:org.tukaani.**:com.fasterxml.jackson.**'

mkdir -p "$OUT/logs"
found=0
for t in "${TARGETS[@]}"; do
    cls=${t%%#*}
    method=${t#*#}
    seeds=$PWD/src/test/resources/dev/cudnntool/fuzz/${cls}Inputs/$method
    corpus=$OUT/corpus/$cls/$method
    crashes=$OUT/crashes/$cls/$method
    log=$OUT/logs/$cls.$method.log
    mkdir -p "$corpus" "$crashes" "$seeds"
    echo "== $t: ${SECONDS_PER_TARGET}s from $(date -u +%H:%M:%S)"
    java -Xmx1g -cp "$CP" com.code_intelligence.jazzer.Jazzer \
        --target_class="dev.cudnntool.fuzz.$cls" --target_method="$method" \
        --instrumentation_includes="$INCLUDES" --custom_hook_includes="$INCLUDES" \
        -max_total_time="$SECONDS_PER_TARGET" -max_len="$MAX_LEN" -timeout=60 -report_slow_units=60 -rss_limit_mb=0 \
        -artifact_prefix="$crashes/" "$corpus" "$seeds" > "$log" 2>&1
    rc=$?
    last=$(grep -E '^#[0-9]+[[:space:]].*cov: ' "$log" | tail -1)
    if [ $rc -ne 0 ] || [ -n "$(ls -A "$crashes")" ]; then
        found=1
        echo "   FOUND (exit $rc): $(ls "$crashes" | head -3 | tr '\n' ' ') -- see $log"
    fi
    echo "   $last"
done
exit $found
