package dev.cudnntool.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cudnntool.archive.HeaderVersion;
import java.nio.charset.StandardCharsets;

/** cudnn_version.h (and cudnn.h 7): the version defines, linear in the text. */
class HeaderFuzzTest {
    @FuzzTest
    void cudnnVersionHeader(byte[] data) {
        Contract.holds(data.length, () -> HeaderVersion.parse(new String(data, StandardCharsets.ISO_8859_1)));
    }
}
