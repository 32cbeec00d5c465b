/**
 * The import graph of the source tree and the wiring rules it must keep (DESIGN.md §2): a module's
 * outside face is its index.ts (schema.ts may be imported for foreign keys), only the composition
 * root (src/app.ts) imports the module registry, platform/ never imports modules/, and the modules
 * form no import cycle. Files are read with the TypeScript compiler's import scanner.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/** One import statement, resolved: `from` and `to` are paths relative to the repository root. */
export interface ImportEdge {
  from: string;
  specifier: string;
  to: string;
}

export const COMPOSITION_ROOT = 'src/app.ts';
export const REGISTRY = 'src/modules/registry.ts';
const MODULES = 'src/modules/';
const PLATFORM = 'src/platform/';
/** The files of a module that other code may import. */
const MODULE_FACES = ['index.ts', 'schema.ts'];

/** Every .ts file under `dir` (relative to `root`), with its text. */
export function readSources(root: string, dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (absolute: string) => {
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      const path = join(absolute, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts'))
        files.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(join(root, dir));
  return files;
}

/** Static imports, re-exports, `import type` and dynamic `import('…')` with a relative specifier. */
export function importEdges(files: Map<string, string>): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const [from, text] of files) {
    for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!specifier.startsWith('.')) continue;
      edges.push({ from, specifier, to: resolveSpecifier(files, from, specifier) });
    }
  }
  return edges;
}

/** NodeNext resolution as this code base writes it: `./x.js` is `./x.ts`, a folder is its index.ts. */
function resolveSpecifier(files: Map<string, string>, from: string, specifier: string): string {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [target.replace(/\.js$/, '.ts'), target, `${target}.ts`, `${target}/index.ts`];
  return candidates.find((candidate) => files.has(candidate)) ?? candidates[0]!;
}

/** The module a file belongs to (`src/modules/tasks/x.ts` → `tasks`); null outside any module. */
export function moduleOf(path: string): string | null {
  if (!path.startsWith(MODULES)) return null;
  const parts = path.slice(MODULES.length).split('/');
  return parts.length > 1 ? parts[0]! : null;
}

const describe = (edge: ImportEdge) => `${edge.from} imports '${edge.specifier}' (${edge.to})`;

/** Breaches of the one-way wiring rules, one line per offending import. */
export function wiringViolations(edges: ImportEdge[]): string[] {
  const found: string[] = [];
  for (const edge of edges) {
    if (edge.to === REGISTRY && edge.from !== COMPOSITION_ROOT) {
      found.push(`${describe(edge)}: only ${COMPOSITION_ROOT} may import the module registry`);
    }
    if (edge.from.startsWith(PLATFORM) && edge.to.startsWith(MODULES)) {
      found.push(`${describe(edge)}: platform/ must not import modules/`);
    }
    const target = moduleOf(edge.to);
    if (target && target !== moduleOf(edge.from)) {
      const face = edge.to.slice(`${MODULES}${target}/`.length);
      if (!MODULE_FACES.includes(face)) {
        found.push(`${describe(edge)}: reaches into module ${target}; import ${MODULES}${target}/index.ts`);
      }
    }
  }
  return found;
}

/** Tests and their helpers: they may use any module without making it a dependency of their own. */
const isTestCode = (path: string) => /(^|\/)test-[^/]*\.ts$|\.test\.ts$/.test(path);

/**
 * Import cycles among the modules and the registry: one node per module (the registry is a node of
 * its own), an arrow when a file of one imports another's face. Imports of a schema.ts (tables named
 * for foreign keys and queries) and imports made by test code are not wiring and are left out. Each
 * cycle is reported as the chain of imports that closes it.
 */
export function moduleCycles(edges: ImportEdge[]): string[] {
  return cyclesOf(
    edges.filter((edge) => !edge.to.endsWith('/schema.ts')),
    (path) => (path === REGISTRY ? 'registry' : moduleOf(path)),
  );
}

/** Import cycles among the files under `folder` (type-only imports count: the files read one way). */
export function fileCycles(edges: ImportEdge[], folder: string): string[] {
  return cyclesOf(edges, (path) => (path.startsWith(folder) ? path : null));
}

/** Cycles in the graph of `edges` drawn between the nodes `nodeOf` names (null: left out). */
function cyclesOf(edges: ImportEdge[], nodeOf: (path: string) => string | null | undefined): string[] {
  const arrows = new Map<string, Map<string, ImportEdge>>();
  for (const edge of edges) {
    if (isTestCode(edge.from)) continue;
    const [from, to] = [nodeOf(edge.from), nodeOf(edge.to)];
    if (!from || !to || from === to) continue;
    const out = arrows.get(from) ?? new Map<string, ImportEdge>();
    if (!out.has(to)) out.set(to, edge);
    arrows.set(from, out);
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    path.push(node);
    for (const next of arrows.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...path.slice(path.indexOf(next)), next];
        const chain = loop.slice(0, -1).map((at, i) => describe(arrows.get(at)!.get(loop[i + 1]!)!));
        cycles.push(`cycle ${loop.join(' → ')}:\n    ${chain.join('\n    ')}`);
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...arrows.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
