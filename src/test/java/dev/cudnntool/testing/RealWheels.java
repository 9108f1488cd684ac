package dev.cudnntool.testing;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The real wheels the real-cudnn profile fetches from the configured pip index
 * (scripts/real-wheels.sh): {@code nvidia-cudnn-cu13} 9.24.0.43, cuBLAS 13.1.1.3, NVRTC 13.0.88,
 * the CUDA 13.0.96 runtime and torch 2.14.1 (which pins that cuDNN), as wheel files and as one
 * real site-packages installed from them with pip. Tests never write into either: copy or link
 * what a scenario needs into a temporary folder.
 */
public final class RealWheels {
    public static final String CUDNN = "9.24.0.43";
    public static final String TORCH = "2.14.1";
    public static final String CUDNN_WHEEL = "nvidia_cudnn_cu13-9.24.0.43-py3-none-manylinux_2_27_x86_64.whl";

    private RealWheels() {
    }

    public static Path root() {
        String dir = System.getProperty("real.wheels.dir");
        assertTrue(dir != null && Files.isRegularFile(Path.of(dir, ".done")),
                "real wheels are missing from " + dir + ": run with mvn -Preal-cudnn verify (scripts/real-wheels.sh)");
        return Path.of(dir);
    }

    /** The wheel files, as pip downloaded them. */
    public static Path wheels() {
        return root().resolve("wheels");
    }

    /** A wheel file by its name. */
    public static Path wheel(String fileName) {
        return wheels().resolve(fileName);
    }

    /** pip install --target of all the pins: nvidia/cudnn/lib, nvidia/cu13/lib, torch/lib, *.dist-info. */
    public static Path sitePackages() {
        return root().resolve("site-packages");
    }

    /**
     * A virtual environment in {@code venv} (pyvenv.cfg, lib/python3.11/site-packages) holding, as hard links
     * into the real site-packages, the NVIDIA wheels (nvidia/**), every *.dist-info and torch/lib: what
     * cuDNN's diagnosis reads, without torch's Python files. Returns the site-packages folder.
     */
    public static Path linkVenv(Path venv) {
        Path site = venv.resolve("lib").resolve("python3.11").resolve("site-packages");
        Path from = sitePackages();
        try {
            Files.createDirectories(site);
            Files.writeString(venv.resolve("pyvenv.cfg"), "home = /usr/bin\nversion = 3.11.7\n");
            try (Stream<Path> top = Files.list(from)) {
                for (Path p : top.toList()) {
                    String name = p.getFileName().toString();
                    if (name.equals("nvidia") || name.endsWith(".dist-info")) {
                        linkTree(p, site.resolve(name));
                    }
                }
            }
            linkTree(from.resolve("torch").resolve("lib"), site.resolve("torch").resolve("lib"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return site;
    }

    private static void linkTree(Path from, Path to) throws IOException {
        List<Path> all;
        try (Stream<Path> walk = Files.walk(from)) {
            all = walk.toList();
        }
        for (Path p : all) {
            Path dst = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(dst);
            } else if (Files.isSymbolicLink(p)) {
                Files.createSymbolicLink(dst, Files.readSymbolicLink(p));
            } else {
                Files.createLink(dst, p);
            }
        }
    }
}
