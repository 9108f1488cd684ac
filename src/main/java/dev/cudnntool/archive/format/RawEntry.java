package dev.cudnntool.archive.format;

/**
 * One entry as the archive format reports it, before any validation.
 *
 * @param size       the declared uncompressed size, -1 where the format does not say up front
 * @param linkTarget the target of a symlink or hard link, else null
 * @param mode       POSIX permission bits where the format carries them, else 0
 */
public record RawEntry(String name, EntryType type, long size, String linkTarget, int mode) {
}
