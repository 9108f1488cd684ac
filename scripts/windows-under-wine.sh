#!/usr/bin/env bash
# Windows, executed: runs the tool as a Windows user would, with a real Windows JVM (Temurin 17 from
# npm) and NVIDIA's real Windows cuDNN 8.9.7 DLLs (Bytedeco's redist jar on Maven Central), under
# Wine. Asserts exit codes and JSON of: verify --prefix (LoadLibraryExW, 8907, every sub-library; the mapped
# modules, and a stale sub-library in System32 or earlier on PATH named as cudnn.sublibrary-elsewhere),
# install of a Windows-layout zip into a toolkit found through CUDA_PATH, verify --expect, the stop
# on a DLL held open by another Windows process (exit 5, nothing changed), rollback --list columns,
# rollback (toolkit tree byte-identical), --add-to-path (HKCU\Environment Path read back with
# `wine reg query`, restored exactly by rollback), and the .cmd launchers from a folder with a space,
# one with parentheses, through JAVA_HOME alone, and through PATH alone with a java.exe and a java.cmd
# planted in the current folder (never run).
#
# Skips (exit 0, with the reason) where it cannot run: no Wine, npm or python3 and no apt-get or not
# root to install them. With CI_STRICT=1 (set by .ci/run) each of those fails the run instead (exit 1,
# with the reason): CI never passes without having run it. Caches under ${CUDNN_TOOL_CACHE:-~/.cache/cudnn-tool}; works in target/wine-ci
# and removes it at the end. Usage: scripts/windows-under-wine.sh   (KEEP=1 keeps target/wine-ci)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
say() { echo "windows-under-wine: $*"; }
fail() { say "FAILED: $*" >&2; exit 1; }
skip() { [ "${CI_STRICT:-}" = 1 ] && fail "(CI_STRICT=1) $*"; say "skipped: $*"; exit 0; }
start=$(date +%s)

# ---- prerequisites -------------------------------------------------------------------------------
# Debian's packages for the tools that are missing: Wine, npm (the Windows Java runtime), python3
# (the zip and the JSON). A fresh machine has no package lists yet: apt-get update, then again.
pkgs=()
command -v wine >/dev/null 2>&1 || pkgs+=(wine wine64)
command -v npm >/dev/null 2>&1 || pkgs+=(npm)
command -v python3 >/dev/null 2>&1 || pkgs+=(python3)
if [ ${#pkgs[@]} -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || skip "${pkgs[*]} not installed and there is no apt-get to install them"
  [ "$(id -u)" = 0 ] || skip "${pkgs[*]} not installed and installing them needs root (apt-get install -y ${pkgs[*]})"
  say "installing ${pkgs[*]} from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q "${pkgs[@]}" >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && apt-get install -y -q "${pkgs[@]}" >/dev/null; } \
    || skip "apt-get could not install ${pkgs[*]}"
fi
command -v wine >/dev/null 2>&1 || skip "Wine is still missing after apt-get"
command -v npm >/dev/null 2>&1 || skip "npm is needed to fetch the Windows Java runtime"
command -v python3 >/dev/null 2>&1 || skip "python3 is needed to build the zip and read the JSON"
[ -f target/cudnn-tool.jar ] || ./mvnw -q -B package -DskipTests

cache=${CUDNN_TOOL_CACHE:-$HOME/.cache/cudnn-tool}
mkdir -p "$cache"

# ---- a Windows x64 Java 17 runtime from npm, its sha512 checked against the registry ------------
jre_pkg=@node-plantuml-2/jre-win32-x64@1.1.8
jre=$cache/jre-win32-x64-1.1.8
if [ ! -f "$jre/bin/java.exe" ]; then
  say "fetching $jre_pkg"
  want=$(npm view "$jre_pkg" dist.integrity)
  tgz=$(cd "$cache" && npm pack "$jre_pkg" --silent | tail -n 1)
  got=$(python3 -c 'import base64,hashlib,sys; print("sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1],"rb").read()).digest()).decode())' "$cache/$tgz")
  [ "$got" = "$want" ] || { rm -f "$cache/$tgz"; fail "$tgz: integrity $got, the registry says $want"; }
  rm -rf "$jre.tmp" && mkdir -p "$jre.tmp"
  tar -xzf "$cache/$tgz" -C "$jre.tmp"
  rm -rf "$jre" && mv "$jre.tmp/package/jre" "$jre" && rm -rf "$jre.tmp" "$cache/$tgz"
fi

# ---- NVIDIA's Windows cuDNN 8.9.7 from Bytedeco's redist jar, and a Windows-layout zip of it ------
m2=${MAVEN_REPO:-$HOME/.m2/repository}
gav=org.bytedeco:cuda:12.3-8.9-1.5.10:jar:windows-x86_64-redist
jar=$m2/org/bytedeco/cuda/12.3-8.9-1.5.10/cuda-12.3-8.9-1.5.10-windows-x86_64-redist.jar
[ -f "$jar" ] || ./mvnw -q -B dependency:get -Dartifact=$gav -Dtransitive=false
dlls=$cache/cudnn-windows-8.9.7
archive_name=cudnn-windows-x86_64-8.9.7.29_cuda12-archive
archive=$cache/$archive_name.zip
if [ ! -f "$archive" ] || [ ! -f "$dlls/cudnn64_8.dll" ]; then
  say "unpacking the cuDNN DLLs from $(basename "$jar") and building $archive_name.zip"
  python3 - "$jar" "$dlls" "$archive" "$archive_name" <<'EOF'
import os, shutil, sys, zipfile
jar, out, archive, top = sys.argv[1:]
os.makedirs(out, exist_ok=True)
with zipfile.ZipFile(jar) as z:
    for i in z.infolist():
        name = os.path.basename(i.filename)
        if i.filename.startswith("org/bytedeco/cuda/windows-x86_64/") and (name.startswith("cudnn") or name == "zlibwapi.dll"):
            with z.open(i) as src, open(os.path.join(out, name + ".part"), "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            os.replace(os.path.join(out, name + ".part"), os.path.join(out, name))
bases = ["cudnn", "cudnn_ops_infer", "cudnn_ops_train", "cudnn_cnn_infer", "cudnn_cnn_train", "cudnn_adv_infer", "cudnn_adv_train"]
headers = ["cudnn.h", "cudnn_backend.h"] + [b + ".h" for b in bases[1:]]
with zipfile.ZipFile(archive + ".part", "w", zipfile.ZIP_STORED) as z:   # the DLLs hardly compress
    z.writestr(top + "/LICENSE", "cuDNN SOFTWARE LICENSE AGREEMENT (see NVIDIA's archive)\n")
    for b in bases:
        z.write(os.path.join(out, b + "64_8.dll"), top + "/bin/" + b + "64_8.dll")
    for h in headers:
        z.writestr(top + "/include/" + h, "/* " + h + " (stand-in) */\n")
    z.writestr(top + "/include/cudnn_version.h", "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n")
    for b in bases:
        z.writestr(top + "/lib/x64/" + b + ".lib", "!<arch>\n" + b + "\n")
        z.writestr(top + "/lib/x64/" + b + "64_8.lib", "!<arch>\n" + b + "64_8\n")
os.replace(archive + ".part", archive)
EOF
fi

# ---- a fresh Wine prefix and a Windows machine laid out in it ------------------------------------
work=$root/target/wine-ci
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
holder_pid=
cleanup() {
  [ -z "$holder_pid" ] || kill "$holder_pid" 2>/dev/null || true
  wineserver -k 2>/dev/null || true
  [ "${KEEP:-}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
rm -rf "$work" && mkdir -p "$work/out"
# A first start under load can leave a prefix without kernel32.dll ("could not load kernel32.dll"):
# make the prefix again, up to three times, until it is whole.
for try in 1 2 3; do
  wineboot -i >/dev/null 2>&1 || true
  wineserver -w   # let the prefix's first start finish: a command started during it may not find java.exe
  [ -f "$WINEPREFIX/drive_c/windows/system32/kernel32.dll" ] && break
  say "the Wine prefix is incomplete after wineboot (try $try); making it again"
  wineserver -k 2>/dev/null || true
  rm -rf "$WINEPREFIX"
done
C=$WINEPREFIX/drive_c
[ -d "$C" ] || fail "wineboot made no drive_c in $WINEPREFIX"
winpath() { echo "Z:$(echo "$1" | tr / '\\')"; }

ln -s "$jre" "$C/jre"
unset JAVA CUDNN_TOOL_JAVA_OPTS
export JAVA_HOME='C:\jre'     # the launchers find java.exe through JAVA_HOME alone (not on PATH)
tool="$C/Program Files/cudnn tool"
mkdir -p "$tool/bin" "$tool/target"
cp bin/*.cmd "$tool/bin/"
cp target/cudnn-tool.jar "$tool/target/"
[ -f target/cudnn-tool.jsa ] || fail "target/cudnn-tool.jsa is missing: the quoting of -XX:SharedArchiveFile would go untested"
[ -f target/cudnn-install.jsa ] || fail "target/cudnn-install.jsa is missing: the install launcher's archive line would go untested"
cp target/cudnn-tool.jsa target/cudnn-install.jsa "$tool/target/"
x86="$C/Program Files (x86)/cudnn tool"
mkdir -p "$x86/bin" "$x86/target" "$C/Program Files (x86)/no jar/bin"
cp bin/*.cmd "$x86/bin/"; cp bin/*.cmd "$C/Program Files (x86)/no jar/bin/"
cp target/cudnn-tool.jar target/cudnn-tool.jsa target/cudnn-install.jsa "$x86/target/"

# C:\cudnn: the archive unpacked by hand, as the guide says.
pfx=$C/cudnn
mkdir -p "$pfx/bin" "$pfx/include" "$pfx/lib/x64"
for f in "$dlls"/*.dll; do ln "$f" "$pfx/bin/" 2>/dev/null || cp "$f" "$pfx/bin/"; done
python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for i in z.infolist():
    if "/include/" in i.filename or "/lib/" in i.filename:
        open(sys.argv[2] + "/" + i.filename.split("/", 1)[1], "wb").write(z.read(i))' "$archive" "$pfx"

# A CUDA 12.3 toolkit (no real CUDA: version.json and folders), zlibwapi.dll in its bin as the guide
# says, and an older cudnn64_8.dll that the install must replace.
tk_win='C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.3'
tk="$C/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v12.3"
mkdir -p "$tk/bin" "$tk/include" "$tk/lib/x64"
printf '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.3.107"\n   }\n}\n' > "$tk/version.json"
echo '/* cuda.h (stand-in) */' > "$tk/include/cuda.h"
echo '!<arch>' > "$tk/lib/x64/cudart.lib"
cp "$dlls/zlibwapi.dll" "$tk/bin/"
{ cat "$dlls/cudnn64_8.dll"; printf 'an older build'; } > "$tk/bin/cudnn64_8.dll"
export CUDA_PATH="$tk_win"
tree_hash() { (cd "$tk" && find . -path ./.cudnn-tool -prune -o \( -type f -o -type l \) -print | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -c1-64); }

# run EXPECTED-EXIT NAME LAUNCHER-FOLDER COMMAND ARGS...: stdout to out/NAME.json (or .txt), stderr to out/NAME.err
# COMMAND "verify" runs bin\cudnn-verify.cmd; COMMAND "cudnn" runs bin\cudnn.cmd (the one launcher: ARGS name the command).
run() {
  local want=$1 name=$2 dir=$3 cmd=$4; shift 4
  local rc=0 launcher="cudnn-$cmd.cmd"
  [ "$cmd" = cudnn ] && launcher=cudnn.cmd
  wine "$dir\\bin\\$launcher" "$@" > "$work/out/$name.out" 2> "$work/out/$name.err" || rc=$?
  # The tool never ends without a word (--json always prints a document): nothing at all on either stream is Wine
  # failing to start the launcher (seen once under load, exit 1). Run it once more; a real failure fails again, and a
  # command that did its work the first time answers differently the second (rollback: nothing to roll back, exit 8).
  if [ "$rc" != "$want" ] && [ ! -s "$work/out/$name.out" ] && [ ! -s "$work/out/$name.err" ]; then
    say "$name: exit $rc with no output at all (Wine did not start it?); once more"
    rc=0
    wine "$dir\\bin\\$launcher" "$@" > "$work/out/$name.out" 2> "$work/out/$name.err" || rc=$?
  fi
  if [ "$rc" != "$want" ]; then
    cat "$work/out/$name.out" "$work/out/$name.err" >&2
    fail "$name: exit $rc, expected $want"
  fi
  say "ok: $name (exit $rc, $(( $(date +%s) - start )) s)"
}
# check NAME PYTHON-EXPRESSION: the expression over d (the JSON document) and out/err (texts) must hold
check() {
  python3 - "$work/out/$1" "$2" <<'EOF' || fail "$1: $2"
import json, re, sys
base, expr = sys.argv[1:]
out = open(base + ".out", encoding="utf-8", errors="replace").read()
err = open(base + ".err", encoding="utf-8", errors="replace").read()
try:
    d = json.loads(out)
except ValueError:
    d = None
if not eval("(" + expr + "\n)"):
    print(out[-4000:], err[-2000:], sep="\n", file=sys.stderr)
    sys.exit(1)
EOF
}
T='C:\Program Files\cudnn tool'
X='C:\Program Files (x86)\cudnn tool'
zip_win=$(winpath "$archive")
zip_sha=$(sha256sum "$archive" | cut -d" " -f1)   # the stand-in zip has NVIDIA's name but not its bytes: the catalogue would refuse it

# ---- 1. the probe on the real DLLs --------------------------------------------------------------
# Unpacked by hand but not on PATH: a program cannot load cudnn64_8.dll by name, and verify says so (exit 1).
run 1 verify-prefix-off-path "$T" verify --prefix 'C:\cudnn' --json
check verify-prefix-off-path 'd["probe"]["version"] == 8907 and any(f["id"] == "cudnn.not-found-by-name" for f in d["findings"])'
# With C:\cudnn\bin on PATH (as --add-to-path or the guide's manual step would put it) it is healthy.
export WINEPATH='C:\cudnn\bin'
run 0 verify-prefix "$T" verify --prefix 'C:\cudnn' --json
unset WINEPATH
check verify-prefix 'd["probe"]["version"] == 8907 and d["probe"]["loadedPath"].endswith("cudnn64_8.dll")
 and len(d["probe"]["subLibraries"]) == 6 and all(s["loaded"] for s in d["probe"]["subLibraries"])'

# ---- 1b. #33 item 1 on Windows: a sub-library from a folder earlier in the DLL search order ---------
# The probe loads only cudnn64_8.dll, with C:\cudnn\bin on its PATH (left as it is, or appended when missing),
# and lists the process's modules: the dispatcher's LoadLibrary of cudnn_ops_infer64_8.dll searches System32
# before PATH, so a stale copy there is what every program gets ("an old DLL in System32"). Then the same file
# in a folder earlier on PATH. Each is a real 8.9.7 DLL with bytes appended (another file, the same release).
stale=$C/windows/system32/cudnn_ops_infer64_8.dll
{ cat "$dlls/cudnn_ops_infer64_8.dll"; printf 'a stale copy'; } > "$stale"
export WINEPATH='C:\cudnn\bin'
run 0 verify-stale-system32 "$T" verify --prefix 'C:\cudnn' --json
check verify-stale-system32 'd["probe"]["version"] == 8907 and any(m["path"].lower().endswith(r"\system32\cudnn_ops_infer64_8.dll")
 for m in d["probe"]["mapped"]) and any(f["id"] == "cudnn.sublibrary-elsewhere" and r"system32\cudnn_ops_infer64_8.dll" in f["message"].lower()
 and "before PATH" in f["message"] for f in d["findings"])'
# Off PATH too: the child appends C:\cudnn\bin to its own PATH, System32's copy still wins.
unset WINEPATH
run 1 verify-stale-system32-off-path "$T" verify --prefix 'C:\cudnn' --json
check verify-stale-system32-off-path 'd["probe"]["version"] == 8907 and any(f["id"] == "cudnn.not-found-by-name" for f in d["findings"])
 and any(f["id"] == "cudnn.sublibrary-elsewhere" and r"system32\cudnn_ops_infer64_8.dll" in f["message"].lower() for f in d["findings"])'
rm -f "$stale"
mkdir -p "$C/stale"
{ cat "$dlls/cudnn_ops_infer64_8.dll"; printf 'a stale copy'; } > "$C/stale/cudnn_ops_infer64_8.dll"
export WINEPATH='C:\stale;C:\cudnn\bin'
run 0 verify-stale-on-path "$T" verify --prefix 'C:\cudnn' --json
check verify-stale-on-path 'any(f["id"] == "cudnn.sublibrary-elsewhere" and r"c:\stale\cudnn_ops_infer64_8.dll" in f["message"].lower() for f in d["findings"])'
# The healthy case names nothing: every module from C:\cudnn\bin, listed.
export WINEPATH='C:\cudnn\bin;C:\stale'
run 0 verify-stale-after "$T" verify --prefix 'C:\cudnn' --json
check verify-stale-after 'len(d["probe"]["mapped"]) >= 2 and all(m["path"].lower().startswith("c:\\cudnn\\bin\\") for m in d["probe"]["mapped"])
 and not any(f["id"] == "cudnn.sublibrary-elsewhere" for f in d["findings"])'
unset WINEPATH
rm -rf "$C/stale"
say "ok: a sub-library from System32 or an earlier PATH folder is named (cudnn.sublibrary-elsewhere)"

# ---- 2. a DLL of the toolkit held open by another Windows process: exit 5, nothing changed -------
before=$(tree_hash)
mkdir -p "$work/holder"
cat > "$work/holder/Hold.java" <<'EOF'
/** Loads a DLL, as a Python session loads cuDNN, says so, and keeps it loaded until killed. */
public class Hold {
    public static void main(String[] args) throws Exception {
        System.load(args[0]);
        System.out.println("held");
        System.out.flush();
        Thread.sleep(600_000);
    }
}
EOF
javac --release 17 -d "$work/holder" "$work/holder/Hold.java"
wine 'C:\jre\bin\java.exe' -cp "$(winpath "$work/holder")" Hold "$tk_win\\bin\\cudnn64_8.dll" > "$work/out/holder.txt" 2>&1 &
holder_pid=$!
for _ in $(seq 60); do grep -qs held "$work/out/holder.txt" && break; sleep 0.5; done
grep -q held "$work/out/holder.txt" || fail "the holder process did not load the DLL: $(cat "$work/out/holder.txt")"
run 5 install-held "$T" install --archive "$zip_win" --sha256 "$zip_sha" --json
check install-held 'd["exitCode"] == 5 and "in use" in d["error"]["message"] and "v12.3\\bin\\cudnn64_8.dll" in d["error"]["message"]'
[ "$(tree_hash)" = "$before" ] || fail "install-held changed the toolkit"
kill "$holder_pid"; wait "$holder_pid" 2>/dev/null || true; holder_pid=

# ---- 3. install into the toolkit found through CUDA_PATH with --add-to-path, then verify --expect --
# A user PATH as Windows keeps it (REG_EXPAND_SZ with a variable); the toolkit's bin is not on it.
wine reg add 'HKCU\Environment' /v Path /t REG_EXPAND_SZ /d '%USERPROFILE%\bin;C:\tools' /f >/dev/null 2>&1
path_before=$(wine reg query 'HKCU\Environment' /v Path 2>/dev/null | tr -d '\r')
echo "$path_before" | grep -q 'REG_EXPAND_SZ *%USERPROFILE%\\bin;C:\\tools$' || fail "could not set the user PATH: $path_before"
run 0 install "$T" install --archive "$zip_win" --sha256 "$zip_sha" --add-to-path --json
check install 'd["ok"] and d["target"]["path"].endswith("v12.3") and any(f["id"] == "install.probe-ok" for f in d["findings"])
 and any(f["id"] == "install.add-to-path" and f["message"].startswith("added ") for f in d["findings"])'
path_after=$(wine reg query 'HKCU\Environment' /v Path 2>/dev/null | tr -d '\r')
echo "$path_after" | grep -q 'REG_EXPAND_SZ *%USERPROFILE%\\bin;C:\\tools;C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.3\\bin$' \
  || fail "--add-to-path: the user PATH reads: $path_after"
say "ok: the user PATH has the toolkit's bin appended, still REG_EXPAND_SZ"
[ -f "$tk/bin/cudnn_cnn_infer64_8.dll" ] && [ -f "$tk/include/cudnn_version.h" ] && [ -f "$tk/lib/x64/cudnn64_8.lib" ] \
  || fail "install: the DLLs, headers and import libraries are not in bin, include and lib\\x64"
run 0 verify-expect "$T" verify --expect 8.9.7 --json
check verify-expect 'd["ok"] and d["probe"]["versionString"] == "8.9.7" and d["probe"]["loadedPath"].endswith("v12.3\\bin\\cudnn64_8.dll")
 and all(s["loaded"] for s in d["probe"]["subLibraries"]) and not any(f["id"] == "search-path.missing" for f in d["findings"])'

# ---- 4. rollback --list: the columns line up with Windows' 30-character dates --------------------
run 0 list "$T" rollback --list
# header, the install (marked current, #30 item 7), and the two legend lines; every header column starts a cell
check list 'len(out.splitlines()) == 4 and {m.start() for m in re.finditer(r"\S+", out.splitlines()[0])} <= {m.start() for m in re.finditer(r"\S+", out.splitlines()[1])} and "(current)" in out.splitlines()[1]'

# ---- 5. rollback: the toolkit byte-identical to before ------------------------------------------
run 0 rollback "$T" rollback --json
check rollback 'd["ok"]'
[ "$(tree_hash)" = "$before" ] || fail "rollback: the toolkit differs from before the install"
check rollback 'any(f["id"] == "rollback.search-path" and "exactly" in f["message"] for f in d["findings"])'
[ "$(wine reg query 'HKCU\Environment' /v Path 2>/dev/null | tr -d '\r')" = "$path_before" ] || fail "rollback: the user PATH was not restored"
say "ok: rollback restored the user PATH exactly"

# ---- 6. the launchers: parentheses in the folder, a missing jar, JAVA over JAVA_HOME ------------
run 0 launcher-x86 "$X" verify --version
check launcher-x86 'out.startswith("cudnn-tool ")'
run 2 launcher-no-jar 'C:\Program Files (x86)\no jar' verify --version
check launcher-no-jar '"cudnn-tool.jar\" is missing; fix: build it with" in err and "recognize" not in err and "not recognized" not in err'
JAVA='C:\jre\bin\java.exe' JAVA_HOME='C:\no such folder' run 0 launcher-java-wins "$T" verify --version
# The one launcher, bin\cudnn.cmd: the command is its first argument; alone it lists the commands (exit 2).
run 0 launcher-cudnn "$X" cudnn verify --version
check launcher-cudnn 'out.startswith("cudnn-tool ")'
run 2 launcher-cudnn-alone "$T" cudnn
check launcher-cudnn-alone 'all(("  " + c + " ") in out for c in ("install", "verify", "rollback", "inspect", "releases"))'

# ---- 7. no JAVA, no JAVA_HOME: java.exe from an absolute PATH folder, never the current folder ----
# A java.exe (a copy of Wine's hostname.exe) and a java.cmd planted in the current folder, and "." on
# PATH before the real runtime's folder: cmd.exe would run either for a bare "java".
plant=$C/planted
mkdir -p "$plant"
cp "$C/windows/system32/hostname.exe" "$plant/java.exe"
printf '@echo off\r\necho planted> "%%~dp0ran.txt"\r\necho cudnn-tool planted\r\n' > "$plant/java.cmd"
(
  unset JAVA JAVA_HOME
  export WINEPATH='.;planted;C:\jre\bin'
  cd "$plant"
  run 0 launcher-path-search "$T" verify --version || exit 1
  check launcher-path-search 'out.startswith("cudnn-tool ") and "planted" not in out' || exit 1
  [ ! -e "$plant/ran.txt" ] || fail "the planted java.cmd in the current folder ran"
  rm "$plant/java.exe"
  run 0 launcher-path-search-cmd "$T" verify --version || exit 1
  check launcher-path-search-cmd 'out.startswith("cudnn-tool ") and "planted" not in out' || exit 1
  [ ! -e "$plant/ran.txt" ] || fail "the planted java.cmd in the current folder ran"
  export WINEPATH='.;planted'
  run 2 launcher-no-java "$T" verify --version || exit 1
  check launcher-no-java '"no java.exe in JAVA_HOME or in a PATH folder; fix:" in err' || exit 1
  [ ! -e "$plant/ran.txt" ] || fail "the planted java.cmd in the current folder ran"
) || exit 1
say "ok: the launchers never run a java from the current folder or a relative PATH entry"

# ---- 8. the self-contained Windows image's layout: bin\, lib\cudnn-tool.jar, runtime\ (#21 item 5) --
# The Windows JVM stands in for the jlink'd runtime. The image has no target\ folder; its
# runtime\bin\java.exe beside bin\ comes before a JAVA, a JAVA_HOME and a PATH that all name a planted
# java.exe (a copy of hostname.exe), also planted in the current folder.
img="$C/Program Files/cudnn-tool image"
I='C:\Program Files\cudnn-tool image'
mkdir -p "$img/bin" "$img/lib"
cp bin/*.cmd "$img/bin/"
cp target/cudnn-tool.jar "$img/lib/"
ln -s "$jre" "$img/runtime"
cp "$C/windows/system32/hostname.exe" "$plant/java.exe"
mkdir -p "$plant/bin" && cp "$plant/java.exe" "$plant/bin/java.exe"
(
  export JAVA='C:\planted\java.exe' JAVA_HOME='C:\planted' WINEPATH='.;C:\planted'
  cd "$plant"
  run 0 image-version "$I" verify --version || exit 1
  check image-version 'out.startswith("cudnn-tool ") and "planted" not in out' || exit 1
  export WINEPATH='C:\cudnn\bin;C:\planted'
  run 0 image-verify "$I" verify --prefix 'C:\cudnn' --json || exit 1
  check image-verify 'd["probe"]["version"] == 8907 and d["probe"]["loadedPath"].endswith("cudnn64_8.dll")' || exit 1
  [ ! -e "$plant/ran.txt" ] || fail "the planted java.cmd in the current folder ran"
) || exit 1
say "ok: the image's launchers run runtime\\bin\\java.exe beside them, before JAVA, JAVA_HOME and PATH"

# ---- 9. NVIDIA's .exe installer layout (#19 B21): %ProgramFiles%\NVIDIA\CUDNN\v<M.m>\{bin,include,lib}\<CUDA>\[x64]
# The real 8.9.7 DLLs stand where NVIDIA's cuDNN 9 installer puts its files (the layout is the same for any
# release): one folder for the toolkit's CUDA 12.3, one for 11.8. verify finds both as copies (origin
# installer), names the one for the toolkit with its PATH line and CMake hints, and says when it is on PATH.
inst="$C/Program Files/NVIDIA/CUDNN/v8.9"
mkdir -p "$inst/bin/12.3/x64" "$inst/bin/11.8/x64" "$inst/include/12.3" "$inst/lib/12.3/x64"
cp "$dlls"/cudnn*64_8.dll "$inst/bin/12.3/x64/"
cp "$dlls/cudnn64_8.dll" "$inst/bin/11.8/x64/"
printf '#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n' > "$inst/include/12.3/cudnn_version.h"
echo '!<arch>' > "$inst/lib/12.3/x64/cudnn.lib"
I12='C:\Program Files\NVIDIA\CUDNN\v8.9\bin\12.3\x64'
installer_ok='any(c["origin"] == "installer" and c["path"] == r"'"$I12"'\cudnn64_8.dll" for c in d["copies"])
 and any(c["origin"] == "installer" and c["path"].endswith(r"\bin\11.8\x64\cudnn64_8.dll") for c in d["copies"])
 and any(f["id"] == "cudnn.installer" and r"for the toolkit'"'"'s CUDA 12.3 use '"$I12"'" in f["message"]
         and "-DCUDNN_LIBRARY=" in f["message"] and r"\v8.9\lib\12.3\x64\cudnn.lib" in f["message"] for f in d["findings"])'
run 1 installer-layout "$T" verify --no-probe --json
check installer-layout "$installer_ok"' and any(f["id"] == "cudnn.installer" and "not on PATH" in f["message"] for f in d["findings"])'
WINEPATH="$I12" run 1 installer-layout-on-path "$T" verify --no-probe --json
check installer-layout-on-path "$installer_ok"' and any(f["id"] == "cudnn.installer" and "(on PATH)" in f["message"] for f in d["findings"])'
say "ok: NVIDIA's installer layout found, matched to the toolkit's CUDA 12.3, with its PATH line and CMake hints"

say "all Windows checks passed in $(( $(date +%s) - start )) s"
