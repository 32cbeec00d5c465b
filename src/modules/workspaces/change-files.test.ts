/** Shaping git's unified diff into the review's files: statuses, renames, binary files, line numbers, caps. */
import { describe, expect, it } from 'vitest';
import { changedFiles } from './change-files.js';

/** `git diff --find-renames --find-copies` of a commit that adds, changes, renames and re-binaries files. */
const DIFF = `diff --git a/added.txt b/added.txt
new file mode 100644
index 0000000..8ba3a16
--- /dev/null
+++ b/added.txt
@@ -0,0 +1 @@
+n
diff --git a/bin b/bin
index bdc955b..8835708 100644
Binary files a/bin and b/bin differ
diff --git a/f.txt b/f.txt
index de98044..a7bc997 100644
--- a/f.txt
+++ b/f.txt
@@ -1,3 +1,4 @@ function top() {
 a
-b
+B
 c
+d
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 8ba3a16..0000000
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-x
-y
diff --git a/old name.txt b/new name.txt
similarity index 100%
rename from old name.txt
rename to new name.txt
`;

describe('changedFiles', () => {
  it('names each file with its status, previous path, counts and binary flag', () => {
    const { files, truncated } = changedFiles(DIFF);
    expect(truncated).toBe(false);
    expect(files.map(({ hunks, ...rest }) => rest)).toEqual([
      {
        path: 'added.txt',
        previous_path: null,
        status: 'added',
        additions: 1,
        deletions: 0,
        binary: false,
        truncated: false,
      },
      {
        path: 'bin',
        previous_path: null,
        status: 'modified',
        additions: 0,
        deletions: 0,
        binary: true,
        truncated: false,
      },
      {
        path: 'f.txt',
        previous_path: null,
        status: 'modified',
        additions: 2,
        deletions: 1,
        binary: false,
        truncated: false,
      },
      {
        path: 'gone.txt',
        previous_path: null,
        status: 'deleted',
        additions: 0,
        deletions: 2,
        binary: false,
        truncated: false,
      },
      {
        path: 'new name.txt',
        previous_path: 'old name.txt',
        status: 'renamed',
        additions: 0,
        deletions: 0,
        binary: false,
        truncated: false,
      },
    ]);
  });

  it('numbers every line on both sides and reads the ranges from the hunk header', () => {
    const f = changedFiles(DIFF).files[2]!;
    expect(f.hunks).toEqual([
      {
        header: '@@ -1,3 +1,4 @@ function top() {',
        old_start: 1,
        old_lines: 3,
        new_start: 1,
        new_lines: 4,
        lines: [
          { kind: 'context', text: 'a', old_line: 1, new_line: 1 },
          { kind: 'del', text: 'b', old_line: 2, new_line: null },
          { kind: 'add', text: 'B', old_line: null, new_line: 2 },
          { kind: 'context', text: 'c', old_line: 3, new_line: 3 },
          { kind: 'add', text: 'd', old_line: null, new_line: 4 },
        ],
      },
    ]);
    const added = changedFiles(DIFF).files[0]!.hunks[0]!;
    expect(added).toMatchObject({ old_start: 0, old_lines: 0, new_start: 1, new_lines: 1 });
  });

  it('cuts a file at its cap and the change at the total, keeping the counts whole', () => {
    const { files, truncated } = changedFiles(DIFF, { fileLines: 3, totalLines: 5 });
    expect(truncated).toBe(true);
    const [added, , changed, gone] = files;
    expect(added).toMatchObject({ truncated: false });
    expect(changed).toMatchObject({ truncated: true, additions: 2, deletions: 1 });
    expect(changed!.hunks[0]!.lines.map((line) => line.text)).toEqual(['a', 'b', 'B']);
    // One line of the budget is left for the next file.
    expect(gone).toMatchObject({ truncated: true, deletions: 2 });
    expect(gone!.hunks.flatMap((hunk) => hunk.lines)).toHaveLength(1);
  });

  it('answers no files for an empty diff', () => {
    expect(changedFiles('')).toEqual({ files: [], truncated: false });
  });
});
