package dev.cudnntool.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cudnntool.archive.catalogue.Catalogue;
import dev.cudnntool.archive.catalogue.CatalogueEntry;
import dev.cudnntool.host.Host;
import dev.cudnntool.testing.ArchiveFixture;
import dev.cudnntool.testing.Cli;
import dev.cudnntool.testing.FakeRunner;
import dev.cudnntool.testing.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** inspect and install against a catalogue made for the fixture archive: findings, exit codes, JSON. */
class CatalogueCliTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static String sha256(Path p) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    }

    static Path archive(Host host) throws Exception {
        Path d = Files.createDirectories(host.path("/home/me/Downloads"));
        return ArchiveFixture.linux("9.5.1.17", "12").writeTo(d);
    }

    static boolean has(JsonNode findings, String id) {
        for (JsonNode f : findings) {
            if (f.get("id").asText().equals(id)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void inspectReportsGenuineAndTheCatalogueObject() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Path a = archive(host);
        String sha = sha256(a);
        Catalogue c = Catalogue.of(List.of(CatalogueEntry.of(a.getFileName().toString(), sha, Files.size(a))));
        Cli.Run r = Cli.on(host).withCatalogue(c).run("inspect", a.toString(), "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode cat = r.json().get("archive").get("catalogue");
        assertTrue(cat.get("known").asBoolean());
        assertEquals(sha, cat.get("sha256").asText());
        assertEquals(Files.size(a), cat.get("size").asLong());
        assertFalse(cat.has("releaseDate"), "this test's entry has no date");
        assertTrue(has(r.json().get("findings"), "archive.genuine"));
        Cli.Run human = Cli.on(host).withCatalogue(c).run("inspect", a.toString());
        assertTrue(human.out().contains("matches NVIDIA's published sha256"), human.out());
    }

    @Test
    void aWrongSha256IsExit3NamingBothAndTheUsersSha256Wins() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Path a = archive(host);
        String sha = sha256(a);
        String nvidia = "1".repeat(64);
        Catalogue c = Catalogue.of(List.of(CatalogueEntry.of(a.getFileName().toString(), nvidia, null)));
        Cli.Run bad = Cli.on(host).withCatalogue(c).run("inspect", a.toString(), "--json");
        assertEquals(3, bad.exit());
        JsonNode f = bad.json().get("findings");
        assertTrue(has(f, "archive.checksum-mismatch"), f.toString());
        assertTrue(f.toString().contains(sha) && f.toString().contains(nvidia), f.toString());
        Cli.Run install = Cli.on(host).withCatalogue(c).run("install", "--archive", a.toString(), "--prefix", "/opt/cudnn", "--no-probe", "--json");
        assertEquals(3, install.exit(), install.out());
        assertFalse(Files.exists(host.path("/opt/cudnn/lib")), "nothing installed");
        Cli.Run wins = Cli.on(host).withCatalogue(c).run("inspect", a.toString(), "--sha256", sha, "--json");
        assertEquals(0, wins.exit(), wins.out());
        assertTrue(has(wins.json().get("findings"), "archive.checksum-ok"));
        assertTrue(wins.json().get("archive").get("catalogue").get("known").asBoolean(), "still described");
    }

    @Test
    void aTruncatedDownloadIsExit3AtOnceWithBothSizes() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Path a = archive(host);
        Catalogue c = Catalogue.of(List.of(CatalogueEntry.of(a.getFileName().toString(), sha256(a), 705_347_747L)));
        String size = String.format(Locale.ROOT, "%,d", Files.size(a));
        for (List<String> args : List.of(List.of("inspect", a.toString()),
                List.of("install", "--archive", a.toString(), "--prefix", "/opt/cudnn", "--no-probe"))) {
            Cli.Run r = Cli.on(host).withCatalogue(c).run(args.toArray(String[]::new));
            assertEquals(3, r.exit(), r.err());
            assertTrue(r.err().contains("the file is " + size + " bytes; NVIDIA's is 705,347,747: the download is incomplete"),
                    r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
    }

    @Test
    void anUnknownNameIsInfoAndWorksAsBefore() throws Exception {
        Host host = TestHosts.linux(TestHosts.unixFs(), Map.of(), new FakeRunner());
        Path a = archive(host);
        Cli.Run r = Cli.run(host, "inspect", a.toString(), "--json");
        assertEquals(0, r.exit());
        assertTrue(has(r.json().get("findings"), "archive.not-in-catalogue"));
        JsonNode cat = r.json().get("archive").get("catalogue");
        assertFalse(cat.get("known").asBoolean());
        assertFalse(cat.has("sha256"));
    }
}
