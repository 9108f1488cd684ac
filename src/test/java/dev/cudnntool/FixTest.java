package dev.cudnntool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** #29 item 1: the fix type: kinds code decides by, written as its text alone. */
class FixTest {
    @Test
    void emptyTextIsNoFixWhateverTheKind() {
        for (Fix.Kind k : Fix.Kind.values()) {
            assertEquals(Fix.Kind.NONE, new Fix(k, "").kind());
            assertEquals(Fix.Kind.NONE, new Fix(k, null).kind());
            assertEquals("", new Fix(k, null).text());
        }
        assertSame(Fix.NONE, Fix.text(""));
        assertSame(Fix.NONE, Fix.text(null));
    }

    @Test
    void factoriesGiveTheirKinds() {
        assertEquals(Fix.Kind.TEXT, Fix.text("sudo ldconfig").kind());
        assertEquals(Fix.Kind.REINSTALL, Fix.reinstall("reinstall with cudnn install").kind());
        assertEquals(Fix.Kind.TOOL, Fix.tool("run cudnn rollback").kind());
        assertEquals(Fix.Kind.PACKAGE_MANAGER, Fix.packageManager("pip install --force-reinstall x").kind());
        assertTrue(Fix.tool("run cudnn rollback").is(Fix.Kind.TOOL));
        assertEquals("run cudnn rollback", Fix.tool("run cudnn rollback").toString());
    }

    @Test
    void aFindingWritesItsFixAsTheSameStringWhateverItsKind() throws Exception {
        ObjectMapper json = new ObjectMapper();
        String asText = json.writeValueAsString(new Finding("cudnn.damaged", Severity.ERROR, "m", "reinstall it"));
        String asReinstall = json.writeValueAsString(new Finding("cudnn.damaged", Severity.ERROR, "m", Fix.reinstall("reinstall it")));
        assertEquals(asText, asReinstall);
        assertTrue(asText.contains("\"fix\":\"reinstall it\"") && !asText.contains("remedy") && !asText.contains("kind"), asText);
        Finding forced = Finding.error(FindingId.CUDNN_DAMAGED_FILE, "m", Fix.reinstall("r")).forced();
        assertEquals(Fix.Kind.REINSTALL, forced.remedy().kind(), "--force keeps the kind");
        assertEquals(Fix.Kind.TOOL, forced.withFix(Fix.tool("t")).remedy().kind());
    }
}
