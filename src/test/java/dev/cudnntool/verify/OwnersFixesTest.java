package dev.cudnntool.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.Fix;
import dev.cudnntool.Severity;
import dev.cudnntool.archive.name.CudnnVersion;
import dev.cudnntool.diagnosis.ProbeResult;
import dev.cudnntool.host.CudaVersion;
import dev.cudnntool.host.DriverInfo;
import dev.cudnntool.host.Host;
import dev.cudnntool.host.owner.Owner;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.PeImages;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * #29 item 1: the owner's command replaces a fix by its kind. For a package manager's copy every
 * {@link Fix.Kind#REINSTALL} fix becomes the owner's command and nothing else changes; and every fix
 * the checks write that names cudnn install is of a kind code can decide by (never plain text), so
 * the rule by kind gives exactly what the old rule by text ("contains cudnn install") gave.
 */
class OwnersFixesTest {
    private static final long SEED = Long.getLong("ownersFixes.seed", 29L);
    private static final List<Owner> OWNERS = List.of(
            new Owner(Owner.Kind.PIP, "nvidia-cudnn-cu12", "9.1.0.70", null),
            new Owner(Owner.Kind.PIP, "nvidia-cudnn-cu11", null, "/home/u/.venv"),
            new Owner(Owner.Kind.CONDA, "cudnn", "9.3.0.75", "/opt/conda/envs/t"),
            new Owner(Owner.Kind.DPKG, "libcudnn9-cuda-12", "9.5.1.17-1", null),
            new Owner(Owner.Kind.RPM, "libcudnn9-cuda-12", null, null));

    @TestFactory
    Stream<DynamicTest> everyReinstallFixBecomesTheOwnersCommandAndNothingElseChanges() {
        Random rnd = new Random(SEED);
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            Owner owner = OWNERS.get(rnd.nextInt(OWNERS.size()));
            List<Finding> findings = new ArrayList<>();
            int n = 1 + rnd.nextInt(6);
            for (int k = 0; k < n; k++) {
                Fix.Kind kind = Fix.Kind.values()[rnd.nextInt(Fix.Kind.values().length)];
                String text = kind == Fix.Kind.NONE ? "" : "fix " + k + " of kind " + kind + " #" + rnd.nextInt(1000);
                findings.add(new Finding("cudnn.test-" + k, Severity.values()[rnd.nextInt(Severity.values().length)],
                        "message " + k, new Fix(kind, text)));
            }
            tests.add(DynamicTest.dynamicTest("seed " + SEED + " case " + i + " " + owner.kind().label(), () -> {
                List<Finding> out = OwnersFixes.apply(findings, owner);
                assertEquals(findings.size(), out.size());
                for (int k = 0; k < out.size(); k++) {
                    Finding before = findings.get(k);
                    Finding after = out.get(k);
                    assertEquals(before.id(), after.id());
                    assertEquals(before.severity(), after.severity());
                    assertEquals(before.message(), after.message());
                    if (before.remedy().is(Fix.Kind.REINSTALL)) {
                        assertEquals(Fix.Kind.PACKAGE_MANAGER, after.remedy().kind(), after.fix());
                        assertTrue(after.fix().endsWith(owner.reinstallCommand()), after.fix());
                        assertTrue(after.fix().contains(owner.describe()), after.fix());
                    } else {
                        assertEquals(before.remedy(), after.remedy());
                    }
                }
            }));
        }
        return tests.stream();
    }

    @Test
    void theToolsOwnAndUnownedCopiesKeepTheirFixes() {
        List<Finding> findings = List.of(new Finding("cudnn.damaged", Severity.ERROR, "m", Fix.reinstall("reinstall with cudnn install")));
        assertSame(findings, OwnersFixes.apply(findings, Owner.TOOL));
        assertSame(findings, OwnersFixes.apply(findings, Owner.NONE));
        assertSame(findings, OwnersFixes.apply(findings, null));
    }

    /** The fixes the probe's findings carry, over every way a probe can end. */
    static List<Finding> probeFindings(Host host) {
        List<Finding> out = new ArrayList<>();
        String lib = "/usr/lib/x86_64-linux-gnu/libcudnn.so.9";
        List<ProbeResult.SubLibrary> subs = List.of(new ProbeResult.SubLibrary(lib + "_ops", false, "undefined symbol: x", 127));
        out.addAll(ProbeCheck.findings(host, probe(lib, "cannot open: error 193", subs, false, false, null, 9050100L, 12020L),
                CudnnVersion.of(9, 1, 0), CudaVersion.parse("11.8").orElseThrow(), DriverInfo.NONE));
        out.addAll(ProbeCheck.findings(host, probe(lib, "file too short", List.of(), false, false, null, null, null),
                null, null, DriverInfo.NONE));
        out.addAll(ProbeCheck.findings(host, probe(lib, null, List.of(), false, false, null, 9050100L, 12020L),
                CudnnVersion.of(9, 1, 0), null, DriverInfo.NONE));
        out.add(ProbeCheck.crashFinding(probe(lib, null, List.of(), false, true, null, null, null)));
        for (ProbeResult.Crash c : List.of(new ProbeResult.Crash("SIGBUS", "C [ld.so+0x1]", lib, "/tmp/hs_err.log"),
                new ProbeResult.Crash("SIGABRT", null, null, null), new ProbeResult.Crash("SIGSEGV", "C [x]", null, null))) {
            out.add(ProbeCheck.crashFinding(probe(lib, null, List.of(), true, false, c, null, null)));
        }
        out.add(ProbeCheck.crashFinding(probe(lib, null, List.of(), true, false, null, null, null)));
        return out;
    }

    private static ProbeResult probe(String lib, String loadError, List<ProbeResult.SubLibrary> subs, boolean crashed, boolean timedOut,
                                     ProbeResult.Crash crash, Long version, Long cudart) {
        String versionString = version == null ? null : "9.5.1";
        return new ProbeResult(new ProbeResult.Load(lib, loadError == null ? lib : null, null, null, subs, loadError),
                new ProbeResult.Versions(version, versionString, cudart, cudart == null ? null : "12.2", List.of(), null),
                new ProbeResult.Handle(null, null),
                new ProbeResult.Ending(crashed ? 134 : null, crashed, timedOut, "cudnnGetVersion", "", crash));
    }

    @Test
    void aFixNamingCudnnInstallIsNeverPlainTextSoTheKindRuleEqualsTheOldTextRule() throws Exception {
        FileSystem fs = TestHosts.windowsFs();
        Host windows = VerifyServiceTest.windowsInstall(fs, "8.9.7.29", new FakeRunner());
        Files.write(fs.getPath(VerifyServiceTest.TK, "bin", "cudnn_ops_infer64_8.dll"), PeImages.dll(
                PeImages.X64, "8.9.5.30"));
        Files.delete(fs.getPath(VerifyServiceTest.TK, "bin", "cudnn_adv_train64_8.dll"));
        List<Finding> produced = new ArrayList<>(new VerifyService(windows, null).verify(null, null, CudnnVersion.of(8, 9, 5)).findings());
        produced.addAll(probeFindings(TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner())));
        produced.addAll(probeFindings(windows));
        int named = 0;
        for (Finding f : produced) {
            boolean oldRule = f.fix().contains("cudnn install");
            named += oldRule ? 1 : 0;
            assertFalse(oldRule && f.remedy().is(Fix.Kind.TEXT), f.id() + " names cudnn install as plain text: " + f.fix());
            for (Owner owner : OWNERS) {
                Finding after = OwnersFixes.apply(List.of(f), owner).get(0);
                assertEquals(oldRule, !after.fix().equals(f.fix()), f.id() + " " + f.fix());
            }
        }
        assertTrue(named >= 8, "the scenarios reach the reinstall fixes: " + named);
    }
}
