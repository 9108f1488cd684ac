package dev.cudnntool.cli;

import picocli.CommandLine;

public class VersionProvider implements CommandLine.IVersionProvider {
    public static String version() {
        String v = Main.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"cudnn-tool " + version(), "Java " + System.getProperty("java.version")};
    }
}
