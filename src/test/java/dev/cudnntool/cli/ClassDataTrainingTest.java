package dev.cudnntool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** #31 item 5: the first run's class-data archive also holds the classes the image's class list names. */
class ClassDataTrainingTest {
    /** Set by a static initializer that loading alone must not run. */
    static boolean initialized;

    static final class Listed {
        static {
            initialized = true;
        }

        private Listed() {
        }
    }

    @Test
    void loadsEveryListedClassWithoutInitializingItAndSkipsTheRest() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        Path list = fs.getPath("/image/lib/cudnn-tool.classlist");
        TestHosts.write(list, String.join("\n",
                Listed.class.getName(),
                "dev.cudnntool.cli.VerifyCommand",
                "java.util.concurrent.CompletableFuture",
                "dev.cudnntool.NoSuchClassAnyMore",
                "not a class name; rm -rf /",
                "../../etc/passwd",
                "",
                "x".repeat(600),
                "  java.util.ArrayDeque  ") + "\n");
        int loaded = ClassDataTraining.loadListed(list, ClassDataTrainingTest.class.getClassLoader());
        assertEquals(4, loaded, "the four classes that exist, nothing else");
        assertFalse(initialized, "no static initializer runs");
    }

    @Test
    void aMissingOversizedOrUnnamedListChangesNothing() throws IOException {
        FileSystem fs = TestHosts.unixFs();
        ClassLoader loader = ClassDataTrainingTest.class.getClassLoader();
        assertEquals(0, ClassDataTraining.loadListed((String) null, loader));
        assertEquals(0, ClassDataTraining.loadListed(" ", loader));
        assertEquals(0, ClassDataTraining.loadListed(fs, "/image/lib/none.classlist", loader));
        assertEquals(0, ClassDataTraining.loadListed(fs, "bad\u0000path", loader));
        Path dir = fs.getPath("/image/lib");
        Files.createDirectories(dir);
        assertEquals(0, ClassDataTraining.loadListed(dir, loader), "a folder is no list");
        Path big = fs.getPath("/image/lib/big.classlist");
        TestHosts.write(big, "java.util.ArrayDeque\n".repeat((int) (ClassDataTraining.MAX_BYTES / 21) + 1));
        assertEquals(0, ClassDataTraining.loadListed(big, loader), "over 1 MiB: refused whole");
    }
}
