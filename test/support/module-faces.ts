/**
 * The one composition shape, read from the source: every module's index.ts has a factory taking
 * `{ platform, deps }` (`ModuleInput`) and returning a face that extends `ModuleFace`; no module
 * (the registry, the composition root, aside) starts or stops work through Fastify's onReady/onClose hooks (that is its face's start/stop,
 * called by the composition root in dependency order).
 */
import ts from 'typescript';

/** Folders under src/modules that are not modules the registry composes, and why. */
export const NOT_MODULES: Readonly<Record<string, string>> = {
  lifecycle: 'the state machine as data: pure, no factory',
  'live-chat': 'a library each chat (prompter, secretary) builds its bridge with',
};

const INDEX = /^src\/modules\/([^/]+)\/index\.ts$/;
const LIFECYCLE_HOOK = /addHook\(\s*['"](onReady|onClose)['"]/;

/** Test code and test harnesses may hook the app's life as they like. */
const isTestCode = (path: string) => /\.test\.ts$|\/test-[^/]*\.ts$/.test(path);

function typeName(node: ts.TypeNode | undefined): string | null {
  if (!node || !ts.isTypeReferenceNode(node)) return null;
  const name = node.typeName.getText();
  if (name === 'Promise' && node.typeArguments?.[0]) return typeName(node.typeArguments[0]);
  return name;
}

function faceOf(path: string, text: string): string[] {
  const module = INDEX.exec(path)?.[1];
  if (!module || module in NOT_MODULES) return [];
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const statements = source.statements;
  const factories = statements.filter(
    (node): node is ts.FunctionDeclaration =>
      ts.isFunctionDeclaration(node) &&
      /^create[A-Z]/.test(node.name?.text ?? '') &&
      (node.modifiers ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword),
  );
  if (factories.length === 0) return [`${path}: no exported create… factory`];
  const problems: string[] = [];
  for (const factory of factories) {
    const name = factory.name!.text;
    const input = factory.parameters[0];
    if (!input || typeName(input.type) !== 'ModuleInput' || !ts.isObjectBindingPattern(input.name))
      problems.push(`${path}: ${name} does not take { platform, deps }: ModuleInput<…> first`);
    const face = typeName(factory.type);
    const declared = statements.find(
      (node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === face,
    );
    const extendsFace = declared?.heritageClauses?.some((clause) =>
      clause.types.some((type) => type.expression.getText() === 'ModuleFace'),
    );
    if (!extendsFace)
      problems.push(
        `${path}: ${name} returns ${face ?? 'an undeclared type'}, which does not extend ModuleFace`,
      );
  }
  return problems;
}

/** Every breach of the shape in `files` (path → source), each naming the file. */
export function faceViolations(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const [path, text] of files) {
    problems.push(...faceOf(path, text));
    if (/^src\/modules\/[^/]+\//.test(path) && !isTestCode(path)) {
      const hook = LIFECYCLE_HOOK.exec(text);
      if (hook)
        problems.push(`${path}: adds an ${hook[1]} hook; start or stop work in the module face's start/stop`);
    }
  }
  return problems;
}
