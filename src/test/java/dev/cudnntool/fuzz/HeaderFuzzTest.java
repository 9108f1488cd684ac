package dev.cudnntool.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cudnntool.archive.HeaderVersion;
import dev.cudnntool.archive.name.CudnnVersion;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;

/** cudnn_version.h (and cudnn.h 7): the version defines, linear in the text. */
class HeaderFuzzTest {
    @FuzzTest
    void cudnnVersionHeader(byte[] data) {
        String text = new String(data, StandardCharsets.ISO_8859_1);
        // A version is read only from the text's own three defines: each number stands in it after its name.
        if (Contract.holds(data.length, () -> HeaderVersion.parse(text)) instanceof Optional<?> read && read.isPresent()) {
            CudnnVersion v = (CudnnVersion) read.get();
            for (String define : new String[] {"MAJOR " + v.major(), "MINOR " + v.minor(), "PATCHLEVEL " + v.patch()}) {
                String[] w = define.split(" ");
                assertTrue(Pattern.compile("CUDNN_" + w[0] + "[ \\t\\f\\x0B\\r]+0*" + w[1] + "\\b").matcher(text).find(),
                        () -> v + ": no CUDNN_" + define + " in the text");
            }
        }
    }
}
