package dev.cudnntool.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a fixture archive for scripts that test the launchers from outside (scripts/ansible-test.sh):
 * {@code java -cp target/test-classes:target/cudnn-tool.jar dev.cudnntool.testing.FixtureArchiveMain DIR linux[-ARCH]|windows VERSION CUDA}.
 * Prints the archive's path. The archive has NVIDIA's name and layout but not NVIDIA's bytes: pass its own
 * sha256, or the built-in catalogue rejects it.
 */
public final class FixtureArchiveMain {
    private FixtureArchiveMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: FixtureArchiveMain DIR linux[-ARCH]|windows VERSION CUDA");
            System.exit(2);
        }
        Path dir = Files.createDirectories(Path.of(args[0]));
        ArchiveFixture f = args[1].equals("windows") ? ArchiveFixture.windows(args[2], args[3])
                : ArchiveFixture.linux(args[1].startsWith("linux-") ? args[1].substring(6) : "x86_64", args[2], args[3])
                        .withElfLibraries(); // verify checks ELF headers before anything is loaded
        System.out.println(f.writeTo(dir).toAbsolutePath());
    }
}
