package dev.cudnntool.archive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.commons.compress.archivers.zip.Zip64Mode;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.utils.SeekableInMemoryByteChannel;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * Issue 18 D16: the sha256 the tool reports is the file's, for every format and every way of
 * writing it (zip stored, deflated and zip64; tar.xz in one block or several; tgz in one member or
 * several; zeros after the compressed stream), on the real file system and on jimfs, and a
 * catalogued name with those bytes is {@code archive.genuine}. A .tgz was hashed with the bytes the
 * gzip reader read twice (it rewinds its input after each member), so every genuine legacy tgz
 * was refused as not NVIDIA's.
 */
class ArchiveSha256Test {
    @TempDir
    Path dir;

    private static final ArchiveFixture ZIP = ArchiveFixture.windows("9.5.1.17", "12");
    private static final ArchiveFixture TGZ = ArchiveFixture.legacyLinux("11.4", "8.2.4.15");
    private static final ArchiveFixture TXZ = ArchiveFixture.linux("8.9.5.30", "12");
    private static final String TGZ_AS_SOLITAIRE = TGZ.fileName().replace(".tgz", ".solitairetheme8");

    record Variant(String what, String fileName, Function<Path, byte[]> bytes) {
    }

    private List<Variant> variants() {
        List<Variant> v = new ArrayList<>();
        v.add(new Variant("zip deflated (the fixture's writer)", ZIP.fileName(), d -> read(ZIP.writeTo(d))));
        v.add(new Variant("zip stored", ZIP.fileName(), d -> zip(ZIP, true)));
        v.add(new Variant("zip64 (commons-compress, Zip64Mode.Always, sizes in the local headers)", ZIP.fileName(),
                d -> zip64(ZIP, false)));
        v.add(new Variant("tar.xz in one block (the fixture's writer)", TXZ.fileName(), d -> read(TXZ.writeTo(d))));
        v.add(new Variant("tar.xz in many blocks", TXZ.fileName(), d -> xzBlocks(tar(TXZ, d), 4096)));
        v.add(new Variant("tar.xz with stream padding", TXZ.fileName(), d -> concat(read(TXZ.writeTo(d)), new byte[12])));
        v.add(new Variant("tgz in one member (the fixture's writer)", TGZ.fileName(), d -> read(TGZ.writeTo(d))));
        v.add(new Variant("tgz in one member (java.util.zip)", TGZ.fileName(), d -> gzip(tar(TGZ, d))));
        v.add(new Variant("tgz in three members", TGZ.fileName(), d -> members(tar(TGZ, d), 3)));
        v.add(new Variant("tgz with zeros after the gzip stream", TGZ.fileName(),
                d -> concat(gzip(tar(TGZ, d)), new byte[1000])));
        v.add(new Variant("tgz in two members with zeros after them", TGZ.fileName(),
                d -> concat(members(tar(TGZ, d), 2), new byte[7])));
        v.add(new Variant("tgz renamed .solitairetheme8", TGZ_AS_SOLITAIRE, d -> read(TGZ.writeTo(d))));
        v.add(new Variant("tgz renamed .solitairetheme8, two members", TGZ_AS_SOLITAIRE, d -> members(tar(TGZ, d), 2)));
        return v;
    }

    @TestFactory
    Stream<DynamicTest> theReportedSha256IsTheFilesOnTheRealFileSystem() {
        List<Variant> v = variants();
        // Streamed zip64 (sizes only in 64-bit data descriptors): the tool reads a zip on the real file
        // system by its central directory; the JDK's ZipInputStream (the stream reader used on jimfs)
        // takes such a descriptor for a 32-bit one.
        v.add(new Variant("zip64 streamed (data descriptors)", ZIP.fileName(), d -> zip64(ZIP, true)));
        return v.stream().map(x -> DynamicTest.dynamicTest(x.what(), () -> check(x, dir.resolve("real"))));
    }

    @TestFactory
    Stream<DynamicTest> theReportedSha256IsTheFilesOnJimfs() {
        return variants().stream().map(v -> DynamicTest.dynamicTest(v.what(), () -> {
            try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
                check(v, fs.getPath("/downloads"));
            }
        }));
    }

    /** The reproduction in the issue: {@code inspect --json} of a legacy tgz reports the file's sha256 and genuine. */
    @org.junit.jupiter.api.Test
    void inspectJsonOfALegacyTgzReportsTheFilesSha256() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(),
                Map.of(), new FakeRunner());
        Path a = Files.createDirectories(host.path("/home/me/Downloads")).resolve("cudnn-11.9-linux-x64-v8.2.9.99.tgz");
        Files.write(a, members(tar(ArchiveFixture.legacyLinux("11.9", "8.2.9.99"), dir), 1));
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(a)));
        Catalogue c = Catalogue.of(List.of(CatalogueEntry.of(a.getFileName().toString(), sha, Files.size(a))));
        Cli.Run r = Cli.on(host).withCatalogue(c).run("inspect", a.toString(), "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(sha, r.json().get("archive").get("sha256").asText());
        assertTrue(r.out().contains("\"archive.genuine\""), r.out());
    }

    private void check(Variant v, Path where) throws Exception {
        byte[] bytes = v.bytes().apply(Files.createDirectories(dir.resolve("src").resolve(v.what().replace(' ', '_'))));
        Path file = Files.createDirectories(where).resolve(v.fileName());
        Files.write(file, bytes);
        String independent = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        ArchiveName n = ArchiveName.parse(v.fileName());

        ArchiveReport plain = new ArchiveInspector().inspect(file, n, null);
        assertTrue(plain.acceptable(), v.what() + ": " + plain.findings());
        assertEquals(independent, plain.archive().sha256(), v.what());
        assertEquals(bytes.length, plain.archive().sizeBytes(), v.what());

        Catalogue c = Catalogue.of(List.of(CatalogueEntry.of(n.canonicalName(), independent, (long) bytes.length)));
        ArchiveReport genuine = new ArchiveInspector().inspect(file, n, c.expectation(n));
        assertTrue(genuine.acceptable(), v.what() + ": " + genuine.findings());
        assertTrue(genuine.findings().stream().anyMatch(f -> f.id().equals("archive.genuine")),
                v.what() + ": " + genuine.findings());
    }

    // ---- writers ------------------------------------------------------------------------------

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fixture's tar, taken out of its own .tgz or .tar.xz. */
    private static byte[] tar(ArchiveFixture f, Path d) {
        try (InputStream file = Files.newInputStream(f.writeTo(d));
             InputStream in = f.fileName().endsWith(".tgz") ? new GZIPInputStream(file) : new XZInputStream(file)) {
            return in.readAllBytes();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] zip(ArchiveFixture f, boolean stored) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ZipOutputStream zip = new ZipOutputStream(out)) {
                for (ArchiveFixture.Entry e : f.entries()) {
                    boolean isDir = e.kind() == ArchiveFixture.Entry.Kind.DIR;
                    byte[] content = isDir ? new byte[0] : e.content().open().readAllBytes();
                    ZipEntry z = new ZipEntry(isDir && !e.path().endsWith("/") ? e.path() + "/" : e.path());
                    if (stored) {
                        CRC32 crc = new CRC32();
                        crc.update(content);
                        z.setMethod(ZipEntry.STORED);
                        z.setSize(content.length);
                        z.setCompressedSize(content.length);
                        z.setCrc(crc.getValue());
                    }
                    zip.putNextEntry(z);
                    zip.write(content);
                    zip.closeEntry();
                }
            }
            return out.toByteArray();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] zip64(ArchiveFixture f, boolean streamed) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            SeekableInMemoryByteChannel channel = new SeekableInMemoryByteChannel();
            try (ZipArchiveOutputStream zip = streamed ? new ZipArchiveOutputStream(out) : new ZipArchiveOutputStream(channel)) {
                zip.setUseZip64(Zip64Mode.Always);
                for (ArchiveFixture.Entry e : f.entries()) {
                    boolean isDir = e.kind() == ArchiveFixture.Entry.Kind.DIR;
                    byte[] content = isDir ? new byte[0] : e.content().open().readAllBytes();
                    ZipArchiveEntry z = new ZipArchiveEntry(isDir && !e.path().endsWith("/") ? e.path() + "/" : e.path());
                    zip.putArchiveEntry(z);
                    zip.write(content);
                    zip.closeArchiveEntry();
                }
            }
            return streamed ? out.toByteArray() : Arrays.copyOf(channel.array(), (int) channel.size());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] xzBlocks(byte[] data, int blockSize) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (XZOutputStream xz = new XZOutputStream(out, new LZMA2Options(1))) {
                for (int off = 0; off < data.length; off += blockSize) {
                    xz.write(data, off, Math.min(blockSize, data.length - off));
                    xz.endBlock();
                }
            }
            return out.toByteArray();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] gzip(byte[] data) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (OutputStream gz = new GZIPOutputStream(out)) {
                gz.write(data);
            }
            return out.toByteArray();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The tar cut into {@code n} pieces, each its own gzip member, one after the other (as `cat a.gz b.gz`). */
    private static byte[] members(byte[] tar, int n) {
        byte[] out = new byte[0];
        int step = tar.length / n + 1;
        for (int off = 0; off < tar.length; off += step) {
            out = concat(out, gzip(Arrays.copyOfRange(tar, off, Math.min(tar.length, off + step))));
        }
        return out;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
