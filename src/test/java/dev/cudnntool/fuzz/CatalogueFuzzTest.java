package dev.cudnntool.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.ChecksumExpectation;
import dev.cudnntool.archive.name.ArchiveName;
import dev.cudnntool.testing.TestHosts;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;

/** NVIDIA's manifests ({@code redistrib_<version>.json}, as {@code --manifest} reads them) and the catalogue. */
class CatalogueFuzzTest {
    @FuzzTest
    void manifest(byte[] data) throws IOException {
        try (FileSystem fs = TestHosts.unixFs()) {
            Path f = fs.getPath("/redistrib_9.5.1.json");
            Files.write(f, data);
            Contract.holds(data.length, () -> ChecksumExpectation.fromManifest(f,
                    "cudnn-linux-x86_64-9.5.1.17_cuda12-archive.tar.xz"));
        }
    }

    /**
     * The catalogue (bundled build-time data, schema 1). Its reader's documented refusal is
     * IllegalArgumentException with a message naming the catalogue; anything else is a finding.
     */
    @FuzzTest
    void catalogue(byte[] data) {
        Contract.holds(data.length, () -> {
            Catalogue c;
            try {
                c = Catalogue.parse(data);
            } catch (IllegalArgumentException refused) {
                if (refused.getMessage() == null || !(refused.getMessage().startsWith("catalogue") || refused.getMessage().startsWith("conflict"))) {
                    throw new AssertionError("an untyped refusal: " + refused, refused);
                }
                return refused;
            }
            for (var e : c.archives()) {
                c.lookup(e.fileName());
                c.expectation(ArchiveName.parse(e.fileName()));
            }
            return c;
        });
    }
}
