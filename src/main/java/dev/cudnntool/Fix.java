package dev.cudnntool;
import java.nio.file.Path;
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

    /** The shell a command fix is meant for: POSIX sh on Linux, PowerShell or cmd on Windows (#32 item 5). */
    public enum Shell {
        POSIX, POWERSHELL, CMD;

        /** The shell the host's fixes are written for: POSIX, or PowerShell on Windows. */
        public static Shell of(boolean windows) {
            return windows ? POWERSHELL : POSIX;
        }
    }

    /**
     * #32 item 5: one argument of a command fix, safe to paste into {@code shell}. A plain argument (letters,
     * digits and {@code _ . / : + , = @ % -}; {@code \} on Windows) is kept as it is, so today's texts stay;
     * anything else is quoted: POSIX single quotes ({@code '} as {@code '\''}), PowerShell single quotes (every
     * kind of single quote doubled, so {@code $(…)} and backticks stay text). In cmd nothing quotes {@code %},
     * {@code "}, {@code !} or a line break: null then, and the caller says to rename the folder.
     */
    public static String quote(Shell shell, String arg) {
        if (arg == null) {
            return null;
        }
        if (!arg.isEmpty() && plain(shell, arg)) {
            return arg;
        }
        return switch (shell) {
            case POSIX -> "'" + arg.replace("'", "'\\''") + "'";
            case POWERSHELL -> "'" + arg.replace("'", "''").replace("\u2018", "\u2018\u2018").replace("\u2019", "\u2019\u2019")
                    .replace("\u201a", "\u201a\u201a").replace("\u201b", "\u201b\u201b") + "'";
            case CMD -> arg.chars().anyMatch(c -> c == '%' || c == '"' || c == '!' || c == '^' || Text.unsafeForTerminal(c)) ? null
                    : "\"" + arg + "\"";
        };
    }

    /** {@link #quote} of a path for {@code shell}. */
    public static String quote(Shell shell, Path path) {
        return path == null ? null : quote(shell, path.toString());
    }

    /** A POSIX command line: each word {@link #quote}d. */
    public static String command(Shell shell, String... words) {
        StringBuilder b = new StringBuilder();
        for (String w : words) {
            b.append(b.length() == 0 ? "" : " ").append(quote(shell, w));
        }
        return b.toString();
    }

    private static boolean plain(Shell shell, String arg) {
        for (int i = 0; i < arg.length(); i++) {
            char c = arg.charAt(i);
            boolean ok = c < 128 && Character.isLetterOrDigit(c) || "_./:+,=-".indexOf(c) >= 0
                    || shell == Shell.POSIX && (c == '@' || c == '%') || shell != Shell.POSIX && c == '\\';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    public boolean is(Kind k) {
        return kind == k;
    }

    @Override
    public String toString() {
        return text;
    }
}
