package dev.cudnntool.arch;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The house keeps its shape (issue 9 D): cli -> verify -> install/probe -> host -> archive ->
 * the core types in dev.cudnntool. A lower package never uses an upper one; install and probe
 * sit side by side.
 */
class LayeringTest {
    static final ArchRule LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("cli").definedBy("dev.cudnntool.cli..")
            .layer("verify").definedBy("dev.cudnntool.verify..")
            .layer("install").definedBy("dev.cudnntool.install..")
            .layer("probe").definedBy("dev.cudnntool.probe..")
            .layer("host").definedBy("dev.cudnntool.host..")
            .layer("archive").definedBy("dev.cudnntool.archive..")
            .layer("core").definedBy("dev.cudnntool")
            .whereLayer("cli").mayNotBeAccessedByAnyLayer()
            .whereLayer("verify").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("install").mayOnlyBeAccessedByLayers("cli", "verify", "probe")
            .whereLayer("probe").mayOnlyBeAccessedByLayers("cli", "verify", "install")
            .whereLayer("host").mayOnlyBeAccessedByLayers("cli", "verify", "install", "probe")
            .whereLayer("archive").mayOnlyBeAccessedByLayers("cli", "verify", "install", "probe", "host")
            .because("lower packages never import upper ones (README, Code map)");

    @Test
    void lowerPackagesNeverUseUpperOnes() {
        JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.cudnntool");
        LAYERS.check(main);
    }

    @Test
    void theRuleCatchesALowerPackageUsingAnUpperOne() {
        JavaClasses violating = new ClassFileImporter().importClasses(
                dev.cudnntool.archive.LayeringViolationFixture.class, dev.cudnntool.cli.Main.class);
        assertThrows(AssertionError.class, () -> LAYERS.check(violating));
    }
}
