package dev.cudnntool.archive;

import java.io.IOException;
import java.io.InputStream;

/**
 * Receives each entry after it passed the safety checks, during the single read of the archive.
 * Inspection uses none; installation stages the files. The content stream is hashed and bounded
 * by the inspector as the sink reads it; whatever the sink leaves unread is read after it.
 */
public interface EntrySink {
    EntrySink NONE = new EntrySink() {
    };

    default void directory(ArchiveItem item) throws IOException {
    }

    default void file(ArchiveItem item, InputStream content) throws IOException {
    }

    default void symlink(ArchiveItem item) throws IOException {
    }

    /** A tar hard link: {@code item.linkTarget()} is the relPath of an earlier file. */
    default void hardlink(ArchiveItem item) throws IOException {
    }
}
