package dev.cudnntool.verify;

import dev.cudnntool.Finding;
import dev.cudnntool.diagnosis.Diagnosis;
import java.util.List;

/** One judgement of the gathered facts: what is wrong (or right) in them. A check never gathers facts itself. */
@FunctionalInterface
public interface Check {
    List<Finding> check(Diagnosis d);
}
