package dev.cudnntool.archive;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Failures;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.archive.format.ArchiveDigest;
import dev.cudnntool.archive.format.EntryCursor;
import dev.cudnntool.archive.format.ParallelXz;
import dev.cudnntool.archive.format.RawEntry;
import dev.cudnntool.archive.format.XzBlockMap;
import dev.cudnntool.archive.format.XzDecoders;
import dev.cudnntool.archive.name.ArchiveFormat;
import dev.cudnntool.archive.name.ArchiveName;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.zip.ZipException;

/**
 * Reads an archive once, as a stream, and establishes everything about it: every entry is safe,
 * where it belongs, which version the contents carry, whether every library is there, and whether
 * the file has the expected checksum. Unsafe entries stop the read at once (exit 3); problems
 * that need the whole archive (foreign files, completeness, versions, checksum) become error
 * findings. An archive that cannot be opened at all is a usage error (exit 2), not damage.
 */
public final class ArchiveInspector {
    /** Opens the archive's bytes; a port so tests can refuse access although they run as root. */
    @FunctionalInterface
    public interface Opener {
        InputStream open(Path archive) throws IOException;
    }

    private final InspectionLimits limits;
    private final Opener opener;
    private final XzDecoders.Choice xz;
    private ArchiveDigest digest;

    /** @param xz which .xz decoder to use, as the wiring read it ({@link XzDecoders#PROPERTY}) */
    public ArchiveInspector(InspectionLimits limits, Opener opener, XzDecoders.Choice xz) {
        this.limits = limits;
        this.opener = opener;
        this.xz = Objects.requireNonNull(xz);
    }

    public ArchiveInspector(InspectionLimits limits, Opener opener) {
        this(limits, opener, XzDecoders.Choice.AUTO);
    }

    public ArchiveInspector(InspectionLimits limits, XzDecoders.Choice xz) {
        this(limits, Files::newInputStream, xz);
    }

    public ArchiveInspector(InspectionLimits limits) {
        this(limits, XzDecoders.Choice.AUTO);
    }

    public ArchiveInspector() {
        this(InspectionLimits.DEFAULT);
    }

    /**
     * A digest of the archive file the caller started early ({@link ArchiveDigest#start}): a zip's
     * reader waits for it instead of hashing the file itself. Null, or one of another file, is ignored.
     */
    public ArchiveInspector withDigest(ArchiveDigest early) {
        this.digest = early;
        return this;
    }

    /**
     * {@code cudnn inspect}: the file must exist (exit 2 otherwise), and only then is the checksum it
     * must have looked up ({@code --sha256}, {@code --manifest} or the catalogue).
     */
    public ArchiveReport inspectFile(Path archive, ArchiveName name, Supplier<ChecksumExpectation> expected,
                                     ReadProgress progress) {
        if (!Files.isRegularFile(archive)) {
            throw new ToolException(ExitCode.USAGE, "archive " + archive + " does not exist or is not a file", "check the path");
        }
        return inspect(archive, name, expected.get(), EntrySink.NONE, progress);
    }

    public ArchiveReport inspect(Path archive, ArchiveName name, ChecksumExpectation expected) {
        return inspect(archive, name, expected, EntrySink.NONE, ReadProgress.NONE);
    }

    public ArchiveReport inspect(Path archive, ArchiveName name, ChecksumExpectation expected,
                                 EntrySink sink, ReadProgress progress) {
        long fileSize = checkReadable(archive);
        if (expected != null) {
            expected.checkSizeBeforeReading(name, fileSize); // the catalogue's size: a truncated download stops here
        }
        if (name.format().isZip()) {
            return new ParallelZip(limits, archive, name, sink, progress, fileSize, digest).read(expected);
        }
        EntryWalk walk = new EntryWalk(limits, name, sink, progress, fileSize);
        String sha256;
        InputStream in;
        try {
            in = opener.open(archive);
        } catch (IOException e) {
            throw unreadable(archive, e);
        }
        try (in; EntryCursor cursor = open(archive, in, name.format())) {
            walk.cursor = cursor;
            RawEntry raw;
            while ((raw = cursor.next()) != null) {
                walk.accept(raw);
            }
            sha256 = cursor.finishAndHash();
        } catch (ToolException e) {
            throw e;
        } catch (EntryMeter.ArchiveDamaged e) {
            throw corrupt(name, walk.current, (IOException) e.getCause());
        } catch (ZipException | EOFException e) {
            throw corrupt(name, walk.current, e);
        } catch (IOException e) {
            if (walk.sinkFailure) {
                throw new SinkFailure(e);
            }
            throw corrupt(name, walk.current, e);
        } catch (RuntimeException e) {
            if (e.getCause() instanceof IOException io && !walk.sinkFailure) {
                throw corrupt(name, walk.current, io);
            }
            throw e;
        }
        return walk.report(sha256, fileSize, expected);
    }

    /**
     * The archive exists, is a file and can be opened: otherwise exit 2 naming why (permission
     * denied, a folder), before anything is read, so it is never called damaged. Returns its size.
     */
    private long checkReadable(Path archive) {
        if (Files.isDirectory(archive)) {
            throw new ToolException(ExitCode.USAGE, "cannot read " + archive + " (it is a folder, not an archive file)",
                    "pass the path of the downloaded archive file to --archive");
        }
        try (InputStream probe = opener.open(archive)) {
            probe.read();
            return Files.size(archive);
        } catch (IOException e) {
            throw unreadable(archive, e);
        }
    }

    private static ToolException unreadable(Path archive, IOException e) {
        String why;
        if (e instanceof AccessDeniedException) {
            why = "permission denied";
        } else if (e instanceof NoSuchFileException) {
            why = "no such file";
        } else if (e instanceof FileSystemException f && f.getReason() != null) {
            why = f.getReason();
        } else {
            why = describe(e);
        }
        return new ToolException(ExitCode.USAGE, "cannot read " + archive + " (" + Text.printable(why) + ")",
                "check the path passed to --archive and that your account may read the file (chmod, or run with sudo)", e);
    }

    /** Multi-block .xz files are decoded on several threads; everything else as one stream. */
    private EntryCursor open(Path archive, InputStream in, ArchiveFormat format) throws IOException {
        XzBlockMap blocks = format == ArchiveFormat.TAR_XZ ? XzBlockMap.read(archive) : null;
        if (blocks != null && !XzDecoders.decodesBlocksInParallel(xz)) { // liblzma 5.4+ does it natively
            ParallelXz parallel;
            try {
                parallel = ParallelXz.open(archive);
            } catch (IOException | RuntimeException e) {
                parallel = null; // not a well-formed seekable .xz: the stream decoder will say what is wrong
            }
            if (parallel != null) {
                return EntryCursor.overParallelXz(parallel, blocks);
            }
        }
        return EntryCursor.open(new BufferedInputStream(in, 1 << 20), format, blocks, xz);
    }

    /** An I/O failure of the sink (disk full, permission), not of the archive. */
    public static final class SinkFailure extends UncheckedIOException {
        private static final long serialVersionUID = 1L;
    public SinkFailure(IOException cause) {
            super(String.valueOf(cause.getMessage()), cause);
        }
    }

    static ToolException corrupt(ArchiveName name, String entry, Exception e) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED,
                "archive " + name.fileName() + " is damaged" + (entry == null ? "" : " at entry '" + entry + "'")
                        + ": " + describe(e) + "; nothing was installed",
                "download it again (the file is incomplete or corrupt) and compare its sha256 with NVIDIA's", e);
    }

    /** One line that says what went wrong, never "null": decoders often throw without a message. */
    static String describe(Exception e) {
        String m = e.getMessage();
        if (e instanceof EOFException || m != null && m.toLowerCase(Locale.ROOT).contains("truncated")) {
            return "the file ends too early (truncated download?)" + (m == null || m.isBlank() ? "" : " - " + oneLine(m));
        }
        if (m == null || m.isBlank() || m.equals("null")) {
            Throwable c = e.getCause();
            if (c instanceof Exception ce && c != e) {
                return describe(ce);
            }
            return "unreadable data (" + Failures.kind(e) + ")";
        }
        return oneLine(m);
    }

    private static String oneLine(String m) {
        return Text.printable(m.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ').trim());
    }
}
