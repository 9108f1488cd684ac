package dev.cudnntool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * #31: the repository's URL lives once, in the pom's cudnn.repo property; install.sh, install.ps1,
 * the README's examples and the Ansible role agree with it; the version is X.Y.Z; every YAML file of
 * the Action, the workflows and the collection parses (python3's yaml, as GitHub and Ansible read it).
 */
class ReleaseFilesTest {
    private static String read(String path) throws Exception {
        return Files.readString(Path.of(path), StandardCharsets.UTF_8);
    }

    private static String pomProperty(String pom, String tag) {
        Matcher m = Pattern.compile("<" + Pattern.quote(tag) + ">([^<]+)</" + Pattern.quote(tag) + ">").matcher(pom);
        assertTrue(m.find(), tag + " in pom.xml");
        return m.group(1);
    }

    @Test
    void oneRepositoryUrlFeedsThePomTheInstallersTheReadmeAndTheRole() throws Exception {
        String pom = read("pom.xml");
        String repo = pomProperty(pom, "cudnn.repo");
        assertEquals("github.com/cudnn-tool/cudnn-tool", repo, "settled: the repository");
        assertTrue(pom.contains("<url>https://${cudnn.repo}</url>"), "<url> from the property");
        assertTrue(pom.contains("<connection>scm:git:https://${cudnn.repo}.git</connection>"), "<scm> from the property");
        assertTrue(read("scripts/install.sh").contains("\nrepo=" + repo + "\n"), "install.sh's default");
        assertTrue(read("scripts/install.ps1").contains("\n$repo = '" + repo + "'\n"), "install.ps1's default");
        String readme = read("README.md");
        assertTrue(readme.contains("curl -fsSL https://" + repo + "/releases/latest/download/install.sh | sh"), "the one-line install");
        assertTrue(readme.contains("irm https://" + repo + "/releases/latest/download/install.ps1 | iex"), "the PowerShell line");
        String owner = repo.substring("github.com/".length());
        assertTrue(readme.contains("- uses: " + owner + "@v1"), "the Action");
        assertTrue(readme.contains("role: cudnntool.cudnn.cudnn"), "the collection's role");
        Matcher any = Pattern.compile("github\\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)").matcher(readme);
        while (any.find()) {
            if (any.group(1).startsWith("cudnn-tool/")) {
                assertEquals(repo, "github.com/" + any.group(1), "a README link to the project names the property's repository");
            }
        }
        assertTrue(read("contrib/ansible_collections/cudnntool/cudnn/roles/cudnn/defaults/main.yml")
                .contains("cudnn_tool_repo: " + repo + "\n"), "the role's release URL");
    }

    @Test
    void theVersionIsXyzAndTheRoleAndCollectionFollowIt() throws Exception {
        String pom = read("pom.xml");
        Matcher m = Pattern.compile("<artifactId>cudnn-tool</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(m.find());
        String version = m.group(1);
        assertTrue(version.matches("\\d+\\.\\d+\\.\\d+"), version);
        assertEquals("1.0.0", version, "settled: the release that carries #31");
        assertTrue(read("contrib/ansible_collections/cudnntool/cudnn/roles/cudnn/defaults/main.yml")
                .contains("cudnn_tool_version: \"" + version + "\""), "the role's default image");
        assertTrue(read("contrib/ansible_collections/cudnntool/cudnn/galaxy.yml").contains("\nversion: " + version + "\n"));
    }

    @Test
    void everyYamlFileOfTheActionWorkflowsAndCollectionParses() throws Exception {
        String script = String.join("\n",
                "import glob, sys, yaml",
                "files = ['action.yml'] + glob.glob('.github/workflows/*.yml') + glob.glob('contrib/**/*.yml', recursive=True)",
                "for f in files:",
                "    with open(f) as h:",
                "        yaml.safe_load(h)",
                "a = yaml.safe_load(open('action.yml'))",
                "assert a['runs']['using'] == 'composite', 'composite'",
                "assert not [s for s in a['runs']['steps'] if 'node' in str(s.get('uses', ''))], 'no Node'",
                "assert {'cudnn-version', 'cuda', 'mirror', 'path', 'cache'} <= set(a['inputs']), a['inputs']",
                "assert set(a['outputs']) == {'cudnn-path', 'cudnn-version'}",
                "r = yaml.safe_load(open('.github/workflows/release.yml'))",
                "on = r.get('on', r.get(True))",
                "assert on == {'push': {'tags': ['v[0-9]+.[0-9]+.[0-9]+']}}, on",
                "print(len(files))");
        Process p;
        try {
            p = new ProcessBuilder("python3", "-c", script).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no python3 here");
            return;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assumeTrue(!out.contains("No module named 'yaml'"), "python3 has no yaml module (apt-get install python3-yaml)");
        assertEquals(0, p.exitValue(), out);
        assertTrue(Integer.parseInt(out.strip()) >= 10, "the YAML files were found: " + out);
    }
}
