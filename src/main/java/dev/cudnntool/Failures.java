package dev.cudnntool;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * A failure in words (#31 item 7): no Java exception class name reaches a user. A connection refused
 * reads "could not connect to HOST", a missing file "no such file: F", a refused one "permission
 * denied: F"; a message that itself names an exception class (a TLS library's, say) is replaced by
 * the kind of failure.
 */
public final class Failures {
    private Failures() {
    }

    /** The failure as words, {@code host} (may be null) named where a connection failed. */
    public static String words(Throwable e, String host) {
        if (e == null) {
            return "an unknown failure";
        }
        String on = host == null || host.isBlank() ? "" : " " + Text.printable(host);
        String m = e.getMessage();
        String message = m == null || m.isBlank() || namesAnException(m) ? null : Text.oneLine(m);
        if (e instanceof ConnectException) {
            return "could not connect to" + (on.isEmpty() ? " the server" : on) + " (connection refused or unreachable)";
        }
        if (e instanceof UnknownHostException) {
            String name = on.isEmpty() ? message : on.strip();
            return "unknown host" + (name == null ? "" : " " + name) + " (the name does not resolve: check the address, DNS or proxy)";
        }
        if (e instanceof HttpConnectTimeoutException) {
            return "connecting to" + (on.isEmpty() ? " the server" : on) + " timed out";
        }
        if (e instanceof HttpTimeoutException || e instanceof SocketTimeoutException) {
            return "no answer from" + (on.isEmpty() ? " the server" : on) + " in time (timed out)";
        }
        if (e instanceof SSLHandshakeException) {
            return "the secure connection to" + (on.isEmpty() ? " the server" : on)
                    + " could not be set up (its certificate is not trusted here, or a proxy intercepts it)";
        }
        if (e instanceof SSLException) {
            return "the secure connection to" + (on.isEmpty() ? " the server" : on) + " failed";
        }
        if (e instanceof FileSystemException f) {
            String reason = f.getReason() != null && !f.getReason().isBlank() && !namesAnException(f.getReason()) ? Text.oneLine(f.getReason())
                    : e instanceof NoSuchFileException ? "no such file"
                    : e instanceof AccessDeniedException ? "permission denied"
                    : e instanceof FileAlreadyExistsException ? "already exists"
                    : e instanceof DirectoryNotEmptyException ? "folder not empty"
                    : e instanceof NotDirectoryException ? "not a folder"
                    : kind(e);
            return reason + (f.getFile() == null ? "" : ": " + Text.printable(f.getFile()))
                    + (f.getOtherFile() == null ? "" : " -> " + Text.printable(f.getOtherFile()));
        }
        if (e instanceof FileNotFoundException) {
            return message == null ? "file not found" : message;
        }
        if (e instanceof EOFException) {
            return "the data ended early" + (message == null ? "" : " (" + message + ")");
        }
        if (e instanceof SocketException) {
            return "the connection" + (on.isEmpty() ? "" : " to" + on) + " broke" + (message == null ? "" : " (" + message + ")");
        }
        return message != null ? message : kind(e);
    }

    /** As {@link #words(Throwable, String)} with no host. */
    public static String words(Throwable e) {
        return words(e, null);
    }

    /** Whether a text names a Java exception class ("java.io.IOException: …", "SunCertPathBuilderException"). */
    public static boolean namesAnException(String text) {
        return text != null && text.matches("(?s).*[A-Za-z](Exception|Error)\\b.*");
    }

    /** "ZipException" -> "zip error": the class's words, never its name. */
    public static String kind(Throwable e) {
        String n = e.getClass().getSimpleName().replaceAll("(Exception|Error)$", "");
        String words = n.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT).strip();
        return words.isEmpty() || words.equals("i o") || words.equals("io") ? "an input/output error"
                : words.equals("runtime") ? "an unexpected failure" : words + " failure";
    }
}
