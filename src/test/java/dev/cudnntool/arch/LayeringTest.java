package dev.cudnntool.arch;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import dev.cudnntool.archive.ArchiveInspector;
import dev.cudnntool.archive.LayeringViolationFixture;
import dev.cudnntool.cli.Main;
import org.junit.jupiter.api.Test;

/**
 * The house keeps its shape (issue 9 D, #29): cli -> verify -> install -> probe -> diagnosis -> target -> host
 * -> archive -> the core types in dev.cudnntool. A lower package never uses an upper one. The facts verify
 * and install's preflight judge are gathered once in diagnosis; probe implements diagnosis's Prober and
 * is reached only by cli, which wires it in (neither verify nor install imports it). Inside a capability the port or engine sits at the package root and its parts in
 * sub-packages, which never reach back up: archive.name, archive.catalogue, archive.format and archive.wheel know
 * nothing of the inspector; host.loader and host.searchpath nothing of each other's callers.
 * The target (its layout, state, journal and file port) sits below both install and verify. rollback (undo, --list,
 * --repair) sits above install (it undoes install's search-path change and reads its outcome type) and only cli calls it. explain (cudnn explain:
 * the recognizer of pasted error lines and the service that checks them) sits beside verify, above it: it calls verify
 * and the host, and only cli calls it. The core types use nothing of the tool.
 */
class LayeringTest {
    static final ArchRule LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("cli").definedBy("dev.cudnntool.cli..")
            .layer("explain").definedBy("dev.cudnntool.explain..")
            .layer("verify").definedBy("dev.cudnntool.verify..")
            .layer("rollback").definedBy("dev.cudnntool.rollback..")
            .layer("install").definedBy("dev.cudnntool.install..")
            .layer("probe").definedBy("dev.cudnntool.probe..")
            .layer("diagnosis").definedBy("dev.cudnntool.diagnosis..")
            .layer("target").definedBy("dev.cudnntool.target..")
            .layer("host").definedBy("dev.cudnntool.host..")
            .layer("archive").definedBy("dev.cudnntool.archive..")
            .layer("core").definedBy("dev.cudnntool")
            .whereLayer("cli").mayNotBeAccessedByAnyLayer()
            .whereLayer("explain").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("verify").mayOnlyBeAccessedByLayers("cli", "explain")
            .whereLayer("rollback").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("install").mayOnlyBeAccessedByLayers("cli", "explain", "verify", "rollback")
            .whereLayer("probe").mayOnlyBeAccessedByLayers("cli")
            .whereLayer("diagnosis").mayOnlyBeAccessedByLayers("cli", "explain", "verify", "rollback", "install", "probe")
            .whereLayer("target").mayOnlyBeAccessedByLayers("cli", "explain", "verify", "rollback", "install", "diagnosis")
            .whereLayer("host").mayOnlyBeAccessedByLayers("cli", "explain", "verify", "rollback", "install", "probe", "diagnosis",
                    "target")
            .whereLayer("archive").mayOnlyBeAccessedByLayers("cli", "explain", "verify", "rollback", "install", "probe", "diagnosis",
                    "target", "host")
            .because("lower packages never import upper ones (docs/design.md, Code map)");

    static final ArchRule INSIDE = CompositeArchRule.of(
            noClasses().that().resideInAPackage("dev.cudnntool").should().dependOnClassesThat()
                    .resideInAPackage("dev.cudnntool.(*).."))
            .and(noClasses().that().resideInAPackage("dev.cudnntool.archive.name..").should().dependOnClassesThat()
                    .resideInAnyPackage("dev.cudnntool.archive", "dev.cudnntool.archive.catalogue..",
                            "dev.cudnntool.archive.format.."))
            .and(noClasses().that().resideInAPackage("dev.cudnntool.archive.catalogue..").should().dependOnClassesThat()
                    .resideInAnyPackage("dev.cudnntool.archive", "dev.cudnntool.archive.format.."))
            .and(noClasses().that().resideInAPackage("dev.cudnntool.archive.format..").should().dependOnClassesThat()
                    .resideInAnyPackage("dev.cudnntool.archive", "dev.cudnntool.archive.catalogue.."))
            .and(noClasses().that().resideInAPackage("dev.cudnntool.archive.wheel..").should().dependOnClassesThat()
                    .resideInAnyPackage("dev.cudnntool.archive", "dev.cudnntool.archive.catalogue..",
                            "dev.cudnntool.archive.format..", "dev.cudnntool.archive.name.."))
            .and(noClasses().that().resideInAnyPackage("dev.cudnntool.host", "dev.cudnntool.host.searchpath..")
                    .should().dependOnClassesThat().resideInAPackage("dev.cudnntool.host.loader.."))
            .and(noClasses().that().resideInAPackage("dev.cudnntool.host.searchpath..").should().dependOnClassesThat()
                    .resideInAPackage("dev.cudnntool.host.loader.."))
            .because("a capability's parts sit below its root and never reach back up (docs/design.md, Code map)");

    static JavaClasses main() {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.cudnntool");
    }

    @Test
    void lowerPackagesNeverUseUpperOnes() {
        JavaClasses main = main();
        LAYERS.check(main);
        INSIDE.check(main);
    }

    @Test
    void theRuleCatchesALowerPackageUsingAnUpperOne() {
        JavaClasses violating = new ClassFileImporter().importClasses(
                LayeringViolationFixture.class, Main.class);
        assertThrows(AssertionError.class, () -> LAYERS.check(violating));
    }

    @Test
    void theRuleCatchesAPartReachingBackToItsCapabilitysRoot() {
        JavaClasses violating = new ClassFileImporter().importClasses(
                dev.cudnntool.archive.format.LayeringViolationFixture.class, ArchiveInspector.class);
        assertThrows(AssertionError.class, () -> INSIDE.check(violating));
    }
}
