package dev.cudnntool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The finding ids are a contract: the registry, the README's "Finding ids" table and the code
 * that raises them agree.
 */
class FindingIdTest {
    private static final Path BASE = Path.of(System.getProperty("basedir", ""));
    private static final Pattern TICKED = Pattern.compile("`([^`]+)`");
    private static final Pattern SEVERITY_WORD = Pattern.compile("\\b(info|warn|error)\\b");

    /** A README row's id with the severities the table states for it (empty when it states none). */
    record Row(String id, List<Severity> severities) { }

    static List<Row> readmeRows() throws IOException {
        List<String> lines = Files.readAllLines(BASE.resolve("README.md"), StandardCharsets.UTF_8);
        int start = lines.indexOf("## Finding ids");
        assertTrue(start >= 0, "README.md has no \"## Finding ids\" section");
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (!line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("\\|");
            List<String> ids = new ArrayList<>();
            Matcher m = TICKED.matcher(cells[1]);
            while (m.find()) {
                ids.add(m.group(1));
            }
            List<Severity> stated = new ArrayList<>();
            Matcher s = SEVERITY_WORD.matcher(cells[2]);
            while (s.find()) {
                stated.add(Severity.valueOf(s.group(1).toUpperCase(Locale.ROOT)));
            }
            // "`a` / `b` | error/info" pairs them in order; "`a` / `b` | error" and "`a` | warn/error" do not.
            boolean paired = ids.size() > 1 && stated.size() == ids.size();
            for (int i = 0; i < ids.size(); i++) {
                rows.add(new Row(ids.get(i), paired ? List.of(stated.get(i)) : stated));
            }
        }
        return rows;
    }

    @Test
    void everyRegistryIdIsInTheReadmeTable() throws IOException {
        Set<String> readme = readmeRows().stream().map(Row::id).collect(Collectors.toSet());
        List<String> missing = Arrays.stream(FindingId.values()).map(FindingId::id).filter(id -> !readme.contains(id)).toList();
        assertEquals(List.of(), missing, "ids in FindingId but not in the README's Finding ids table");
    }

    @Test
    void everyReadmeIdIsInTheRegistry() throws IOException {
        List<String> unknown = readmeRows().stream().map(Row::id).filter(id -> FindingId.of(id).isEmpty()).toList();
        assertEquals(List.of(), unknown, "ids in the README's Finding ids table but not in FindingId");
    }

    @Test
    void readmeStatesTheRegistrysSeverities() throws IOException {
        List<Row> rows = readmeRows();
        assertEquals(FindingId.values().length, rows.size(), "each id has one README row");
        for (Row row : rows) {
            if (row.severities().isEmpty()) {
                continue;
            }
            FindingId id = FindingId.of(row.id()).orElseThrow();
            assertEquals(id.severities(), EnumSet.copyOf(row.severities()), row.id() + ": README and FindingId disagree");
            assertEquals(id.severity(), row.severities().get(0), row.id() + ": the usual severity comes first in both");
        }
    }

    @Test
    void eachConstantIsNamedAfterItsIdAndSaysWhatItMeans() {
        for (FindingId id : FindingId.values()) {
            assertEquals(id.id().toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'), id.name());
            assertTrue(id.id().matches("[a-z0-9-]+\\.[a-z0-9-]+"), id.id());
            assertFalse(id.meaning().isBlank(), id.id());
            assertFalse(id.meaning().contains("\n"), id.id());
            assertEquals(Optional.of(id), FindingId.of(id.id()));
            assertTrue(id.severities().contains(id.severity()), id.id());
        }
        assertEquals(Optional.empty(), FindingId.of("cudnn.nonsense"));
    }

    @Test
    void aFindingCarriesTheIdAsItsString() {
        Finding f = Finding.error(FindingId.INSTALL_FAILED, "m", "x");
        assertEquals("install.failed", f.id());
        assertEquals(Severity.ERROR, f.severity());
        assertTrue(f.is(FindingId.INSTALL_FAILED));
        assertFalse(f.is(FindingId.ROLLBACK_FAILED));
        assertEquals(new Finding("cudnn.missing", Severity.INFO, "m", "x"),
                Finding.of(FindingId.CUDNN_MISSING, Severity.INFO, "m", "x"));
    }

    private static Map<Path, String> mainSources() throws IOException {
        Map<Path, String> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(BASE.resolve("src/main/java"))) {
            for (Path p : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                out.put(p, Files.readString(p, StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    @Test
    void idsAreWrittenOnlyInTheRegistry() throws IOException {
        Pattern literal = Pattern.compile("\"([a-z0-9-]+\\.[a-z0-9-]+)\"");
        Set<String> found = new TreeSet<>();
        for (Map.Entry<Path, String> e : mainSources().entrySet()) {
            if (e.getKey().getFileName().toString().equals("FindingId.java")) {
                continue;
            }
            Matcher m = literal.matcher(e.getValue());
            while (m.find()) {
                if (FindingId.of(m.group(1)).isPresent()) {
                    found.add(BASE.resolve("src/main/java").relativize(e.getKey()) + ": " + m.group(1));
                }
            }
        }
        assertEquals(Set.of(), found, "finding ids written as literals; use FindingId instead");
    }

    /** Every Finding.info/warn/error/of call raises its id(s) only at a severity the registry lists. */
    @Test
    void callSitesRaiseOnlyTheSeveritiesTheRegistryLists() throws IOException {
        Pattern call = Pattern.compile("Finding\\.(info|warn|error|of)\\(");
        Pattern idRef = Pattern.compile("FindingId\\.([A-Z0-9_]+)");
        Pattern severityRef = Pattern.compile("Severity\\.([A-Z]+)");
        List<String> wrong = new ArrayList<>();
        int calls = 0;
        for (Map.Entry<Path, String> e : mainSources().entrySet()) {
            String src = e.getValue();
            Matcher m = call.matcher(src);
            while (m.find()) {
                List<String> args = leadingArguments(src, m.end(), 2);
                List<FindingId> ids = refs(idRef, args.get(0)).stream().map(FindingId::valueOf).toList();
                if (ids.isEmpty()) {
                    continue; // the method's own declaration, or a copy of an existing finding
                }
                calls++;
                Set<Severity> raised = m.group(1).equals("of")
                        ? refs(severityRef, args.get(1)).stream().map(Severity::valueOf).collect(Collectors.toSet())
                        : Set.of(Severity.valueOf(m.group(1).toUpperCase(Locale.ROOT)));
                assertFalse(raised.isEmpty(), e.getKey() + ": Finding.of without a Severity constant");
                for (FindingId id : ids) {
                    if (!id.severities().containsAll(raised)) {
                        wrong.add(e.getKey().getFileName() + ": " + id.id() + " raised as " + raised + ", listed as " + id.severities());
                    }
                }
            }
        }
        assertTrue(calls > 100, "the scan found only " + calls + " calls");
        assertEquals(List.of(), wrong);
    }

    private static List<String> refs(Pattern p, String text) {
        List<String> out = new ArrayList<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The first {@code n} arguments of a call whose argument list starts at {@code from}. */
    private static List<String> leadingArguments(String src, int from, int n) {
        List<String> args = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = from;
        for (int i = from; i < src.length() && args.size() < n; i++) {
            char c = src.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
                depth--;
            } else if ((c == ',' && depth == 0) || c == ')') {
                args.add(src.substring(start, i));
                start = i + 1;
                if (c == ')') {
                    break;
                }
            }
        }
        while (args.size() < n) {
            args.add("");
        }
        return args;
    }
}
