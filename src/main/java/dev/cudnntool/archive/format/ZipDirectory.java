package dev.cudnntool.archive.format;
import dev.cudnntool.Failures;
import dev.cudnntool.PlatformFiles;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;

/**
 * A zip's central directory, its entries in the directory's order, on any file system. A file the
 * JDK can open by name ({@link PlatformFiles#openableByName}) is read by {@link java.util.zip.ZipFile},
 * whose checks the rest of the reading relies on (no encrypted entries, names that are UTF-8); any
 * other (jimfs, a zip inside a zip) by commons-compress over a byte channel,
 * which is held to the same two rules here. What the file system is never decides anything else:
 * {@link ZipDataOffsets} and {@link ZipEntryInput} read through channels either way.
 */
public final class ZipDirectory implements AutoCloseable {
    private final List<ZipEntry> entries;
    private final AutoCloseable owner;

    private ZipDirectory(List<ZipEntry> entries, AutoCloseable owner) {
        this.entries = Collections.unmodifiableList(entries);
        this.owner = owner;
    }

    /** Reads the central directory of {@code archive}; a structure the reader refuses is a {@link ZipException}. */
    public static ZipDirectory open(Path archive) throws IOException {
        if (!PlatformFiles.openableByName(archive)) {
            return overChannel(archive);
        }
        ZipFile zip;
        try {
            zip = new ZipFile(archive.toString());
        } catch (RuntimeException e) {
            throw refused(e);
        }
        try {
            return new ZipDirectory(Collections.list(zip.entries()).stream().map(ZipEntry.class::cast)
                    .collect(Collectors.toCollection(ArrayList::new)), zip);
        } catch (RuntimeException e) {
            zip.close();
            throw refused(e);
        }
    }

    /**
     * The JDK's ZipFile checks names when it opens a zip but decodes an entry's comment only when the
     * entry is listed, and a comment that is not UTF-8 is an {@link IllegalArgumentException} there
     * (#35, found by the fuzzer in a wheel); any unchecked failure of the JDK's reader is the zip's
     * damage, as the channel reader's below is.
     */
    private static ZipException refused(RuntimeException e) {
        ZipException z = new ZipException(e instanceof IllegalArgumentException
                ? "invalid CEN header (bad entry name or comment)" : "invalid CEN header (" + e.getClass().getSimpleName() + ")");
        z.initCause(e);
        return z;
    }

    private static ZipDirectory overChannel(Path archive) throws IOException {
        SeekableByteChannel ch = Files.newByteChannel(archive);
        org.apache.commons.compress.archivers.zip.ZipFile zip;
        try {
            zip = org.apache.commons.compress.archivers.zip.ZipFile.builder().setSeekableByteChannel(ch)
                    .setUseUnicodeExtraFields(false).setIgnoreLocalFileHeader(true).get();
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e instanceof ZipException z ? z : new ZipException(e.getMessage() == null
                    ? Failures.kind(e) : e.getMessage());
        }
        List<ZipEntry> out = new ArrayList<>();
        try {
            for (ZipArchiveEntry e : Collections.list(zip.getEntries())) {
                if (e.getGeneralPurposeBit().usesEncryption()) {
                    throw new ZipException("invalid CEN header (encrypted entry)");
                }
                if (e.getName().indexOf('\uFFFD') >= 0) {
                    throw new ZipException("invalid CEN header (bad entry name)");
                }
                out.add(e);
            }
        } catch (IOException | RuntimeException e) {
            zip.close();
            throw e;
        }
        return new ZipDirectory(out, zip);
    }

    /** Every entry of the central directory, in its order. */
    public List<ZipEntry> entries() {
        return entries;
    }

    @Override
    public void close() throws IOException {
        try {
            owner.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }
}
