package dev.cudnntool.archive;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Hex;
import dev.cudnntool.OsFamily;
import dev.cudnntool.Text;
import dev.cudnntool.ExitCode;
import dev.cudnntool.ToolException;
import dev.cudnntool.archive.format.EntryType;
import dev.cudnntool.archive.format.RawEntry;
import dev.cudnntool.archive.format.ZipEntryInput;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.archive.name.LibraryName;
import dev.cudnntool.archive.name.WheelName;
import dev.cudnntool.archive.wheel.WheelMetadata;
import dev.cudnntool.archive.wheel.WheelRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;

/**
 * What makes a pip wheel more than a zip (read by {@link ParallelZip}): its files lie below
 * {@code nvidia/cudnn/} (the wheel's "top folder": {@code include/}, {@code lib/}, {@code bin/}),
 * beside one {@code <dist>-<version>.dist-info/} folder and Python's {@code __init__.py} files,
 * which are read and hashed but never installed. Before a byte is staged, RECORD and METADATA are
 * read (bounded), RECORD's every line checked ({@link WheelRecord}), and the distribution and
 * version in METADATA and the folder's name must be the ones the file name says. Once every entry
 * is read, every file must be in RECORD with its sha256 and size, and RECORD must list no other
 * ({@link FindingId#WHEEL_RECORD_MISMATCH}). On Linux the wheel has only soname files
 * ({@code libcudnn.so.9}); the development links {@code libcudnn*.so -> libcudnn*.so.9} that
 * {@code -lcudnn} needs are added, as NVIDIA's archives carry them.
 */
final class WheelContents {
    /** Any metadata file read at most (the licence is 18 KB); RECORD and METADATA have their own, smaller caps. */
    static final long MAX_METADATA_BYTES = 16L << 20;
    private static final int PROBLEMS_NAMED = 10;

    private record Meta(String path, ZipEntry entry, int inDirectory) {
    }

    private record Hashed(String sha256, long size) {
    }

    private final ArchiveName name;
    private final EntryWalk walk;
    private final List<Meta> meta = new ArrayList<>();
    private final Map<String, Hashed> metaHashes = new LinkedHashMap<>();
    private String distInfo;
    private WheelRecord record;

    WheelContents(ArchiveName name, EntryWalk walk) {
        this.name = name;
        this.walk = walk;
    }

    /** The folder pip names after the distribution and version: {@code nvidia_cudnn_cu12-9.5.1.17.dist-info}. */
    String expectedDistInfo() {
        return "nvidia_cudnn_cu" + name.cudaVariant().major() + "-" + name.version() + ".dist-info";
    }

    /** An entry of the cuDNN package: its segments with {@code nvidia/cudnn} as one top segment; anything else is refused. */
    static List<String> payloadSegments(EntryWalk walk, RawEntry raw, List<String> segs) {
        if (segs.size() >= 2 && segs.get(0).equals("nvidia") && segs.get(1).equals("cudnn")) {
            List<String> out = new ArrayList<>();
            out.add(WheelName.PACKAGE_FOLDER);
            out.addAll(segs.subList(2, segs.size()));
            return out;
        }
        throw walk.layout("'" + Text.printable(raw.name()) + "' lies outside " + WheelName.PACKAGE_FOLDER
                + "/ and the wheel's .dist-info folder");
    }

    /**
     * Takes the wheel's own files ({@code *.dist-info/…}, {@code __init__.py}, the {@code nvidia/} folder) after the
     * checks every entry passes; false for an entry of the cuDNN package, which the walk reads as usual.
     */
    boolean takeMetadata(ZipEntry ze, int inDirectory) {
        List<String> segs = EntrySafety.segments(ze.getName());
        boolean dist = segs.get(0).toLowerCase(Locale.ROOT).endsWith(".dist-info");
        boolean init = segs.size() > 1 && segs.get(0).equals("nvidia") && segs.get(segs.size() - 1).equals("__init__.py");
        boolean nvidiaFolder = ze.isDirectory() && segs.size() == 1 && segs.get(0).equals("nvidia");
        if (!dist && !init && !nvidiaFolder) {
            return false;
        }
        walk.checkedSegments(new RawEntry(ze.getName(), ze.isDirectory() ? EntryType.DIRECTORY : EntryType.FILE,
                ze.getSize(), null, 0));
        if (dist) {
            if (distInfo == null) {
                distInfo = segs.get(0);
            } else if (!distInfo.equals(segs.get(0))) {
                throw walk.layout("two .dist-info folders ('" + Text.printable(distInfo) + "' and '"
                        + Text.printable(segs.get(0)) + "')");
            }
        }
        if (ze.isDirectory()) {
            return true;
        }
        if (ze.getSize() < 0 || ze.getSize() > MAX_METADATA_BYTES) {
            throw EntrySafety.unsafe(ze.getName(), ze.getSize() < 0 ? "no size in the zip's directory"
                    : "a metadata file of " + ze.getSize() + " bytes (at most " + MAX_METADATA_BYTES + ")");
        }
        meta.add(new Meta(String.join("/", segs), ze, inDirectory));
        return true;
    }

    /** Reads and hashes the wheel's own files, then checks RECORD's lines and METADATA against the name. */
    void readMetadata(Path archive, long[] offsets, ByteBuffer buffer, InspectionLimits limits) throws IOException {
        String recordText = null;
        String metadataText = null;
        for (Meta m : meta) {
            ZipEntry ze = m.entry();
            long cap = m.path().equals(distInfo + "/RECORD") ? WheelRecord.MAX_BYTES
                    : m.path().equals(distInfo + "/METADATA") ? WheelMetadata.MAX_BYTES : MAX_METADATA_BYTES;
            if (ze.getSize() > cap) {
                throw EntrySafety.unsafe(ze.getName(), "a metadata file of " + ze.getSize() + " bytes (at most " + cap + ")");
            }
            byte[] data;
            try (InputStream in = new ZipEntryInput(archive, offsets[m.inDirectory()], ze.getCompressedSize(), ze.getMethod(), buffer)) {
                data = in.readNBytes((int) ze.getSize() + 1);
            }
            CRC32 crc = new CRC32();
            crc.update(data);
            if (data.length != ze.getSize() || ze.getCrc() != -1 && crc.getValue() != ze.getCrc()) {
                throw ArchiveInspector.corrupt(name, m.path(), new ZipException(data.length != ze.getSize()
                        ? "holds " + data.length + " bytes, its header declares " + ze.getSize() : "CRC mismatch"));
            }
            metaHashes.put(m.path().toLowerCase(Locale.ROOT), new Hashed(sha256(data), data.length));
            if (m.path().equals(distInfo + "/RECORD")) {
                recordText = new String(data, StandardCharsets.UTF_8);
            } else if (m.path().equals(distInfo + "/METADATA")) {
                metadataText = new String(data, StandardCharsets.UTF_8);
            }
        }
        if (distInfo == null || recordText == null || metadataText == null) {
            throw new ToolException(ExitCode.ARCHIVE_REJECTED, "wheel " + name.fileName() + " is damaged: it has no "
                    + (distInfo == null ? ".dist-info folder" : recordText == null ? distInfo + "/RECORD" : distInfo + "/METADATA")
                    + "; nothing was installed", "download the wheel again (pip download "
                    + WheelName.distribution(name.cudaVariant()) + "==" + name.version() + " --no-deps)");
        }
        record = WheelRecord.parse(name.fileName(), recordText, distInfo + "/RECORD", limits.maxEntries(), limits.maxTotalBytes());
        checkMetadata(WheelMetadata.parse(name.fileName(), metadataText));
    }

    /** The name, the .dist-info folder and METADATA must all say the same distribution and version. */
    private void checkMetadata(WheelMetadata md) {
        String dist = WheelName.distribution(name.cudaVariant());
        List<String> wrong = new ArrayList<>();
        if (!WheelMetadata.normalise(md.name()).equals(dist)) {
            wrong.add("METADATA's Name: is '" + Text.printable(md.name()) + "'");
        }
        Optional<CudnnVersion> v;
        try {
            v = Optional.of(CudnnVersion.parse(md.version()));
        } catch (IllegalArgumentException e) {
            v = Optional.empty();
        }
        if (v.isEmpty() || v.get().compareTo(name.version()) != 0) {
            wrong.add("METADATA's Version: is '" + Text.printable(md.version()) + "'");
        }
        if (!distInfo.equalsIgnoreCase(expectedDistInfo())) {
            wrong.add("its metadata folder is '" + Text.printable(distInfo) + "'");
        }
        if (!wrong.isEmpty()) {
            throw new ToolException(ExitCode.ARCHIVE_REJECTED, "wheel " + name.fileName() + " is named " + dist + " "
                    + name.version() + " but " + String.join(", ", wrong) + "; nothing was installed",
                    "the wheel was renamed or repacked: download it again (pip download " + dist + "==" + name.version() + " --no-deps)");
        }
    }

    /** Every file read against RECORD, both ways: a finding for the report. */
    void checkRecord() {
        Map<String, WheelRecord.Line> listed = new LinkedHashMap<>(record.files());
        List<String> problems = new ArrayList<>();
        int files = 0;
        for (Map.Entry<String, Hashed> e : metaHashes.entrySet()) {
            if (e.getKey().equals(record.self().toLowerCase(Locale.ROOT))) {
                continue;
            }
            files++;
            compare(e.getKey(), e.getValue(), listed, problems);
        }
        for (ArchiveItem item : walk.items) {
            if (item.type() == EntryType.FILE) {
                files++;
                compare(item.path(), new Hashed(item.sha256(), item.size()), listed, problems);
            }
        }
        for (WheelRecord.Line l : listed.values()) {
            problems.add("'" + Text.printable(l.path()) + "' is listed in RECORD but not in the wheel");
        }
        if (problems.isEmpty()) {
            walk.extraFindings.add(Finding.info(FindingId.WHEEL_RECORD_OK, "every one of the wheel's " + files
                    + " files has the sha256 and size its RECORD lists"));
            return;
        }
        walk.extraFindings.add(Finding.error(FindingId.WHEEL_RECORD_MISMATCH, "wheel " + name.fileName()
                + " does not match its RECORD (" + problems.size() + " problem(s)): "
                + String.join("; ", problems.subList(0, Math.min(PROBLEMS_NAMED, problems.size())))
                + (problems.size() > PROBLEMS_NAMED ? "; and " + (problems.size() - PROBLEMS_NAMED) + " more" : "")
                + "; nothing was installed",
                "the wheel is damaged or was repacked: download it again (pip download "
                        + WheelName.distribution(name.cudaVariant()) + "==" + name.version() + " --no-deps)"));
    }

    private static void compare(String path, Hashed got, Map<String, WheelRecord.Line> listed, List<String> problems) {
        WheelRecord.Line l = listed.remove(path.toLowerCase(Locale.ROOT));
        String shown = "'" + Text.printable(path) + "'";
        if (l == null) {
            problems.add(shown + " is in the wheel but not in RECORD");
        } else if (!l.sha256().equals(got.sha256()) || l.size() != got.size()) {
            problems.add(shown + " has sha256 " + got.sha256() + " (" + got.size() + " bytes), RECORD says "
                    + l.sha256() + " (" + l.size() + " bytes)");
        }
    }

    /**
     * Linux: the development link {@code lib/libcudnn_x.so -> libcudnn_x.so.N} beside every soname file
     * the wheel has, unless it has that name already, handed to the sink as an archive's link would be.
     */
    void addDevLinks(EntrySink sink) {
        if (name.os() != OsFamily.LINUX) {
            return;
        }
        Set<String> have = new HashSet<>();
        for (ArchiveItem item : walk.items) {
            have.add(item.relPath().toLowerCase(Locale.ROOT));
        }
        for (ArchiveItem item : List.copyOf(walk.items)) {
            String rel = item.relPath();
            if (item.type() != EntryType.FILE || item.role() != EntryRole.RUNTIME_LIBRARY || !rel.startsWith("lib/")
                    || rel.indexOf('/', 4) >= 0) {
                continue;
            }
            Optional<LibraryName> lib = LibraryName.parse(item.fileName());
            if (lib.isEmpty() || lib.get().kind() != LibraryName.Kind.LINUX_SHARED || lib.get().major() == null
                    || lib.get().version() != null) {
                continue;
            }
            String link = "lib" + lib.get().base() + ".so";
            if (!have.add(("lib/" + link).toLowerCase(Locale.ROOT))) {
                continue;
            }
            ArchiveItem l = new ArchiveItem(walk.top + "/lib/" + link, "lib/" + link, EntryRole.RUNTIME_LIBRARY,
                    EntryType.SYMLINK, 0, null, item.fileName(), 0777);
            walk.tree.add(l.path(), List.of(walk.top, "lib", link), EntryType.SYMLINK, EntryRole.RUNTIME_LIBRARY, item.fileName());
            walk.items.add(l);
            try {
                sink.symlink(l);
            } catch (IOException e) {
                throw new ArchiveInspector.SinkFailure(e);
            }
        }
    }

    private static String sha256(byte[] data) {
        try {
            return Hex.of(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
