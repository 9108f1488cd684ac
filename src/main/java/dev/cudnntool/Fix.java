package dev.cudnntool;

import java.util.Objects;

/**
 * What a finding tells the user to do, and of which kind it is, so that code decides by the kind and
 * never by reading the words: a command of this tool ({@code cudnn install …}, {@code cudnn rollback}), a command of the
 * package manager that owns the files, or plain text (none when empty). Written out as its text alone:
 * JSON's {@code "fix"} is the same string it always was.
 */
public record Fix(Kind kind, String text) {
    public enum Kind {
        /** No fix (an info finding). */
        NONE,
        /** Advice in words, or a command of the system (chmod, ldconfig, a driver update). */
        TEXT,
        /** This tool's cudnn install puts the files back: for files a package manager owns, its command does instead. */
        REINSTALL,
        /** Another command of this tool (cudnn rollback, an option of cudnn install). */
        TOOL,
        /** The command of the package manager that owns the files (pip, conda, apt, dnf). */
        PACKAGE_MANAGER
    }

    public static final Fix NONE = new Fix(Kind.NONE, "");

    public Fix {
        Objects.requireNonNull(kind);
        text = text == null ? "" : text;
        if (text.isEmpty()) {
            kind = Kind.NONE;
        }
    }

    /** Advice in words (or none when empty). */
    public static Fix text(String text) {
        return text == null || text.isEmpty() ? NONE : new Fix(Kind.TEXT, text);
    }

    /** Reinstall with this tool's cudnn install (the owner's command for files a package manager owns). */
    public static Fix reinstall(String text) {
        return new Fix(Kind.REINSTALL, text);
    }

    /** Another command of this tool (run cudnn rollback). */
    public static Fix tool(String text) {
        return new Fix(Kind.TOOL, text);
    }

    /** The owning package manager's command. */
    public static Fix packageManager(String text) {
        return new Fix(Kind.PACKAGE_MANAGER, text);
    }

    public boolean is(Kind k) {
        return kind == k;
    }

    @Override
    public String toString() {
        return text;
    }
}
