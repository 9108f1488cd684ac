package dev.cudnntool.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import dev.cudnntool.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** #29 item 1: the one table of {@link Hides}: a hidden finding disappears only when its hider is present. */
class HidesTest {
    private static final long SEED = Long.getLong("hides.seed", 29L);

    @TestFactory
    Stream<DynamicTest> aHiddenFindingDisappearsOnlyWhenItsHiderIsPresent() {
        List<FindingId> ids = new ArrayList<>();
        Hides.TABLE.forEach((hider, hidden) -> {
            ids.add(hider);
            ids.addAll(hidden);
        });
        ids.addAll(List.of(FindingId.CUDNN_OK, FindingId.CUDNN_LOAD_FAILED, FindingId.CUDNN_DAMAGED_FILE));
        Random rnd = new Random(SEED);
        List<DynamicTest> tests = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            List<Finding> in = new ArrayList<>();
            int n = rnd.nextInt(7);
            for (int k = 0; k < n; k++) {
                in.add(new Finding(ids.get(rnd.nextInt(ids.size())).id(), Severity.values()[rnd.nextInt(3)], "m" + k, ""));
            }
            tests.add(DynamicTest.dynamicTest("seed " + SEED + " case " + i, () -> {
                List<Finding> out = Hides.apply(in);
                List<Finding> expected = in.stream().filter(f -> !hiddenBy(f, in, Hides.TABLE)).toList();
                assertEquals(expected, out);
            }));
        }
        return tests.stream();
    }

    /** The oracle, written apart from Hides: some hider of f's id is among the findings. */
    private static boolean hiddenBy(Finding f, List<Finding> all, Map<FindingId, Set<FindingId>> table) {
        for (Map.Entry<FindingId, Set<FindingId>> e : table.entrySet()) {
            if (e.getValue().stream().anyMatch(h -> h.id().equals(f.id())) && all.stream().anyMatch(a -> a.id().equals(e.getKey().id()))) {
                return true;
            }
        }
        return false;
    }

    @org.junit.jupiter.api.Test
    void theTablesTwoRowsByName() {
        Finding search = Finding.warn(FindingId.SEARCH_PATH_MISSING, "not on the path", "export");
        Finding byName = Finding.error(FindingId.CUDNN_NOT_FOUND_BY_NAME, "not found by name", "export");
        Finding mismatch = Finding.error(FindingId.CUDNN_HEADER_LIBRARY_MISMATCH, "header 8, library 9", "reinstall");
        Finding two = Finding.warn(FindingId.CUDNN_TWO_MAJORS, "8 and 9", "prefix");
        assertEquals(List.of(search, mismatch), Hides.apply(List.of(search, mismatch)));
        assertEquals(List.of(byName, mismatch), Hides.apply(List.of(search, byName, mismatch)));
        assertEquals(List.of(search, two), Hides.apply(List.of(search, mismatch, two)));
    }
}
