package dev.cudnntool.verify;

import dev.cudnntool.Finding;
import dev.cudnntool.FindingId;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one table of which finding hides which: when a finding of the key's id is among the target's
 * findings, the findings of the ids it names are left out, because the key says the same thing better.
 */
final class Hides {
    static final Map<FindingId, Set<FindingId>> TABLE = Map.of(
            // the probe's by-name failure says what the model's warning says, with the loader's own words
            FindingId.CUDNN_NOT_FOUND_BY_NAME, Set.of(FindingId.SEARCH_PATH_MISSING),
            // two majors side by side explain why the header and the library disagree
            FindingId.CUDNN_TWO_MAJORS, Set.of(FindingId.CUDNN_HEADER_LIBRARY_MISMATCH));

    private Hides() {
    }

    static List<Finding> apply(List<Finding> findings) {
        return findings.stream().filter(f -> TABLE.entrySet().stream().noneMatch(e -> e.getValue().stream().anyMatch(f::is)
                && findings.stream().anyMatch(k -> k.is(e.getKey())))).toList();
    }
}
