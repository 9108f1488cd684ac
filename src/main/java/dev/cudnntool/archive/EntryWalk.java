package dev.cudnntool.archive;
import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.Hex;
import dev.cudnntool.Text;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.archive.format.EntryCursor;
import dev.cudnntool.archive.format.EntryType;
import dev.cudnntool.archive.format.RawEntry;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.archive.name.NamingScheme;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The state of one read of an archive, and every check that needs one entry's header: names,
 * duplicates, types, the top folder, the shape of the tree and links. Unsafe entries stop the
 * read at once (exit 3). Files that are not cuDNN's are read (hashed) but never handed to the
 * sink; they become an error finding at the end.
 */
final class EntryWalk {
    static final int HEADER_CAPTURE_LIMIT = 4 << 20;

    final InspectionLimits limits;
    final ArchiveName name;
    final EntrySink sink;
    final ReadProgress progress;
    final long fileSize;
    EntryCursor cursor;
    String top;
    String current;
    boolean sinkFailure;
    int count;
    long totalBytes;
    final Set<String> seen = new HashSet<>();
    final EntryTree tree = new EntryTree();
    final Map<String, ArchiveItem> files = new HashMap<>();
    final List<ArchiveItem> items = new ArrayList<>();
    /** Findings of the source's own kind (a wheel's RECORD), added to the report's. */
    final List<Finding> extraFindings = new ArrayList<>();
    CudnnVersion headerVersion;
    String headerFile;
    CudnnVersion fallbackHeaderVersion;
    String fallbackHeaderFile;

    EntryWalk(InspectionLimits limits, ArchiveName name, EntrySink sink, ReadProgress progress, long fileSize) {
        this.limits = limits;
        this.name = name;
        this.sink = sink;
        this.progress = progress;
        this.fileSize = fileSize;
    }

    /** The checked facts of one entry, before its content is read. */
    record Prepared(String path, String relPath, EntryRole role, List<String> segs, RawEntry raw) {
    }

    /** Every check that needs only the entry's header; null for the top folder itself. */
    Prepared prepare(RawEntry raw) {
        List<String> segs = checkedSegments(raw);
        if (name.scheme() == NamingScheme.WHEEL) {
            segs = WheelContents.payloadSegments(this, raw, segs);
        }
        if (top == null) {
            top = segs.get(0);
        } else if (!top.equals(segs.get(0))) {
            throw layout("entries in two top folders ('" + top + "' and '" + segs.get(0) + "')");
        }
        if (segs.size() == 1) {
            if (raw.type() != EntryType.DIRECTORY) {
                throw layout("file '" + Text.printable(raw.name()) + "' is not inside a top folder");
            }
            tree.add(raw.name(), segs, raw.type(), EntryRole.DIRECTORY, null);
            return null;
        }
        List<String> rel = segs.subList(1, segs.size());
        EntryRole role = ArchiveLayout.classify(rel, raw.type());
        String linkTarget = raw.type() == EntryType.SYMLINK ? EntrySafety.symlinkTarget(raw.name(), raw.linkTarget()) : null;
        tree.add(raw.name(), segs, raw.type(), role, linkTarget);
        return new Prepared(String.join("/", segs), String.join("/", rel), role, segs, raw);
    }

    /** The checks every entry passes, whatever it is for: count, name, duplicates, type. Returns its segments. */
    List<String> checkedSegments(RawEntry raw) {
        current = Text.printable(raw.name());
        if (++count > limits.maxEntries()) {
            throw EntrySafety.unsafe(raw.name(), "more than " + limits.maxEntries() + " entries");
        }
        List<String> segs = EntrySafety.segments(raw.name());
        String key = String.join("/", segs).toLowerCase(Locale.ROOT);
        if (!seen.add(key)) {
            throw EntrySafety.unsafe(raw.name(),
                    "a second entry with the same name (compared without case, as Windows does)");
        }
        if (raw.type() == EntryType.SPECIAL) {
            throw EntrySafety.unsafe(raw.name(), "device file, FIFO or other special file");
        }
        return segs;
    }

    void accept(RawEntry raw) throws IOException {
        Prepared p = prepare(raw);
        if (p == null) {
            return;
        }
        if (raw.type() == EntryType.FILE) {
            readFile(p, raw);
        } else {
            acceptNonFile(p);
        }
    }

    /** Folders and links: no content, straight to the sink (foreign ones only to the report). */
    void acceptNonFile(Prepared p) throws IOException {
        RawEntry raw = p.raw();
        String path = p.path();
        String relPath = p.relPath();
        EntryRole role = p.role();
        boolean install = role != EntryRole.OTHER;
        switch (raw.type()) {
            case DIRECTORY -> {
                ArchiveItem item = new ArchiveItem(path, relPath, role, EntryType.DIRECTORY, 0, null, null, raw.mode());
                items.add(item);
                callSink(() -> sink.directory(item));
            }
            case SYMLINK -> {
                ArchiveItem item = new ArchiveItem(path, relPath, role, EntryType.SYMLINK, 0, null,
                        raw.linkTarget(), raw.mode());
                items.add(item);
                if (install) {
                    callSink(() -> sink.symlink(item));
                }
            }
            case HARDLINK -> {
                List<String> target = EntrySafety.segments(raw.linkTarget());
                String targetRel = String.join("/", target.subList(Math.min(1, target.size()), target.size()));
                if (!target.get(0).equals(top) || target.size() < 2 || !files.containsKey(targetRel)) {
                    throw EntrySafety.unsafe(raw.name(), "hard link to '" + Text.printable(raw.linkTarget())
                            + "', which is not a file earlier in the archive's folder");
                }
                ArchiveItem base = files.get(targetRel);
                ArchiveItem item = new ArchiveItem(path, relPath, role, EntryType.HARDLINK, base.size(),
                        base.sha256(), targetRel, raw.mode());
                items.add(item);
                if (install && base.role() != EntryRole.OTHER) {
                    callSink(() -> sink.hardlink(item));
                }
            }
            default -> throw new IllegalStateException("not a folder or link: " + raw);
        }
    }

    private void readFile(Prepared p, RawEntry raw) throws IOException {
        ArchiveItem item = new ArchiveItem(p.path(), p.relPath(), p.role(), EntryType.FILE, Math.max(raw.size(), 0),
                null, null, raw.mode());
        Metered content = new Metered(cursor.content(), raw.name());
        if (p.role() == EntryRole.OTHER) {
            content.transferTo(OutputStream.nullOutputStream()); // hashed for the report, never staged
        } else if (isVersionHeader(item)) {
            byte[] text = content.readNBytes(HEADER_CAPTURE_LIMIT);
            noteHeader(item, text);
            InputStream replay = new SequenceInputStream(new ByteArrayInputStream(text), content);
            callSink(() -> sink.file(item, replay));
        } else {
            callSink(() -> sink.file(item, content));
        }
        content.transferTo(OutputStream.nullOutputStream());
        ArchiveItem done = item.withHash(content.count, Hex.of(content.md.digest()));
        items.add(done);
        files.put(p.relPath(), done);
        progress.update(cursor.compressedBytesRead(), fileSize, files.size(), totalBytes);
    }

    /** Only the version header at the top of include/ counts (the layout gives no other a header role). */
    boolean isVersionHeader(ArchiveItem item) {
        String fileName = item.fileName();
        return item.role() == EntryRole.HEADER && (fileName.equals("cudnn_version.h") || fileName.equals("cudnn.h"));
    }

    synchronized void noteHeader(ArchiveItem item, byte[] text) {
        Optional<CudnnVersion> v = HeaderVersion.parse(new String(text, StandardCharsets.ISO_8859_1));
        if (v.isPresent() && item.fileName().equals("cudnn_version.h")) {
            headerVersion = v.get();
            headerFile = item.relPath();
        } else if (v.isPresent()) {
            fallbackHeaderVersion = v.get(); // cuDNN 7 has no cudnn_version.h: cudnn.h carries the defines
            fallbackHeaderFile = item.relPath();
        }
    }

    private void callSink(IoAction action) throws IOException {
        try {
            action.run();
        } catch (ToolException e) {
            throw e;
        } catch (EntryMeter.ArchiveDamaged e) {
            throw e; // the read of the archive failed while the sink was pulling bytes
        } catch (IOException e) {
            sinkFailure = true; // the sink's own failure: the disk, not the download
            throw e;
        }
    }

    ToolException layout(String why) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED,
                "archive " + name.fileName() + " does not have NVIDIA's layout: " + why,
                "use the archive exactly as downloaded from NVIDIA; do not repack it");
    }

    ArchiveReport report(String sha256, long size, ChecksumExpectation expected) {
        if (top == null) {
            throw layout("it is empty");
        }
        tree.checkLinks();
        return ArchiveFindings.report(this, sha256, size, expected);
    }

    /** Bounds one entry's bytes: the archive's total expansion and this entry's ratio. */
    private final class Metered extends EntryMeter {
        private final String entry;
        private final long compressedAtStart;

        Metered(InputStream in, String entry) {
            super(in, false);
            this.entry = entry;
            this.compressedAtStart = cursor.compressedBytesRead();
        }

        @Override
        void counted(int n) {
            totalBytes += n;
            if (totalBytes > limits.maxTotalBytes()) {
                throw EntrySafety.unsafe(entry, "the archive expands to more than "
                        + (limits.maxTotalBytes() >> 20) + " MiB");
            }
            if (count > limits.ratioFloorBytes()) {
                long compressed = cursor.compressedBytesRead() - compressedAtStart + InspectionLimits.READ_AHEAD_SLACK;
                if (count > compressed * limits.maxRatio()) {
                    throw EntrySafety.unsafe(entry, "it expands more than " + limits.maxRatio()
                            + "-fold (an archive bomb)");
                }
            }
        }
    }

    @FunctionalInterface
    interface IoAction {
        void run() throws IOException;
    }
}
