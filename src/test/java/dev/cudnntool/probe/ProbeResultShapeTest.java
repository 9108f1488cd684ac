package dev.cudnntool.probe;

import dev.cudnntool.diagnosis.ProbeResult;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.host.ProcessResult;
import org.junit.jupiter.api.Test;

/**
 * verify's JSON {@code probe} object is a contract: built from parts (load, version, handle, the child's
 * ending), it keeps the names and order it had as one record of 20 fields.
 */
class ProbeResultShapeTest {
    static final String EVERYTHING = String.join("\n",
            "{\"event\":\"loading\",\"path\":\"libcudnn.so.9\"}",
            "{\"event\":\"byName\",\"name\":\"libcudnn.so.9\",\"loadedPath\":\"/t/libcudnn.so.9.5.1\"}",
            "{\"event\":\"subLibrary\",\"path\":\"/t/libcudnn_ops.so.9\",\"loaded\":false,\"error\":\"missing\",\"errorCode\":126}",
            "{\"event\":\"mainLoaded\",\"path\":\"/t/libcudnn.so.9\",\"loadedPath\":\"/t/libcudnn.so.9.5.1\"}",
            "{\"event\":\"calling\",\"function\":\"cudnnGetVersion\"}",
            "{\"event\":\"version\",\"value\":90501}",
            "{\"event\":\"cudartVersion\",\"value\":12060}",
            "{\"event\":\"properties\",\"major\":9,\"minor\":5,\"patch\":1}",
            "{\"event\":\"maxDeviceVersion\",\"value\":900}",
            "{\"event\":\"calling\",\"function\":\"cudnnCreate\"}",
            "{\"event\":\"handle\",\"status\":1001,\"statusName\":\"CUDNN_STATUS_NOT_INITIALIZED\"}") + "\n";

    @Test
    void aFullAnswerKeepsItsJsonNamesAndOrder() throws Exception {
        ProbeResult p = ProbeRunner.parse("/t/libcudnn.so.9", new ProcessResult(134, EVERYTHING, "abort\n", false, null));
        assertEquals("{\"library\":\"/t/libcudnn.so.9\",\"loadedPath\":\"/t/libcudnn.so.9.5.1\","
                + "\"loadedByNamePath\":\"/t/libcudnn.so.9.5.1\",\"version\":90501,\"versionString\":\"9.5.1\","
                + "\"cudartVersion\":12060,\"cudartVersionString\":\"12.6\",\"properties\":[9,5,1],\"maxDeviceVersion\":900,"
                + "\"handleStatus\":1001,\"handleStatusName\":\"CUDNN_STATUS_NOT_INITIALIZED\","
                + "\"subLibraries\":[{\"path\":\"/t/libcudnn_ops.so.9\",\"loaded\":false,\"error\":\"missing\",\"errorCode\":126}],"
                + "\"childExit\":134,\"crashed\":true,\"timedOut\":false,\"lastCall\":\"cudnnCreate\","
                + "\"stderrTail\":\"abort\",\"crash\":{\"signal\":\"SIGABRT\"}}",
                new ObjectMapper().writeValueAsString(p));
    }

    @Test
    void aLoadFailureKeepsItsJsonNames() throws Exception {
        ProbeResult p = ProbeRunner.parse("/t/libcudnn.so.9", new ProcessResult(0,
                "{\"event\":\"byName\",\"name\":\"libcudnn.so.9\",\"error\":\"not found\"}\n"
                        + "{\"event\":\"mainLoadFailed\",\"path\":\"/t/libcudnn.so.9\",\"error\":\"bad ELF\"}\n{\"event\":\"done\"}\n",
                "", false, null));
        assertEquals("{\"library\":\"/t/libcudnn.so.9\",\"byNameError\":\"not found\",\"subLibraries\":[],"
                + "\"loadError\":\"bad ELF\",\"childExit\":0,\"crashed\":false,\"timedOut\":false}",
                new ObjectMapper().writeValueAsString(p));
    }
}
