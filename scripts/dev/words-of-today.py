#!/usr/bin/env python3
"""#31 item 7, the mechanical part: messages, fixes, help text and the README's examples name the
commands of the one launcher (`cudnn install`, `cudnn verify`, `cudnn rollback`) instead of the
three old launchers (`cudnn-install`, `cudnn-verify`, `cudnn-rollback`), which stay and keep working.

Re-runnable and idempotent: run it from anywhere after merging other branches; it prints each line
it changes and changes nothing a second time. `--check` changes nothing and exits 1 if a line would
change (for CI or a reviewer).

What is never touched:
- the launcher files and their names: `bin/`, a name after `/` or `\\` (`bin/cudnn-install`),
  a name followed by a file extension (`cudnn-install.jsa`, `cudnn-install.1`, `cudnn-verify.cmd`)
  or by `(` (a man page reference such as `cudnn-install(1)`);
- the files listed in EXCLUDED (tests that run the old launchers, the man page writer, the
  Ansible module that runs launchers by name, scripts that run them);
- lines of the README that name the launchers themselves (the launcher table, the man pages).
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Where the words are: every file under these folders (with these endings), plus the README.
INCLUDED_DIRS = [("src/main/java", ".java"), ("src/test/java", ".java"), ("src/test/resources/golden", "")]
INCLUDED_FILES = ["README.md"]

# Files that run, name or test the old launchers as launchers: left exactly as they are.
EXCLUDED = {
    "src/test/java/dev/cudnntool/cli/LauncherTest.java",
    "src/test/java/dev/cudnntool/cli/LauncherSymlinkTest.java",
    "src/test/java/dev/cudnntool/cli/RoffManPages.java",
    "scripts/dev/words-of-today.py",
    # already on today's words, and names the old ones on purpose (it catches them coming back in a merge)
    "src/test/java/dev/cudnntool/verify/FixTextGuardTest.java",
}

# README lines about the launchers themselves (which files exist, the man pages' names, the Ansible
# module's fallback launcher `tool`).
README_KEEP = re.compile(r"`bin/cudnn-|man/man1|cudnn-install\.1|launcher|^`cudnn-install`\); returns")

# An old launcher's name used as a command in words; not a path, not a file name, not a man page.
OLD = re.compile(r"(?<![/\\\w.\-])cudnn-(install|verify|rollback)(?![\w\-]|\.\w|\()")


def files():
    for d, ext in INCLUDED_DIRS:
        base = ROOT / d
        if base.is_dir():
            for p in sorted(base.rglob("*" + ext)):
                if p.is_file():
                    yield p
    for f in INCLUDED_FILES:
        p = ROOT / f
        if p.is_file():
            yield p


def rewrite(path, check):
    rel = path.relative_to(ROOT).as_posix()
    if rel in EXCLUDED:
        return 0
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    changed = 0
    for i, line in enumerate(lines):
        if rel == "README.md" and README_KEEP.search(line):
            continue
        new = OLD.sub(lambda m: "cudnn " + m.group(1), line)
        if new != line:
            changed += 1
            print(f"{rel}:{i + 1}: {line.strip()}\n{' ' * (len(rel) + len(str(i + 1)) + 2)}-> {new.strip()}")
            lines[i] = new
    if changed and not check:
        path.write_text("\n".join(lines), encoding="utf-8")
    return changed


def main(argv):
    check = "--check" in argv[1:]
    total = sum(rewrite(p, check) for p in files())
    print(f"words-of-today: {total} line(s) {'would change' if check else 'changed'}")
    return 1 if check and total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
