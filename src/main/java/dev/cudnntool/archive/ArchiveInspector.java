package dev.cudnntool.archive;

import dev.cudnntool.ExitCode;
import dev.cudnntool.Finding;
import dev.cudnntool.ToolException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.ZipException;

/**
 * Reads an archive once, as a stream, and establishes everything about it: every entry is safe,
 * where it belongs, which version the contents carry, whether every library is there, and whether
 * the file has the expected checksum. Unsafe entries stop the read at once (exit 3); problems
 * that need the whole archive (completeness, versions, checksum) become error findings.
 */
public final class ArchiveInspector {
    private static final int HEADER_CAPTURE_LIMIT = 4 << 20;

    private final InspectionLimits limits;

    public ArchiveInspector(InspectionLimits limits) {
        this.limits = limits;
    }

    public ArchiveInspector() {
        this(InspectionLimits.DEFAULT);
    }

    public ArchiveReport inspect(Path archive, ArchiveName name, ChecksumExpectation expected) {
        return inspect(archive, name, expected, EntrySink.NONE, ReadProgress.NONE);
    }

    public ArchiveReport inspect(Path archive, ArchiveName name, ChecksumExpectation expected,
                                 EntrySink sink, ReadProgress progress) {
        long fileSize;
        try {
            fileSize = Files.size(archive);
        } catch (IOException e) {
            throw new ToolException(ExitCode.USAGE, "cannot read archive " + archive + ": " + e.getMessage(),
                    "check the path passed to --archive", e);
        }
        if (name.format() == ArchiveFormat.ZIP && archive.getFileSystem() == java.nio.file.FileSystems.getDefault()) {
            return new ParallelZip(archive, name, sink, progress, fileSize).read(expected);
        }
        Walk walk = new Walk(name, sink, progress, fileSize);
        String sha256;
        try (InputStream in = Files.newInputStream(archive);
             EntryCursor cursor = open(archive, in, name.format())) {
            walk.cursor = cursor;
            RawEntry raw;
            while ((raw = cursor.next()) != null) {
                walk.accept(raw);
            }
            sha256 = cursor.finishAndHash();
        } catch (ToolException e) {
            throw e;
        } catch (ArchiveDamaged e) {
            throw corrupt(name, walk.current, (IOException) e.getCause());
        } catch (ZipException | java.io.EOFException e) {
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

    /** Multi-block .xz files are decoded on several threads; everything else as one stream. */
    private static EntryCursor open(Path archive, InputStream in, ArchiveFormat format) throws IOException {
        if (format == ArchiveFormat.TAR_XZ && !XzDecoders.decodesBlocksInParallel()) { // liblzma 5.4+ does it natively
            ParallelXz parallel;
            try {
                parallel = ParallelXz.open(archive);
            } catch (IOException | RuntimeException e) {
                parallel = null; // not a well-formed seekable .xz: the stream decoder will say what is wrong
            }
            if (parallel != null) {
                return EntryCursor.overParallelXz(parallel);
            }
        }
        return EntryCursor.open(new java.io.BufferedInputStream(in, 1 << 20), format);
    }

    /** An I/O failure of the sink (disk full, permission), not of the archive. */
    public static final class SinkFailure extends java.io.UncheckedIOException {
        public SinkFailure(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /**
     * Hashes (and, for zips, CRC-checks) and counts one entry's bytes as whoever reads them reads
     * them; a failure to read is marked as damage to the archive. Subclasses add their limits.
     */
    private abstract static class EntryMeter extends java.io.FilterInputStream {
        final MessageDigest md = EntryCursor.sha256();
        final java.util.zip.CRC32 crc;
        long count;

        EntryMeter(InputStream in, boolean withCrc) {
            super(in);
            this.crc = withCrc ? new java.util.zip.CRC32() : null;
        }

        /** Called after every read that returned bytes; throws to stop the read. */
        abstract void counted(int n) throws IOException;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n;
            try {
                n = in.read(b, off, len);
            } catch (IOException e) {
                throw new ArchiveDamaged(e);
            }
            if (n > 0) {
                md.update(b, off, n);
                if (crc != null) {
                    crc.update(b, off, n);
                }
                count += n;
                counted(n);
            }
            return n;
        }

        @Override
        public void close() {
            // the archive's stream stays open for the next entry
        }
    }

    /** Marks an I/O failure of reading the archive, as opposed to one of the sink writing it out. */
    private static final class ArchiveDamaged extends IOException {
        ArchiveDamaged(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    private static ToolException corrupt(ArchiveName name, String entry, Exception e) {
        return new ToolException(ExitCode.ARCHIVE_REJECTED,
                "archive " + name.fileName() + " is damaged" + (entry == null ? "" : " at entry '" + entry + "'")
                        + ": " + e.getMessage() + "; nothing was installed",
                "download it again (the file is incomplete or corrupt) and compare its sha256 with NVIDIA's", e);
    }

    /** The state of one read. */
    private final class Walk {
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
        final Map<String, ArchiveItem> files = new HashMap<>();
        final List<ArchiveItem> items = new ArrayList<>();
        CudnnVersion headerVersion;
        String headerFile;
        CudnnVersion fallbackHeaderVersion;

        Walk(ArchiveName name, EntrySink sink, ReadProgress progress, long fileSize) {
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
            current = raw.name();
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
            if (top == null) {
                top = segs.get(0);
            } else if (!top.equals(segs.get(0))) {
                throw layout("entries in two top folders ('" + top + "' and '" + segs.get(0) + "')");
            }
            if (segs.size() == 1) {
                if (raw.type() != EntryType.DIRECTORY) {
                    throw layout("file '" + raw.name() + "' is not inside a top folder");
                }
                return null;
            }
            List<String> rel = segs.subList(1, segs.size());
            if (raw.type() == EntryType.SYMLINK) {
                EntrySafety.symlinkTarget(raw.name(), segs, raw.linkTarget());
            }
            return new Prepared(String.join("/", segs), String.join("/", rel), ArchiveLayout.classify(rel, raw.type()), segs, raw);
        }

        void accept(RawEntry raw) throws IOException {
            Prepared p = prepare(raw);
            if (p == null) {
                return;
            }
            if (raw.type() == EntryType.FILE) {
                readFile(p.path(), p.relPath(), p.role(), raw);
            } else {
                acceptNonFile(p);
            }
        }

        /** Folders and links: no content, straight to the sink. */
        void acceptNonFile(Prepared p) throws IOException {
            RawEntry raw = p.raw();
            String path = p.path();
            String relPath = p.relPath();
            EntryRole role = p.role();
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
                    callSink(() -> sink.symlink(item));
                }
                case HARDLINK -> {
                    List<String> target = EntrySafety.segments(raw.linkTarget());
                    String targetRel = String.join("/", target.subList(Math.min(1, target.size()), target.size()));
                    if (!target.get(0).equals(top) || target.size() < 2 || !files.containsKey(targetRel)) {
                        throw EntrySafety.unsafe(raw.name(),
                                "hard link to '" + raw.linkTarget() + "', which is not a file earlier in the archive's folder");
                    }
                    ArchiveItem base = files.get(targetRel);
                    ArchiveItem item = new ArchiveItem(path, relPath, role, EntryType.HARDLINK, base.size(),
                            base.sha256(), targetRel, raw.mode());
                    items.add(item);
                    callSink(() -> sink.hardlink(item));
                }
                default -> throw new IllegalStateException("not a folder or link: " + raw);
            }
        }

        private void readFile(String path, String relPath, EntryRole role, RawEntry raw) throws IOException {
            ArchiveItem item = new ArchiveItem(path, relPath, role, EntryType.FILE, Math.max(raw.size(), 0),
                    null, null, raw.mode());
            Metered content = new Metered(cursor.content(), raw.name());
            String fileName = item.fileName();
            if (isVersionHeader(role, fileName)) {
                byte[] text = content.readNBytes(HEADER_CAPTURE_LIMIT);
                noteHeader(fileName, relPath, text);
                InputStream replay = new java.io.SequenceInputStream(new ByteArrayInputStream(text), content);
                callSink(() -> sink.file(item, replay));
            } else {
                callSink(() -> sink.file(item, content));
            }
            content.transferTo(java.io.OutputStream.nullOutputStream());
            ArchiveItem done = item.withHash(content.count, Hex.of(content.md.digest()));
            items.add(done);
            files.put(relPath, done);
            progress.update(cursor.compressedBytesRead(), fileSize, files.size(), totalBytes);
        }

        boolean isVersionHeader(EntryRole role, String fileName) {
            return role == EntryRole.HEADER && (fileName.equals("cudnn_version.h") || fileName.equals("cudnn.h"));
        }

        synchronized void noteHeader(String fileName, String relPath, byte[] text) {
            Optional<CudnnVersion> v = HeaderVersion.parse(new String(text, StandardCharsets.ISO_8859_1));
            if (v.isPresent() && fileName.equals("cudnn_version.h")) {
                headerVersion = v.get();
                headerFile = relPath;
            } else if (v.isPresent()) {
                fallbackHeaderVersion = v.get();
            }
        }

        private void callSink(IoAction action) throws IOException {
            try {
                action.run();
            } catch (ToolException e) {
                throw e;
            } catch (ArchiveDamaged e) {
                throw e; // the read of the archive failed while the sink was pulling bytes
            } catch (IOException e) {
                sinkFailure = true; // the sink's own failure: the disk, not the download
                throw e;
            }
        }

        private ToolException layout(String why) {
            return new ToolException(ExitCode.ARCHIVE_REJECTED,
                    "archive " + name.fileName() + " does not have NVIDIA's layout: " + why,
                    "use the archive exactly as downloaded from NVIDIA; do not repack it");
        }

        ArchiveReport report(String sha256, long fileSize, ChecksumExpectation expected) {
            List<Finding> findings = new ArrayList<>(name.warnings());
            String expectedTop = name.expectedTopFolder();
            if (top == null) {
                throw layout("it is empty");
            }
            if (!top.equals(expectedTop)) {
                findings.add(Finding.warn("archive.top-folder",
                        "the archive's top folder is '" + top + "', NVIDIA's " + name.canonicalName()
                                + " has '" + expectedTop + "'",
                        "make sure this is the archive NVIDIA published and was not repacked"));
            }
            if (headerVersion == null) {
                headerVersion = fallbackHeaderVersion;
                headerFile = fallbackHeaderVersion == null ? null : "include/cudnn.h";
            }
            List<Evidence.LibraryEvidence> libs = new ArrayList<>();
            Set<String> present = new HashSet<>();
            for (ArchiveItem item : items) {
                if (item.type() == EntryType.DIRECTORY) {
                    continue;
                }
                present.add(item.role() + ":" + item.fileName().toLowerCase(Locale.ROOT));
                if (item.role() == EntryRole.RUNTIME_LIBRARY) {
                    LibraryName.parse(item.fileName()).ifPresent(l ->
                            libs.add(new Evidence.LibraryEvidence(item.relPath(), l.base(), l.major(), l.version())));
                }
            }
            Evidence evidence = new Evidence(headerVersion, headerFile, libs);
            versionFindings(evidence, findings);
            completenessFindings(present, findings);
            checksumFindings(sha256, fileSize, expected, findings);
            return new ArchiveReport(ArchiveInfo.of(name, sha256, fileSize), top, items, evidence, findings, name);
        }

        private void versionFindings(Evidence evidence, List<Finding> findings) {
            CudnnVersion named = name.version();
            Set<String> wrong = new LinkedHashSet<>();
            if (evidence.headerVersion() != null && !evidence.headerVersion().sameRelease(named)) {
                wrong.add(evidence.headerFile() + " says " + evidence.headerVersion());
            }
            for (Evidence.LibraryEvidence l : evidence.libraries()) {
                if (l.version() != null && !l.version().sameRelease(named)) {
                    wrong.add(l.file() + " is " + l.version());
                } else if (l.major() != null && l.major() != named.major()) {
                    wrong.add(l.file() + " is cuDNN " + l.major());
                }
            }
            if (!wrong.isEmpty()) {
                findings.add(Finding.error("archive.version-mismatch",
                        "the name says cuDNN " + named + " but " + String.join(", ", wrong),
                        "the file was renamed or repacked: download " + name.canonicalName() + " again from NVIDIA"));
            }
        }

        private void completenessFindings(Set<String> present, List<Finding> findings) {
            int major = name.major();
            Set<String> missing = new TreeSet<>();
            for (String base : CudnnComponents.libraries(major)) {
                String file = name.os() == OsFamily.WINDOWS ? CudnnComponents.windowsDll(base, major)
                        : CudnnComponents.linuxSoname(base, major);
                if (!present.contains(EntryRole.RUNTIME_LIBRARY + ":" + file.toLowerCase(Locale.ROOT))) {
                    missing.add(file);
                }
                if (name.os() == OsFamily.WINDOWS
                        && !present.contains(EntryRole.IMPORT_LIBRARY + ":" + base + ".lib")) {
                    missing.add(base + ".lib");
                }
            }
            for (String header : CudnnComponents.headers(major)) {
                if (!present.contains(EntryRole.HEADER + ":" + header)) {
                    missing.add(header);
                }
            }
            if (headerVersion == null && !missing.contains(CudnnComponents.versionHeader(major))) {
                missing.add(CudnnComponents.versionHeader(major) + " (no CUDNN_MAJOR/MINOR/PATCHLEVEL)");
            }
            if (!missing.isEmpty()) {
                findings.add(Finding.error("archive.incomplete",
                        "archive " + name.fileName() + " lacks " + missing.size() + " file(s) of cuDNN " + major + ": "
                                + String.join(", ", missing),
                        "download the complete archive " + name.canonicalName() + " from NVIDIA again"));
            }
        }

        private void checksumFindings(String sha256, long fileSize, ChecksumExpectation expected, List<Finding> findings) {
            if (expected == null) {
                findings.add(Finding.info("archive.sha256", "sha256 " + sha256
                        + " (not compared: pass --sha256 or --manifest redistrib_<version>.json to check it)"));
                return;
            }
            if (!expected.sha256().equals(sha256) || expected.size() != null && expected.size() != fileSize) {
                findings.add(Finding.error("archive.checksum-mismatch",
                        "sha256 of " + name.fileName() + " is " + sha256 + " (" + fileSize + " bytes) but "
                                + expected.source() + " expects " + expected.sha256()
                                + (expected.size() == null ? "" : " (" + expected.size() + " bytes)"),
                        "the download is damaged or not NVIDIA's: download it again"));
            } else {
                findings.add(Finding.info("archive.checksum-ok", "sha256 " + sha256 + " matches " + expected.source()));
            }
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
    }

    /**
     * A zip on this machine's disk is read with random access: the whole central directory is
     * checked before a single byte is inflated (names, types, sizes, ratios), then the entries are
     * inflated in parallel, largest first, each hashed and CRC-checked as it is written, while
     * another thread hashes the archive file itself.
     */
    private final class ParallelZip {
        private final Path archive;
        private final ArchiveName name;
        private final EntrySink sink;
        private final ReadProgress progress;
        private final long fileSize;
        private final Walk walk;
        private final java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
        private final java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        private long declaredTotal;

        ParallelZip(Path archive, ArchiveName name, EntrySink sink, ReadProgress progress, long fileSize) {
            this.archive = archive;
            this.name = name;
            this.sink = sink;
            this.progress = progress;
            this.fileSize = fileSize;
            this.walk = new Walk(name, sink, progress, fileSize);
        }

        private record Pending(int index, ArchiveItem item, java.util.zip.ZipEntry entry) {
        }

        ArchiveReport read(ChecksumExpectation expected) {
            java.util.concurrent.ExecutorService pool = null;
            try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(archive.toString())) {
                List<Pending> pending = new ArrayList<>();
                for (java.util.Enumeration<? extends java.util.zip.ZipEntry> en = zip.entries(); en.hasMoreElements(); ) {
                    java.util.zip.ZipEntry ze = en.nextElement();
                    RawEntry raw = new RawEntry(ze.getName(), ze.isDirectory() ? EntryType.DIRECTORY : EntryType.FILE,
                            ze.getSize(), null, 0);
                    Walk.Prepared p = walk.prepare(raw);
                    if (p == null) {
                        continue;
                    }
                    if (raw.type() == EntryType.DIRECTORY) {
                        walk.acceptNonFile(p);
                        continue;
                    }
                    checkDeclared(ze);
                    ArchiveItem item = new ArchiveItem(p.path(), p.relPath(), p.role(), EntryType.FILE, ze.getSize(), null, null, 0);
                    pending.add(new Pending(walk.items.size(), item, ze));
                    walk.items.add(item);
                }
                int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
                pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
                    Thread t = new Thread(r, "cudnn-tool-unzip");
                    t.setDaemon(true);
                    return t;
                });
                java.util.concurrent.Future<String> archiveHash = pool.submit(() -> Hex.sha256(archive));
                List<Pending> bySize = new ArrayList<>(pending);
                bySize.sort(java.util.Comparator.comparingLong((Pending x) -> x.entry().getSize()).reversed());
                List<java.util.concurrent.Future<ArchiveItem>> results = new ArrayList<>();
                for (Pending p : bySize) {
                    results.add(pool.submit(() -> extract(zip, p)));
                }
                for (int i = 0; i < bySize.size(); i++) {
                    ArchiveItem doneItem = await(results.get(i), bySize.get(i).item().path(), pool);
                    walk.items.set(bySize.get(i).index(), doneItem);
                    walk.files.put(doneItem.relPath(), doneItem);
                }
                String sha256 = await(archiveHash, null, pool);
                return walk.report(sha256, fileSize, expected);
            } catch (ToolException | SinkFailure e) {
                throw e;
            } catch (IOException e) {
                throw corrupt(name, walk.current, e);
            } finally {
                if (pool != null) {
                    pool.shutdownNow();
                }
            }
        }

        /** Size, ratio and total checks from the central directory, before anything is inflated. */
        private void checkDeclared(java.util.zip.ZipEntry ze) {
            long size = ze.getSize();
            long packed = Math.max(ze.getCompressedSize(), 1);
            if (size < 0) {
                throw EntrySafety.unsafe(ze.getName(), "no size in the zip's directory");
            }
            if (size > limits.ratioFloorBytes() && size > packed * limits.maxRatio()) {
                throw EntrySafety.unsafe(ze.getName(), "it expands more than " + limits.maxRatio() + "-fold (an archive bomb)");
            }
            declaredTotal += size;
            if (declaredTotal > limits.maxTotalBytes()) {
                throw EntrySafety.unsafe(ze.getName(), "the archive expands to more than " + (limits.maxTotalBytes() >> 20) + " MiB");
            }
        }

        private ArchiveItem extract(java.util.zip.ZipFile zip, Pending p) throws IOException {
            java.util.zip.ZipEntry ze = p.entry();
            try (InputStream raw = zip.getInputStream(ze)) {
                EntryMeter metered = new EntryMeter(raw, true) {
                    @Override
                    void counted(int n) throws IOException {
                        if (count > ze.getSize()) {
                            throw new ArchiveDamaged(new ZipException("entry holds more than the " + ze.getSize()
                                    + " bytes its header declares"));
                        }
                        long w = written.addAndGet(n);
                        if ((w & 0xFFFFF) < n) {
                            report(w);
                        }
                    }
                };
                InputStream content = metered;
                if (walk.isVersionHeader(p.item().role(), p.item().fileName())) {
                    byte[] text = metered.readNBytes(HEADER_CAPTURE_LIMIT);
                    walk.noteHeader(p.item().fileName(), p.item().relPath(), text);
                    content = new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(text), metered);
                }
                final InputStream c = content;
                try {
                    sink.file(p.item(), c);
                } catch (ArchiveDamaged e) {
                    throw e;
                } catch (IOException e) {
                    throw new SinkFailure(e);
                }
                c.transferTo(java.io.OutputStream.nullOutputStream());
                if (metered.count != ze.getSize() || ze.getCrc() != -1 && metered.crc.getValue() != ze.getCrc()) {
                    throw corrupt(name, p.item().path(), new ZipException(metered.count != ze.getSize()
                            ? "holds " + metered.count + " bytes, its header declares " + ze.getSize() : "CRC mismatch"));
                }
                done.incrementAndGet();
                report(written.get());
                return p.item().withHash(metered.count, Hex.of(metered.md.digest()));
            } catch (ArchiveDamaged e) {
                throw corrupt(name, p.item().path(), (IOException) e.getCause());
            } catch (ZipException e) {
                throw corrupt(name, p.item().path(), e);
            }
        }

        private void report(long w) {
            synchronized (progress) {
                long read = declaredTotal <= 0 ? 0 : (long) (fileSize * Math.min(1.0, (double) w / declaredTotal));
                progress.update(read, fileSize, done.get(), w);
            }
        }

        private <T> T await(java.util.concurrent.Future<T> f, String entry, java.util.concurrent.ExecutorService pool)
                throws IOException {
            try {
                return f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            } catch (java.util.concurrent.ExecutionException e) {
                pool.shutdownNow();
                Throwable c = e.getCause();
                if (c instanceof ToolException t) {
                    throw t;
                }
                if (c instanceof SinkFailure sf) {
                    throw sf;
                }
                if (c instanceof IOException io) {
                    throw io;
                }
                if (c instanceof RuntimeException r) {
                    throw r;
                }
                throw new IOException(c);
            }
        }
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }
}
