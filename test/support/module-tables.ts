/**
 * Which module reads which other module's tables: a table is owned by the module whose schema.ts
 * declares it (`export const x = pgTable(…)`); a file of another module that imports it — through
 * the owner's index.ts or schema.ts — queries it behind the owner's back. A schema.ts may import
 * another's table for a foreign key (that is not a read), and test code is not counted.
 */
import ts from 'typescript';
import { moduleOf } from './import-graph.js';

/** Table name → owning module (or the platform file that declares it). */
export function tableOwners(files: Map<string, string>): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [path, text] of files) {
    if (!path.endsWith('/schema.ts')) continue;
    for (const match of text.matchAll(/export const (\w+) = pgTable\(/g))
      owners.set(match[1]!, moduleOf(path) ?? path);
  }
  return owners;
}

const isTestCode = (path: string) => /(^|\/)test-[^/]*\.ts$|\.test\.ts$/.test(path);

/** `file: table (owner)` for every import of another module's table outside a schema.ts, sorted. */
export function crossModuleTableReads(files: Map<string, string>): string[] {
  const owners = tableOwners(files);
  const found: string[] = [];
  for (const [path, text] of files) {
    const reader = moduleOf(path);
    if (!reader || path.endsWith('/schema.ts') || isTestCode(path)) continue;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
      if (!bindings || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        const name = (element.propertyName ?? element.name).text;
        const owner = owners.get(name);
        if (owner && owner !== reader) found.push(`${path}: ${name} (${owner})`);
      }
    }
  }
  return found.sort();
}

/** `index.ts: table` for every table a module's face re-exports (a face offers reads, not tables), sorted. */
export function tablesOnFaces(files: Map<string, string>): string[] {
  const owners = tableOwners(files);
  const found: string[] = [];
  for (const [path, text] of files) {
    if (!/^src\/modules\/[^/]+\/index\.ts$/.test(path)) continue;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const clause = ts.isExportDeclaration(statement) ? statement.exportClause : undefined;
      if (!clause || !ts.isNamedExports(clause)) continue;
      for (const element of clause.elements) {
        const name = (element.propertyName ?? element.name).text;
        if (owners.has(name)) found.push(`${path}: ${name}`);
      }
    }
  }
  return found.sort();
}
