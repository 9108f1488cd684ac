package dev.cudnntool.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.cudnntool.archive.name.CudnnVersion;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * #35: a cudnn_version.h of a few MiB of blank lines ran for hours (the MULTILINE {@code ^\s*} pattern
 * re-scanned every following blank line from each line start). The time limits below are hang guards only.
 */
class HeaderVersionLinearTest {
    private static final String DEFINES = "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 1\n";

    @Test
    void megabytesOfBlankLinesOrSpacesAreOnePass() {
        for (String filler : new String[] {"\n", " \n", "\r\n", " ", "\t#", "# \n", "#define \n"}) {
            String blank = filler.repeat(4 * 1024 * 1024 / filler.length());
            assertEquals(Optional.of(CudnnVersion.of(9, 5, 1)),
                    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> HeaderVersion.parse(blank + "\n" + DEFINES + blank)),
                    "filler " + filler.replace("\n", "\\n"));
            assertEquals(Optional.empty(), assertTimeoutPreemptively(Duration.ofSeconds(20), () -> HeaderVersion.parse(blank)));
        }
    }

    @Test
    void theDefinesAreReadAsBeforeLineByLine() {
        assertEquals(Optional.of(CudnnVersion.of(9, 5, 1)), HeaderVersion.parse("\r\n  #  define CUDNN_MAJOR 9\r\n"
                + "#define\tCUDNN_MINOR\t5 // minor\r\n#define CUDNN_PATCHLEVEL 1"));
        assertEquals(Optional.empty(), HeaderVersion.parse("#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 1234567\n"));
        assertEquals(Optional.empty(), HeaderVersion.parse("#\ndefine CUDNN_MAJOR 9\n#define CUDNN_MINOR 5\n#define CUDNN_PATCHLEVEL 1\n"));
        assertEquals(Optional.of(CudnnVersion.of(9, 5, 1)), HeaderVersion.parse(DEFINES + "#define CUDNN_MAJOR 8\n"));
    }
}
