package dev.cudnntool.bench;
import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Writes the benchmark's archives with NVIDIA's file names and layouts, and NVIDIA's bytes: the
 * real cuDNN 8.9.7 Windows DLLs from Bytedeco's redistributable jar for the zip (about 720 MB, as
 * large as NVIDIA's own 8.9.x Windows zips), the real Linux shared objects for the tar. Usage:
 * {@code BenchArchives OUTDIR windows|linux-tar|huge DIVISOR WINDOWS_REDIST_JAR LINUX_LIB_DIR}; the
 * Linux tar is compressed by bench/run.sh with the system xz. DIVISOR (1 for the real benchmark)
 * cuts every file to 1/DIVISOR of its size, for a quick run on a slow machine. Small files that
 * the redistributables lack (import libraries, static libraries) are cut from real library bytes
 * too, so everything compresses as NVIDIA's archives do.
 */
public final class BenchArchives {
    private final Path windowsJar;
    private final Path linuxLibs;
    private final int divisor;

    private BenchArchives(Path windowsJar, Path linuxLibs, int divisor) {
        this.windowsJar = windowsJar;
        this.linuxLibs = linuxLibs;
        this.divisor = divisor;
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        BenchArchives b = new BenchArchives(Path.of(args[3]), Path.of(args[4]), Integer.parseInt(args[2]));
        switch (args[1]) {
            case "windows" -> b.windowsZip(out.resolve("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip"), 1);
            case "huge" -> b.windowsZip(out.resolve("huge").resolve("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip"), 4);
            case "linux-tar" -> b.linuxTree(out.resolve("linux-tree"));
            default -> throw new IllegalArgumentException(args[1]);
        }
    }

    /** Copies {@code size} bytes of {@code source} (from {@code skip} on), {@code times} over, cut by the divisor. */
    private void copy(Content source, long skip, long size, int times, OutputStream out) throws IOException {
        long left = size * times / divisor;
        byte[] buf = new byte[1 << 20];
        while (left > 0) {
            try (InputStream in = source.open()) {
                in.skipNBytes(skip);
                long part = Math.min(left, size);
                int n;
                while (part > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, part))) > 0) {
                    out.write(buf, 0, n);
                    part -= n;
                    left -= n;
                }
            }
        }
    }

    @FunctionalInterface
    private interface Content {
        InputStream open() throws IOException;
    }

    private Content dll(ZipFile jar, String name) throws IOException {
        ZipEntry e = jar.getEntry("org/bytedeco/cuda/windows-x86_64/" + name);
        if (e == null) {
            throw new IOException(windowsJar + " lacks " + name);
        }
        return () -> jar.getInputStream(e);
    }

    private Content so(String name) throws IOException {
        Path p = linuxLibs.resolve(name);
        if (!Files.isRegularFile(p)) {
            throw new IOException("no " + p + ": run mvn -Preal-cudnn generate-test-resources first");
        }
        return () -> Files.newInputStream(p);
    }

    void windowsZip(Path file, int scale) throws IOException {
        Files.createDirectories(file.getParent());
        CudnnVersion v = CudnnVersion.parse("8.9.5.30");
        String top = "cudnn-windows-x86_64-8.9.5.30_cuda12-archive/";
        try (ZipFile jar = new ZipFile(windowsJar.toFile());
             ZipOutputStream zip = new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 20))) {
            zip.setLevel(6);
            put(zip, top + "LICENSE", "cuDNN SOFTWARE LICENSE AGREEMENT (benchmark copy)\n".repeat(400).getBytes());
            for (String base : CudnnComponents.libraries(8)) {
                String name = CudnnComponents.windowsDll(base, 8);
                zip.putNextEntry(new ZipEntry(top + "bin/" + name));
                copy(dll(jar, name), 0, jar.getEntry("org/bytedeco/cuda/windows-x86_64/" + name).getSize(), scale, zip);
                zip.closeEntry();
            }
            for (String h : CudnnComponents.headers(8)) {
                put(zip, top + "include/" + h, header(h, v));
            }
            Content dispatcher = dll(jar, CudnnComponents.windowsDll("cudnn", 8));
            for (String base : CudnnComponents.libraries(8)) {
                for (String lib : List.of(base + ".lib", base + "64_8.lib")) {
                    zip.putNextEntry(new ZipEntry(top + "lib/x64/" + lib));
                    copy(dispatcher, 0, 60_000 + base.length() * 4_000L, 1, zip);
                    zip.closeEntry();
                }
            }
        }
    }

    /** The Linux archive's tree (libraries with their symlink chains, headers, static libraries). */
    void linuxTree(Path root) throws IOException {
        CudnnVersion v = CudnnVersion.parse("8.9.5.30");
        Path top = root.resolve("cudnn-linux-x86_64-8.9.5.30_cuda12-archive");
        Files.createDirectories(top.resolve("include"));
        Files.createDirectories(top.resolve("lib"));
        Files.writeString(top.resolve("LICENSE"), "cuDNN SOFTWARE LICENSE AGREEMENT (benchmark copy)\n".repeat(400));
        for (String h : CudnnComponents.headers(8)) {
            Files.write(top.resolve("include").resolve(h), header(h, v));
        }
        for (String base : CudnnComponents.libraries(8)) {
            String real = "lib" + base + ".so.8.9.5";
            String soname = "lib" + base + ".so.8";
            try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(top.resolve("lib").resolve(real)), 1 << 20)) {
                copy(so(soname), 0, Files.size(linuxLibs.resolve(soname)), 1, o);
            }
            Files.createSymbolicLink(top.resolve("lib").resolve(soname), Path.of(real));
            Files.createSymbolicLink(top.resolve("lib").resolve("lib" + base + ".so"), Path.of(soname));
        }
        // Static libraries: NVIDIA ships them too; two of moderate size keep the benchmark's run time
        // sane, cut from the largest real library (GPU code, as in NVIDIA's static libraries).
        long skip = 0;
        for (String s : List.of("libcudnn_adv_infer_static.a", "libcudnn_ops_infer_static.a")) {
            try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(top.resolve("lib").resolve(s)), 1 << 20)) {
                copy(so("libcudnn_cnn_infer.so.8"), skip, 80_000_000L, 1, o);
            }
            skip += 80_000_000L;
        }
    }

    private static byte[] header(String h, CudnnVersion v) {
        String body = h.equals("cudnn_version.h") ? versionHeader(v)
                : ("/* " + h + " */\n#pragma once\ntypedef struct cudnnContext *cudnnHandle_t;\n").repeat(300);
        return body.getBytes();
    }

    /**
     * cudnn_version.h as NVIDIA writes it (8.x). Not taken from the test fixture: that class needs
     * commons-compress's xz writer, which the shaded jar the benchmark runs against does not carry.
     */
    private static String versionHeader(CudnnVersion v) {
        return "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n\n"
                + "#define CUDNN_MAJOR " + v.major() + "\n"
                + "#define CUDNN_MINOR " + v.minor() + "\n"
                + "#define CUDNN_PATCHLEVEL " + v.patch() + "\n\n"
                + "#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)\n\n"
                + "#endif /* CUDNN_VERSION_H */\n";
    }

    private static void put(ZipOutputStream zip, String name, byte[] bytes) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(bytes);
        zip.closeEntry();
    }
}
