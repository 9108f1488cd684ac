package dev.cudnntool.explain;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Fix;
import dev.cudnntool.testing.Machine;
import dev.cudnntool.testing.PeImages;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * explain's fixes are the core {@link Fix} type by kind (#29): a fix offering this tool's {@code cudnn install} is
 * {@link Fix.Kind#TOOL}, one whose command is pip's is {@link Fix.Kind#PACKAGE_MANAGER}, advice in words is
 * {@link Fix.Kind#TEXT}; JSON's {@code fix} stays the same text.
 */
class ExplainFixKindsTest {
    private static Finding one(Machine m, String text, FindingId id) {
        return ExplainServiceTest.one(ExplainServiceTest.explain(m, text), id);
    }

    @Test
    void theInstallFixOfAMissingCuDnnIsTheTools() throws Exception {
        try (Machine m = Machine.linux().build()) {
            Finding f = one(m, "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open",
                    FindingId.EXPLAIN_NOT_FOUND);
            assertEquals(Fix.Kind.TOOL, f.remedy().kind(), f.fix());
            assertTrue(f.fix().contains("cudnn install --release 8.9.7"), f.fix());
        }
    }

    @Test
    void aMissingCublasIsFixedByThePackageManager() throws Exception {
        try (Machine m = Machine.linux().build()) {
            Finding f = one(m, "Could not load library libcudnn_ops_infer.so.8. Error: libcublas.so.11: cannot open shared"
                    + " object file: No such file or directory", FindingId.EXPLAIN_NOT_FOUND);
            assertEquals(Fix.Kind.PACKAGE_MANAGER, f.remedy().kind(), f.fix());
            assertTrue(f.fix().startsWith("install cuBLAS for CUDA 11: pip install nvidia-cublas-cu11"), f.fix());
        }
    }

    @Test
    void aFolderToPutOnTheSearchPathAndA32BitDllAreAdviceInWords() throws Exception {
        String lib = ExplainServiceTest.SITE + "/nvidia/cudnn/lib";
        try (Machine m = Machine.linux().env("VIRTUAL_ENV", ExplainServiceTest.VENV).file(lib + "/libcudnn.so.8", "elf")
                .file(lib + "/libcudnn_ops_infer.so.8", "elf").build()) {
            Finding f = one(m, "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open",
                    FindingId.EXPLAIN_NOT_FOUND);
            assertEquals(Fix.Kind.TEXT, f.remedy().kind(), f.fix());
        }
        try (Machine m = Machine.windows().onPath("C:\\old\\bin")
                .file("C:\\old\\bin\\cudnn_ops_infer64_8.dll", PeImages.dll(PeImages.I386, "8.9.7.29")).build()) {
            Finding f = one(m, "Could not load library cudnn_ops_infer64_8.dll. Error code 193", FindingId.EXPLAIN_DEPENDENCY);
            assertEquals(Fix.Kind.TEXT, f.remedy().kind(), f.fix());
        }
    }

    @Test
    void anotherOsesLineIsToldToRunThisToolThere() throws Exception {
        try (Machine m = Machine.windows().build()) {
            Finding f = one(m, "Could not load library libcudnn_ops_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open",
                    FindingId.EXPLAIN_NOT_CHECKED);
            assertEquals(Fix.Kind.TOOL, f.remedy().kind(), f.fix());
            assertEquals("run cudnn explain on the machine that printed it", f.fix());
        }
    }

    /** No finding of explain is built with a fix given as a bare string (the String overloads of Finding's factories). */
    @Test
    void explainBuildsEveryFixByKind() throws IOException {
        List<String> calls;
        try (Stream<Path> files = Files.list(Path.of("src/main/java/dev/cudnntool/explain"))) {
            calls = files.filter(p -> p.toString().endsWith(".java")).flatMap(p -> {
                try {
                    String src = Files.readString(p);
                    // each finding factory call up to its closing ");" must name a Fix, or be an info (no fix)
                    return Pattern.compile("Finding\\.(warn|error|of)\\((?:[^;]|;(?!\\s*$))*?\\);", Pattern.MULTILINE)
                            .matcher(src).results().map(r -> p.getFileName() + ": " + r.group());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        }
        assertTrue(calls.size() >= 8, "the scan finds explain's findings: " + calls);
        List<String> bad = calls.stream().filter(call -> !call.matches("(?s).*(Fix\\.|remedy\\(\\)|[Ff]ix\\(|\\bfix\\)).*")).toList();
        assertTrue(bad.isEmpty(), "findings with a String fix in explain:\n" + String.join("\n", bad));
    }
}
