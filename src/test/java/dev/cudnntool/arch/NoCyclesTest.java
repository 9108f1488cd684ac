package dev.cudnntool.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.cudnntool.arch.cyclefixture.ping.Ping;
import dev.cudnntool.arch.cyclefixture.pong.OneWay;
import dev.cudnntool.arch.cyclefixture.pong.Pong;
import org.junit.jupiter.api.Test;

/**
 * No package of the tool depends on itself through others (issue 29 item 6): every slice
 * {@code dev.cudnntool.(**)} (cli, cli.view, host, host.searchpath, install, target, …) is free of
 * cycles, so each can be read, tested and moved from the bottom up. Inside {@code install}, the
 * transaction never calls back into the service that runs it.
 */
class NoCyclesTest {
    static final ArchRule NO_CYCLES = slices().matching("dev.cudnntool.(**)").should().beFreeOfCycles()
            .because("a package that reaches itself through another cannot be understood or moved alone (docs/design.md, Code map)");

    static final ArchRule TRANSACTION_BELOW_SERVICE = noClasses().that()
            .haveNameMatching("dev\\.cudnntool\\.install\\.InstallTransaction(\\$.*)?")
            .should().dependOnClassesThat().haveNameMatching("dev\\.cudnntool\\.install\\.InstallService(\\$.*)?")
            .because("InstallService runs InstallTransaction; the transaction never calls back");

    @Test
    void slicesAreFreeOfCycles() {
        NO_CYCLES.check(LayeringTest.main());
    }

    @Test
    void theTransactionNeverCallsBackIntoTheService() {
        TRANSACTION_BELOW_SERVICE.check(LayeringTest.main());
    }

    @Test
    void theRuleCatchesTwoPackagesUsingEachOther() {
        JavaClasses cyclic = new ClassFileImporter().importClasses(Ping.class, Pong.class);
        EvaluationResult result = NO_CYCLES.evaluate(cyclic);
        assertTrue(result.hasViolation());
        assertTrue(result.getFailureReport().toString().contains("arch.cyclefixture.ping"),
                () -> result.getFailureReport().toString());
        assertThrows(AssertionError.class, () -> NO_CYCLES.check(cyclic));
    }

    @Test
    void theRuleLetsOnePackageUseAnother() {
        JavaClasses oneWay = new ClassFileImporter().importClasses(Ping.class, OneWay.class);
        NO_CYCLES.check(oneWay);
    }
}
