package dev.cudnntool.target;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The write-ahead journal of one install or rollback, written (atomically) before its first
 * change. Every op is a single atomic rename, a folder creation or a folder removal, and each
 * can be replayed forward or backward by looking at the file system alone — so a run killed at
 * any instant is completed or undone by {@code cudnn-rollback} without knowing how far it got.
 *
 * @param kind  install or rollback
 * @param state committing, verifying, done (install); rolling-back (rollback)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Journal(String id, String kind, String state, String startedAt, String target, List<Op> ops,
                      String recordId, boolean stateDirCreated) {

    /**
     * @param type mkdir (create {@code to}), rmdir (remove the empty folder {@code to}), or move
     *             ({@code from} to {@code to})
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Op(String type, String from, String to) {
        public static Op move(String from, String to) {
            return new Op("move", from, to);
        }

        public static Op mkdir(String dir) {
            return new Op("mkdir", null, dir);
        }

        public static Op rmdir(String dir) {
            return new Op("rmdir", null, dir);
        }
    }

    public Journal withState(String s) {
        return new Journal(id, kind, s, startedAt, target, ops, recordId, stateDirCreated);
    }
}
