package dev.cudnntool.host.searchpath;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cudnntool.host.Host;
import dev.cudnntool.host.RegistryPath;
import dev.cudnntool.testing.Machine;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The store is chosen by the wiring, not by which file system the host is on; the registry's Path
 * travels as a typed field of the host, never in its environment.
 */
class SearchPathStoresTest {
    @Test
    void aWindowsHostWithoutARegistryRefusesWritesWhateverItsFileSystem() throws Exception {
        try (Machine m = Machine.windows().build()) {
            Host onDefaultFs = new Host(FileSystems.getDefault(), m.host().env(), m.host().os(), m.host().arch(),
                    64, m.host().runner());
            for (Host h : List.of(m.host(), onDefaultFs)) {
                SearchPathStore s = SearchPathStores.withoutRegistry(h);
                assertNull(s.read(SearchPathStore.Scope.USER, null));
                assertThrows(IOException.class, () -> s.write(SearchPathStore.Scope.USER, "x", null));
                assertEquals("HKCU\\Environment\\Path", s.location(SearchPathStore.Scope.USER, null));
                assertTrue(s.cannotWrite(SearchPathStore.Scope.MACHINE).contains("no Windows registry"));
            }
        }
    }

    @Test
    void aLinuxHostGetsLdSoConfFromEitherWiring() throws Exception {
        try (Machine m = Machine.linux().build()) {
            assertInstanceOf(LdSoConfPathStore.class, SearchPathStores.system(m.host()));
            assertInstanceOf(LdSoConfPathStore.class, SearchPathStores.withoutRegistry(m.host()));
        }
    }

    @Test
    void theRegistrysPathIsATypedFieldOfTheHostNotAnEnvironmentVariable() throws Exception {
        try (Machine m = Machine.windows().registryPath(List.of("C:\\Users\\me\\bin"), List.of("C:\\Tools")).build();
             Machine none = Machine.windows().build()) {
            assertEquals(Optional.of(new RegistryPath(List.of("C:\\Users\\me\\bin"), List.of("C:\\Tools"))),
                    m.host().registryPath());
            assertEquals(List.of("C:\\Tools", "C:\\Users\\me\\bin"), m.host().registryPath().get().persistentEntries());
            assertTrue(m.host().env().keySet().stream().noneMatch(k -> k.startsWith("cudnn-tool:")), m.host().env().toString());
            assertEquals(none.host().env(), m.host().env());
            assertEquals(Optional.empty(), none.host().registryPath());
            assertEquals(m.host().registryPath(), m.host().withRunner(m.host().runner()).registryPath());
        }
    }
}
