package dev.cudnntool.archive;

/** Told how far the read of an archive has come, for progress bars. */
public interface ReadProgress {
    ReadProgress NONE = (archiveBytesRead, archiveBytesTotal, filesDone, bytesWritten) -> { };

    void update(long archiveBytesRead, long archiveBytesTotal, int filesDone, long bytesWritten);
}
