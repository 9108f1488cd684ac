#!/usr/bin/env bash
# The Ansible module and role against a real ansible-core, on localhost with connection: local:
# a fake CUDA toolkit in a temp folder, a fixture archive (NVIDIA's name and layout, not NVIDIA's bytes,
# so its own sha256 is passed), no GPU or driver (force, no_probe). Needs target/cudnn-tool.jar and
# target/test-classes from `./mvnw -B verify`. Skips (exit 0, with the reason) when Ansible cannot be had;
# with CI_STRICT=1 (set by .ci/run) a missing tool fails the run instead (exit 1, with the reason).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# A tool this test needs is missing: a skip, said so, or under CI_STRICT=1 a failure.
missing() {
  if [ "${CI_STRICT:-}" = 1 ]; then
    echo "ansible-test: FAILED (CI_STRICT=1): $*" >&2
    exit 1
  fi
  echo "ansible-test: skipped: $*"
  exit 0
}

# The module's own logic (state=absent matches the archive's bytes, never its version), with a stand-in
# for Ansible: runs wherever python3 does, before anything needs ansible-core.
python3 -m unittest discover -s contrib/ansible/tests -p 'test_*.py' \
  || { echo "ansible-test: FAILED: the module's unit tests (python3 -m unittest discover -s contrib/ansible/tests)" >&2; exit 1; }
echo "ansible-test: the module's unit tests: ok"

if ! command -v ansible-playbook >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ansible-test: installing Debian's ansible-core"
    export DEBIAN_FRONTEND=noninteractive
    if ! { apt-get install -y -q ansible-core >/dev/null 2>&1 \
           || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q ansible-core >/dev/null 2>&1; }; }; then
      missing "apt-get could not install ansible-core (no package source reachable?)"
    fi
  else
    missing "ansible-playbook is not installed and cannot be (needs root and apt-get)"
  fi
fi
if [ ! -f target/cudnn-tool.jar ] || [ ! -d target/test-classes ]; then
  echo "ansible-test: error: target/cudnn-tool.jar or target/test-classes is missing; fix: run ./mvnw -B verify first" >&2
  exit 2
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/cudnn-ansible.XXXXXX")
trap 'rm -rf "$W"' EXIT
case "$(uname -m)" in
  x86_64) ARCH=x86_64; TARGETS=x86_64-linux ;;
  aarch64) ARCH=sbsa; TARGETS=sbsa-linux ;;
  *) echo "ansible-test: skipped: no cuDNN archive for $(uname -m)"; exit 0 ;;
esac

toolkit() { # a CUDA 12.4 toolkit as NVIDIA's installer lays it out, without the libraries
  mkdir -p "$1/bin" "$1/include" "$1/targets/$TARGETS/lib"
  ln -s "targets/$TARGETS/lib" "$1/lib64"
  printf '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "12.4.131"\n   }\n}\n' > "$1/version.json"
  echo "not cudnn" > "$1/targets/$TARGETS/lib/libcudart.so.12"
}
snapshot() { # every path, link target and file sha256 below $1: "byte-identical" made checkable
  (cd "$1" && find . | LC_ALL=C sort | while IFS= read -r f; do
    if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"
    elif [ -f "$f" ]; then echo "$f $(sha256sum < "$f" | cut -d' ' -f1) $(stat -c %a "$f")"
    else echo "$f/"; fi
  done)
}
fail() { echo "ansible-test: FAILED: $*" >&2; exit 1; }

TK=$W/cuda-12.4
toolkit "$TK"
ARCHIVE=$(java -cp target/test-classes:target/cudnn-tool.jar dev.cudnntool.testing.FixtureArchiveMain "$W/downloads" linux-"$ARCH" 9.5.1.17 12)
SHA=$(sha256sum "$ARCHIVE" | cut -d' ' -f1)
BEFORE=$(snapshot "$TK")

export ANSIBLE_LIBRARY=$ROOT/contrib/ansible/library ANSIBLE_ROLES_PATH=$ROOT/contrib/ansible/roles
# The collection cudnntool.cudnn (#31 item 4): contrib/ansible's library/ and roles/ are links into it.
export ANSIBLE_COLLECTIONS_PATH=$ROOT/contrib
export ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=False ANSIBLE_INVENTORY_UNPARSED_WARNING=False ANSIBLE_RETRY_FILES_ENABLED=False
PY=$(command -v python3)
play() { # play LOG PLAYBOOK ARGS...: runs it, keeps the output in $W/LOG; returns ansible-playbook's exit code
  local log=$1 book=$2; shift 2
  set +e
  ansible-playbook -i localhost, -c local -e "ansible_python_interpreter=$PY" "$ROOT/contrib/ansible/tests/$book" "$@" > "$W/$log" 2>&1
  local rc=$?
  set -e
  return $rc
}
recap() { grep -E '^localhost +:' "$W/$1" || true; }
MOD=(-e "archive=$ARCHIVE" -e "cuda_path=$TK" -e "sha256=$SHA" -e "tool=$ROOT/bin/cudnn-install")

# 0. the module's documentation parses, the example playbook and inventory pass a syntax check
ansible-doc -M "$ROOT/contrib/ansible/library" cudnn > "$W/doc" 2>&1 && grep -q 'RETURN VALUES' "$W/doc" \
  || { cat "$W/doc"; fail "ansible-doc cannot read the module's documentation"; }
(cd contrib/ansible && ansible-playbook -i inventory.ini site.yml --syntax-check > "$W/syntax" 2>&1) \
  || { cat "$W/syntax"; fail "the example playbook does not pass --syntax-check"; }

# 1. check mode on a fresh toolkit: reports changed, changes nothing; --diff shows the plan
play check module.yml "${MOD[@]}" --check --diff || { cat "$W/check"; fail "--check failed"; }
recap check | grep -q 'changed=1' || { cat "$W/check"; fail "--check did not report changed=1"; }
grep -q "add .*libcudnn.so.9" "$W/check" || { cat "$W/check"; fail "--diff does not show the plan"; }
[ "$(snapshot "$TK")" = "$BEFORE" ] || fail "--check changed the toolkit"
echo "ansible-test: --check reports changed and changes nothing: ok"

# 2. first run installs: changed=1, the toolkit holds cuDNN 9.5.1
play first module.yml "${MOD[@]}" || { cat "$W/first"; fail "the first run failed"; }
recap first | grep -q 'changed=1' || { cat "$W/first"; fail "the first run did not report changed=1"; }
[ -f "$TK/include/cudnn_version.h" ] && [ -L "$TK/lib64/libcudnn.so.9" ] || fail "cuDNN is not in the toolkit"
grep -q 'CUDNN_MINOR 5' "$TK/include/cudnn_version.h" || fail "not cuDNN 9.5 in the toolkit"
INSTALLED=$(snapshot "$TK")
echo "ansible-test: first run changed=1, cuDNN in the toolkit: ok"

# 3. second run: changed=0 and not a byte written
play second module.yml "${MOD[@]}" || { cat "$W/second"; fail "the second run failed"; }
recap second | grep -q 'changed=0' || { cat "$W/second"; fail "the second run was not idempotent"; }
[ "$(snapshot "$TK")" = "$INSTALLED" ] || fail "the second run changed the toolkit"
# (no tool: cudnn-install found on PATH, cudnn-verify beside it)
PATH="$ROOT/bin:$PATH" play verified module.yml -e "archive=$ARCHIVE" -e "cuda_path=$TK" -e state=verified \
  || { cat "$W/verified"; fail "state=verified failed"; }
recap verified | grep -q 'changed=0' || fail "state=verified reported a change"
echo "ansible-test: second run changed=0, state=verified passes: ok"

# 4. a bad archive (a truncated download under NVIDIA's name, no sha256: the catalogue's size stops it)
mkdir -p "$W/truncated" && head -c 100000 "$ARCHIVE" > "$W/truncated/$(basename "$ARCHIVE")"
if play bad module.yml -e "archive=$W/truncated/$(basename "$ARCHIVE")" -e "cuda_path=$TK" -e "tool=$ROOT/bin/cudnn-install"; then
  cat "$W/bad"; fail "a bad archive did not fail the task"
fi
grep -q 'install: error: .*the download is incomplete' "$W/bad" || { cat "$W/bad"; fail "the task does not carry the tool's message"; }
grep -q '"exit_code": 3' "$W/bad" || { cat "$W/bad"; fail "the task does not carry exit code 3"; }
recap bad | grep -q 'failed=1' || fail "the recap does not count the failure"
[ "$(snapshot "$TK")" = "$INSTALLED" ] || fail "the bad archive changed the toolkit"
echo "ansible-test: a bad archive fails the task with the tool's message: ok"

# 5. state: absent rolls back to the byte-identical tree (the install whose recorded archive sha256 is $SHA)
play absent module.yml "${MOD[@]}" -e state=absent || { cat "$W/absent"; fail "state=absent failed"; }
recap absent | grep -q 'changed=1' || { cat "$W/absent"; fail "state=absent did not report changed=1"; }
[ "$(snapshot "$TK")" = "$BEFORE" ] || { diff <(echo "$BEFORE") <(snapshot "$TK") || true; fail "the rollback did not restore the tree"; }
play absent2 module.yml "${MOD[@]}" -e state=absent || { cat "$W/absent2"; fail "a second state=absent failed"; }
recap absent2 | grep -q 'changed=0' || fail "a second state=absent was not idempotent"
echo "ansible-test: state=absent restores the byte-identical tree: ok"

# 6. the role in jar mode, end to end: tool and archive copied to the node, Java ensured, module called; then idempotent
TK2=$W/cuda-12.4-role
toolkit "$TK2"
ROLE=(-e cudnn_tool_mode=jar -e "cudnn_tool_home=$W/node/cudnn-tool" -e "cudnn_tool_jar=$ROOT/target/cudnn-tool.jar" -e "cudnn_tool_bin=$ROOT/bin"
      -e "cudnn_archive_src=$ARCHIVE" -e "cudnn_archive_dir=$W/node/cache" -e "cudnn_cuda_path=$TK2"
      -e "cudnn_sha256=$SHA" -e cudnn_force=true -e cudnn_no_probe=true)
# The role's Java task runs where the distribution's Java 17 is installed already (a no-op check there);
# elsewhere it is skipped, so the test never installs packages beyond ansible-core.
dpkg -s openjdk-17-jre-headless >/dev/null 2>&1 || ROLE+=(-e cudnn_manage_java=false)
play role1 role.yml "${ROLE[@]}" || { cat "$W/role1"; fail "the role failed"; }
[ -f "$TK2/include/cudnn_version.h" ] || { cat "$W/role1"; fail "the role did not install cuDNN"; }
play role2 role.yml "${ROLE[@]}" || { cat "$W/role2"; fail "the role's second run failed"; }
recap role2 | grep -q 'changed=0' || { cat "$W/role2"; fail "the role's second run was not idempotent"; }
echo "ansible-test: the role (jar mode) installs, and its second run changes nothing: ok"

# 7. the role's default, image mode: the self-contained image on a node with no Java at all (no java
# on PATH, no JAVA_HOME, the Java tasks skipped); then idempotent.
IMAGE=$(ls target/dist/cudnn-tool-*-linux-x86_64.tar.gz 2>/dev/null | head -1 || true)
if [ -z "$IMAGE" ]; then
  ./mvnw -B -q -Pdist package -DskipTests
  IMAGE=$(ls target/dist/cudnn-tool-*-linux-x86_64.tar.gz | head -1)
fi
VERSION=$(basename "$IMAGE" | sed 's/^cudnn-tool-\(.*\)-linux-x86_64.tar.gz$/\1/')
NOJAVA=$W/nojava-bin
mkdir -p "$NOJAVA"
for d in /usr/local/bin /usr/bin /bin /usr/sbin /sbin; do
  for f in "$d"/*; do
    n=${f##*/}
    case $n in java|javac|jshell|jar|jlink|jdeps) continue ;; esac
    [ -e "$NOJAVA/$n" ] || ln -s "$f" "$NOJAVA/$n"
  done
done
TK3=$W/cuda-12.4-image
toolkit "$TK3"
BEFORE3=$(snapshot "$TK3")
IMG=(-e "cudnn_tool_home=$W/node-image/cudnn-tool" -e "cudnn_tool_image=$ROOT/$IMAGE" -e "cudnn_tool_version=$VERSION"
     -e "cudnn_archive_src=$ARCHIVE" -e "cudnn_archive_dir=$W/node-image/cache" -e "cudnn_cuda_path=$TK3"
     -e "cudnn_sha256=$SHA" -e cudnn_force=true -e cudnn_no_probe=true -e "cudnn_tool_bin_dir=$W/node-image/bin")
(
  unset JAVA JAVA_HOME
  export PATH=$NOJAVA
  if command -v java >/dev/null 2>&1; then fail "the no-Java PATH still finds $(command -v java)"; fi
  play image1 role.yml "${IMG[@]}" || { cat "$W/image1"; fail "the role (image mode) failed on a node without Java"; }
  play image2 role.yml "${IMG[@]}" || { cat "$W/image2"; fail "the role's (image mode) second run failed"; }
) || exit 1
[ -f "$TK3/include/cudnn_version.h" ] || { cat "$W/image1"; fail "the role (image mode) did not install cuDNN"; }
[ -x "$W/node-image/cudnn-tool/current/runtime/bin/java" ] || fail "the image's runtime is not on the node"
grep -A2 'TASK \[cudnn : Java 17 runtime (Debian, Ubuntu)\]' "$W/image1" | grep -q 'skipping' \
  || { cat "$W/image1"; fail "image mode did not skip the Java task"; }
recap image2 | grep -q 'changed=0' || { cat "$W/image2"; fail "the role's (image mode) second run was not idempotent"; }
echo "ansible-test: the role's default (the self-contained image) installs on a node with no Java, then changes nothing: ok"

# 8. (#31 item 4) the module by its FQCN with release: state=verified changes nothing; state=absent rolls that
# version back (found in the journal) to the byte-identical toolkit; a second absent changes nothing.
REL=(-e release=9.5.1 -e "cuda_path=$TK3" -e "tool=$W/node-image/cudnn-tool/current/bin/cudnn")
AFTER3=$(snapshot "$TK3")
play relverified release.yml "${REL[@]}" -e state=verified || { cat "$W/relverified"; fail "release state=verified failed"; }
recap relverified | grep -q 'changed=0' || fail "release state=verified reported a change"
[ "$(snapshot "$TK3")" = "$AFTER3" ] || fail "state=verified changed the toolkit"
play relwrong release.yml -e release=8.9.7 -e "cuda_path=$TK3" -e "tool=$W/node-image/cudnn-tool/current/bin/cudnn" -e state=verified \
  && { cat "$W/relwrong"; fail "state=verified passed for a version that is not installed"; }
grep -q '"exit_code": 1' "$W/relwrong" || { cat "$W/relwrong"; fail "state=verified of another version: not the tool's exit 1"; }
play relabsent release.yml "${REL[@]}" -e state=absent || { cat "$W/relabsent"; fail "release state=absent failed"; }
recap relabsent | grep -q 'changed=1' || { cat "$W/relabsent"; fail "release state=absent did not report changed=1"; }
[ "$(snapshot "$TK3")" = "$BEFORE3" ] || fail "release state=absent did not restore the toolkit"
play relabsent2 release.yml "${REL[@]}" -e state=absent || { cat "$W/relabsent2"; fail "a second release state=absent failed"; }
recap relabsent2 | grep -q 'changed=0' || fail "a second release state=absent was not idempotent"
echo "ansible-test: cudnntool.cudnn.cudnn release=9.5.1: verified changes nothing, absent rolls back by version: ok"

# 9. (#31 item 4) the role gets the image from a release URL (a local server with SHA256SUMS) onto a node with
# no Java, in install.sh's root layout: <home>/<version>, current, <bin_dir>/cudnn.
if [ ! -f target/release/SHA256SUMS ]; then RELEASE_ASSETS_REUSE=1 scripts/release-assets.sh target/release > /dev/null; fi
python3 - "$ROOT/target/release" "$W/port" <<'PY' &
import functools, http.server, os, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=sys.argv[1]))
open(sys.argv[2] + ".part", "w").write(str(srv.server_address[1])); os.rename(sys.argv[2] + ".part", sys.argv[2])
srv.serve_forever()
PY
SERVER=$!
trap 'kill "$SERVER" 2> /dev/null; rm -rf "$W"' EXIT
for _ in $(seq 50); do [ -f "$W/port" ] && break; sleep 0.1; done
TK4=$W/cuda-12.4-url
toolkit "$TK4"
URL=(-e "cudnn_tool_home=$W/node-url/opt/cudnn-tool" -e "cudnn_tool_bin_dir=$W/node-url/usr/local/bin" -e "cudnn_tool_version=$VERSION"
     -e "cudnn_tool_dist_url=http://127.0.0.1:$(cat "$W/port")" -e "cudnn_archive_src=$ARCHIVE" -e "cudnn_archive_dir=$W/node-url/cache"
     -e "cudnn_cuda_path=$TK4" -e "cudnn_sha256=$SHA" -e cudnn_force=true -e cudnn_no_probe=true)
(
  unset JAVA JAVA_HOME
  export PATH=$NOJAVA
  play url1 role.yml "${URL[@]}" || { cat "$W/url1"; fail "the role (image from a release URL) failed"; }
  play url2 role.yml "${URL[@]}" || { cat "$W/url2"; fail "the role's (release URL) second run failed"; }
) || exit 1
[ -x "$W/node-url/opt/cudnn-tool/$VERSION/runtime/bin/java" ] || { cat "$W/url1"; fail "no image in <home>/$VERSION"; }
[ "$(readlink "$W/node-url/opt/cudnn-tool/current")" = "$VERSION" ] || fail "current is not $VERSION"
[ "$(readlink "$W/node-url/usr/local/bin/cudnn")" = "$W/node-url/opt/cudnn-tool/current/bin/cudnn" ] || fail "the cudnn link"
[ ! -e "$W/node-url/opt/cudnn-tool/.image-$VERSION.tar.gz" ] || fail "the download was left"
[ -f "$TK4/include/cudnn_version.h" ] || { cat "$W/url1"; fail "the role (release URL) did not install cuDNN"; }
recap url2 | grep -q 'changed=0' || { cat "$W/url2"; fail "the role's (release URL) second run was not idempotent"; }
echo "ansible-test: the role fetches the image from a release URL (SHA256SUMS checked) into install.sh's layout, no Java: ok"

# 10. (#31 item 4) the collection builds offline, and ansible-test sanity runs where it can offline: a test
# that must install its Python requirements (pip, from the network) is skipped by name, with that reason.
COLL=$ROOT/contrib/ansible_collections/cudnntool/cudnn
ansible-galaxy collection build "$COLL" --output-path "$W/build" --force > "$W/build.log" 2>&1 || { cat "$W/build.log"; fail "ansible-galaxy collection build"; }
ls "$W/build"/cudnntool-cudnn-*.tar.gz > /dev/null || fail "no collection tarball"
tar -tzf "$W/build"/cudnntool-cudnn-*.tar.gz | grep -q '^plugins/modules/cudnn.py$' || fail "the tarball lacks plugins/modules/cudnn.py"
echo "ansible-test: ansible-galaxy collection build (offline): ok"
if command -v ansible-test > /dev/null 2>&1; then
  PYV=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  for t in $(cd "$COLL" && ansible-test sanity --list-tests 2> /dev/null); do
    rc=0; (cd "$COLL" && timeout 300 ansible-test sanity --python "$PYV" --test "$t") > "$W/sanity-$t" 2>&1 || rc=$?
    if [ "$rc" = 0 ]; then echo "ansible-test: sanity $t: ok"
    elif grep -q 'does not have pip available\|Download failed\|--docker\|--venv' "$W/sanity-$t"; then
      echo "ansible-test: sanity $t: skipped: it installs its requirements with pip from the network (offline here)"
    else cat "$W/sanity-$t"; fail "ansible-test sanity --test $t"; fi
  done
else
  echo "ansible-test: sanity skipped: ansible-test is not installed"
fi
rm -rf "$COLL/tests/output"
echo "ansible-test: all ok ($(ansible-playbook --version 2>/dev/null | awk 'NR == 1'))"
