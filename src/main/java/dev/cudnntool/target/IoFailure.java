package dev.cudnntool.target;
import dev.cudnntool.Failures;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** Words for an I/O failure, shared by the state files and the install and rollback steps. */
public final class IoFailure {
    private IoFailure() {
    }

    /** An I/O failure in a few words, always naming the file where the exception knows it; never "null". */
    public static String describe(IOException e) {
        if (e instanceof FileSystemException f) {
            String reason = f.getReason();
            String file = f.getFile();
            String other = f.getOtherFile();
            if (reason == null) {
                reason = e instanceof NoSuchFileException ? "no such file"
                        : e instanceof FileAlreadyExistsException ? "already exists"
                        : e instanceof AccessDeniedException ? "access denied"
                        : e instanceof DirectoryNotEmptyException ? "folder not empty"
                        : Failures.kind(e);
            }
            return reason + (file == null ? "" : ": " + file) + (other == null ? "" : " -> " + other);
        }
        return Failures.words(e);
    }
}
