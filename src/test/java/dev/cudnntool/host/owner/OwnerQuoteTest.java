package dev.cudnntool.host.owner;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** #32 item 5: conda's -p ENV in a fix is quoted for its shell (POSIX, or PowerShell for a Windows path). */
class OwnerQuoteTest {
    @Test
    void condaFixesQuoteTheirEnvironment() {
        Owner o = new Owner(Owner.Kind.CONDA, "cudnn", "9.1.1", "/home/u/env$(reboot)");
        assertTrue(o.reinstallCommand().contains("-p '/home/u/env$(reboot)' cudnn"), o.reinstallCommand());
        assertTrue(o.removeCommand().contains("-p '/home/u/env$(reboot)' cudnn"), o.removeCommand());
        Owner w = new Owner(Owner.Kind.CONDA, "cudnn", null, "C:\\envs\\a`b");
        assertTrue(w.removeCommand().contains("-p 'C:\\envs\\a`b' cudnn"), w.removeCommand());
        assertTrue(new Owner(Owner.Kind.CONDA, "cudnn", null, "/home/u/env").removeCommand().contains("-p /home/u/env cudnn"));
    }
}
