package dev.cudnntool.cli.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cudnntool.ExitCode;
import dev.cudnntool.install.RollbackOutcome;
import dev.cudnntool.target.Journal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** rollback's JSON {@code steps} are the view's own records, in the words and fields they always had. */
class RollbackStepsJsonTest {
    @Test
    void stepsKeepTheirTypeWordsAndLeaveOutAnAbsentFrom() {
        RollbackOutcome o = new RollbackOutcome(ExitCode.OK, "dry run", "id-1", "9.5.1",
                List.of(Journal.Op.move("/t/include/cudnn.h", "/t/.cudnn-tool/trash/id-1/cudnn.h"), Journal.Op.rmdir("/t/include/x"),
                        Journal.Op.mkdir("/t/include/y")), List.of(), List.of());
        assertEquals("[{\"type\":\"move\",\"from\":\"/t/include/cudnn.h\",\"to\":\"/t/.cudnn-tool/trash/id-1/cudnn.h\"},"
                + "{\"type\":\"rmdir\",\"to\":\"/t/include/x\"},{\"type\":\"mkdir\",\"to\":\"/t/include/y\"}]",
                RollbackView.json(o, true).get("steps").toString());
        assertEquals(List.of(new RollbackView.Step("move", "/t/include/cudnn.h", "/t/.cudnn-tool/trash/id-1/cudnn.h"),
                new RollbackView.Step("rmdir", null, "/t/include/x"), new RollbackView.Step("mkdir", null, "/t/include/y")),
                RollbackView.Step.of(o.steps()));
    }
}
