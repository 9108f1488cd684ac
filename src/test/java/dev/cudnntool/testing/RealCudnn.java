package dev.cudnntool.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.archive.CudnnComponents;
import dev.cudnntool.archive.name.CudnnVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The real NVIDIA libraries the real-cudnn profile unpacks from Bytedeco's redist jars (facts
 * §7): cuDNN 8.9.7 (CUDA 12.2 build) and 9.5.1 (CUDA 12.6 build), plus two Windows DLLs.
 */
public final class RealCudnn {
    public static final String V8 = "8.9.7.29";
    public static final String V9 = "9.5.1.17";

    private RealCudnn() {
    }

    public static Path root() {
        String dir = System.getProperty("real.cudnn.dir");
        assertTrue(dir != null && Files.isDirectory(Path.of(dir, "linux-8")) && Files.isDirectory(Path.of(dir, "linux-9")),
                "real cuDNN libraries are missing from " + dir + ": run with mvn -Preal-cudnn verify");
        return Path.of(dir);
    }

    public static Path linux(int major) {
        return root().resolve("linux-" + major);
    }

    public static Path windows() {
        return root().resolve("windows-8");
    }

    /** A real-layout tar.xz of that major, built once per checkout and kept in target/. */
    public static synchronized Path archive(int major) {
        String version = major == 8 ? V8 : V9;
        ArchiveFixture f = ArchiveFixture.linuxFromReal(version, "12", linux(major)).xzPreset(0);
        Path dir = root().resolve("archives");
        Path out = dir.resolve(f.fileName());
        if (!Files.isRegularFile(out)) {
            try {
                Files.createDirectories(dir);
                Path tmp = f.writeAs(dir.resolve(f.fileName() + ".part"));
                Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /**
     * Lays the real libraries into {@code lib} as a hand copy would (real-named files, soname and
     * dev links) and the headers into {@code include}: the starting point of the broken-install tests.
     */
    public static void layOut(int major, Path lib, Path include) {
        CudnnVersion v = CudnnVersion.parse(major == 8 ? V8 : V9);
        try {
            Files.createDirectories(lib);
            Files.createDirectories(include);
            for (String base : CudnnComponents.libraries(major)) {
                String real = "lib" + base + ".so." + v.releaseString();
                String soname = "lib" + base + ".so." + major;
                Path src = linux(major).resolve(soname);
                try {
                    Files.createLink(lib.resolve(real), src);
                } catch (IOException | UnsupportedOperationException e) {
                    Files.copy(src, lib.resolve(real));
                }
                Files.createSymbolicLink(lib.resolve(soname), lib.getFileSystem().getPath(real));
                Files.createSymbolicLink(lib.resolve("lib" + base + ".so"), lib.getFileSystem().getPath(soname));
            }
            for (String h : CudnnComponents.headers(major)) {
                Files.writeString(include.resolve(h), h.equals(CudnnComponents.versionHeader(major))
                        ? ArchiveFixture.versionHeader(v) : "/* " + h + " */\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
