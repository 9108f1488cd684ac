package dev.cudnntool.bench;

import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.CudnnVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Writes the benchmark's archives: NVIDIA's file names and layouts with roughly the real sizes
 * of cuDNN 8.9.x (the DLL and .so sizes of NVIDIA's redistributables), their bytes cut from this
 * machine's own shared objects so they compress like real machine code. Usage:
 * {@code BenchArchives OUTDIR windows|linux-tar|huge [DIVISOR]}; the Linux tar is compressed by
 * bench/run.sh with the system xz. DIVISOR (default 1) scales every large file down, for a quick
 * run on a slow machine; the real benchmark uses 1.
 */
public final class BenchArchives {
    /** Sizes of NVIDIA's cuDNN 8.9.7 Windows DLLs and Linux shared objects, in bytes. */
    static final Map<String, Long> WINDOWS_DLL = Map.of("cudnn", 288_296L, "cudnn_adv_infer", 125_217_320L,
            "cudnn_adv_train", 116_558_888L, "cudnn_cnn_infer", 582_690_344L, "cudnn_cnn_train", 122_242_104L,
            "cudnn_ops_infer", 89_759_272L, "cudnn_ops_train", 70_162_472L);
    static final Map<String, Long> LINUX_SO = Map.of("cudnn", 142_008L, "cudnn_adv_infer", 125_098_064L,
            "cudnn_adv_train", 116_106_128L, "cudnn_cnn_infer", 570_673_312L, "cudnn_cnn_train", 125_431_984L,
            "cudnn_ops_infer", 90_829_248L, "cudnn_ops_train", 70_926_584L);

    private final List<Path> sources;
    private final int divisor;

    private BenchArchives(List<Path> sources, int divisor) {
        this.sources = sources;
        this.divisor = divisor;
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        BenchArchives b = new BenchArchives(machineCode(), args.length > 2 ? Integer.parseInt(args[2]) : 1);
        switch (args[1]) {
            case "windows" -> b.windowsZip(out.resolve("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip"), 1);
            case "huge" -> b.windowsZip(out.resolve("huge").resolve("cudnn-windows-x86_64-8.9.5.30_cuda12-archive.zip"), 4);
            case "linux-tar" -> b.linuxTree(out.resolve("linux-tree"));
            default -> throw new IllegalArgumentException(args[1]);
        }
    }

    /** Every shared object of this machine, in a fixed order: the raw material. */
    static List<Path> machineCode() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String root : List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/jvm", "/usr/lib")) {
            Path r = Path.of(root);
            if (!Files.isDirectory(r)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(r)) {
                s.filter(p -> Files.isRegularFile(p) && !Files.isSymbolicLink(p) && p.getFileName().toString().contains(".so"))
                        .sorted(Comparator.naturalOrder()).forEach(out::add);
            }
        }
        if (out.isEmpty()) {
            throw new IOException("no shared objects found on this machine to make library contents from");
        }
        return out;
    }

    private int cursor;

    /** Writes {@code size} bytes of machine code, continuing through the source files where the last call stopped. */
    private void fill(OutputStream out, long size) throws IOException {
        byte[] buf = new byte[1 << 20];
        long left = size;
        while (left > 0) {
            Path src = sources.get(cursor++ % sources.size());
            try (InputStream in = Files.newInputStream(src)) {
                int n;
                while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
                    out.write(buf, 0, n);
                    left -= n;
                }
            }
        }
    }

    void windowsZip(Path file, int scale) throws IOException {
        Files.createDirectories(file.getParent());
        CudnnVersion v = CudnnVersion.parse("8.9.5.30");
        String top = "cudnn-windows-x86_64-8.9.5.30_cuda12-archive/";
        try (ZipOutputStream zip = new ZipOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 20))) {
            zip.setLevel(6);
            put(zip, top + "LICENSE", "cuDNN SOFTWARE LICENSE AGREEMENT (benchmark copy)\n".repeat(400).getBytes());
            for (String base : CudnnComponents.libraries(8)) {
                zip.putNextEntry(new ZipEntry(top + "bin/" + CudnnComponents.windowsDll(base, 8)));
                fill(zip, WINDOWS_DLL.get(base) * scale / divisor);
                zip.closeEntry();
            }
            for (String h : CudnnComponents.headers(8)) {
                put(zip, top + "include/" + h, header(h, v));
            }
            for (String base : CudnnComponents.libraries(8)) {
                for (String lib : List.of(base + ".lib", base + "64_8.lib")) {
                    zip.putNextEntry(new ZipEntry(top + "lib/x64/" + lib));
                    fill(zip, 60_000 + base.length() * 4_000L);
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
            try (OutputStream o = new java.io.BufferedOutputStream(Files.newOutputStream(top.resolve("lib").resolve(real)), 1 << 20)) {
                fill(o, LINUX_SO.get(base) / divisor);
            }
            Files.createSymbolicLink(top.resolve("lib").resolve("lib" + base + ".so.8"), Path.of(real));
            Files.createSymbolicLink(top.resolve("lib").resolve("lib" + base + ".so"), Path.of("lib" + base + ".so.8"));
        }
        // Static libraries: NVIDIA ships them too; two of moderate size keep the benchmark's run time sane.
        for (String s : List.of("libcudnn_adv_infer_static.a", "libcudnn_ops_infer_static.a")) {
            try (OutputStream o = new java.io.BufferedOutputStream(Files.newOutputStream(top.resolve("lib").resolve(s)), 1 << 20)) {
                fill(o, 80_000_000L / divisor);
            }
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
