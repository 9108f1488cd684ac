package dev.cudnntool.archive.format;
import dev.cudnntool.Failures;
import dev.cudnntool.Text;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * Where each entry's bytes begin in a zip, which {@link java.util.zip.ZipFile} knows but does not
 * tell: read by commons-compress's zip reader, which does. The two readers must agree on every
 * entry of the central directory (name, sizes, CRC, method) or the archive is refused as
 * damaged: a zip that two readers read differently is exactly the kind built to show a checker
 * one file and install another. Every local header is checked for its signature; commons-compress
 * checks that an entry's bytes end before the central directory begins. (Encrypted entries never
 * get here: {@code ZipFile} refuses them.)
 */
public final class ZipDataOffsets {
    private static final int LOC_SIGNATURE = 0x04034b50;

    private ZipDataOffsets() {
    }

    /** The data offset of each entry of {@code directory}, in the order given (the central directory's). */
    public static long[] of(Path archive, List<? extends ZipEntry> directory, long fileSize) throws IOException {
        try (FileChannel ch = FileChannel.open(archive, StandardOpenOption.READ);
             ZipFile zip = ZipFile.builder().setSeekableByteChannel(ch).setUseUnicodeExtraFields(false)
                     .setIgnoreLocalFileHeader(true).get()) {
            List<ZipArchiveEntry> second = Collections.list(zip.getEntries());
            if (second.size() != directory.size()) {
                throw new ZipException("two zip readers count " + directory.size() + " and " + second.size() + " entries");
            }
            long[] offsets = new long[directory.size()];
            for (int i = 0; i < offsets.length; i++) {
                ZipEntry a = directory.get(i);
                ZipArchiveEntry b = second.get(i);
                if (!a.getName().equals(b.getName()) || a.getSize() != b.getSize()
                        || a.getCompressedSize() != b.getCompressedSize() || a.getCrc() != b.getCrc()
                        || a.getMethod() != b.getMethod()) {
                    throw new Damaged(a.getName(), "two zip readers disagree on entry " + (i + 1) + " of its central directory");
                }
                try {
                    checkLocalHeader(ch, b.getLocalHeaderOffset(), fileSize);
                    try (InputStream raw = zip.getRawInputStream(b)) { // finds the data offset; checks it against the directory
                        Objects.requireNonNull(raw, "raw stream");
                    }
                } catch (IOException | RuntimeException e) {
                    throw new Damaged(a.getName(), e.getMessage() == null ? Failures.kind(e) : e.getMessage());
                }
                offsets[i] = b.getDataOffset();
            }
            checkNoOverlap(directory, second, offsets);
            ZipAgreement.check(ch, fileSize, second, offsets); // what a reader of local headers reads is the same
            return offsets;
        } catch (RuntimeException e) { // commons-compress's words for a structure it cannot read
            throw new ZipException(e.getMessage() == null ? Failures.kind(e) : e.getMessage());
        }
    }

    /** Damage found at one entry, which it names. */
    public static final class Damaged extends ZipException {
        private static final long serialVersionUID = 1L;
        private final String entry;

        Damaged(String entry, String why) {
            super(why);
            this.entry = entry;
        }

        public String entry() {
            return entry;
        }
    }

    /**
     * Every entry's local header and bytes lie apart from every other's. {@code ZipFile} reads records
     * that share bytes, which no zip tool writes: the "overlapping files" bomb, whose every record
     * has an honest ratio while the file expands once per record.
     */
    private static void checkNoOverlap(List<? extends ZipEntry> directory, List<ZipArchiveEntry> second, long[] offsets)
            throws Damaged {
        Integer[] byPlace = new Integer[offsets.length];
        for (int i = 0; i < byPlace.length; i++) {
            byPlace[i] = i;
        }
        Arrays.sort(byPlace, Comparator.comparingLong(i -> second.get(i).getLocalHeaderOffset()));
        for (int k = 1; k < byPlace.length; k++) {
            int before = byPlace[k - 1];
            int after = byPlace[k];
            if (offsets[before] + directory.get(before).getCompressedSize() > second.get(after).getLocalHeaderOffset()) {
                throw new Damaged(directory.get(after).getName(), "its bytes overlap those of entry '"
                        + Text.printable(directory.get(before).getName()) + "'");
            }
        }
    }

    private static void checkLocalHeader(FileChannel ch, long at, long fileSize) throws IOException {
        if (at < 0 || at > fileSize - 30) {
            throw new ZipException("invalid LOC header (outside the file)");
        }
        ByteBuffer sig = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        while (sig.hasRemaining()) {
            if (ch.read(sig, at + sig.position()) < 0) {
                throw new ZipException("invalid LOC header (outside the file)");
            }
        }
        if (sig.getInt(0) != LOC_SIGNATURE) {
            throw new ZipException("invalid LOC header (bad signature)");
        }
    }
}
