/**
 * `GET /api/git/file`: a file at the tip of a project's branch, read from Gaffer's mirror of the
 * project (no workspace needed), sliced to the window asked for. Validation problems are 422 with
 * field details, an unknown project or a file that is not on the branch 404, a binary or oversized
 * file 422 with its own code.
 */
import type { FileAtRef } from '../../platform/git/index.js';
import { branchNameProblem } from '../../platform/git/index.js';
import { AppError, type FieldProblem, notFound, unprocessable } from '../../platform/http/errors.js';
import type { ProjectRow } from '../projects/index.js';
import type { WorkspaceProject } from '../workspaces/index.js';
import { normalizeRepoPath, repoPathProblem } from './file-request-rules.js';
import {
  type FileWindow,
  planWindow,
  splitLines,
  type WindowRequest,
  windowRequestProblems,
} from './file-window.js';

/** What reading a file at a branch tip gives: the tip's commit, and the file. */
export interface BranchFileRead {
  commit: string;
  /** Null when the branch has no such file. */
  file: FileAtRef | null;
}

/** Reads `path` at the tip of `branch`; null when the branch does not exist. */
export type ReadBranchFile = (
  project: WorkspaceProject,
  branch: string,
  path: string,
  signal?: AbortSignal,
) => Promise<BranchFileRead | null>;

export interface FileQuery extends WindowRequest {
  project: string;
  branch: string;
  path: string;
}

export interface FileSlice {
  project: ProjectRow;
  branch: string;
  path: string;
  commit: string;
  totalLines: number;
  window: FileWindow;
  lines: string[];
}

export class BranchFileReader {
  constructor(
    private readonly projects: { get(idOrSlug: string): Promise<ProjectRow> },
    private readonly read: ReadBranchFile,
  ) {}

  async slice(query: FileQuery, signal?: AbortSignal): Promise<FileSlice> {
    const problems = queryProblems(query);
    if (problems.length > 0) throw unprocessable(problems.map((p) => p.message).join('; '), problems);
    const project = await this.projects.get(query.project);
    const path = normalizeRepoPath(query.path);
    const read = await this.read(project, query.branch, path, signal);
    if (!read) throw notFound(`project ${project.slug} has no branch ${query.branch}`);
    const { commit, file } = read;
    const text = textOf(file, project, query.branch, path);
    const all = splitLines(text);
    const planned = planWindow(query, all.length);
    if ('problem' in planned) {
      throw unprocessable(planned.problem.message, [planned.problem], 'ask within the file’s total_lines');
    }
    const { window } = planned;
    return {
      project,
      branch: query.branch,
      path,
      commit,
      totalLines: all.length,
      window,
      lines: all.slice(window.start - 1, window.end),
    };
  }
}

function queryProblems(query: FileQuery): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const branch = branchNameProblem(query.branch);
  if (branch) problems.push({ field: 'query.branch', message: branch });
  const path = repoPathProblem(query.path);
  if (path) problems.push({ field: 'query.path', message: path });
  return [...problems, ...windowRequestProblems(query)];
}

function textOf(file: FileAtRef | null, project: ProjectRow, branch: string, path: string): string {
  if (!file) {
    throw notFound(`there is no file ${path} on branch ${branch} of project ${project.slug}`);
  }
  if (file.kind === 'binary') {
    throw new AppError(
      422,
      'binary_file',
      `${path} is a binary file (${file.size} bytes); only text is shown`,
      {
        path,
        size: file.size,
      },
    );
  }
  if (file.kind === 'too_large') {
    throw new AppError(422, 'file_too_large', `${path} is too large to read here (${file.size} bytes)`, {
      path,
      size: file.size,
    });
  }
  return file.text;
}
