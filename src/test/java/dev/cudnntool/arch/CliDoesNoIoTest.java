package dev.cudnntool.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * A command parses, calls one service and renders (issue 22 item 2): the package cli touches no
 * file and starts no process itself; the services below it do, through their ports.
 */
class CliDoesNoIoTest {
    static final ArchRule NO_IO = noClasses().that().resideInAPackage("dev.cudnntool.cli..")
            .should().dependOnClassesThat().haveFullyQualifiedName("java.nio.file.Files")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.nio.file.Paths")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.nio.channels.FileChannel")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.File")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileInputStream")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.io.FileOutputStream")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.lang.ProcessBuilder")
            .orShould().dependOnClassesThat().haveFullyQualifiedName("java.lang.Runtime")
            .because("file and process work belongs to the services below cli (style guide, habit 1)");

    @Test
    void theCommandLineDoesNoFileOrProcessWork() {
        // Only cli's own classes are needed: resolving what they use from the classpath took half a minute.
        ArchConfiguration config = ArchConfiguration.get();
        boolean resolve = config.resolveMissingDependenciesFromClassPath();
        config.setResolveMissingDependenciesFromClassPath(false);
        try {
            JavaClasses cli = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("dev.cudnntool.cli");
            NO_IO.check(cli);
        } finally {
            config.setResolveMissingDependenciesFromClassPath(resolve);
        }
    }

    @Test
    void theRuleCatchesACommandThatReadsAFile() throws Exception {
        JavaClasses violating = new ClassFileImporter().importClasses(Class.forName("dev.cudnntool.cli.FileReadingCommandFixture"));
        assertThrows(AssertionError.class, () -> NO_IO.check(violating));
    }
}
