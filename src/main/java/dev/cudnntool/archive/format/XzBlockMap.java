package dev.cudnntool.archive.format;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.tukaani.xz.SeekableXZInputStream;

/**
 * Where the blocks of a multi-block {@code .xz} lie, compressed and expanded, from the file's own
 * index: which compressed bytes hold a given position of the expanded stream. The expansion-ratio
 * check of an entry uses it on the block-parallel paths, where the bytes a decoder has consumed say
 * nothing about the entry being read: liblzma's threaded decoder takes in whole blocks for its workers
 * ahead of the output (tens of MiB), so an entry that began just after such a read looked, for its
 * first 25 MiB, as if it came out of nothing, and a real archive was refused as a bomb now and then.
 * Within a block the compressed bytes are shared out evenly; a block that expands more than the
 * limit still makes every entry in it do so.
 */
public final class XzBlockMap {
    private final long[] expandedStart;
    private final long[] expandedSize;
    private final long[] compressedStart;
    private final long[] compressedSize;

    private XzBlockMap(SeekableXZInputStream index) {
        int n = index.getBlockCount();
        expandedStart = new long[n];
        expandedSize = new long[n];
        compressedStart = new long[n];
        compressedSize = new long[n];
        for (int i = 0; i < n; i++) {
            expandedStart[i] = index.getBlockPos(i);
            expandedSize[i] = index.getBlockSize(i);
            compressedStart[i] = index.getBlockCompPos(i);
            compressedSize[i] = index.getBlockCompSize(i);
        }
    }

    /** The map of {@code file}, or null when it has fewer than two blocks or no readable index. */
    public static XzBlockMap read(Path file) {
        try (SeekableXZInputStream index = new SeekableXZInputStream(new ParallelXz.ChannelInput(Files.newByteChannel(file)))) {
            return index.getBlockCount() < 2 ? null : new XzBlockMap(index);
        } catch (IOException | RuntimeException e) {
            return null; // the stream decoder will say what is wrong with the file
        }
    }

    /** How many compressed bytes, counted from the file's start, hold the first {@code expanded} bytes of the stream. */
    long compressedAt(long expanded) {
        int i = Arrays.binarySearch(expandedStart, expanded);
        if (i < 0) {
            i = -i - 2; // the block that holds it
        }
        if (i < 0) {
            return 0;
        }
        long into = Math.min(expanded - expandedStart[i], expandedSize[i]);
        long share = expandedSize[i] == 0 ? compressedSize[i]
                : (long) ((double) compressedSize[i] * into / expandedSize[i]);
        return compressedStart[i] + share;
    }
}
