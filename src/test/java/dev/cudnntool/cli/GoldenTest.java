package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cudnntool.Arch;
import dev.cudnntool.OsFamily;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The command line's contracts pinned as golden files (see {@link GoldenFiles}): every command's
 * {@code --help}, and each command's {@code --json} document and text output on success and on
 * error. {@code golden/json/X.json} is standard output of a {@code --json} run; {@code golden/text/X.txt}
 * is the exit code, standard output and standard error of the same run without {@code --json}.
 */
class GoldenTest {
    private static final Map<String, String> HELP = Map.of("cudnn", "", "install", "install", "verify", "verify",
            "rollback", "rollback", "inspect", "inspect", "releases", "releases", "fetch", "fetch",
            "completion", "completion", "explain", "explain");

    /** Values replaced by placeholders in this test's golden files: see {@link #archive}. */
    private final Map<String, String> pinned = new LinkedHashMap<>();

    /** A fixture archive written to {@code dir}; its sha256 (which changes with the time its zip entries carry) becomes {@code <archive-sha256>}. */
    private Path archive(ArchiveFixture fixture, Path dir) throws Exception {
        Path a = fixture.writeTo(dir);
        pinned.put(CatalogueCliTest.sha256(a), "<archive-sha256>");
        return a;
    }

    private static Host bareLinux() {
        return TestHosts.linux(TestHosts.unixFs(), Map.of("PATH", "/usr/bin"), new FakeRunner());
    }

    private static Cli.Run run(Host host, Catalogue catalogue, List<String> args) {
        return Cli.on(host).withCatalogue(catalogue).run(args.toArray(String[]::new));
    }

    /** Runs {@code args} with {@code --json} (golden/json/name.json) and without (golden/text/name.txt); returns the JSON run's exit. */
    private int both(String name, Host host, Catalogue catalogue, int exit, String... args) {
        Cli.Run json = run(host, catalogue, concat(args, "--json"));
        assertEquals(exit, json.exit(), name + ": " + json.out() + json.err());
        GoldenFiles.check("json/" + name + ".json", json.out(), pinned);
        return json.exit();
    }

    private void text(String name, Host host, Catalogue catalogue, int exit, String... args) {
        Cli.Run r = run(host, catalogue, List.of(args));
        assertEquals(exit, r.exit(), name + ": " + r.out() + r.err());
        GoldenFiles.check("text/" + name + ".txt", "exit " + r.exit() + "\n--- out\n" + r.out() + "--- err\n" + r.err(), pinned);
    }

    /** A state-free run (or one whose state the JSON run does not change): JSON and text golden both. */
    private void jsonAndText(String name, Host host, Catalogue catalogue, int exit, String... args) {
        both(name, host, catalogue, exit, args);
        text(name, host, catalogue, exit, args);
    }

    private static List<String> concat(String[] args, String extra) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add(extra);
        return all;
    }

    /**
     * Sets every install record's {@code installedAt} to one instant: {@code Instant.toString()} drops
     * trailing zeros of the nanoseconds, so the width of rollback --list's DATE column would vary.
     */
    private static void pinInstallTimes(Path target) throws IOException {
        try (var records = Files.list(target.resolve(".cudnn-tool").resolve("history"))) {
            for (Path dir : (Iterable<Path>) records::iterator) {
                Path record = dir.resolve("install.json");
                Files.writeString(record, Files.readString(record).replaceAll("(\"installedAt\"\\s*:\\s*\")[^\"]*\"",
                        "$12026-11-30T03:00:00.123456789Z\""));
            }
        }
    }

    @Test
    void everyCommandsHelp() {
        for (var e : new TreeMap<>(HELP).entrySet()) {
            String[] args = e.getValue().isEmpty() ? new String[] {"--help"} : new String[] {e.getValue(), "--help"};
            Cli.Run r = run(bareLinux(), Catalogue.empty(), List.of(args));
            assertEquals(0, r.exit(), e.getKey());
            assertEquals("", r.err(), e.getKey());
            GoldenFiles.check("help/" + e.getKey() + ".txt", r.out(), Map.of());
        }
    }

    @Test
    void inspect() throws Exception {
        Host host = bareLinux();
        Path ok = archive(ArchiveFixture.windows("8.9.5.30", "12"), CliTest.downloads(host));
        jsonAndText("inspect-ok", host, Catalogue.empty(), 0, "inspect", ok.toString());
        Path d = Files.createDirectories(host.path("/home/me/incomplete"));
        Path missing = archive(ArchiveFixture.windows("8.9.5.30", "12").remove("cudnn_ops_train64_8.dll"), d);
        jsonAndText("inspect-rejected", host, Catalogue.empty(), 3, "inspect", missing.toString());
        Files.write(host.path("cudnn.zip").toAbsolutePath(), new byte[] {'P', 'K'}); // it exists: its name is what is wrong
        jsonAndText("inspect-bad-name", host, Catalogue.empty(), 3, "inspect", "cudnn.zip");
        jsonAndText("inspect-no-file", host, Catalogue.empty(), 2, "inspect",
                "/home/me/Downloads/cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz");
    }

    @Test
    void installVerifyRollbackOnAWindowsToolkit() throws Exception {
        Host host = CliTest.windowsMachine();
        Catalogue none = Catalogue.empty();
        Path a = archive(ArchiveFixture.windows("9.1.0.70", "12"), CliTest.downloads(host));
        String archive = a.toString();
        jsonAndText("install-dry-run", host, none, 0, "install", "--archive", archive, "--dry-run", "--no-probe");
        jsonAndText("install-bad-sha256", host, none, 3, "install", "--archive", archive, "--no-probe", "--sha256", "0".repeat(64));
        jsonAndText("install-two-targets", host, none, 2, "install", "--archive", archive, "--cuda-path", CliTest.TK,
                "--prefix", "C:\\cudnn");
        Files.write(host.path("C:\\Users\\me\\Downloads\\cudnn.zip"), new byte[] {'P', 'K'}); // it exists: its name is what is wrong
        jsonAndText("install-bad-name", host, none, 3, "install", "--archive", "C:\\Users\\me\\Downloads\\cudnn.zip");
        jsonAndText("rollback-list-empty", host, none, 0, "rollback", "--list");
        jsonAndText("rollback-nothing", host, none, 8, "rollback");

        both("install-ok", host, none, 0, "install", "--archive", archive, "--no-probe");
        jsonAndText("install-already", host, none, 0, "install", "--archive", archive, "--no-probe");
        jsonAndText("verify-ok", host, none, 0, "verify", "--no-probe", "--expect", "9.1.0");
        jsonAndText("verify-expect-mismatch", host, none, 1, "verify", "--no-probe", "--expect", "9.5.1");
        pinInstallTimes(host.path(CliTest.TK));
        jsonAndText("rollback-list", host, none, 0, "rollback", "--list");
        jsonAndText("rollback-dry-run", host, none, 0, "rollback", "--dry-run");
        both("rollback-ok", host, none, 0, "rollback");

        // the same again as text, from the same state
        text("install-ok", host, none, 0, "install", "--archive", archive, "--no-probe");
        text("rollback-ok", host, none, 0, "rollback");
    }

    @Test
    void rollbackOfDamagedStateAndRepair() throws Exception {
        Host host = CliTest.windowsMachine();
        Path a = archive(ArchiveFixture.windows("8.9.5.30", "12"), CliTest.downloads(host));
        assertEquals(0, Cli.run(host, "install", "--archive", a.toString(), "--no-probe").exit());
        Path record;
        try (var l = Files.list(host.path(CliTest.TK, ".cudnn-tool", "history"))) {
            record = l.findFirst().orElseThrow().resolve("install.json");
        }
        String text = Files.readString(record);
        Files.writeString(record, text.substring(0, text.length() / 2));
        jsonAndText("rollback-damaged", host, Catalogue.empty(), 8, "rollback");
        jsonAndText("rollback-list-damaged", host, Catalogue.empty(), 0, "rollback", "--list");
        jsonAndText("rollback-repair-dry-run", host, Catalogue.empty(), 0, "rollback", "--repair", "--dry-run");
        jsonAndText("rollback-repair-with-id", host, Catalogue.empty(), 2, "rollback", "--repair", "--id", "x");
        both("rollback-repair", host, Catalogue.empty(), 0, "rollback", "--repair");
    }

    @Test
    void verifyAndRollbackOnABareMachine() {
        Host host = bareLinux();
        jsonAndText("verify-bare", host, Catalogue.empty(), 0, "verify");
        jsonAndText("verify-bare-expect", host, Catalogue.empty(), 1, "verify", "--expect", "9.5.1");
        jsonAndText("verify-bad-expect", host, Catalogue.empty(), 2, "verify", "--expect", "nine");
        jsonAndText("verify-unknown-option", host, Catalogue.empty(), 2, "verify", "--bogus");
        jsonAndText("rollback-no-toolkit", host, Catalogue.empty(), 8, "rollback");
    }

    /**
     * Issue 33 B: {@code cudnn explain}'s shape pinned on a bare Linux machine: a Windows line it cannot check here (exit 9),
     * a load failure whose library is nowhere (exit 1), a status about the program's own arguments (exit 0), text with no
     * cuDNN line (exit 2).
     */
    @Test
    void explain() {
        Host host = bareLinux();
        jsonAndText("explain-other-os", host, Catalogue.empty(), 9, "explain", "Could not load library cudnn_cnn_infer64_8.dll. Error code 126");
        jsonAndText("explain-not-found", host, Catalogue.empty(), 1, "explain",
                "Unable to load any of {libcudnn_graph.so.9.1.0, libcudnn_graph.so.9.1, libcudnn_graph.so.9, libcudnn_graph.so}");
        jsonAndText("explain-ruled-out", host, Catalogue.empty(), 0, "explain", "RuntimeError: cuDNN error: CUDNN_STATUS_BAD_PARAM");
        jsonAndText("explain-no-line", host, Catalogue.empty(), 2, "explain", "Segmentation fault (core dumped)");
    }

    /** Issue 21: {@code cudnn} alone, a mistyped command, a mistyped option beside a missing one. */
    @Test
    void theFrontDoor() {
        Host host = bareLinux();
        jsonAndText("cudnn-alone", host, Catalogue.empty(), 2);
        jsonAndText("unknown-command", host, Catalogue.empty(), 2, "verfy");
        jsonAndText("install-mistyped-option", host, Catalogue.empty(), 2, "install", "--archiv", "x.zip");
        jsonAndText("verify-mistyped-option", host, Catalogue.empty(), 2, "verify", "--expct", "9.5.1");
    }

    @Test
    void releases() throws Exception {
        Host host = CliTest.windowsMachine();
        Catalogue c = ReleasesCommandTest.CATALOGUE;
        jsonAndText("releases-this-machine", host, c, 0, "releases");
        jsonAndText("releases-other-platform", host, c, 0, "releases", "--os", "linux", "--arch", "aarch64sbsa", "--cuda", "12");
        jsonAndText("releases-none", host, c, 0, "releases", "--os", "osx");
        jsonAndText("releases-arm-host", new Host(TestHosts.unixFs(), Map.of(), OsFamily.LINUX, Arch.AARCH64, 64,
                new FakeRunner()), c, 0, "releases", "--cuda", "11");
        jsonAndText("releases-windows-arm-host", new Host(TestHosts.windowsFs(), Map.of(), OsFamily.WINDOWS, Arch.AARCH64, 64,
                new FakeRunner()), c, 0, "releases");
        jsonAndText("releases-bad-cuda", host, c, 2, "releases", "--cuda", "twelve");
        jsonAndText("releases-bad-os", host, c, 2, "releases", "--os", "beos");
        jsonAndText("releases-asked", host, ReleasesCommandTest.REDIST, 0, "releases", "--os", "linux", "--arch", "x86_64",
                "--driver", "535.104.05", "--gpu", "RTX 2080");
        jsonAndText("releases-bad-gpu", host, c, 2, "releases", "--gpu", "Voodoo 5");
        // #20 items 3, 4: --for's pin and a GPU the support matrix checks (gpuOk, why)
        jsonAndText("releases-for", host, Catalogue.of(Catalogue.bundled().select("linux", Set.of("x86_64"), 12, null).stream()
                .filter(e -> e.version().startsWith("8.9.7.") || e.version().startsWith("8.9.5.")).toList()), 0,
                "releases", "--for", "tensorflow==2.16.1", "--os", "linux", "--arch", "x86_64", "--gpu", "12.0");
        jsonAndText("releases-bad-for", host, c, 2, "releases", "--for", "torch==0.1");
    }
}
