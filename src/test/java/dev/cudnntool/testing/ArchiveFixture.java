package dev.cudnntool.testing;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;

/**
 * Writes cuDNN archives in NVIDIA's exact layouts (facts §3–§4): the real file names, a
 * real-format cudnn_version.h, symlink chains on Linux, tiny synthetic library contents. Tests
 * change the entry list (drop a library, add a "../" entry) to make every malformed variant.
 */
public final class ArchiveFixture {
    /** One entry. {@code path} is the full name inside the archive. */
    public record Entry(String path, Kind kind, Content content, String linkTarget, int mode) {
        public enum Kind { FILE, DIR, SYMLINK, HARDLINK, FIFO }
    }

    /** Where an entry's bytes come from: small generated text, or a real file streamed in. */
    public interface Content {
        long size();

        InputStream open() throws IOException;

        static Content of(byte[] bytes) {
            return new Content() {
                public long size() {
                    return bytes.length;
                }

                public InputStream open() {
                    return new ByteArrayInputStream(bytes);
                }
            };
        }

        static Content of(String text) {
            return of(text.getBytes(StandardCharsets.UTF_8));
        }

        static Content ofFile(Path file) {
            return new Content() {
                public long size() {
                    try {
                        return Files.size(file);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                public InputStream open() throws IOException {
                    return Files.newInputStream(file);
                }
            };
        }
    }

    public enum Format { ZIP, TAR_XZ, TGZ }

    private final String fileName;
    private final Format format;
    private final List<Entry> entries = new ArrayList<>();
    private int xzPreset = 1;

    private ArchiveFixture(String fileName, Format format) {
        this.fileName = fileName;
        this.format = format;
    }

    public static ArchiveFixture empty(String fileName, Format format) {
        return new ArchiveFixture(fileName, format);
    }

    // ---- NVIDIA's layouts ------------------------------------------------------------------

    /** Modern Windows zip: bin\ (bin\x64\ from 9.18), include\, lib\x64\ (flat lib\ in 8.3–8.4). */
    public static ArchiveFixture windows(String version, String cuda) {
        CudnnVersion v = CudnnVersion.parse(version);
        String name = "cudnn-windows-x86_64-" + version + "_cuda" + cuda + "-archive";
        ArchiveFixture f = new ArchiveFixture(name + ".zip", Format.ZIP);
        String top = name + "/";
        boolean binX64 = v.major() > 9 || v.major() == 9 && v.minor() >= 18;
        boolean flatLib = v.major() == 8 && (v.minor() == 3 || v.minor() == 4);
        f.file(top + "LICENSE", "cuDNN SOFTWARE LICENSE AGREEMENT (fixture)\n");
        for (String base : CudnnComponents.libraries(v.major())) {
            f.file(top + (binX64 ? "bin/x64/" : "bin/") + CudnnComponents.windowsDll(base, v.major()),
                    library(base, v, "dll"));
        }
        f.headers(top + "include/", v);
        String lib = top + (flatLib ? "lib/" : "lib/x64/");
        for (String base : CudnnComponents.libraries(v.major())) {
            f.file(lib + base + ".lib", library(base, v, "lib"));
            f.file(lib + base + "64_" + v.major() + ".lib", library(base, v, "lib64"));
        }
        return f;
    }

    /** Modern Linux tar.xz: include/, lib/ with libX.so -> libX.so.M -> libX.so.M.m.p and static libraries. */
    public static ArchiveFixture linux(String version, String cuda) {
        return linux("x86_64", version, cuda);
    }

    public static ArchiveFixture linux(String arch, String version, String cuda) {
        CudnnVersion v = CudnnVersion.parse(version);
        String name = "cudnn-linux-" + arch + "-" + version + "_cuda" + cuda + "-archive";
        ArchiveFixture f = new ArchiveFixture(name + ".tar.xz", Format.TAR_XZ);
        String top = name + "/";
        f.dir(top);
        f.file(top + "LICENSE", "cuDNN SOFTWARE LICENSE AGREEMENT (fixture)\n");
        f.dir(top + "include/");
        f.headers(top + "include/", v);
        f.dir(top + "lib/");
        f.linuxLibraries(top + "lib/", v);
        return f;
    }

    /**
     * A modern Linux archive whose libraries are real NVIDIA binaries from {@code realDir} (named
     * by soname, as Bytedeco ships them), laid out and linked as NVIDIA's own tar.xz.
     */
    public static ArchiveFixture linuxFromReal(String version, String cuda, Path realDir) {
        CudnnVersion v = CudnnVersion.parse(version);
        String name = "cudnn-linux-x86_64-" + version + "_cuda" + cuda + "-archive";
        ArchiveFixture f = new ArchiveFixture(name + ".tar.xz", Format.TAR_XZ);
        String top = name + "/";
        f.dir(top);
        f.file(top + "LICENSE", "cuDNN SOFTWARE LICENSE AGREEMENT (test archive built from real libraries)\n");
        f.dir(top + "include/");
        f.headers(top + "include/", v);
        f.dir(top + "lib/");
        for (String base : CudnnComponents.libraries(v.major())) {
            String real = "lib" + base + ".so." + v.releaseString();
            String soname = "lib" + base + ".so." + v.major();
            f.file(top + "lib/" + real, Content.ofFile(realDir.resolve(soname)), 0755);
            f.symlink(top + "lib/" + soname, real);
            f.symlink(top + "lib/lib" + base + ".so", soname);
        }
        return f;
    }

    /** Legacy Linux tgz (7.x–8.2): cuda/include, cuda/lib64, the SLA text. */
    public static ArchiveFixture legacyLinux(String cuda, String version) {
        CudnnVersion v = CudnnVersion.parse(version);
        ArchiveFixture f = new ArchiveFixture("cudnn-" + cuda + "-linux-x64-v" + version + ".tgz", Format.TGZ);
        f.dir("cuda/");
        f.dir("cuda/include/");
        f.headers("cuda/include/", v);
        f.dir("cuda/lib64/");
        f.linuxLibraries("cuda/lib64/", v);
        f.file("cuda/NVIDIA_SLA_cuDNN_Support.txt", "NVIDIA SLA (fixture)\n");
        return f;
    }

    /** Legacy Windows zip (7.x–8.2): cuda\bin, cuda\include, cuda\lib\x64. */
    public static ArchiveFixture legacyWindows(String cuda, String os, String version) {
        CudnnVersion v = CudnnVersion.parse(version);
        ArchiveFixture f = new ArchiveFixture("cudnn-" + cuda + "-" + os + "-x64-v" + version + ".zip", Format.ZIP);
        for (String base : CudnnComponents.libraries(v.major())) {
            f.file("cuda/bin/" + CudnnComponents.windowsDll(base, v.major()), library(base, v, "dll"));
            f.file("cuda/lib/x64/" + base + ".lib", library(base, v, "lib"));
        }
        f.headers("cuda/include/", v);
        f.file("cuda/NVIDIA_SLA_cuDNN_Support.txt", "NVIDIA SLA (fixture)\n");
        return f;
    }

    private void headers(String dir, CudnnVersion v) {
        for (String h : CudnnComponents.headers(v.major())) {
            if (h.equals(CudnnComponents.versionHeader(v.major()))) {
                file(dir + h, versionHeader(v));
            } else {
                file(dir + h, "/* " + h + " for cuDNN " + v.releaseString() + " (fixture) */\n#pragma once\n");
            }
        }
    }

    private void linuxLibraries(String dir, CudnnVersion v) {
        for (String base : CudnnComponents.libraries(v.major())) {
            String real = "lib" + base + ".so." + v.releaseString();
            String soname = "lib" + base + ".so." + v.major();
            file(dir + real, library(base, v, "so"), 0755);
            symlink(dir + soname, real);
            symlink(dir + "lib" + base + ".so", soname);
            file(dir + "lib" + base + "_static.a", library(base, v, "a"), 0644);
        }
    }

    /** The real format of cudnn_version.h (8+) or the defines at the top of cudnn.h (7). */
    public static String versionHeader(CudnnVersion v) {
        String formula = v.major() >= 9 ? "CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL"
                : "CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL";
        return "/**\n * \\file: The master cuDNN version file.\n */\n\n"
                + "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n"
                + "#define CUDNN_MAJOR " + v.major() + "\n"
                + "#define CUDNN_MINOR " + v.minor() + "\n"
                + "#define CUDNN_PATCHLEVEL " + v.patch() + "\n\n"
                + "#define CUDNN_VERSION (" + formula + ")\n\n"
                + "/* cannot use constexpr here since this is a C-only file */\n"
                + "#define CUDNN_MAX_SM_MAJOR_NUMBER 9\n#define CUDNN_MAX_SM_MINOR_NUMBER 0\n\n"
                + "#endif /* CUDNN_VERSION_H */\n";
    }

    /** Distinct, barely compressible bytes per library so hashes differ between files and releases. */
    public static byte[] library(String base, CudnnVersion v, String kind) {
        if (kind.equals("dll")) {
            // A real-format x64 PE image whose version resource carries the release, as NVIDIA's DLLs do.
            byte[] pe = PeImages.dll(PeImages.X64, v.releaseString() + "." + Math.max(v.build(), 0));
            byte[] tail = library(base, v, "dll-body");
            byte[] out = Arrays.copyOf(pe, pe.length + tail.length);
            System.arraycopy(tail, 0, out, pe.length, tail.length);
            return out;
        }
        String seed = base + "/" + v + "/" + kind;
        byte[] out = new byte[512 + Math.abs(seed.hashCode() % 512)];
        long x = seed.hashCode() * 0x9E3779B97F4A7C15L + 1;
        byte[] head = ("FIXTURE " + seed + "\n").getBytes(StandardCharsets.UTF_8);
        System.arraycopy(head, 0, out, 0, Math.min(head.length, out.length));
        for (int i = head.length; i < out.length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            out[i] = (byte) x;
        }
        return out;
    }

    // ---- editing ---------------------------------------------------------------------------

    public ArchiveFixture file(String path, String text) {
        return file(path, text.getBytes(StandardCharsets.UTF_8));
    }

    public ArchiveFixture file(String path, byte[] bytes) {
        return file(path, bytes, 0644);
    }

    public ArchiveFixture file(String path, byte[] bytes, int mode) {
        entries.add(new Entry(path, Entry.Kind.FILE, Content.of(bytes), null, mode));
        return this;
    }

    public ArchiveFixture file(String path, Content content, int mode) {
        entries.add(new Entry(path, Entry.Kind.FILE, content, null, mode));
        return this;
    }

    public ArchiveFixture dir(String path) {
        entries.add(new Entry(path, Entry.Kind.DIR, null, null, 0755));
        return this;
    }

    public ArchiveFixture symlink(String path, String target) {
        entries.add(new Entry(path, Entry.Kind.SYMLINK, null, target, 0777));
        return this;
    }

    public ArchiveFixture hardlink(String path, String target) {
        entries.add(new Entry(path, Entry.Kind.HARDLINK, null, target, 0644));
        return this;
    }

    public ArchiveFixture fifo(String path) {
        entries.add(new Entry(path, Entry.Kind.FIFO, null, null, 0644));
        return this;
    }

    /** Removes every entry whose path ends with the suffix; fails if none did (a fixture typo). */
    public ArchiveFixture remove(String pathSuffix) {
        return removeIf(e -> e.path().endsWith(pathSuffix), pathSuffix);
    }

    public ArchiveFixture removeIf(Predicate<Entry> which, String what) {
        if (!entries.removeIf(which)) {
            throw new IllegalArgumentException("fixture has no entry " + what);
        }
        return this;
    }

    /**
     * Gives every Linux shared library a minimal but well-formed ELF image (its soname, cuDNN's
     * version functions exported), so that verify's header checks pass on an installed fixture:
     * for scripts that run the real launchers (the Ansible test), where no probe is loaded.
     */
    public ArchiveFixture withElfLibraries() {
        Pattern so = Pattern.compile(".*/(libcudnn[^/]*\\.so)\\.(\\d+)(\\.[0-9.]+)?");
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            Matcher m = so.matcher(e.path());
            if (e.kind() == Entry.Kind.FILE && m.matches()) {
                entries.set(i, new Entry(e.path(), e.kind(), Content.of(ElfImages.cudnn(m.group(1) + "." + m.group(2))), null, e.mode()));
            }
        }
        return this;
    }

    /** Replaces the content of the entry whose path ends with the suffix. */
    public ArchiveFixture replace(String pathSuffix, String text) {
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            if (e.path().endsWith(pathSuffix) && e.kind() == Entry.Kind.FILE) {
                entries.set(i, new Entry(e.path(), e.kind(), Content.of(text), null, e.mode()));
                return this;
            }
        }
        throw new IllegalArgumentException("fixture has no file " + pathSuffix);
    }

    public ArchiveFixture xzPreset(int preset) {
        this.xzPreset = preset;
        return this;
    }

    public List<Entry> entries() {
        return List.copyOf(entries);
    }

    public String fileName() {
        return fileName;
    }

    public long fileCount() {
        return entries.stream().filter(e -> e.kind() == Entry.Kind.FILE).count();
    }

    // ---- writing ---------------------------------------------------------------------------

    /** Writes the archive into {@code dir} under its file name and returns its path. */
    public Path writeTo(Path dir) {
        return writeAs(dir.resolve(fileName));
    }

    public Path writeAs(Path target) {
        try {
            Files.createDirectories(target.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (OutputStream out = Files.newOutputStream(target)) {
            switch (format) {
                case ZIP -> writeZip(out);
                case TAR_XZ -> {
                    try (XZCompressorOutputStream xz = new XZCompressorOutputStream(out, xzPreset)) {
                        writeTar(xz);
                    }
                }
                case TGZ -> {
                    try (GzipCompressorOutputStream gz = new GzipCompressorOutputStream(out)) {
                        writeTar(gz);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    private void writeZip(OutputStream out) throws IOException {
        ZipOutputStream zip = new ZipOutputStream(out);
        for (Entry e : entries) {
            if (e.kind() == Entry.Kind.DIR) {
                zip.putNextEntry(new ZipEntry(e.path().endsWith("/") ? e.path() : e.path() + "/"));
            } else if (e.kind() == Entry.Kind.FILE) {
                zip.putNextEntry(new ZipEntry(e.path()));
                try (InputStream in = e.content().open()) {
                    in.transferTo(zip);
                }
            } else {
                throw new IllegalStateException("zip fixtures hold files and folders only: " + e);
            }
            zip.closeEntry();
        }
        zip.finish();
    }

    private void writeTar(OutputStream out) throws IOException {
        TarArchiveOutputStream tar = new TarArchiveOutputStream(out);
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        for (Entry e : entries) {
            TarArchiveEntry t = switch (e.kind()) {
                case DIR -> new TarArchiveEntry(e.path().endsWith("/") ? e.path() : e.path() + "/", true);
                case FILE -> {
                    TarArchiveEntry f = new TarArchiveEntry(e.path(), true);
                    f.setSize(e.content().size());
                    yield f;
                }
                case SYMLINK -> {
                    TarArchiveEntry s = new TarArchiveEntry(e.path(), TarArchiveEntry.LF_SYMLINK);
                    s.setLinkName(e.linkTarget());
                    yield s;
                }
                case HARDLINK -> {
                    TarArchiveEntry h = new TarArchiveEntry(e.path(), TarArchiveEntry.LF_LINK);
                    h.setLinkName(e.linkTarget());
                    yield h;
                }
                case FIFO -> new TarArchiveEntry(e.path(), TarArchiveEntry.LF_FIFO);
            };
            t.setMode((t.getMode() & ~07777) | e.mode());
            tar.putArchiveEntry(t);
            if (e.kind() == Entry.Kind.FILE) {
                try (InputStream in = e.content().open()) {
                    in.transferTo(tar);
                }
            }
            tar.closeArchiveEntry();
        }
        tar.finish();
    }
}
