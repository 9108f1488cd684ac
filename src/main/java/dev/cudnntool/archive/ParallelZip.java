package dev.cudnntool.archive;
import dev.cudnntool.Hex;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.archive.format.ArchiveDigest;
import dev.cudnntool.archive.format.EntryType;
import dev.cudnntool.archive.format.RawEntry;
import dev.cudnntool.archive.format.ZipDataOffsets;
import dev.cudnntool.archive.format.ZipDirectory;
import dev.cudnntool.archive.format.ZipEntryInput;
import dev.cudnntool.archive.name.ArchiveFormat;
import dev.cudnntool.archive.name.ArchiveName;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;

/**
 * A zip, on whatever file system it lies ({@link ZipDirectory}), is read with random access: the whole central directory is
 * checked before a single byte is inflated (names, types, sizes, ratios), then the entries are
 * inflated in parallel, largest first, each from its own channel ({@link ZipEntryInput}), hashed
 * and CRC-checked as it is written, while another thread hashes the archive file itself
 * ({@link ArchiveDigest}, started by the caller as early as it likes). The file must still be the
 * one the hashing began on when every entry is read.
 */
final class ParallelZip {
    private final Path archive;
    private final ArchiveName name;
    private final EntrySink sink;
    private final ReadProgress progress;
    private final long fileSize;
    private final InspectionLimits limits;
    private final EntryWalk walk;
    /** A pip wheel's RECORD, METADATA and links; null for an archive. */
    private final WheelContents wheel;
    private final AtomicLong written = new AtomicLong();
    private final AtomicInteger done = new AtomicInteger();
    private long declaredTotal;
    private final ArchiveDigest early;
    /** One direct buffer for compressed bytes per inflating thread. */
    private final ThreadLocal<ByteBuffer> compressed = ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(1 << 20));

    /** @param early the archive's digest if the caller started one for this file, else null */
    ParallelZip(InspectionLimits limits, Path archive, ArchiveName name, EntrySink sink, ReadProgress progress,
                long fileSize, ArchiveDigest early) {
        this.early = early != null && early.file().equals(archive) ? early : null;
        this.limits = limits;
        this.archive = archive;
        this.name = name;
        this.sink = sink;
        this.progress = progress;
        this.fileSize = fileSize;
        this.walk = new EntryWalk(limits, name, sink, progress, fileSize);
        this.wheel = name.format() == ArchiveFormat.WHEEL ? new WheelContents(name, walk) : null;
    }

    /** {@code inDirectory}: the entry's place in the central directory. */
    private record Pending(int index, ArchiveItem item, ZipEntry entry, int inDirectory) {
    }

    ArchiveReport read(ChecksumExpectation expected) {
        ExecutorService pool = null;
        ArchiveDigest digest = early;
        try (ZipDirectory zip = ZipDirectory.open(archive)) {
            List<Pending> pending = new ArrayList<>();
            List<ZipEntry> directory = new ArrayList<>();
            for (ZipEntry ze : zip.entries()) {
                directory.add(ze);
                if (wheel != null && wheel.takeMetadata(ze, directory.size() - 1)) {
                    continue;
                }
                RawEntry raw = new RawEntry(ze.getName(), ze.isDirectory() ? EntryType.DIRECTORY : EntryType.FILE,
                        ze.getSize(), null, 0);
                EntryWalk.Prepared p = walk.prepare(raw);
                if (p == null) {
                    continue;
                }
                if (raw.type() == EntryType.DIRECTORY) {
                    walk.acceptNonFile(p);
                    continue;
                }
                checkDeclared(ze);
                ArchiveItem item = new ArchiveItem(p.path(), p.relPath(), p.role(), EntryType.FILE, ze.getSize(), null, null, 0);
                pending.add(new Pending(walk.items.size(), item, ze, directory.size() - 1));
                walk.items.add(item);
            }
            walk.current = null; // what fails from here on names its own entry, or belongs to the whole archive
            if (digest == null) {
                digest = ArchiveDigest.start(archive);
            }
            long[] offsets; // only once every entry passed the checks
            try {
                offsets = ZipDataOffsets.of(archive, directory, fileSize);
            } catch (ZipDataOffsets.Damaged e) {
                throw ArchiveInspector.corrupt(name, e.entry(), e);
            }
            if (wheel != null) { // RECORD and METADATA first: a wheel that lies about itself stages nothing
                wheel.readMetadata(archive, offsets, compressed.get(), limits);
                walk.current = null;
            }
            int threads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
            pool = Executors.newFixedThreadPool(threads, r -> {
                Thread t = new Thread(r, "cudnn-tool-unzip");
                t.setDaemon(true);
                return t;
            });
            List<Pending> bySize = new ArrayList<>(pending);
            bySize.sort(Comparator.comparingLong((Pending x) -> x.entry().getSize()).reversed());
            List<Future<ArchiveItem>> results = new ArrayList<>();
            for (Pending p : bySize) {
                results.add(pool.submit(() -> extract(p, offsets[p.inDirectory()])));
            }
            for (int i = 0; i < bySize.size(); i++) {
                ArchiveItem doneItem = await(results.get(i), pool);
                walk.items.set(bySize.get(i).index(), doneItem);
                walk.files.put(doneItem.relPath(), doneItem);
            }
            if (wheel != null) {
                wheel.checkRecord();
                wheel.addDevLinks(sink);
            }
            String sha256 = digest.await();
            if (!digest.unchanged()) {
                throw new ZipException("the file changed while it was being read (another program wrote or replaced it)");
            }
            return walk.report(sha256, fileSize, expected);
        } catch (ToolException | ArchiveInspector.SinkFailure e) {
            throw e;
        } catch (IOException e) {
            throw ArchiveInspector.corrupt(name, walk.current, e);
        } finally {
            if (pool != null) {
                stop(pool);
            }
            if (digest != null && digest != early) {
                digest.close();
            }
        }
    }

    /**
     * Stops the other entries and waits until no thread writes any more: the caller removes the
     * staging folder next, and a file still being written into it would outlive that removal.
     */
    private static void stop(ExecutorService pool) {
        pool.shutdownNow();
        boolean interrupted = false;
        try {
            while (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                // an entry is still being written (a slow disk): keep waiting, it ends by itself
            }
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Size, ratio and total checks from the central directory, before anything is inflated. */
    private void checkDeclared(ZipEntry ze) {
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

    private ArchiveItem extract(Pending p, long dataOffset) throws IOException {
        ZipEntry ze = p.entry();
        try (InputStream raw = new ZipEntryInput(archive, dataOffset, ze.getCompressedSize(), ze.getMethod(), compressed.get())) {
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
            if (walk.isVersionHeader(p.item())) {
                byte[] text = metered.readNBytes(EntryWalk.HEADER_CAPTURE_LIMIT);
                walk.noteHeader(p.item(), text);
                content = new SequenceInputStream(new ByteArrayInputStream(text), metered);
            }
            final InputStream c = content;
            if (p.item().role() != EntryRole.OTHER) { // a foreign file is hashed for the report, never staged
                try {
                    sink.file(p.item(), c);
                } catch (EntryMeter.ArchiveDamaged | ToolException e) {
                    throw e;
                } catch (IOException e) {
                    throw new ArchiveInspector.SinkFailure(e);
                }
            }
            c.transferTo(OutputStream.nullOutputStream());
            if (metered.count != ze.getSize() || ze.getCrc() != -1 && metered.crc.getValue() != ze.getCrc()) {
                throw ArchiveInspector.corrupt(name, p.item().path(), new ZipException(metered.count != ze.getSize()
                        ? "holds " + metered.count + " bytes, its header declares " + ze.getSize() : "CRC mismatch"));
            }
            done.incrementAndGet();
            report(written.get());
            return p.item().withHash(metered.count, Hex.of(metered.md.digest()));
        } catch (EntryMeter.ArchiveDamaged e) {
            throw ArchiveInspector.corrupt(name, p.item().path(), (IOException) e.getCause());
        } catch (ZipException e) {
            throw ArchiveInspector.corrupt(name, p.item().path(), e);
        }
    }

    private void report(long w) {
        synchronized (progress) {
            long read = declaredTotal <= 0 ? 0 : (long) (fileSize * Math.min(1.0, (double) w / declaredTotal));
            progress.update(read, fileSize, done.get(), w);
        }
    }

    private static <T> T await(Future<T> f, ExecutorService pool) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            pool.shutdownNow(); // the others stop at their next read; read() waits for them in its finally
            Throwable c = e.getCause();
            if (c instanceof ToolException t) {
                throw t;
            }
            if (c instanceof ArchiveInspector.SinkFailure sf) {
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
