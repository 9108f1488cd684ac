package dev.cudnntool.testing;
import dev.cudnntool.ExitCode;
import dev.cudnntool.archive.InspectionLimits;
import dev.cudnntool.archive.ReadProgress;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.RegistryPath;
import dev.cudnntool.host.ToolkitLocator;
import dev.cudnntool.host.searchpath.SearchPathStores;
import dev.cudnntool.install.InstallOutcome;
import dev.cudnntool.install.InstallRequest;
import dev.cudnntool.install.InstallService;
import dev.cudnntool.install.PostInstallCheck;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.rollback.RollbackService;
import dev.cudnntool.target.FileOps;
import dev.cudnntool.target.InstallTarget;
import dev.cudnntool.target.NioFileOps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A fake machine described declaratively, as sdkman-cli-native's {@code virtual_env(...)} describes
 * a fake installation: the OS, a CUDA toolkit laid out as NVIDIA's installer leaves it, files and
 * links, the environment, the driver's {@code nvidia-smi} output, and cuDNN releases the tool has
 * already installed.
 *
 * <pre>{@code
 * try (Machine m = Machine.linux().toolkit("12.2.20230823").env("LD_LIBRARY_PATH", "/usr/local/cuda/lib64")
 *         .installed(ArchiveFixture.linux("8.9.5.30", "12")).build()) {
 *     InstallOutcome o = m.install(archive);
 * }
 * }</pre>
 *
 * The machine also hands out the services tests drive ({@link #installer()}, {@link #rollbacks()}),
 * so that this class alone knows how they are constructed. A test that builds its own {@link Host}
 * (real folders, an odd environment) gets the same services from {@link #of(Host)}.
 */
public final class Machine implements AutoCloseable {
    /** The install records' clock: fixed, so record ids are the same on every run. */
    public static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T03:00:00Z"), ZoneOffset.UTC);

    private final Host host;
    private final Path toolkit;
    private final FakeRunner runner;
    private final boolean ownsFs;

    private Machine(Host host, Path toolkit, FakeRunner runner, boolean ownsFs) {
        this.host = host;
        this.toolkit = toolkit;
        this.runner = runner;
        this.ownsFs = ownsFs;
    }

    /** A Linux x86_64 machine on its own jimfs (posix attributes), with nothing installed. */
    public static Builder linux() {
        return new Builder(true, TestHosts.unixFs(), true);
    }

    /** A Linux machine laid out on {@code fs} (a smaller jimfs, or the real file system); closing it leaves fs open. */
    public static Builder linux(FileSystem fs) {
        return new Builder(true, fs, false);
    }

    /** A Windows x64 machine on its own jimfs, with C:\Windows\System32 on PATH and nothing installed. */
    public static Builder windows() {
        return new Builder(false, TestHosts.windowsFs(), true);
    }

    /** A Windows machine laid out on {@code fs}; closing it leaves fs open. */
    public static Builder windows(FileSystem fs) {
        return new Builder(false, fs, false);
    }

    /** The services for a host a test built itself; closing it closes nothing. */
    public static Machine of(Host host) {
        return new Machine(host, null, host.runner() instanceof FakeRunner f ? f : null, false);
    }

    public Host host() {
        return host;
    }

    public FileSystem fs() {
        return host.fs();
    }

    public Path path(String first, String... more) {
        return host.path(first, more);
    }

    /** The toolkit's root folder as laid out by {@link Builder#toolkit(String)}. */
    public Path toolkit() {
        if (toolkit == null) {
            throw new IllegalStateException("this machine has no toolkit");
        }
        return toolkit;
    }

    /** The toolkit as the tool finds it, as an install target. */
    public InstallTarget toolkitTarget() {
        return InstallTarget.toolkit(ToolkitLocator.read(host, toolkit(), "test"), host.os());
    }

    /** The fake that answers for the machine's programs (nvidia-smi); it records every call. */
    public FakeRunner runner() {
        return runner;
    }

    public InstallService installer() {
        return installer(new NioFileOps());
    }

    public InstallService installer(FileOps ops) {
        return installer(ops, PostInstallCheck.NONE);
    }

    /** The install service with a fixed clock, default archive limits and no probe after install unless {@code check}. */
    public InstallService installer(FileOps ops, PostInstallCheck check) {
        return new InstallService(TestPorts.ports(host, ops, check));
    }

    /** As {@link #installer(FileOps)} where Windows' Restart Manager names {@code holders} of files in use. */
    public InstallService installer(FileOps ops, Function<List<Path>, List<String>> holders) {
        return new InstallService(TestPorts.ports(host, ops, PostInstallCheck.NONE, holders,
                SearchPathStores.withoutRegistry(host)));
    }

    /** Installs {@code archive} into the toolkit the machine's environment names, as plain {@code cudnn install --archive}. */
    public InstallOutcome install(Path archive) {
        return install(new NioFileOps(), archive);
    }

    public InstallOutcome install(FileOps ops, Path archive) {
        return installer(ops).run(new InstallRequest(archive, null, null, null, false, false), ReadProgress.NONE);
    }

    /** As {@link #install(Path)} with {@code --dry-run}. */
    public InstallOutcome dryRun(Path archive) {
        return installer().run(new InstallRequest(archive, null, null, null, false, true), ReadProgress.NONE);
    }

    public RollbackService rollbacks() {
        return rollbacks(new NioFileOps());
    }

    public RollbackService rollbacks(FileOps ops) {
        return new RollbackService(host, ops);
    }

    /** Rolls back the latest install of {@code t}, as plain {@code cudnn rollback}. */
    public RollbackOutcome rollback(InstallTarget t) {
        return rollback(new NioFileOps(), t);
    }

    public RollbackOutcome rollback(FileOps ops, InstallTarget t) {
        return rollbacks(ops).rollback(t, null, false, false);
    }

    @Override
    public void close() throws IOException {
        if (ownsFs) {
            host.fs().close();
        }
    }

    /** What the machine has; {@link #build()} lays it out in the order described. */
    public static final class Builder {
        private final boolean linux;
        private final FileSystem fs;
        private final boolean ownsFs;
        private final Map<String, String> env = new LinkedHashMap<>();
        private final List<String> path = new ArrayList<>();
        private final List<Consumer<FileSystem>> layout = new ArrayList<>();
        private final List<ArchiveFixture> installed = new ArrayList<>();
        private FakeRunner runner = new FakeRunner();
        private String toolkit;
        private RegistryPath registry;

        private Builder(boolean linux, FileSystem fs, boolean ownsFs) {
            this.linux = linux;
            this.fs = fs;
            this.ownsFs = ownsFs;
            if (!linux) {
                env.put("SystemRoot", "C:\\Windows");
                path.add("C:\\Windows\\System32");
                layout.add(f -> dir(f.getPath("C:\\Windows\\System32")));
            }
        }

        /**
         * A CUDA toolkit of {@code version} (as version.json spells it, "12.2.20230823") where NVIDIA's
         * installer puts it, with the toolkit's own runtime beside where cuDNN goes.
         * Linux: /usr/local/cuda-12.2 with lib64 a link to targets/x86_64-linux/lib, /usr/local/cuda
         * a link to it, libcudart.so.12. Windows: C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.2
         * with bin, include, lib\x64 and cudart64_12.dll; CUDA_PATH names it and its bin leads PATH,
         * as the installer sets them.
         */
        public Builder toolkit(String version) {
            String[] v = version.split("\\.");
            String majorMinor = v[0] + "." + v[1];
            if (linux) {
                toolkit = "/usr/local/cuda-" + majorMinor;
                String root = toolkit;
                layout.add(f -> {
                    TestHosts.linuxToolkit(f.getPath(root), version);
                    symlink(f.getPath("/usr/local/cuda"), f.getPath("cuda-" + majorMinor));
                    TestHosts.write(f.getPath(root, "targets/x86_64-linux/lib/libcudart.so." + v[0]), "not cudnn");
                });
            } else {
                toolkit = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v" + majorMinor;
                String root = toolkit;
                layout.add(f -> {
                    Path tk = TestHosts.toolkit(f.getPath(root), version);
                    dir(tk.resolve("lib").resolve("x64"));
                    TestHosts.write(tk.resolve("bin").resolve("cudart64_" + v[0] + ".dll"), "not cudnn");
                });
                env.put("CUDA_PATH", root);
                path.add(0, root + "\\bin");
            }
            return this;
        }

        /** zlibwapi.dll (x64) in the Windows toolkit's bin, where cuDNN 8 finds it. */
        public Builder zlibwapi() {
            String root = requireToolkit();
            layout.add(f -> write(f.getPath(root, "bin", "zlibwapi.dll"), PeImages.dll(PeImages.X64, "1.2.3.0")));
            return this;
        }

        /**
         * An NVIDIA driver whose {@code nvidia-smi} prints {@code smiOutput} (see {@link NvidiaSmiOutputs}):
         * the program where the driver installs it, and the answer in the machine's runner.
         */
        public Builder driver(String smiOutput) {
            String program = linux ? "/usr/bin/nvidia-smi" : "C:\\Windows\\System32\\nvidia-smi.exe";
            layout.add(f -> TestHosts.write(f.getPath(program), linux ? "\177ELF" : "MZ"));
            runner.on(linux ? "nvidia-smi" : "nvidia-smi.exe", smiOutput);
            // the driver's CUDA library, which every real driver installs with nvidia-smi
            layout.add(f -> write(f.getPath(linux ? "/usr/lib/x86_64-linux-gnu/libcuda.so.1" : "C:\\Windows\\System32\\nvcuda.dll"),
                    linux ? ElfImages.so("libcuda.so.1", List.of("libc.so.6"), null, List.of("cuInit"))
                            : PeImages.dll(PeImages.X64, "32.0.15.8088")));
            return this;
        }

        /** A driver whose nvidia-smi answers but whose CUDA library (libcuda.so.1, nvcuda.dll) is missing: a container with only 'utility'. */
        public Builder driverWithoutLibcuda(String smiOutput) {
            String program = linux ? "/usr/bin/nvidia-smi" : "C:\\Windows\\System32\\nvidia-smi.exe";
            layout.add(f -> TestHosts.write(f.getPath(program), linux ? "\177ELF" : "MZ"));
            runner.on(linux ? "nvidia-smi" : "nvidia-smi.exe", smiOutput);
            return this;
        }

        /** A GPU nvidia-smi lists with its compute capability (the {@code compute_cap} query), e.g. ("NVIDIA GeForce GTX 980", "5.2"). */
        public Builder gpu(String name, String driverVersion, String computeCapability) {
            runner.on(NvidiaSmiOutputs.QUERY_CC, NvidiaSmiOutputs.gpuWithCc(name, driverVersion, computeCapability));
            return this;
        }

        /** Another answer of the machine's programs, matched as {@link FakeRunner#on(String, String)} matches. */
        public Builder answers(String commandSuffix, String stdout) {
            runner.on(commandSuffix, stdout);
            return this;
        }

        /** A variable in the environment the tool sees (PATH is composed from the toolkit and {@link #onPath}). */
        public Builder env(String name, String value) {
            env.put(name, value);
            return this;
        }

        /**
         * Windows: the registry's user and machine Path as the tool read them (entries expanded), so
         * diagnosis can say which variable holds an entry. Without it the registry was not read.
         */
        public Builder registryPath(List<String> user, List<String> machine) {
            registry = new RegistryPath(user, machine);
            return this;
        }

        /** A folder appended to PATH. */
        public Builder onPath(String folder) {
            path.add(folder);
            return this;
        }

        public Builder file(String path, String text) {
            layout.add(f -> TestHosts.write(f.getPath(path), text));
            return this;
        }

        public Builder file(String path, byte[] bytes) {
            layout.add(f -> write(f.getPath(path), bytes));
            return this;
        }

        public Builder folder(String path) {
            layout.add(f -> dir(f.getPath(path)));
            return this;
        }

        /** A symbolic link at {@code path} whose target reads {@code target} (relative targets stay relative). */
        public Builder link(String path, String target) {
            layout.add(f -> symlink(f.getPath(path), f.getPath(target)));
            return this;
        }

        /**
         * cuDNN from {@code archive} installed into the toolkit by the tool itself (records, backups),
         * after everything else is laid out; the archive itself does not stay on the machine.
         */
        public Builder installed(ArchiveFixture archive) {
            requireToolkit();
            installed.add(archive);
            return this;
        }

        public Machine build() {
            layout.forEach(step -> step.accept(fs));
            Map<String, String> all = new LinkedHashMap<>(env);
            if (!path.isEmpty()) {
                all.put("PATH", String.join(linux ? ":" : ";", path));
            }
            Host host = linux ? TestHosts.linux(fs, all, runner) : TestHosts.windows(fs, all, runner);
            if (registry != null) {
                host = host.withRegistryPath(registry);
            }
            Machine m = new Machine(host, toolkit == null ? null : fs.getPath(toolkit), runner, ownsFs);
            for (ArchiveFixture a : installed) {
                try {
                    Path dir = Files.createTempDirectory(dir(fs.getPath(linux ? "/tmp" : "C:\\Temp")), "a");
                    Path file = a.writeTo(dir);
                    InstallOutcome o = m.install(file);
                    if (o.exit() != ExitCode.OK) {
                        throw new IllegalStateException("the machine's cuDNN did not install: " + o.summary() + o.findings());
                    }
                    Files.delete(file);
                    Files.delete(dir);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            return m;
        }

        private String requireToolkit() {
            if (toolkit == null) {
                throw new IllegalStateException("describe the toolkit first");
            }
            return toolkit;
        }
    }

    private static Path dir(Path p) {
        try {
            return Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path p, byte[] bytes) {
        try {
            Files.createDirectories(p.getParent());
            Files.write(p, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void symlink(Path at, Path target) {
        try {
            Files.createDirectories(at.getParent());
            Files.createSymbolicLink(at, target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
