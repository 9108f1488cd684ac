package dev.cudnntool.real;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.loader.LdSoCache;
import dev.cudnntool.host.loader.LoaderPath;
import dev.cudnntool.host.loader.ProgramLoader;
import dev.cudnntool.testing.RealCudnn;
import dev.cudnntool.testing.RealWheels;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 A4 (and A10): which cuDNN a program really loads, against glibc's own loader. The real
 * torch 2.14.1 {@code libtorch_cuda.so} (DT_RPATH) and gcc-built stand-ins with DT_RPATH or
 * DT_RUNPATH, in a virtual environment laid out from the real pip site-packages, with the real
 * cuDNN 9.5.1 on LD_LIBRARY_PATH; a small C program asks ld.so which file it mapped.
 */
@Tag("real-cudnn")
class RealLoaderOrderTest {
    @TempDir
    Path tmp;

    Path site;
    Path other;

    /** A venv with the real wheel's cuDNN and torch's METADATA, and a folder holding the real cuDNN 9.5.1. */
    void layOut() throws IOException {
        site = tmp.resolve("venv/lib/python3.12/site-packages");
        Path real = RealWheels.sitePackages();
        linkAll(real.resolve("nvidia/cudnn/lib"), site.resolve("nvidia/cudnn/lib"));
        linkAll(real.resolve("nvidia/cudnn/include"), site.resolve("nvidia/cudnn/include"));
        Files.createDirectories(site.resolve("torch/lib"));
        Path meta = site.resolve("torch-" + RealWheels.TORCH + ".dist-info/METADATA");
        Files.createDirectories(meta.getParent());
        Files.copy(real.resolve("torch-" + RealWheels.TORCH + ".dist-info/METADATA"), meta);
        other = tmp.resolve("other");
        Files.createDirectories(other);
        link(RealCudnn.linux(9).resolve("libcudnn.so.9"), other.resolve("libcudnn.so.9"));
    }

    Host host(Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.put("VIRTUAL_ENV", tmp.resolve("venv").toString());
        all.put("HOME", tmp.resolve("home").toString());
        return RealVerify.host(all);
    }

    @Test
    void realTorchHasRpathSoItsWheelWinsOverLdLibraryPath() throws Exception {
        layOut();
        Path torch = site.resolve("torch/lib/libtorch_cuda.so");
        link(RealWheels.sitePackages().resolve("torch/lib/libtorch_cuda.so"), torch);
        Host host = host(Map.of("LD_LIBRARY_PATH", other.toString()));
        ProgramLoader.Program p = ProgramLoader.Program.read(torch);
        assertTrue(p.searchesRpath() && p.needed().contains("libcudnn.so.9"), p.toString());
        assertEquals(site.resolve("nvidia/cudnn/lib").normalize(), p.rpath().get(0));
        LoaderPath.Hit hit = ProgramLoader.resolve(host, LdSoCache.of(host), p, "libcudnn.so.9").orElseThrow();
        assertEquals(site.resolve("nvidia/cudnn/lib/libcudnn.so.9"), hit.file());
        assertEquals(LoaderPath.Mechanism.RPATH, hit.place().mechanism());

        JsonNode f = RealVerify.finding(RealVerify.verify(host), "cudnn.torch-copy");
        assertEquals("info", f.get("severity").asText(), f.toString());
        String m = f.get("message").asText();
        assertTrue(m.contains("loads its own wheel's cuDNN: " + site.resolve("nvidia/cudnn/lib/libcudnn.so.9") + " (cuDNN 9.24.0")
                && m.contains("DT_RPATH, which the loader searches before LD_LIBRARY_PATH"), m);
    }

    @Test
    void gccBuiltRpathAndRunpathAgreeWithTheRealLoader() throws Exception {
        layOut();
        Path torch = site.resolve("torch/lib/libtorch_cuda.so");
        Path wheelCudnn = site.resolve("nvidia/cudnn/lib/libcudnn.so.9");
        Path checker = checker();
        for (boolean runpath : new boolean[] {false, true}) {
            Files.deleteIfExists(torch);
            gcc(torch, wheelCudnn, runpath);
            Host host = host(Map.of("LD_LIBRARY_PATH", other.toString()));
            Path expected = runpath ? other.resolve("libcudnn.so.9") : wheelCudnn;
            Path model = ProgramLoader.resolve(host, LdSoCache.of(host), ProgramLoader.Program.read(torch), "libcudnn.so.9")
                    .orElseThrow().file();
            assertTrue(Files.isSameFile(expected, model), (runpath ? "RUNPATH" : "RPATH") + ": model says " + model);
            Path loaded = Path.of(run(List.of(checker.toString(), torch.toString()), Map.of("LD_LIBRARY_PATH", other.toString())).strip());
            assertTrue(Files.isSameFile(expected, loaded), (runpath ? "RUNPATH" : "RPATH") + ": ld.so loaded " + loaded);

            JsonNode f = RealVerify.finding(RealVerify.verify(host), "cudnn.torch-copy");
            String m = f.get("message").asText();
            if (runpath) {
                assertEquals("warn", f.get("severity").asText(), f.toString());
                assertTrue(m.contains("loads " + other.resolve("libcudnn.so.9") + ", through LD_LIBRARY_PATH")
                        && m.contains("not its own wheel's " + wheelCudnn + " (cuDNN 9.24.0")
                        && m.contains("DT_RUNPATH, which the loader searches after LD_LIBRARY_PATH"), m);
                assertTrue(f.get("fix").asText().contains("remove " + other + " from LD_LIBRARY_PATH"), f.toString());
            } else {
                assertEquals("info", f.get("severity").asText(), f.toString());
                assertTrue(m.contains("loads its own wheel's cuDNN: " + wheelCudnn), m);
            }
        }
        // no LD_LIBRARY_PATH: the RUNPATH build gets its wheel's copy, and the text says a copy there would win
        Host plain = host(Map.of());
        JsonNode f = RealVerify.finding(RealVerify.verify(plain), "cudnn.torch-copy");
        assertEquals("info", f.get("severity").asText(), f.toString());
        assertTrue(f.get("message").asText().contains("would win over it"), f.toString());
        Path loaded = Path.of(run(List.of(checker.toString(), torch.toString()), Map.of()).strip());
        assertTrue(Files.isSameFile(wheelCudnn, loaded), loaded.toString());
    }

    /** A10: a preloaded real cuDNN wins over DT_RPATH too, as ld.so shows; verify says cudnn.preloaded (error) and why torch gets it. */
    @Test
    void preloadedRealCudnnWinsOverRpath() throws Exception {
        layOut();
        Path torch = site.resolve("torch/lib/libtorch_cuda.so");
        Path wheelCudnn = site.resolve("nvidia/cudnn/lib/libcudnn.so.9");
        gcc(torch, wheelCudnn, false);
        Path preloaded = other.resolve("libcudnn.so.9");
        Files.delete(preloaded); // a copy of its own, not a hard link of the file the toolkit below links too
        Files.copy(RealCudnn.linux(9).resolve("libcudnn.so.9"), preloaded);
        Map<String, String> env = Map.of("LD_PRELOAD", preloaded.toString());
        Path loaded = Path.of(run(List.of(checker().toString(), torch.toString()), env).strip());
        assertTrue(Files.isSameFile(preloaded, loaded), "ld.so loaded " + loaded);
        Host host = host(env);
        LoaderPath.Hit hit = ProgramLoader.resolve(host, LdSoCache.of(host), ProgramLoader.Program.read(torch), "libcudnn.so.9")
                .orElseThrow();
        assertEquals(LoaderPath.Mechanism.PRELOAD, hit.place().mechanism());
        assertTrue(Files.isSameFile(preloaded, hit.file()), hit.toString());

        Path tk = RealVerify.toolkit(tmp);
        JsonNode doc = RealVerify.verify(host(Map.of("LD_PRELOAD", preloaded.toString(), "LD_LIBRARY_PATH", tk.resolve("lib64").toString())),
                "--cuda-path", tk.toString(), "--no-probe");
        JsonNode p = RealVerify.finding(doc, "cudnn.preloaded");
        assertEquals("error", p.get("severity").asText(), p.toString());
        assertTrue(p.get("message").asText().contains(preloaded + " is preloaded through LD_PRELOAD")
                && p.get("message").asText().contains("instead of the copy in " + tk.resolve("lib64")), p.toString());
        JsonNode t = RealVerify.finding(doc, "cudnn.torch-copy");
        assertEquals("warn", t.get("severity").asText(), t.toString());
        assertTrue(t.get("message").asText().contains("a preloaded object comes before every folder"), t.toString());
        assertEquals(1, doc.get("exitCode").asInt());
    }

    /**
     * The loader chain: a library with neither DT_RPATH nor DT_RUNPATH (as an ONNX Runtime provider may be) dlopened by an
     * executable with DT_RPATH $ORIGIN/../lib (as conda-build makes python) gets the environment's cuDNN before the one on
     * LD_LIBRARY_PATH; under an executable with DT_RUNPATH instead, LD_LIBRARY_PATH's. The model agrees with ld.so both times.
     */
    @Test
    void theExecutablesRpathCountsForALibraryWithoutRunpathAsLdSoShows() throws Exception {
        layOut();
        Path env = tmp.resolve("conda/envs/ml");
        Path envCudnn = env.resolve("lib/libcudnn.so.9");
        link(RealCudnn.linux(9).resolve("libcudnn.so.9"), envCudnn);
        Path wheel = site.resolve("nvidia/cudnn/lib");
        Path provider = site.resolve("onnxruntime/capi/libonnxruntime_providers_cuda.so");
        Files.createDirectories(provider.getParent());
        Path src = tmp.resolve("provider.c");
        Files.writeString(src, "int provider_stub(void) { return 0; }\n");
        run(List.of("/usr/bin/gcc", "-shared", "-fPIC", "-o", provider.toString(), src.toString(), "-Wl,--no-as-needed",
                wheel.resolve("libcudnn.so.9").toString(), "-Wl,-soname,libonnxruntime_providers_cuda.so"), Map.of());
        ProgramLoader.Program program = ProgramLoader.Program.read(provider);
        assertTrue(program.rpath().isEmpty() && program.runpath().isEmpty() && program.needed().contains("libcudnn.so.9"),
                program.toString());
        for (boolean runpath : new boolean[] {false, true}) {
            Path exe = checker(env.resolve("bin/python3.11"), runpath);
            Map<String, String> vars = Map.of("LD_LIBRARY_PATH", wheel.toString());
            Path loaded = Path.of(run(List.of(exe.toString(), provider.toString()), vars).strip());
            Path expected = runpath ? wheel.resolve("libcudnn.so.9") : envCudnn;
            assertTrue(Files.isSameFile(expected, loaded), (runpath ? "RUNPATH" : "RPATH") + " executable: ld.so loaded " + loaded);
            Host host = host(vars);
            LoaderPath.Hit hit = ProgramLoader.resolve(host, LdSoCache.of(host), program, "libcudnn.so.9",
                    ProgramLoader.Loaders.executable(ProgramLoader.Program.read(exe))).orElseThrow();
            assertTrue(Files.isSameFile(expected, hit.file()), (runpath ? "RUNPATH" : "RPATH") + " executable: model says " + hit);
            assertEquals(runpath ? LoaderPath.Mechanism.LD_LIBRARY_PATH : LoaderPath.Mechanism.RPATH, hit.place().mechanism());
        }
    }

    /** The checker below, built as {@code exe} with DT_RPATH (or DT_RUNPATH) $ORIGIN/../lib. */
    Path checker(Path exe, boolean runpath) throws Exception {
        Path src = checker().resolveSibling("which.c");
        Files.createDirectories(exe.getParent());
        Files.deleteIfExists(exe);
        run(List.of("/usr/bin/gcc", "-o", exe.toString(), src.toString(), "-ldl", runpath ? "-Wl,--enable-new-dtags"
                : "-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN/../lib"), Map.of());
        return exe;
    }

    /** A shared object needing libcudnn.so.9, with the wheel's folder as DT_RPATH or DT_RUNPATH, as torch's would. */
    static void gcc(Path out, Path cudnn, boolean runpath) throws Exception {
        Path src = out.resolveSibling("stub.c");
        Files.writeString(src, "int torch_stub(void) { return 0; }\n");
        run(List.of("/usr/bin/gcc", "-shared", "-fPIC", "-o", out.toString(), src.toString(), "-Wl,--no-as-needed", cudnn.toString(),
                "-Wl,-soname,libtorch_cuda.so", runpath ? "-Wl,--enable-new-dtags" : "-Wl,--disable-new-dtags",
                "-Wl,-rpath,$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN"), Map.of());
        Files.delete(src);
    }

    /** A program that dlopens its argument and prints the file ld.so mapped for libcudnn.so.9. */
    Path checker() throws Exception {
        Path src = tmp.resolve("which.c");
        Files.writeString(src, """
                #define _GNU_SOURCE
                #include <dlfcn.h>
                #include <link.h>
                #include <stdio.h>
                int main(int argc, char **argv) {
                    if (argc > 1 && !dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) { fprintf(stderr, "%s\\n", dlerror()); return 2; }
                    void *h = dlopen("libcudnn.so.9", argc > 1 ? RTLD_NOW | RTLD_NOLOAD : RTLD_NOW);
                    struct link_map *m;
                    if (!h || dlinfo(h, RTLD_DI_LINKMAP, &m) != 0) { fprintf(stderr, "%s\\n", dlerror()); return 3; }
                    printf("%s\\n", m->l_name);
                    return 0;
                }
                """);
        Path exe = tmp.resolve("which");
        run(List.of("/usr/bin/gcc", "-o", exe.toString(), src.toString(), "-ldl"), Map.of());
        return exe;
    }

    static String run(List<String> cmd, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("LD_LIBRARY_PATH");
        pb.environment().remove("LD_PRELOAD");
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), cmd.toString());
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), cmd + ": " + text);
        return text;
    }

    static void linkAll(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(from)) {
            ds.forEach(files::add);
        }
        for (Path f : files) {
            if (Files.isRegularFile(f)) {
                link(f, to.resolve(f.getFileName().toString()));
            }
        }
    }

    static void link(Path existing, Path link) throws IOException {
        Files.createDirectories(link.getParent());
        try {
            Files.createLink(link, existing);
        } catch (IOException | UnsupportedOperationException e) {
            Files.copy(existing, link);
        }
    }
}
