package dev.cudnntool.host.fetch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.testing.TestHosts;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** #32 item 2, seeded over owners, modes and how much of the path exists. */
class CacheOwnershipTest {
    @TestFactory
    Stream<DynamicTest> aCacheFolderIsUsedOnlyWhenItIsTheCallers() {
        Random r = new Random(32_2);
        String[] owners = {"user", "root", "alice"};
        return Stream.generate(() -> {
            String owner = owners[r.nextInt(owners.length)];
            String mode = new String[] {"rwx------", "rwxr-xr-x", "rwxrwxr-x", "rwxrwxrwx", "rwx---rwx"}[r.nextInt(5)];
            int existing = 1 + r.nextInt(4); // how many of home, .cache, cudnn-tool, archives exist
            return DynamicTest.dynamicTest(owner + " " + mode + " " + existing, () -> {
                FileSystem fs = TestHosts.unixFs();
                UserPrincipal caller = SafeFiles.caller(fs);
                Path[] chain = {fs.getPath("/home/me"), fs.getPath("/home/me/.cache"), fs.getPath("/home/me/.cache/cudnn-tool"),
                        fs.getPath("/home/me/.cache/cudnn-tool/archives")};
                for (int i = 0; i < existing; i++) {
                    Files.createDirectories(chain[i]);
                }
                Path last = chain[existing - 1];
                Files.setOwner(last, fs.getUserPrincipalLookupService().lookupPrincipalByName(owner));
                Files.setPosixFilePermissions(last, PosixFilePermissions.fromString(mode));
                String why = SafeFiles.notOwn(chain[3], caller);
                boolean exists = existing == 4;
                boolean ownerOk = owner.equals("user") || !exists && owner.equals("root");
                boolean modeOk = !exists || mode.charAt(7) != 'w';
                if (ownerOk && modeOk) {
                    assertNull(why);
                } else {
                    assertTrue(why != null && why.startsWith(last.toString()), String.valueOf(why));
                    assertEquals(1, why.lines().count());
                }
            });
        }).limit(40);
    }

    @TestFactory
    Stream<DynamicTest> aLinkAsTheCacheFolderIsNotUsed() {
        return Stream.of(DynamicTest.dynamicTest("link", () -> {
            FileSystem fs = TestHosts.unixFs();
            Path real = Files.createDirectories(fs.getPath("/elsewhere"));
            Path cache = fs.getPath("/home/me/cache");
            Files.createDirectories(cache.getParent());
            Files.createSymbolicLink(cache, real);
            assertTrue(SafeFiles.notOwn(cache, SafeFiles.caller(fs)).contains("symbolic link"));
        }));
    }
}
