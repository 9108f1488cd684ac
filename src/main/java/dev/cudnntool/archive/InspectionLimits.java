package dev.cudnntool.archive;

/**
 * Bounds that protect against archive bombs. The defaults fit every real cuDNN archive with room
 * to spare (the largest is about 3 GB expanded, 60 entries).
 *
 * @param maxEntries       more entries than this are rejected
 * @param maxTotalBytes    total uncompressed bytes allowed
 * @param maxRatio         one entry may expand at most this many times its compressed size
 * @param ratioFloorBytes  entries smaller than this are never judged by ratio
 */
public record InspectionLimits(int maxEntries, long maxTotalBytes, int maxRatio, long ratioFloorBytes) {
    public static final InspectionLimits DEFAULT = new InspectionLimits(10_000, 16L << 30, 200, 1L << 20);

    /** Decompressors read ahead of what they hand out; the ratio check allows this much. */
    public static final long READ_AHEAD_SLACK = 128 * 1024;

    public InspectionLimits withMaxTotalBytes(long bytes) {
        return new InspectionLimits(maxEntries, bytes, maxRatio, ratioFloorBytes);
    }
}
